// `lockstep bfs`: the runs of one algorithm and their summary (see bfs_runs.hpp). GTEPS is
// Graph500's summary of the per-run rates: the harmonic mean (its reported figure), median,
// min and max.
#include "bfs_runs.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <stdexcept>

namespace lockstep::cli {
namespace {

const BfsAlgorithm kAll[] = {BfsAlgorithm::cpu,      BfsAlgorithm::single, BfsAlgorithm::multi,
                            BfsAlgorithm::queue,    BfsAlgorithm::wave,   BfsAlgorithm::lb,
                            BfsAlgorithm::bottom_up};

std::string key(BfsAlgorithm s) {
  std::string k = std::string(to_string(s)) + "_levels";
  for (char& c : k) c = c == '-' ? '_' : c;
  return k;
}

double median(std::vector<double> g) {
  std::sort(g.begin(), g.end());
  const size_t m = g.size();
  return m == 0 ? 0 : m % 2 ? g[m / 2] : (g[m / 2 - 1] + g[m / 2]) / 2;
}

void add_teps(Report& kv, const std::vector<double>& g) {
  double inv = 0;
  for (double x : g) inv += x > 0 ? 1 / x : 0;
  const size_t m = g.size();
  kv.add("gteps", inv > 0 ? double(m) / inv : 0).add("gteps_median", median(g));
  const auto [lo, hi] = std::minmax_element(g.begin(), g.end());
  kv.add("gteps_min", m ? *lo : 0).add("gteps_max", m ? *hi : 0);
}

// One run's line: algorithm= source= reached= max_level= ms= gteps= [multi_*] X_levels=.
Report run_line(BfsAlgorithm algorithm, int32_t source, const BfsResult& r, bool device) {
  Report line;
  line.add("algorithm", to_string(algorithm)).add("source", source).add("reached", r.reached);
  line.add("max_level", r.max_level).add("ms", r.ms).add("gteps", r.gteps());
  if (device && algorithm != BfsAlgorithm::cpu)
    line.add("multi_groups", r.multi_groups)
        .add("multi_barrier", r.multi_in_kernel ? "in-kernel" : "relaunch");
  for (BfsAlgorithm s : kAll)
    if (int k = r.levels_run(s)) line.add(key(s), k);
  return line;
}

void write_steps(std::ostream& out, BfsAlgorithm algorithm, int32_t source, const BfsResult& r) {
  for (const BfsStep& s : r.steps)
    out << "run=" << to_string(algorithm) << " source=" << source << " level=" << s.level
        << " algorithm=" << to_string(s.algorithm) << " frontier=" << s.frontier
        << " edges=" << s.edges << " ms=" << s.ms << "\n";
}

}  // namespace

BfsRuns run_algorithm(Context* ctx, const CsrGraph& g, const BfsOptions& o, const BfsPlan& plan) {
  std::unique_ptr<Bfs> engine;  // the graph uploaded once per algorithm
  if (ctx) engine = std::make_unique<Bfs>(*ctx, g, o);
  auto search = [&](int32_t source) {
    return engine ? engine->run(source) : bfs_cpu(g, source, o.cpu_threads);
  };
  for (int w = 0; w < plan.warmup; ++w) search(plan.sources[0]);
  BfsRuns out;
  double sum_ms = 0, sum_median_ms = 0;
  std::vector<double> teps;
  std::map<BfsAlgorithm, int> counts;
  for (size_t i = 0; i < plan.sources.size(); ++i) {
    std::vector<double> reps;
    for (int rep = 0; rep < plan.repeat; ++rep) {
      const int32_t source = plan.sources[i];
      BfsResult r = search(source);
      const std::string why = plan.validate ? validate_bfs(g, source, r.levels, r.parents) : "";
      if (!why.empty())
        throw std::runtime_error(std::string(to_string(o.algorithm)) + ": validation failed (source " +
                                 std::to_string(source) + "): " + why);
      std::cout << run_line(o.algorithm, source, r, ctx != nullptr).str() << "\n";
      for (BfsAlgorithm s : kAll) counts[s] += r.levels_run(s);
      if (plan.steps && i == 0 && rep == plan.repeat - 1) write_steps(*plan.steps, o.algorithm, source, r);
      sum_ms += r.ms;
      reps.push_back(r.ms);
      teps.push_back(r.gteps());
      if (i == 0 && rep == 0) out.first = std::move(r);
    }
    sum_median_ms += median(reps);
  }
  const BfsResult& f = out.first;
  Report& kv = out.summary;
  kv.json_only("n", g.n).json_only("edges", g.edges());
  kv.add("reached", f.reached).add("max_level", f.max_level).add("sum_levels", f.sum_levels);
  kv.add("ms", sum_ms / double(teps.size()));
  kv.add("ms_median", plan.sources.empty() ? 0 : sum_median_ms / double(plan.sources.size()));
  add_teps(kv, teps);
  kv.line_only("sources", plan.sources.size()).json_only("sources", plan.sources);
  kv.add("runs", teps.size()).add("algorithm", to_string(o.algorithm));
  for (BfsAlgorithm s : kAll) kv.add(key(s), counts[s]);
  if (engine && engine->cpu_graph().candidate) {  // auto's whole-graph CPU rule, and its race
    const BfsCpuGraph& c = engine->cpu_graph();
    kv.add("cpu_graph", c.cpu ? "cpu" : "device");
    if (c.raced) kv.add("cpu_graph_ms", c.cpu_ms).add("device_graph_ms", c.device_ms);
  }
  if (plan.validate) kv.add("valid", 1);
  return out;
}

}  // namespace lockstep::cli
