#!/usr/bin/env bash
# Distributed CG on 1, 2, 4 and 8 GPUs of one host (those present), fp64, classic,
# single-reduction (Chronopoulos-Gear: one allreduce per iteration) and pipelined: ms per iteration of `lockstep cg --distributed` under mpirun -np P for
#   strong: the same matrix on every P (STRONG, default laplace3d 256: 16.8M rows, 117M nnz,
#           and laplace2d 4096: the same rows), speedup and efficiency against P = 1;
#   large:  laplace3d 384 (LARGE: 56.6M rows, 396M nnz), speedup against P = 1;
#   weak:   laplace3d 256 x 256 x 256P (WEAK_SIDE: 16.8M rows per GPU), efficiency t1 / tP;
# each through the halo paths of HALOS (LOCKSTEP_MPI_HALO: shm, the same-host shared-memory
# path, default; mpi, MPI messages through vader; shm-plain, shm without the OpenCL
# registration): the first path runs everything, the others the first STRONG matrix on P > 1
# (P = 1 exchanges nothing: its time serves every path).
# Every matrix is generated in parallel, each rank its own slab of planes (--partition planes);
# the laplace3d ones also in boxes (--partition blocks: each rank a box of the ranks grid with
# the fewest shared faces, its halo shrinking with P) for the algorithms of BLOCK_ALGS (default
# pipelined); weak in boxes: laplace3d (256 px) x (256 py) x (256 pz) on the px x py x pz grid.
# The model (tools/bench/fit_mpi_cg.py, $OUT/mpi_cg_model.txt): per strong/large matrix,
# algorithm, halo path and partition, t(P) = a/P + b fitted to the steady iterations
# (iter_ms_steady: the start and the residual replacements timed apart, start_ms and
# replacement_ms), the exchange priced per halo value, and t and the speedup predicted at 8 and
# 64 GPUs.
# Output: the CLI's lines (partition, timeline, the last key=value line) and one
# `run kind= matrix= algorithm= halo= partition= np= ms_per_iteration= iter_ms_steady= start_ms=
# replacements= replacement_ms= ...` line per run in $OUT/mpi_cg.txt
# (spmv_fused=1: pipelined computed its SpMV inside the update kernel; empty for the others)
# (and on stdout, each followed by its per-rank `timeline` lines: halo pack/download/flags or
# MPI/upload, interior and boundary SpMV, reduction_ms; pipelined on P > 1 also its
# `iteration_timeline` lines: the fused update's steps in iterations TIMELINE_FIRST .. +9, default
# 50, device ms from the interior launch, host_* ms from the update's entry, device_gap the
# device's idle time between iterations), then `summary ...` lines and a table
# ($OUT/mpi_cg_summary.txt: speedup, efficiency, each algorithm over classic (over_classic; the
# pipelined rows also as pipelined_over_classic), mpi/this), and the plot
# $OUT/mpi_cg.png.
# Needs 2 GPUs and an MPI binary (NPS is cut to the GPUs present): exits 0 with a note
# otherwise. MPI comes from .carry/mpi (tools/gpu/prepare_mpi.sh) when present, else PATH.
# VARIANTS="NAME=BINARY ..." runs each binary (lockstep::mpi builds of other commits:
# MPI=1 tools/bench/build_old.sh COMMIT NAME) right after this one on every case of an algorithm
# in VARIANT_ALGS (default pipelined); their run lines say algorithm=ALG@NAME, and the summary
# sets them beside classic.
# The first STRONG matrix also runs with --reduction blocking (REDUCTION_AB=1, the default; not
# classic, which has no overlapped sum): algorithm=ALG@blocking beside ALG.
# Use: OUT=/tmp/out [NPS="1 2 4 8"] [PARTITIONS="planes blocks"] [BLOCK_ALGS=pipelined] [REDUCTION_AB=1] [VARIANTS="NAME=BINARY ..."] [VARIANT_ALGS=pipelined] [TIMELINE_FIRST=50] [ALGS="classic single-reduction pipelined"] [HALOS="shm mpi shm-plain"] [MAXIT=300]
#      [STRONG="gen:laplace3d:256 gen:laplace2d:4096"] [LARGE=gen:laplace3d:384] [WEAK_SIDE=256]
#      [LOCKSTEP_MPI=.carry/mpi/lockstep] [MPIRUN=mpirun] [GPUS=N] tools/bench/mpi_cg.sh
# (about 4 min on 4 H100s for two algorithms with HALOS="shm mpi shm-plain": 32 runs of ~4-8 s,
# most of it generation and kernel builds; three algorithms with HALOS="shm mpi": 42 runs).
set -uo pipefail
: "${OUT:?set OUT to the output folder}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/tools/bench/kv.sh"
mkdir -p "$OUT"
txt="$OUT/mpi_cg.txt" sum="$OUT/mpi_cg_summary.txt"
user_bin=${LOCKSTEP_MPI:-} user_mpirun=${MPIRUN:-}
[[ -f "$root/.carry/mpi/env.sh" ]] && source "$root/.carry/mpi/env.sh"
bin=${user_bin:-${LOCKSTEP_MPI:-${LOCKSTEP:-$root/build/lockstep}}}
mpirun=${user_mpirun:-${MPIRUN:-$(command -v mpirun || true)}}
gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)}  # GPUS=2: a PoCL dry run
if [[ -z "$mpirun" || "${gpus:-0}" -lt 2 ]]; then
  echo "mpi_cg skipped: needs 2 GPUs (found ${gpus:-0}) and mpirun (${mpirun:-none})" | tee "$txt"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1
