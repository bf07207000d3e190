// BFS: every strategy (single, multi under a lock barrier and under relaunch, queue, wave, lb,
// bottom-up on bitmaps, auto with small thresholds so that one search mixes CPU and GPU levels
// and switches direction both ways; one auto variant at work-group size 128 and wave width 64;
// auto with the whole-graph rule always on: multi for every level)
// gives the CPU BFS's levels exactly and a valid parent tree, on hand-made graphs (path, stars,
// isolated vertices, directed cycle, a hub spanning several lb tiles among sinks), a deep grid
// (the multi kernel runs many levels in one launch: each group reads the next frontier's size and
// edges other groups wrote, with ordinary loads, after the global barrier), an R-MAT graph and
// the shared real graphs; validation catches broken trees; Graph500 sources lie in the largest
// component.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "bfs/steps.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/error.hpp"
#include "lockstep/generators.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

// The reference: a plain serial queue BFS.
std::vector<int32_t> reference_levels(const CsrGraph& g, int32_t s) {
  std::vector<int32_t> lv(size_t(g.n), -1), q{s};
  lv[size_t(s)] = 0;
  for (size_t i = 0; i < q.size(); ++i)
    for (int32_t e = g.offsets[size_t(q[i])]; e < g.offsets[size_t(q[i]) + 1]; ++e)
      if (lv[size_t(g.adj[size_t(e)])] < 0)
        lv[size_t(g.adj[size_t(e)])] = lv[size_t(q[i])] + 1, q.push_back(g.adj[size_t(e)]);
  return lv;
}

struct Variant {
  const char* name;
  BfsOptions options;
};

std::vector<Variant> variants() {
  auto with = [](BfsAlgorithm s, const char* barrier = "auto") {
    BfsOptions o;
    o.algorithm = s;
    o.local_size = 64;
    o.barrier = parse_barrier_choice(barrier);
    return o;
  };
  BfsOptions mixed = with(BfsAlgorithm::automatic);
  mixed.rule.cpu_max = 4, mixed.rule.multi_max = 40;
  mixed.rule.lb_degree = 6, mixed.rule.lb_edges = 300;
  mixed.rule.multi_work = -1;  // the per-level rule on every graph and device
  mixed.rule.cpu_graph_edges = -1;
  BfsOptions whole = with(BfsAlgorithm::automatic);  // the whole-graph rule on every graph
  whole.rule.multi_work = 1e12;
  whole.rule.cpu_graph_edges = -1;
  BfsOptions host = with(BfsAlgorithm::automatic);  // the whole-graph CPU rule on every graph
  host.rule.cpu_graph_edges = int64_t(1) << 62;
  BfsOptions remote = mixed;  // no host copy of the levels: small frontiers go to `single`
  remote.rule.mirror_max = 0;
  BfsOptions wide = mixed;  // the other sizes (one more build of each kernel file)
  wide.local_size = 128, wide.wave_width = 64;
  return {{"cpu", with(BfsAlgorithm::cpu)},
          {"single", with(BfsAlgorithm::single)},
          {"multi/lock", with(BfsAlgorithm::multi, "lock")},
          {"multi/relaunch", with(BfsAlgorithm::multi, "relaunch")},
          {"queue", with(BfsAlgorithm::queue)},
          {"wave", with(BfsAlgorithm::wave)},
          {"lb", with(BfsAlgorithm::lb)},
          {"bottom-up", with(BfsAlgorithm::bottom_up)},
          {"auto", with(BfsAlgorithm::automatic)},
          {"auto/whole", whole},
          {"auto/host", host},
          {"auto/mixed", mixed},
          {"auto/mixed-remote", remote},
          {"auto/mixed-128x64", wide}};
}

