"""tools/bench/fit_mpi_bfs.py, the distributed BFS's scaling model: on level timelines made from
known coefficients (a mpi_bfs.txt as tools/bench/mpi_bfs.sh writes it) the fit gives them back,
and its predictions for more GPUs are the model's sums over the replayed levels."""
import importlib.util
import math
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load():
    path = os.path.join(ROOT, "tools", "bench", "fit_mpi_bfs.py")
    spec = importlib.util.spec_from_file_location("fit_mpi_bfs", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


A, AP, B, C = 0.3, 0.05, 0.02, 0.4  # ms; ms a log2(P); ms a M edges a GPU; ms a MiB staged
# direction, frontier, edges, bitmap discoveries, most pairs a rank sent
LEVELS = [("top-down", 1, 900, 0, 500), ("top-down", 800, 2e7, 1, 0),
          ("bottom-up", 1e6, 9e8, 0, 0), ("bottom-up", 3e5, 4e7, 0, 0), ("top-down", 40, 60, 0, 20)]


def staged(d, bitmap, sent, n, frontier):
    """The MiB a rank moves through host memory in a level, as the model counts them."""
    if d == "bottom-up":
        return n / 8 / 2**20
    if bitmap:  # the discoveries, and the frontier as a list (800 vertices: shorter)
        return (n / 8 + 4 * frontier) / 2**20
    return 16 * sent / 2**20


def write(path):
    with open(path, "w") as f:
        for np_, scale in ((1, 26), (2, 26), (4, 26), (2, 27), (4, 28)):
            tag = f"s{scale}x{np_}" if scale == 26 else f"w{scale}x{np_}"
            n = 2**scale
            f.write(f"# {tag}: mpirun -np {np_} lockstep bfs --rmat {scale} --distributed\n")
            f.write(f"device=x ranks={np_} n={n} edges=1 symmetric=1 graph_s=1\n")
            grow = 2.0 ** (scale - 26)
            for i, (d, front, edges, bitmap, sent) in enumerate(LEVELS):
                e = edges * grow
                ms = A + AP * math.log2(np_) + B * e / np_ / 1e6 + C * staged(d, bitmap, sent, n, front)
                if np_ == 1:
                    ms = 0.1 + 0.01 * e / 1e6
                f.write(f"timeline level={i} direction={d} frontier={front} edges={int(e)} ms={ms} "
                        f"exchange_ms=0 sent_max={sent} lb_ranks=0 shm_ranks=0 bitmap={bitmap} "
                        f"gathered=0 one_device={int(np_ == 1)}\n")
            f.write(f"reached=1 max_level=4 ms=1 gteps={100 * np_} gteps_median=1 gteps_min=1 "
                    f"gteps_max=1 sources=8 runs=8 algorithm=auto traversed_edges={int(1e9 * grow)} "
                    f"valid=1 ranks={np_}\n")


def test_fit_recovers_the_coefficients(tmp_path, capsys):
    fit = load()
    txt = tmp_path / "mpi_bfs.txt"
    write(txt)
    fit.main([str(txt)])
    out = capsys.readouterr().out.splitlines()
    def model(prefix):
        return dict(w.split("=") for w in next(x for x in out if x.startswith(prefix)).split()[2:])

    one = model("model one_gpu")
    assert math.isclose(float(one["level_ms"]), 0.1, rel_tol=1e-3)
    assert math.isclose(float(one["ms_per_medge"]), 0.01, rel_tol=1e-3)
    several = model("model several")
    for key, want in (("level_ms", A), ("level_ms_per_log2p", AP), ("ms_per_medge_per_gpu", B),
                      ("ms_per_mib_staged", C)):
        assert math.isclose(float(several[key]), want, rel_tol=1e-3), key
    assert float(several["r2"]) > 0.999
    runs = fit.parse(str(txt))
    coef = [A, AP, B, C]
    # the strong prediction replays the largest RMAT 26 run (4 GPUs) at 8 GPUs
    ms, gteps = fit.predict(coef, runs["s26x4"], 8, 26)
    # (the pairs a rank sends shrink with the GPUs: 4 / 8 of the measured run's)
    want = sum(A + AP * 3 + B * e / 8 / 1e6 + C * staged(d, b, s * 4 / 8, 2**26, f)
               for d, f, e, b, s in LEVELS)
    assert math.isclose(ms, want, rel_tol=1e-9)
    assert math.isclose(gteps, 1e9 / (want * 1e6), rel_tol=1e-9)
    line = next(x for x in out if x.startswith("predict strong np=8"))
    assert "from=4x26" in line and "speedup=" in line
    assert any(x.startswith("predict weak np=64 scale=32") for x in out)