export OMPI_MCA_btl=self,vader,tcp  # ranks of one host: vader, the shared-memory BTL
probe=$($mpirun -np 1 "$bin" cg /nonexistent.mtx --distributed 2>&1)
if [[ "$probe" != *"rank 0: /nonexistent.mtx"* ]]; then
  { echo "mpi_cg skipped: $bin under $mpirun does not run --distributed:"; head -5 <<< "$probe"; } | tee "$txt"
  exit 0
fi
unset LOCKSTEP_DEVICE  # each rank takes GPU (local rank) among the GPUs
# A run cut by a caller's timeout must not leave ranks behind (the ranks of a cut
# MPI CG run seem to have outlived it and slowed the next benchmark in the call): on exit,
# whatever the cause, every process of this binary ends.
bins=("$bin")
for v in ${VARIANTS:-}; do bins+=("${v#*=}"); done
trap 'for b in "${bins[@]}"; do pkill -TERM -f -- "^$b (cg|bfs) "; done 2> /dev/null; sleep 1; for b in "${bins[@]}"; do pkill -KILL -f -- "^$b (cg|bfs) "; done 2> /dev/null' EXIT
nps=""
for np in ${NPS:-1 2 4 8}; do [[ $np -le $gpus ]] && nps+="$np "; done
maxit=${MAXIT:-300} algs=${ALGS:-classic single-reduction pipelined} side=${WEAK_SIDE:-256}
: > "$txt"
{ echo "# $(date -u +%FT%TZ) gpus=$gpus nps=$nps maxit=$maxit bin=$bin"
  nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader 2>/dev/null | sed 's/^/# gpu /'
  nvidia-smi topo -m 2>/dev/null | sed 's/^/# topo /'
  echo "# vader single copy: ${OMPI_MCA_btl_vader_single_copy_mechanism:-default (cma when the kernel allows it)}"
} >> "$txt"