// Runs every variant from `source`; levels must equal the reference exactly, parents validate.
void check_all(const CsrGraph& g, int32_t source, const std::string& what) {
  Context& ctx = test::context();
  const std::vector<int32_t> expected = reference_levels(g, source);
  for (const Variant& v : variants()) {
    if (v.options.algorithm == BfsAlgorithm::bottom_up && !g.has_in_edges()) continue;
    BfsResult r = bfs(ctx, g, source, v.options);

    int wrong = 0;
    for (size_t i = 0; i < expected.size(); ++i) wrong += r.levels[i] != expected[i];
    CHECK_MESSAGE(wrong == 0, what, " ", std::string(v.name), ": ", wrong, " levels differ");
    const std::string why = validate_bfs(g, source, r.levels, r.parents);
    CHECK_MESSAGE(why.empty(), what, " ", std::string(v.name), ": ", why);
    CHECK(int(r.steps.size()) == r.max_level + 1);
    if (v.options.rule.multi_work > 1e9 && r.multi_in_kernel)  // one launch, every level
      CHECK_MESSAGE(r.levels_run(BfsAlgorithm::multi) == r.max_level + 1, what, ": auto/whole");
    if (v.options.rule.cpu_graph_edges > 1e18)  // every level on the host
      CHECK_MESSAGE(r.levels_run(BfsAlgorithm::cpu) == r.max_level + 1, what, ": auto/host");
    if (v.options.algorithm == BfsAlgorithm::multi && r.multi_in_kernel && g.n > 1000)
      CHECK_MESSAGE(r.multi_groups > 1, what, ": the multi kernel ran in one group");
  }
}

CsrGraph from_edges(int32_t n, std::vector<std::pair<int32_t, int32_t>> e, bool undirected) {
  Graph g;
  g.n = n;
  for (auto [u, v] : e) g.add_edge(u, v, 1);
  if (undirected) g.add_reverse_edges();
  return CsrGraph(g);
}

}  // namespace

TEST_CASE("bfs: hand-made graphs, every strategy equals the reference" *
          doctest::test_suite("portable")) {
  std::vector<std::pair<int32_t, int32_t>> path, star;
  for (int32_t i = 0; i + 1 < 300; ++i) path.push_back({i, i + 1});
  for (int32_t i = 1; i < 500; ++i) star.push_back({0, i}), star.push_back({i, (i * 7) % 500});

  check_all(from_edges(1, {}, false), 0, "single vertex");
  check_all(from_edges(6, {{0, 1}, {1, 1}}, false), 0, "isolated vertices");
  check_all(from_edges(300, path, true), 150, "path");
  check_all(from_edges(500, star, false), 0, "directed star");
  check_all(from_edges(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, false), 2, "directed cycle");
  // lb: a hub of 2999 edges (three merge-path tiles) whose neighbours are mostly sinks (runs of
  // zero-degree vertices in the frontier), then a second hub reached from every third one.
  std::vector<std::pair<int32_t, int32_t>> hubs;
  for (int32_t i = 1; i < 3000; ++i) hubs.push_back({0, i});
  for (int32_t i = 3; i < 3000; i += 3) hubs.push_back({i, 3000}), hubs.push_back({i, 3000 + i});
  for (int32_t i = 3001; i < 5000; ++i) hubs.push_back({3000, i});
  check_all(from_edges(6000, hubs, false), 0, "hubs and sinks");
  check_all(from_edges(6000, hubs, true), 4000, "hubs and sinks, undirected");
}

