// `lockstep bfs`: breadth-first search of a graph file (Matrix Market, SNAP, DIMACS .gr, any of
// them .gz) or of a generated graph (--rmat SCALE [--edge-factor EF], --grid N) from one source
// or from --sources K random vertices of degree >= 1 in the largest connected component (Graph500's
// search keys; a `sources=` line says so). Prints one line per source and last `reached=
// max_level= sum_levels= ms= ms_median= gteps=` (the first source's tree; ms the mean over every
// run, ms_median each source's median over its --repeat runs averaged over sources, the figure to
// compare algorithms by on a busy host; gteps the harmonic mean over sources and repeats,
// Graph500's figure, with gteps_median/min/max) with
// `<algorithm>_levels=` counts. A comma list of --algorithm names runs each on the same graph (one
// summary line each, the last one last). GTEPS counts each undirected edge of the traversed
// component once (out-edges of reached vertices, halved when symmetric). With --distributed (under
// mpirun) the graph is split over the ranks (tools/lockstep/mpi/bfs.cpp).
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>

#include "bfs_runs.hpp"
#include "command.hpp"
#include "distributed.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/io.hpp"
#include "output.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {
namespace {

const std::vector<std::string> kAlgorithms =
    names_of({BfsAlgorithm::automatic, BfsAlgorithm::cpu, BfsAlgorithm::single, BfsAlgorithm::multi,
              BfsAlgorithm::queue, BfsAlgorithm::wave, BfsAlgorithm::lb, BfsAlgorithm::bottom_up});

CsrGraph load(const po::variables_map& vm, const std::string& usage) {
  const int given = int(vm.count("graph") + vm.count("rmat") + vm.count("grid"));
  if (given != 1)
    throw usage_error("give exactly one of GRAPH, --rmat SCALE or --grid N\nusage: " + usage);
  if (vm.count("rmat")) {
    const int scale = vm["rmat"].as<int>(), ef = vm["edge-factor"].as<int>();
    // the rows and their scratch (4 bytes an entry each, two entries an edge), and per vertex
    // the row pointers, cursors, levels, parents and frontiers (24 bytes, as for a file)
    const double n = std::ldexp(1.0, scale);
    check_host_memory("--rmat " + std::to_string(scale), "its graph and a BFS",
                      24.0 * n + 16.0 * ef * n);
    return rmat_graph(scale, ef, uint64_t(vm["seed"].as<long long>()));
  }
  if (vm.count("grid")) return grid_graph(vm["grid"].as<int>());
  GraphFormat f;
  try {
    f = parse_graph_format(vm["format"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(e.what());
  }
  const std::string file = vm["graph"].as<std::string>();
  Graph g = read_graph(file, f, vm.count("undirected") > 0);
  if (g.n == 0) throw input_error(file + ": the graph is empty (no vertices, no edges)");
  // Before the CSR is built: forward and reverse row pointers, levels, parents and frontiers
  // (measured: 16 bytes a vertex on the CPU path; 24 leaves room), two adjacency entries an edge.
  check_host_memory(file,
                    "a BFS of " + std::to_string(g.n) + " vertices and " +
                        std::to_string(g.src.size()) + " edges",
                    24.0 * double(g.n) + 8.0 * double(g.src.size()));
  return CsrGraph(g);
}

// --local-size and --wave-width against each other and the device's wave (wave 0: not known yet,
// then the smallest automatic wave, 32): usage errors naming the option and what it accepts.
void check_sizes(const po::variables_map& vm, int device_wave) {
  const int local = vm["local-size"].as<int>(), given = vm["wave-width"].as<int>();
  if (given & (given - 1))
    throw usage_error(
        "--wave-width must be 0 (the device's) or a power of two up to --local-size, "
        "got " +
        std::to_string(given));
  const int wave = given ? given : std::max(32, device_wave);
  if (local % wave != 0)
    throw usage_error("--local-size " + std::to_string(local) +
                      " must be a multiple of the wave "
                      "width " +
                      std::to_string(wave) + (given ? " (--wave-width)" : " (the device's)") +
                      ": " + std::to_string(wave) + ", " + std::to_string(2 * wave) +
                      ", ... up to 1024");
}

std::vector<int32_t> pick_sources(const CsrGraph& g, const po::variables_map& vm) {
  if (vm.count("source")) {
    const int s = vm["source"].as<int>();
    if (s >= g.n)
      throw usage_error("--source " + std::to_string(s) + " outside [0, " + std::to_string(g.n) +
                        ")");
    return {s};
  }
  if (vm["sources"].defaulted() || g.n == 0) return {0};
  const BfsSources s =
      bfs_sources(g, vm["sources"].as<int>(), uint64_t(vm["seed"].as<long long>()) + 7);
  Report line;  // Graph500's search keys, and where they come from
  line.add("sources", s.sources.size())
      .add("picked_from", "largest-connected-component")
      .add("component_vertices", s.component_vertices)
      .add("component_edges", s.component_edges);
  std::cout << line.str() << "\n";
  return s.sources;
}

void declare(po::options_description& opts, Deprecated& old) {
  opts.add_options()("graph", po::value<std::string>(),
                     "graph file (.mtx, .txt/.el/.edges, .gr; .gz)")(
      "format", po::value<std::string>()->default_value("auto"), "auto|mtx|snap|dimacs")(
      "undirected", "add the reverse of every edge")(
      "rmat", number<int>(1, 30),
      "generated Graph500 R-MAT graph of 2^SCALE vertices (undirected; above 26 --distributed)")(
      "edge-factor", number<int>(1, 64)->default_value(16), "R-MAT edges per vertex")(
      "grid", number<int>(1, 8192), "generated N x N 2D grid graph")(
      "seed", number<long long>(0, 1ll << 62)->default_value(1), "generator and source seed")(
      "source", number<int>(0, INT32_MAX), "source vertex (0-based)")(
      "sources", number<int>(1, 1024)->default_value(1),
      "K random sources of degree >= 1 in the largest connected component (Graph500)");
  add_algorithm_option(opts, kAlgorithms, "auto",
                       "(per level), or a comma list (one summary line each)");
  old.alias("strategy", "algorithm");
  add_barrier_option(opts, "multi's global barrier");
  add_local_size_option(opts, number<int>(32, 1024)->default_value(256), "work-group size");
  opts.add_options()("wave-width", number<int>(0, 1024)->default_value(0),
                     "lanes per vertex of wave (0: device)")(
      "cpu-max", number<int>(0, INT32_MAX)->default_value(0),
      "auto: CPU below this frontier (0: work-group size)")(
      "multi-max", number<int>(0, INT32_MAX)->default_value(0),
      "auto: multi up to this frontier (0: CUs x work-group size)")(
      "lb-degree", number<double>(0, 1e9)->default_value(0),
      "auto: lb (else queue) from this mean frontier degree (0: wave width / 4)")(
      "lb-edges", number<long long>(0, INT32_MAX)->default_value(0),
      "auto: lb from this many frontier edges (0: 2 x multi-max)")(
      "multi-work", number<double>(-1, 1e9)->default_value(0),
      "auto: multi for every level when (n x wave width + edges) / multi-max + max degree / "
      "wave width <= this (0: 256 on GPUs, else never; -1: never)")(
      "cpu-graph-edges", number<long long>(-1, INT64_MAX)->default_value(0),
      "auto: the CPU path for every level when the graph has at most this many edges (0: 16384 "
      "x min(the host's threads, 16) on GPUs, else never; -1: never); raced once against the "
      "device path, the faster kept (summary: cpu_graph=cpu|device)")(
      "alpha", number<double>(1e-3, 1e9)->default_value(14),
      "bottom-up when frontier edges > unvisited edges / alpha")(
      "beta", number<double>(1e-3, 1e9)->default_value(24),
      "back to top-down when frontier < n / beta")(
      "gamma", number<double>(0, 1e9)->default_value(0),
      "--distributed on several ranks: bottom-up while frontier edges > n / gamma (0: off)")(
      "shared-capacity", number<long long>(0, 1LL << 30)->default_value(0),
      "--distributed, ranks of one host: the (vertex, parent) pairs a rank's shared-memory "
      "segment holds a top-down level (0: 2^22); a level that could pass it sends its "
      "discoveries as bitmaps")(
      "bitmap-discoveries", number<int>(0, 1)->default_value(1),
      "--distributed: a top-down level whose pairs could pass some rank's buffer or segment sends "
      "its discoveries to their owners as bitmaps (1) or runs bottom-up (0)")(
      "tiny-edges", number<long long>(0, 1LL << 16)->default_value(1024),
      "--distributed on several ranks: a level of at most this many frontier edges (and the "
      "next while its frontier could hold at most this many vertices) in one MPI_Allgather of "
      "counts and pairs (0: off)")("threads", number<int>(0, 4096)->default_value(0),
                                   "CPU threads (0: all)")(
      "levels-out", po::value<std::string>(), "write one level per vertex per line (-1 unreached)")(
      "steps-out", po::value<std::string>(),
      "write per-level source= level= algorithm= frontier= edges= ms= lines")(
      "repeat", number<int>(1, 1000)->default_value(1), "runs per source")(
      "warmup", number<int>(0, 100)->default_value(1),
      "untimed runs per algorithm first (lazy JIT, allocation)")(
      "interleave",
      "run the algorithms in turn for each source's repeats (one copy of the graph on the device "
      "per algorithm), not one after another")("validate",
                                               "check every result (Graph500 BFS-tree validation)")(
      "json", po::value<std::string>(), "write the summary as JSON")(
      "distributed",
      "under mpirun: split the graph over the ranks, one device each (MPI builds; "
      "--algorithm auto|top-down|bottom-up)");
}

// --algorithm's comma list, and the options of every run.
BfsOptions options(const po::variables_map& vm, std::vector<BfsAlgorithm>& list) {
  std::istringstream in(vm["algorithm"].as<std::string>());
  try {
    for (std::string name; std::getline(in, name, ',');) list.push_back(parse_bfs_algorithm(name));
  } catch (const input_error& e) {
    throw usage_error(std::string("--algorithm: ") + e.what());
  }
  if (list.empty()) throw usage_error("--algorithm: is empty");
  BfsOptions o;
  o.barrier = parse_option(vm, "barrier", parse_barrier_choice);
  check_sizes(vm, 0);
  o.local_size = vm["local-size"].as<int>();
  o.wave_width = vm["wave-width"].as<int>();
  o.cpu_threads = vm["threads"].as<int>();
  o.rule.cpu_max = vm["cpu-max"].as<int>();
  o.rule.multi_max = vm["multi-max"].as<int>();
  o.rule.lb_degree = vm["lb-degree"].as<double>();
  o.rule.lb_edges = vm["lb-edges"].as<long long>();
  o.rule.multi_work = vm["multi-work"].as<double>();
  o.rule.cpu_graph_edges = vm["cpu-graph-edges"].as<long long>();
  o.rule.alpha = vm["alpha"].as<double>();
  o.rule.beta = vm["beta"].as<double>();
  return o;
}

// The first line: the device, the graph (graph_s: read or generated, and its CSR built), and the
// automatic rule's thresholds on this device.
void print_head(const Context* ctx, const CsrGraph& g, const BfsOptions& o, double graph_s) {
  const DegreeStats st = g.stats();
  Report head;
  head.add("device", ctx ? ctx->info().name : std::string("cpu"))
      .add("n", g.n)
      .add("edges", g.edges());
  head.add("graph_s", graph_s);
  head.add("symmetric", int(g.symmetric)).add("degree_mean", st.mean).add("degree_max", st.max);
  if (ctx) {
    const BfsRule rule = bfs_rule(ctx->info(), o);
    const auto ext = ctx->device().getInfo<CL_DEVICE_EXTENSIONS>();  // which append path ran
    head.add("subgroups", int(ext.find("cl_khr_subgroups") != std::string::npos));
    head.add("cpu_max", rule.cpu_max).add("multi_max", rule.multi_max);
    head.add("lb_edges", rule.lb_edges).add("lb_degree", rule.lb_degree);
    head.add("cpu_graph_edges", rule.cpu_graph_edges)
        .add("multi_work", rule.multi_work)
        .add("graph_multi_work", bfs_multi_work(g, ctx->info(), o));
  }
  std::cout << head.str() << "\n";
}

int run_bfs(const Args& args) {
  const std::string usage =
      "lockstep bfs (GRAPH | --rmat SCALE [--edge-factor EF] | --grid N) [--source V | --sources "
      "K] [--algorithm " +
      join(kAlgorithms) + "[,...]] [--barrier " + join(barrier_names()) +
      "] [--undirected] [--format auto|mtx|snap|dimacs] [--levels-out FILE] [--steps-out FILE] "
      "[--validate] [--interleave] [--json OUT] [--distributed]";
  po::options_description opts("options");
  Deprecated old;
  declare(opts, old);
  po::positional_options_description pos;
  pos.add("graph", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm, old)) return 0;
  if (vm.count("distributed")) return distributed_bfs(vm);
  for (const char* o : {"gamma", "shared-capacity", "bitmap-discoveries", "tiny-edges"})
    if (!vm[o].defaulted()) throw usage_error(std::string("--") + o + " needs --distributed");
  std::vector<BfsAlgorithm> list;
  BfsOptions o = options(vm, list);
  Outputs outs(vm, {"levels-out", "steps-out", "json"}, {{"graph", "GRAPH"}});

  const auto t0 = std::chrono::steady_clock::now();
  const CsrGraph g = load(vm, usage);
  const double graph_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::unique_ptr<Context> ctx;
  for (BfsAlgorithm s : list)
    if (s != BfsAlgorithm::cpu && !ctx) ctx = std::make_unique<Context>(device_spec(vm));
  if (ctx) check_sizes(vm, int(ctx->info().wave_width));
  print_head(ctx.get(), g, o, graph_s);
  BfsPlan plan;
  plan.sources = pick_sources(g, vm);
  plan.repeat = vm["repeat"].as<int>();
  plan.warmup = vm["warmup"].as<int>();
  plan.validate = vm.count("validate") > 0;
  plan.interleave = vm.count("interleave") > 0;
  plan.steps = outs.has("steps-out") ? &outs["steps-out"] : nullptr;
  nlohmann::json runs = nlohmann::json::array();
  std::string last;
  run_algorithms(ctx.get(), g, o, list, plan, [&](size_t k, const BfsRuns& r) {
    if (outs.has("levels-out") && k + 1 == list.size())
      for (int32_t l : r.first.levels) outs["levels-out"] << l << "\n";
    runs.push_back(r.summary.json());
    if (k + 1 < list.size()) std::cout << r.summary.str() << "\n";
    last = r.summary.str();
  });
  outs.json("json", runs.size() == 1 ? runs[0] : runs);
  outs.commit();
  std::cout << last << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND(
    "bfs", "breadth-first search, algorithm chosen per level (CPU, single, multi, wave, bottom-up)",
    run_bfs);
}  // namespace lockstep::cli