# run KIND MATRIX NP ALG HALO [PARTITION]: one mpirun, its lines into $txt, a `run` line and the
# timeline. (BIN and LABEL, when set: another binary, and the algorithm= of its run line.)
run() {
  local kind=$1 m=$2 np=$3 alg=$4 halo=$5 part=${6:-planes} start=$SECONDS out last label=${LABEL:-$4}
  local cmd=($mpirun -np "$np" --bind-to none -x LOCKSTEP_MPI_HALO "${BIN:-$bin}" cg "$m" --distributed --tol 1e-8 --maxit "$maxit" --algorithm "$alg" --partition "$part")
  [[ $alg == pipelined && $np -gt 1 ]] && cmd+=(--iteration-timeline "${TIMELINE_FIRST:-50}")
  [[ -n ${EXTRA:-} ]] && cmd+=($EXTRA)
  echo "# LOCKSTEP_MPI_HALO=$halo ${cmd[*]}" >> "$txt"
  out=$(LOCKSTEP_MPI_HALO=$halo "${cmd[@]}" 2>> "$OUT/mpi_cg.err")
  grep -E '^(partition|timeline|iteration_timeline|matrix=)' <<< "$out" >> "$txt"
  last=$(grep '^matrix=' <<< "$out" | tail -1)
  val() { kv "$1" <<< "$last"; }
  local hmpi reg
  hmpi=$(grep '^partition' <<< "$out" | kv host_mpi_ms | sort -g | tail -1)
  reg=$(grep '^partition' <<< "$out" | kv registered | sort -g | head -1)
  echo "run kind=$kind matrix=$m algorithm=$label halo=$halo partition=$(val partition) np=$np ms_per_iteration=$(val ms_per_iteration)" \
       "iter_ms_steady=$(val iter_ms_steady) start_ms=$(val start_ms) replacements=$(val replacements) replacement_ms=$(val replacement_ms)" \
       "iterations=$(val iterations) spmv_fused=$(val spmv_fused) residual=$(val residual) exchange_ms=$(val exchange_ms)" \
       "interior_ms=$(val interior_ms) hidden=$(val hidden) reduction_ms=$(val reduction_ms)" \
       "host_mpi_ms=${hmpi:-0} shared_neighbours=$(val shared_neighbours) registered=${reg:-0}" \
       "halo_values=$(val halo) setup_s=$(val setup_s) wall_s=$((SECONDS - start))" | tee -a "$txt"
  [[ $np -gt 1 ]] && grep -E '^(timeline|iteration_timeline)' <<< "$out" | sed 's/^/  /'
}

# run, then each of VARIANTS' binaries on the same case when the algorithm is among
# VARIANT_ALGS: interleaved, so that a slow spell of the machine falls on all of them.
run_all() {
  run "$@"
  [[ " ${VARIANT_ALGS:-pipelined} " == *" $4 "* ]] || return 0
  local v
  for v in ${VARIANTS:-}; do BIN=${v#*=} LABEL="$4@${v%%=*}" run "$@"; done
}

halos=${HALOS:-shm mpi shm-plain}
first_halo=${halos%% *}
strong=${STRONG-gen:laplace3d:256 gen:laplace2d:4096}
for alg in $algs; do
  for m in $strong; do
    for np in $nps; do run_all strong "$m" "$np" "$alg" "$first_halo"; done
  done
  for halo in ${halos#"$first_halo"}; do
    for np in $nps; do [[ $np -gt 1 ]] && run_all strong "${strong%% *}" "$np" "$alg" "$halo"; done
  done
  # The scalars' sum as one blocking MPI_Allreduce (--reduction blocking), beside the default
  # overlapped one: algorithm=ALG@blocking.
  if [[ ${REDUCTION_AB:-1} == 1 && $alg != classic ]]; then
    for np in $nps; do
      [[ $np -gt 1 ]] && EXTRA="--reduction blocking" LABEL="$alg@blocking" run strong "${strong%% *}" "$np" "$alg" "$first_halo"
    done
  fi
  for m in ${LARGE-gen:laplace3d:384}; do
    for np in $nps; do run_all large "$m" "$np" "$alg" "$first_halo"; done
  done
  for np in $nps; do run_all weak "gen:laplace3d:${side}x${side}x$((side * np))" "$np" "$alg" "$first_halo"; done
  # Boxes: the laplace3d matrices again (P = 1 is the slab run's), and weak on a grid scaled
  # in every direction with the ranks grid.
  [[ " ${PARTITIONS:-planes blocks} " == *" blocks "* && " ${BLOCK_ALGS:-pipelined} " == *" $alg "* ]] || continue
  for m in $strong ${LARGE-gen:laplace3d:384}; do
    [[ $m == gen:laplace3d:* ]] || continue
    kind=strong; [[ " ${LARGE-gen:laplace3d:384} " == *" $m "* && " $strong " != *" $m "* ]] && kind=large
    for np in $nps; do [[ $np -gt 1 ]] && run_all "$kind" "$m" "$np" "$alg" "$first_halo" blocks; done
  done
  for np in $nps; do
    case $np in 1) g=(1 1 1) ;; 2) g=(1 1 2) ;; 4) g=(1 2 2) ;; 8) g=(2 2 2) ;; 16) g=(2 2 4) ;; *) g=(1 1 "$np") ;; esac
    run_all weak "gen:laplace3d:$((side * g[0]))x$((side * g[1]))x$((side * g[2]))" "$np" "$alg" "$first_halo" "blocks:${g[0]}x${g[1]}x${g[2]}"
  done