TEST_CASE("bfs: deep grid and R-MAT, the strategy counts add up" *
          doctest::test_suite("portable")) {
  Context& ctx = test::context();
  const CsrGraph grid = grid_graph(48), rmat = rmat_graph(11, 8, 3);

  check_all(grid, 0, "grid 48x48");
  check_all(rmat, 1, "rmat 11/8");
  BfsOptions o;
  o.local_size = 64;
  o.rule.cpu_max = 4, o.rule.multi_max = 40, o.rule.lb_edges = 100;
  o.rule.cpu_graph_edges = -1;  // the per-level rule on GPUs too
  BfsResult r = bfs(ctx, rmat, 1, o);

  CHECK(r.traversed_edges > 0);
  CHECK(r.traversed_edges <= int64_t(rmat.edges()) / 2);
  int total = 0;
  for (BfsAlgorithm s :
       {BfsAlgorithm::cpu, BfsAlgorithm::single, BfsAlgorithm::multi, BfsAlgorithm::queue,
        BfsAlgorithm::wave, BfsAlgorithm::lb, BfsAlgorithm::bottom_up})
    total += r.levels_run(s);
  CHECK(total == r.max_level + 1);
  CHECK(r.levels_run(BfsAlgorithm::bottom_up) > 0);  // the R-MAT middle levels are huge
  CHECK(r.levels_run(BfsAlgorithm::lb) > 0);         // the source's 299 edges > lb_edges

  for (BfsAlgorithm s : {BfsAlgorithm::automatic, BfsAlgorithm::lb, BfsAlgorithm::bottom_up}) {
    o.algorithm = s;
    Bfs many(ctx, rmat, o);  // one upload, several sources: nothing left over between runs
    for (int32_t source : {5, 1, 2047}) {
      BfsResult again = many.run(source);
      CHECK(again.levels == reference_levels(rmat, source));
      CHECK(validate_bfs(rmat, source, again.levels, again.parents) == "");
    }
  }
  o.algorithm = BfsAlgorithm::automatic;
  const BfsResult deep = bfs(ctx, grid, 0, o);
  CHECK(deep.levels_run(BfsAlgorithm::cpu) > 0);  // the corner's first levels are tiny
  CHECK(deep.levels_run(BfsAlgorithm::multi) > 0);
}

TEST_CASE("bfs: the shared real graphs (skipped when absent)") {
  const auto dir = test::source_dir().parent_path() / "shared" / "graphs";
  if (!std::filesystem::exists(dir / "wiki-Vote.txt.gz")) {
    return test::skip("no " + dir.string());
  }
  check_all(CsrGraph(read_graph((dir / "wiki-Vote.txt.gz").string())), 30, "wiki-Vote");
  check_all(CsrGraph(read_graph((dir / "facebook_combined.txt.gz").string(), GraphFormat::automatic,
                                true)),
            0, "facebook");
  if (std::filesystem::exists(dir / "copter2.gr.gz"))
    check_all(CsrGraph(read_graph((dir / "copter2.gr.gz").string())), 0, "copter2");
  if (std::filesystem::exists(dir / "soc-Slashdot0902.txt.gz"))
    check_all(CsrGraph(read_graph((dir / "soc-Slashdot0902.txt.gz").string())), 0, "slashdot");
}

TEST_CASE("bfs: validation catches broken trees, bad sources are refused") {
  const CsrGraph g = from_edges(5, {{0, 1}, {1, 2}, {2, 3}}, true);
  BfsResult r = bfs_cpu(g, 0);
  REQUIRE(validate_bfs(g, 0, r.levels, r.parents).empty());

  auto broken = [&](auto change) {
    std::vector<int32_t> lv = r.levels, par = r.parents;
    change(lv, par);
    return validate_bfs(g, 0, lv, par);
  };
  CHECK(broken([](auto& lv, auto&) { lv[3] = 2; }) != "");    // parent not one level up
  CHECK(broken([](auto&, auto& par) { par[2] = 0; }) != "");  // 0 -> 2 is not an edge
  CHECK(broken([](auto& lv, auto& par) { lv[3] = -1, par[3] = -1; }) != "");  // missed
  CHECK(broken([](auto& lv, auto& par) { lv[4] = 1, par[4] = 0; }) != "");    // not an edge
  CHECK(broken([](auto&, auto& par) { par[0] = 1; }) != "");                  // the source's parent
  CHECK(r.reached == 4);
  CHECK(r.max_level == 3);
  CHECK(r.sum_levels == 6);
  CHECK_THROWS_AS(bfs(test::context(), g, 5), input_error);
  CHECK_THROWS_AS(parse_bfs_algorithm("dfs"), input_error);
  CHECK(parse_bfs_algorithm("lb") == BfsAlgorithm::lb);
  CHECK(parse_bfs_algorithm("bottom-up") == BfsAlgorithm::bottom_up);
}

