// `lockstep bfs`: breadth-first search of a graph file (Matrix Market, SNAP, DIMACS .gr, any of
// them .gz) or of a generated graph (--rmat SCALE [--edge-factor EF], --grid N) from one source
// or from --sources K random vertices of degree >= 1 in the largest connected component (Graph500's
// search keys; a `sources=` line says so). Prints one line per source and last `reached=
// max_level= sum_levels= ms= gteps=` (the first source's tree; ms the mean, gteps the harmonic
// mean over sources and repeats, Graph500's figure, with gteps_median/min/max) with
// `<strategy>_levels=` counts. A comma list of strategies runs each on the same graph (one summary
// line each, the last one last). GTEPS counts each undirected edge of the traversed component once
// (out-edges of reached vertices, halved when symmetric).
#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "command.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/io.hpp"
#include "output.hpp"

namespace lockstep::cli {
namespace {

const BfsStrategy kAll[] = {BfsStrategy::cpu,      BfsStrategy::single, BfsStrategy::multi,
                            BfsStrategy::queue,    BfsStrategy::wave,   BfsStrategy::lb,
                            BfsStrategy::bottom_up};

std::string key(BfsStrategy s) {
  std::string k = std::string(to_string(s)) + "_levels";
  for (char& c : k) c = c == '-' ? '_' : c;
  return k;
}

CsrGraph load(const po::variables_map& vm, const std::string& usage) {
  const int given = int(vm.count("graph") + vm.count("rmat") + vm.count("grid"));
  if (given != 1)
    throw usage_error("give exactly one of GRAPH, --rmat SCALE or --grid N\nusage: " + usage);
  if (vm.count("rmat"))
    return rmat_graph(vm["rmat"].as<int>(), vm["edge-factor"].as<int>(),
                      uint64_t(vm["seed"].as<long long>()));
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
  check_host_memory(file, "a BFS of " + std::to_string(g.n) + " vertices and " +
                              std::to_string(g.src.size()) + " edges",
                    24.0 * double(g.n) + 8.0 * double(g.src.size()));
  return CsrGraph(g);
}

// --local-size and --wave-width against each other and the device's wave (wave 0: not known yet,
// then the smallest automatic wave, 32): usage errors naming the option and what it accepts.
void check_sizes(const po::variables_map& vm, int device_wave) {
  const int local = vm["local-size"].as<int>(), given = vm["wave-width"].as<int>();
  if (given & (given - 1))
    throw usage_error("--wave-width must be 0 (the device's) or a power of two up to --local-size, "
                      "got " + std::to_string(given));
  const int wave = given ? given : std::max(32, device_wave);
  if (local % wave != 0)
    throw usage_error("--local-size " + std::to_string(local) + " must be a multiple of the wave "
                      "width " + std::to_string(wave) + (given ? " (--wave-width)" : " (the device's)") +
                      ": " + std::to_string(wave) + ", " + std::to_string(2 * wave) + ", ... up to 1024");
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
  KeyValues line;  // Graph500's search keys, and where they come from
  line.add("sources", s.sources.size())
      .add("picked_from", "largest-connected-component")
      .add("component_vertices", s.component_vertices)
      .add("component_edges", s.component_edges);
  std::cout << line.str() << "\n";
  return s.sources;
}

// Graph500's summary of per-run TEPS: harmonic mean (its reported figure), median, min, max.
void add_teps(KeyValues& kv, nlohmann::json& j, std::vector<double> g) {
  std::sort(g.begin(), g.end());
  double inv = 0;
  for (double x : g) inv += x > 0 ? 1 / x : 0;
  const size_t m = g.size();
  const double median = m == 0 ? 0 : m % 2 ? g[m / 2] : (g[m / 2 - 1] + g[m / 2]) / 2;
  const double hmean = inv > 0 ? double(m) / inv : 0;
  kv.add("gteps", hmean).add("gteps_median", median);
  kv.add("gteps_min", m ? g.front() : 0).add("gteps_max", m ? g.back() : 0);
  j["gteps"] = hmean, j["gteps_median"] = median;
  j["gteps_min"] = m ? g.front() : 0, j["gteps_max"] = m ? g.back() : 0;
}

void write_levels(std::ostream& out, const BfsResult& r) {
  for (int32_t l : r.levels) out << l << "\n";
}

int run_bfs(const Args& args) {
  const std::string usage =
      "lockstep bfs (GRAPH | --rmat SCALE [--edge-factor EF] | --grid N) [--source V | --sources "
      "K] "
      "[--strategy auto|cpu|single|multi|queue|wave|lb|bottom-up] [--barrier "
      "auto|relaunch|lock|...] "
      "[--undirected] [--format auto|mtx|snap|dimacs] [--levels-out FILE] [--steps-out FILE] "
      "[--validate] [--json OUT]";
  po::options_description opts("options");
  opts.add_options()("graph", po::value<std::string>(),
                     "graph file (.mtx, .txt/.el/.edges, .gr; .gz)")(
      "format", po::value<std::string>()->default_value("auto"), "auto|mtx|snap|dimacs")(
      "undirected", "add the reverse of every edge")(
      "rmat", number<int>(1, 26),
      "generated Graph500 R-MAT graph of 2^SCALE vertices (undirected)")(
      "edge-factor", number<int>(1, 64)->default_value(16), "R-MAT edges per vertex")(
      "grid", number<int>(1, 8192), "generated N x N 2D grid graph")(
      "seed", number<long long>(0, 1ll << 62)->default_value(1), "generator and source seed")(
      "source", number<int>(0, INT32_MAX), "source vertex (0-based)")(
      "sources", number<int>(1, 1024)->default_value(1),
      "K random sources of degree >= 1 in the largest connected component (Graph500)")(
      "strategy", po::value<std::string>()->default_value("auto"),
      "auto|cpu|single|multi|queue|wave|lb|bottom-up, or a comma list (one summary line each)")(
      "barrier", po::value<std::string>()->default_value("auto"),
      "multi's global barrier: auto|relaunch|lock|grouped-lock|lock-free|tree")(
      "local-size", number<int>(32, 1024)->default_value(256), "work-group size")(
      "wave-width", number<int>(0, 1024)->default_value(0), "lanes per vertex of wave (0: device)")(
      "cpu-max", number<int>(0, INT32_MAX)->default_value(0),
      "auto: CPU below this frontier (0: work-group size)")(
      "multi-max", number<int>(0, INT32_MAX)->default_value(0),
      "auto: multi up to this frontier (0: CUs x work-group size)")(
      "lb-degree", number<double>(0, 1e9)->default_value(0),
      "auto: lb (else queue) from this mean frontier degree (0: wave width / 4)")(
      "lb-edges", number<long long>(0, INT32_MAX)->default_value(0),
      "auto: lb from this many frontier edges (0: 2 x multi-max)")(
      "alpha", number<double>(1e-3, 1e9)->default_value(14),
      "bottom-up when frontier edges > unvisited edges / alpha")(
      "beta", number<double>(1e-3, 1e9)->default_value(24),
      "back to top-down when frontier < n / beta")(
      "threads", number<int>(0, 4096)->default_value(0), "CPU threads (0: all)")(
      "levels-out", po::value<std::string>(), "write one level per vertex per line (-1 unreached)")(
      "steps-out", po::value<std::string>(),
      "write per-level source= level= strategy= frontier= edges= ms= lines")(
      "repeat", number<int>(1, 1000)->default_value(1), "runs per source")(
      "warmup", number<int>(0, 100)->default_value(1),
      "untimed runs per strategy first (lazy JIT, allocation)")(
      "validate", "check every result (Graph500 BFS-tree validation)")(
      "json", po::value<std::string>(), "write the summary as JSON");
  po::positional_options_description pos;
  pos.add("graph", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  BfsOptions o;
  std::vector<BfsStrategy> list;
  try {
    std::string names = vm["strategy"].as<std::string>(), name;
    std::istringstream in(names);
    while (std::getline(in, name, ',')) list.push_back(parse_bfs_strategy(name));
    if (list.empty()) throw input_error("is empty");
  } catch (const input_error& e) {
    throw usage_error(std::string("--strategy: ") + e.what());
  }
  try {
    o.barrier = parse_strategy_choice(vm["barrier"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(std::string("--barrier: ") + e.what());
  }
  check_sizes(vm, 0);
  o.local_size = vm["local-size"].as<int>();
  o.wave_width = vm["wave-width"].as<int>();
  o.cpu_threads = vm["threads"].as<int>();
  o.rule.cpu_max = vm["cpu-max"].as<int>();
  o.rule.multi_max = vm["multi-max"].as<int>();
  o.rule.lb_degree = vm["lb-degree"].as<double>();
  o.rule.lb_edges = vm["lb-edges"].as<long long>();
  o.rule.alpha = vm["alpha"].as<double>();
  o.rule.beta = vm["beta"].as<double>();
  const int repeat = vm["repeat"].as<int>();
  Outputs outs(vm, {"levels-out", "steps-out", "json"}, {{"graph", "GRAPH"}});

  const CsrGraph g = load(vm, usage);
  const DegreeStats st = g.stats();
  std::unique_ptr<Context> ctx;
  for (BfsStrategy s : list)
    if (s != BfsStrategy::cpu && !ctx) ctx = std::make_unique<Context>(device_spec(vm));
  KeyValues head;
  head.add("device", ctx ? ctx->info().name : std::string("cpu"))
      .add("n", g.n)
      .add("edges", g.edges());
  head.add("symmetric", int(g.symmetric)).add("degree_mean", st.mean).add("degree_max", st.max);
  if (ctx) check_sizes(vm, int(ctx->info().wave_width));
  if (ctx) {
    const BfsRule rule = bfs_rule(ctx->info(), o);
    const auto ext = ctx->device().getInfo<CL_DEVICE_EXTENSIONS>();  // which append path ran
    head.add("subgroups", int(ext.find("cl_khr_subgroups") != std::string::npos));
    head.add("cpu_max", rule.cpu_max)
        .add("multi_max", rule.multi_max)
        .add("lb_edges", rule.lb_edges)
        .add("lb_degree", rule.lb_degree);
  }
  std::cout << head.str() << "\n";
  const std::vector<int32_t> sources = pick_sources(g, vm);

  std::ostream* steps = outs.has("steps-out") ? &outs["steps-out"] : nullptr;
  KeyValues kv;
  nlohmann::json runs = nlohmann::json::array();
  for (BfsStrategy strategy : list) {
    o.strategy = strategy;
    BfsResult first;
    double sum_ms = 0;
    std::vector<double> teps;
    int runs_done = 0;
    std::map<BfsStrategy, int> counts;
    std::unique_ptr<Bfs> engine;  // the graph uploaded once per strategy
    if (ctx) engine = std::make_unique<Bfs>(*ctx, g, o);
    auto search = [&](int32_t source) {
      return engine ? engine->run(source) : bfs_cpu(g, source, o.cpu_threads);
    };
    for (int w = 0; w < vm["warmup"].as<int>(); ++w) search(sources[0]);
    for (size_t i = 0; i < sources.size(); ++i)
      for (int rep = 0; rep < repeat; ++rep) {
        BfsResult r = search(sources[i]);
        std::string why =
            vm.count("validate") ? validate_bfs(g, sources[i], r.levels, r.parents) : "";
        if (!why.empty())
          throw std::runtime_error(std::string(to_string(strategy)) +
                                   ": validation failed (source " + std::to_string(sources[i]) +
                                   "): " + why);
        KeyValues line;
        line.add("strategy", to_string(strategy))
            .add("source", sources[i])
            .add("reached", r.reached);
        line.add("max_level", r.max_level).add("ms", r.ms).add("gteps", r.gteps());
        if (ctx && strategy != BfsStrategy::cpu)
          line.add("multi_groups", r.multi_groups)
              .add("multi_barrier", r.multi_in_kernel ? "in-kernel" : "relaunch");
        for (BfsStrategy s : kAll)
          if (int k = r.levels_run(s)) line.add(key(s), k), counts[s] += k;
        std::cout << line.str() << "\n";
        if (steps && i == 0 && rep == repeat - 1)
          for (const BfsStep& s : r.steps)
            *steps << "run=" << to_string(strategy) << " source=" << sources[i]
                   << " level=" << s.level << " strategy=" << to_string(s.strategy)
                   << " frontier=" << s.frontier << " edges=" << s.edges << " ms=" << s.ms << "\n";
        sum_ms += r.ms, ++runs_done;
        teps.push_back(r.gteps());
        if (i == 0 && rep == 0) first = std::move(r);
      }
    if (outs.has("levels-out") && strategy == list.back()) write_levels(outs["levels-out"], first);
    const double ms = sum_ms / runs_done;
    kv = KeyValues();
    kv.add("reached", first.reached)
        .add("max_level", first.max_level)
        .add("sum_levels", first.sum_levels);
    kv.add("ms", ms);
    nlohmann::json j;
    add_teps(kv, j, teps);
    kv.add("sources", sources.size()).add("runs", runs_done);
    kv.add("strategy", to_string(strategy));
    j.update({{"n", g.n},
              {"edges", g.edges()},
              {"reached", first.reached},
              {"max_level", first.max_level},
              {"sum_levels", first.sum_levels},
              {"ms", ms},
              {"sources", sources},
              {"strategy", to_string(strategy)}});
    for (BfsStrategy s : kAll) kv.add(key(s), counts[s]), j[key(s)] = counts[s];
    if (vm.count("validate")) kv.add("valid", 1);
    runs.push_back(j);
    if (strategy != list.back()) std::cout << kv.str() << "\n";
  }
  outs.json("json", runs.size() == 1 ? runs[0] : runs);
  outs.commit();
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND(
    "bfs", "breadth-first search, strategy chosen per level (CPU, single, multi, wave, bottom-up)",
    run_bfs);
}  // namespace lockstep::cli