done

# Summary: speedup (strong, large: t1 / tP) and efficiency (strong: t1 / (P tP); weak: t1 / tP),
# per kind, matrix, algorithm and halo path; pipelined against classic and the MPI path against
# this one per row.
grep '^run ' "$txt" | kv kind matrix algorithm halo partition np ms_per_iteration | awk -F'\t' '
  {
    v["kind"] = $1; v["matrix"] = $2; v["algorithm"] = $3; v["halo"] = $4; v["np"] = $6; v["ms_per_iteration"] = $7
    part = $5; sub(/:.*/, "", part); if (part == "blocks") v["algorithm"] = v["algorithm"] "+blocks"
    m = v["kind"] == "weak" ? "laplace3d_weak" : v["matrix"]
    base = v["kind"] SUBSEP m SUBSEP v["algorithm"]
    key = base SUBSEP v["halo"]
    if (!(key in keys)) { keys[key] = 1; order[++n] = key }
    t[key, v["np"]] = v["ms_per_iteration"]
    if (v["np"] == 1) one[base] = v["ms_per_iteration"]  # P = 1 exchanges nothing: every halo
    if (v["np"] == 1 && v["kind"] != "weak") one[base "+blocks"] = v["ms_per_iteration"]  # nor partition
  }
  END {
    printf "| kind | matrix | algorithm | halo | P | ms/iteration | speedup | efficiency | this/classic | mpi/this |\n"
    printf "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
    for (k = 1; k <= n; ++k) {
      split(order[k], f, SUBSEP)
      base = f[1] SUBSEP f[2] SUBSEP f[3]
      for (p = 1; p <= 64; ++p) {
        if (!((order[k], p) in t) || t[order[k], p] == "") continue
        tp = t[order[k], p]; t1 = one[base]
        if (t1 == "") { a = f[3]; sub(/@blocking$/, "", a); t1 = one[f[1] SUBSEP f[2] SUBSEP a] }
        sp = (t1 != "" && tp > 0) ? t1 / tp : 0
        eff = f[1] == "weak" ? sp : (p > 0 ? sp / p : 0)
        other = f[1] SUBSEP f[2] SUBSEP "classic" SUBSEP f[4]
        ratio = (f[3] != "classic" && (other, p) in t && t[other, p] > 0) ? sprintf("%.3f", tp / t[other, p]) : "-"
        piped = f[3] == "pipelined" ? ratio : "-"
        viampi = base SUBSEP "mpi"
        vsmpi = (f[4] != "mpi" && p > 1 && (viampi, p) in t && tp > 0) ? sprintf("%.3f", t[viampi, p] / tp) : "-"
        printf "summary kind=%s matrix=%s algorithm=%s halo=%s np=%d ms_per_iteration=%s speedup=%.3f efficiency=%.3f over_classic=%s pipelined_over_classic=%s mpi_over_this=%s\n", f[1], f[2], f[3], f[4], p, tp, sp, eff, ratio, piped, vsmpi > "/dev/stderr"
        printf "| %s | %s | %s | %s | %d | %s | %.2fx | %.0f %% | %s | %s |\n", f[1], f[2], f[3], f[4], p, tp, sp, 100 * eff, ratio, vsmpi
      }
    }
  }' > "$sum" 2> "$OUT/summary_lines.txt"
cat "$OUT/summary_lines.txt" >> "$txt"
cat "$OUT/summary_lines.txt"
cat "$sum"
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
"$py" "$(dirname "$0")/fit_mpi_cg.py" "$txt" > "$OUT/mpi_cg_model.txt" 2>> "$OUT/mpi_cg.err"
cat "$OUT/mpi_cg_model.txt" | tee -a "$txt"
"$py" "$(dirname "$0")/plot_mpi_cg.py" "$txt" "$OUT/mpi_cg.png" 2>> "$OUT/mpi_cg.err" ||
  echo "plot skipped (see $OUT/mpi_cg.err)"
exit 0
