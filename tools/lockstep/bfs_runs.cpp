// `lockstep bfs`: the runs of one algorithm and their summary (see bfs_runs.hpp). GTEPS is
// Graph500's summary of the per-run rates: the harmonic mean (its reported figure), median,
// min and max.
#include "bfs_runs.hpp"

#include <algorithm>
#include <iostream>
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

AlgorithmRuns::AlgorithmRuns(Context* ctx, const CsrGraph& g, const BfsOptions& o,
                             const BfsPlan& plan)
    : ctx_(ctx), g_(g), o_(o), plan_(plan), reps_(plan.sources.size()) {
  if (ctx) engine_ = std::make_unique<Bfs>(*ctx, g, o);  // the graph uploaded once
}

AlgorithmRuns::~AlgorithmRuns() = default;

BfsResult AlgorithmRuns::search(int32_t source) {
  return engine_ ? engine_->run(source) : bfs_cpu(g_, source, o_.cpu_threads);
}

void AlgorithmRuns::warm_up() {
  for (int w = 0; w < plan_.warmup; ++w) search(plan_.sources[0]);
}

void AlgorithmRuns::run(size_t i, int rep) {
  const int32_t source = plan_.sources[i];
  BfsResult r = search(source);
  const std::string why = plan_.validate ? validate_bfs(g_, source, r.levels, r.parents) : "";
  if (!why.empty())
    throw std::runtime_error(std::string(to_string(o_.algorithm)) + ": validation failed (source " +
                             std::to_string(source) + "): " + why);
  std::cout << run_line(o_.algorithm, source, r, ctx_ != nullptr).str() << "\n";
  for (BfsAlgorithm s : kAll) counts_[s] += r.levels_run(s);
  if (plan_.steps && i == 0 && rep == plan_.repeat - 1)
    write_steps(*plan_.steps, o_.algorithm, source, r);
  reps_[i].push_back(r.ms);
  teps_.push_back(r.gteps());
  if (i == 0 && rep == 0) out_.first = std::move(r);
}

BfsRuns AlgorithmRuns::finish() {
  double sum_ms = 0, sum_median_ms = 0;
  for (const auto& reps : reps_) {
    for (double ms : reps) sum_ms += ms;
    sum_median_ms += median(reps);
  }
  const BfsResult& f = out_.first;
  Report& kv = out_.summary;
  kv.json_only("n", g_.n).json_only("edges", g_.edges());
  kv.add("reached", f.reached).add("max_level", f.max_level).add("sum_levels", f.sum_levels);
  kv.add("ms", teps_.empty() ? 0 : sum_ms / double(teps_.size()));
  kv.add("ms_median", reps_.empty() ? 0 : sum_median_ms / double(reps_.size()));
  add_teps(kv, teps_);
  kv.line_only("sources", plan_.sources.size()).json_only("sources", plan_.sources);
  kv.add("runs", teps_.size()).add("algorithm", to_string(o_.algorithm));
  for (BfsAlgorithm s : kAll) kv.add(key(s), counts_[s]);
  if (engine_ && engine_->cpu_graph().candidate) {  // auto's whole-graph CPU rule, and its race
    const BfsCpuGraph& c = engine_->cpu_graph();
    kv.add("cpu_graph", c.cpu ? "cpu" : "device");
    if (c.raced) kv.add("cpu_graph_ms", c.cpu_ms).add("device_graph_ms", c.device_ms);
  }
  if (plan_.validate) kv.add("valid", 1);
  return std::move(out_);
}

void run_algorithms(Context* ctx, const CsrGraph& g, BfsOptions o,
                    const std::vector<BfsAlgorithm>& list, const BfsPlan& plan,
                    const std::function<void(size_t, const BfsRuns&)>& done) {
  // list[begin, end) together: their engines (one copy of the graph each), warm-ups, then each
  // source's repeats taking the algorithms in turn
  auto together = [&](size_t begin, size_t end) {
    std::vector<std::unique_ptr<AlgorithmRuns>> all;
    for (size_t k = begin; k < end; ++k) {
      o.algorithm = list[k];
      all.push_back(std::make_unique<AlgorithmRuns>(ctx, g, o, plan));
    }
    for (auto& runs : all) runs->warm_up();
    for (size_t i = 0; i < plan.sources.size(); ++i)
      for (int rep = 0; rep < plan.repeat; ++rep)
        for (auto& runs : all) runs->run(i, rep);
    for (size_t k = begin; k < end; ++k) done(k, all[k - begin]->finish());
  };
  if (plan.interleave) return together(0, list.size());
  for (size_t k = 0; k < list.size(); ++k) together(k, k + 1);  // one graph copy at a time
}

}  // namespace lockstep::cli