TEST_CASE("bfs: Graph500 sources lie in the largest connected component") {
  // a star of 5 (the highest degree) and a longer path of 10: the path is the largest
  std::vector<std::pair<int32_t, int32_t>> e{{0, 1}, {0, 2}, {0, 3}, {0, 4}};
  for (int32_t i = 5; i < 14; ++i) e.push_back({i, i + 1});
  const CsrGraph g = from_edges(16, e, true);  // vertex 15 isolated
  const BfsSources s = bfs_sources(g, 4, 1);
  std::vector<int32_t> sorted = s.sources;
  std::sort(sorted.begin(), sorted.end());

  CHECK(s.component_vertices == 10);
  CHECK(s.component_edges == 9);
  REQUIRE(sorted.size() == 4);
  CHECK(std::unique(sorted.begin(), sorted.end()) == sorted.end());
  for (int32_t v : sorted) CHECK((v >= 5 && v < 15));
  CHECK(bfs_sources(g, 100, 1).sources.size() == 10);
  // directed: strongly connected {2, 3, 4} (a cycle, one chord) beside {0, 1} and a long tail
  const CsrGraph d = from_edges(
      9, {{0, 1}, {1, 0}, {1, 2}, {2, 3}, {3, 4}, {4, 2}, {4, 3}, {4, 5}, {5, 6}}, false);
  const BfsSources dsrc = bfs_sources(d, 10, 2);
  std::vector<int32_t> ds = dsrc.sources;
  std::sort(ds.begin(), ds.end());
  CHECK(ds == std::vector<int32_t>{2, 3, 4});
  CHECK(dsrc.component_vertices == 3);
  CHECK(dsrc.component_edges == 5);  // out-edges of 2, 3, 4
}

TEST_CASE("bfs cli: --levels-out, the summary line, exit codes") {
  test::TempDir dir;
  const std::string graph = (dir.path / "g.txt").string(), levels = (dir.path / "levels").string();
  std::ofstream(graph) << "# path 0-1-2, 3 alone\n0 1\n1 2\n3 3\n";
  std::ofstream((dir.path / "bad.gr").string()) << "p sp 2 1\na 1 3 1\n";
  std::string out;

  const int rc = test::run_cli(
      "bfs " + graph + " --undirected --source 1 --validate --algorithm auto,cpu --levels-out " +
          levels,
      out);
  std::ifstream in(levels);
  std::vector<int32_t> lv;
  for (int32_t l; in >> l;) lv.push_back(l);

  CHECK_MESSAGE(rc == 0, out);
  CHECK(lv == std::vector<int32_t>{1, 0, 1, -1});
  const std::string last = out.substr(out.rfind("reached="));
  CHECK(last.find("reached=3 max_level=1 sum_levels=2 ") == 0);
  CHECK(last.find("cpu_levels=2") != std::string::npos);
  CHECK(last.find("valid=1") != std::string::npos);
  CHECK(test::run_cli("bfs " + graph + " --undirected --sources 2 --algorithm lb,bottom-up", out) ==
        0);
  CHECK(out.find("sources=2 picked_from=largest-connected-component component_vertices=3 "
                 "component_edges=2") != std::string::npos);
  CHECK(out.find("gteps_median=") != std::string::npos);
  CHECK(out.find("gteps_max=") != std::string::npos);
  // ms_median: each source's median over its --repeat runs, averaged over the sources
  CHECK(test::run_cli("bfs " + graph + " --undirected --sources 2 --repeat 3 --algorithm cpu",
                      out) == 0);
  const std::string summary = out.substr(out.rfind("reached="));
  CHECK(summary.find(" ms_median=") != std::string::npos);
  CHECK(summary.find(" runs=6 ") != std::string::npos);
  // --interleave: each source's repeats take the algorithms in turn; the summaries, in --algorithm
  // order, count the same runs and levels as one algorithm after another
  CHECK(test::run_cli("bfs " + graph +
                          " --undirected --sources 2 --repeat 2 --validate "
                          "--algorithm cpu,bottom-up --interleave",
                      out) == 0);
  std::vector<std::string> order;
  std::istringstream lines(out);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind("algorithm=", 0) == 0) order.push_back(l.substr(10, l.find(' ') - 10));
  CHECK(order == std::vector<std::string>{"cpu", "bottom-up", "cpu", "bottom-up", "cpu",
                                          "bottom-up", "cpu", "bottom-up"});
  const std::string both = out.substr(out.find("\nreached=") + 1);
  CHECK(both.find("runs=4 algorithm=cpu cpu_levels=") != std::string::npos);
  CHECK(both.find("runs=4 algorithm=bottom-up") != std::string::npos);
  CHECK(both.find("valid=1") != std::string::npos);
  CHECK(test::run_cli("bfs " + (dir.path / "bad.gr").string(), out) == 1);
  CHECK(out.find("bad.gr:2:") != std::string::npos);
  CHECK(test::run_cli("bfs " + graph + " --algorithm dfs", out) == 2);
  CHECK(test::run_cli("bfs " + graph + " --source 9", out) == 2);
  CHECK(test::run_cli("bfs --grid 0", out) == 2);
}

// The whole-graph CPU rule as a pure function of (edges, threads, device). On a GPU its
// bound grows with the host's threads only up to the 16 it was measured with, so a 64-core host
// sends the real graphs that the GPU runs faster (soc-Slashdot 948k edges, NotreDame, mdual: 1M+)
// to the GPU, as the 16-core host does, and keeps facebook (176k) and wiki-Vote (104k) on the
// host with 16 threads. Not a GPU: never (the device is the host).
TEST_CASE("bfs: auto's whole-graph CPU rule does not grow past 16 host threads") {
  DeviceInfo gpu;
  gpu.type = "GPU", gpu.vendor = "NVIDIA Corporation", gpu.platform = "NVIDIA CUDA";
  gpu.compute_units = 132, gpu.wave_width = 32, gpu.max_work_group_size = 1024;
  DeviceInfo cpu = gpu;
  cpu.type = "CPU";
  auto on_cpu = [](const DeviceInfo& d, int64_t edges, int threads) {
    BfsOptions o;
    o.cpu_threads = threads;
    const BfsRule r = bfs_rule(d, o);
    return r.cpu_graph_edges >= 0 && edges <= r.cpu_graph_edges;
  };
  for (int threads : {16, 32, 64, 128, 4096}) {
    CAPTURE(threads);
    CHECK(on_cpu(gpu, 104000, threads));        // wiki-Vote
    CHECK(on_cpu(gpu, 176000, threads));        // facebook
    CHECK_FALSE(on_cpu(gpu, 948000, threads));  // soc-Slashdot: multi 0.43 ms vs CPU 0.74
    CHECK_FALSE(on_cpu(gpu, 704000, threads));  // copter2
    CHECK_FALSE(on_cpu(cpu, 1000, threads));
    BfsOptions o;
    o.cpu_threads = threads;
    CHECK(bfs_rule(gpu, o).cpu_graph_edges == 16384 * 16);
  }
  // Monotone: more threads never move a graph from the GPU to the CPU beyond the 16-thread bound.
  int64_t last = 0;
  for (int threads = 1; threads <= 256; ++threads) {
    BfsOptions o;
    o.cpu_threads = threads;
    const int64_t bound = bfs_rule(gpu, o).cpu_graph_edges;
    CHECK(bound >= last);
    CHECK(bound <= 16384 * kBfsAutoCpuThreadsMax);
    last = bound;
  }
  // The CPU path's team under auto: the hardware's threads (or cpu_threads), at most 16.
  BfsOptions all;
  CHECK(bfs_auto_cpu_threads(all, 2) == 2);
  CHECK(bfs_auto_cpu_threads(all, 16) == 16);
  CHECK(bfs_auto_cpu_threads(all, 64) == 16);
  all.cpu_threads = 4;
  CHECK(bfs_auto_cpu_threads(all, 64) == 4);
  all.cpu_threads = 64;
  CHECK(bfs_auto_cpu_threads(all, 2) == 16);
  // A host level's team grows with its work, never with the host alone: a region of fewer than
  // two threads' worth of edges runs serially however many threads are offered.
  for (int threads : {1, 2, 16, 64, 4096}) {
    CHECK(detail::cpu_team(threads, 0) == 1);
    CHECK(detail::cpu_team(threads, 2 * detail::kCpuEdgesPerThread - 1) == 1);
    CHECK(detail::cpu_team(threads, 100 * detail::kCpuEdgesPerThread) == std::min(threads, 100));
  }
}
