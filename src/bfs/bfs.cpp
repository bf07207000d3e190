// The per-level host loop of bfs(): the frontier's size and edges decide each step (BfsRule, or
// the forced strategy); CPU steps work on a host copy of levels/parents that is refreshed only
// when a CPU step follows GPU steps, and their discoveries are scattered to the device before
// the next GPU step. Each step is timed on the host (wall clock, including the counter read).
// A graph that automatic's rule sends whole to the CPU path is raced once per Bfs engine against
// the device path (Bfs::race); the faster path runs the engine's later searches.
#include <algorithm>
#include <chrono>
#include <thread>

#include "bfs/steps.hpp"
#include "lockstep/error.hpp"
#include "runtime/defaults.hpp"

namespace lockstep {
namespace {

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

// Frontier edges a CPU step or the one-group kernel takes on (beyond: the multi kernel).
int64_t tiny_edges(const BfsRule& r) { return 16 * int64_t(r.cpu_max); }

struct Chooser {
  const CsrGraph& g;
  BfsRule rule;
  bool bottom_up = false;
  // The rule of BfsRule's comment; `mirror`: the host copy of the levels is current.
  BfsAlgorithm operator()(const detail::Frontier& f, int64_t mu, bool mirror) {
    const int64_t nf = f.count, mf = f.edges;
    if (g.has_in_edges()) {
      // Beamer's edge test, for frontiers that are large in vertices or in edges: on RMAT 22 a
      // frontier of 7915 hubs (19.6M edges) took 6.1 of 6.9 ms in `multi` (H100),
      // where bottom-up scans 106M edges in 0.15 ms.
      const bool big = nf > rule.multi_max || mf > rule.lb_edges;
      bottom_up =
          bottom_up ? nf >= int64_t(g.n / rule.beta) : big && double(mf) > double(mu) / rule.alpha;
      if (bottom_up) return BfsAlgorithm::bottom_up;
    }
    if (mf > rule.lb_edges) return BfsAlgorithm::lb;  // hubs: no vertex left to one wave
    if (nf < rule.cpu_max && mf < tiny_edges(rule))
      return mirror || g.n <= rule.mirror_max ? BfsAlgorithm::cpu : BfsAlgorithm::single;
    if (nf <= rule.multi_max) return BfsAlgorithm::multi;
    return double(mf) / double(nf) >= rule.lb_degree ? BfsAlgorithm::lb : BfsAlgorithm::queue;
  }
};

}  // namespace

BfsRule bfs_rule(const DeviceInfo& device, const BfsOptions& o) {
  // The numbers are the defaults table's "bfs" entry (runtime/defaults.cpp; measurements in
  // BENCHMARKS.md). lb_edges: a hub of d edges costs the multi kernel d / WAVE_WIDTH iterations
  // of one wave, lb four short launches. multi_work: whole-graph multi on GPUs up to that many
  // wave steps (-1: never; CPU devices, whose global barrier spins on the host's cores).
  // cpu_graph_edges: the whole-graph CPU rule's edges per host thread (-1: off).
  const defaults::Bfs rule = defaults::lookup<defaults::Bfs>(device);
  BfsRule r = o.rule;
  const int wave = detail::bfs_wave_width(device, o.wave_width);
  if (r.cpu_max <= 0) r.cpu_max = o.local_size;
  if (r.multi_max <= 0) r.multi_max = int32_t(std::max(1u, device.compute_units)) * o.local_size;
  if (r.lb_edges <= 0) r.lb_edges = int64_t(rule.lb_edges_per_multi) * int64_t(r.multi_max);
  if (r.lb_degree <= 0) r.lb_degree = wave * rule.lb_degree_per_wave;
  if (r.multi_work == 0) r.multi_work = rule.multi_work;
  if (r.cpu_graph_edges == 0) {
    const int64_t per_thread = int64_t(rule.cpu_graph_edges_per_thread);
    r.cpu_graph_edges = per_thread < 0 ? -1 : per_thread * int64_t(bfs_auto_cpu_threads(o));
  }
  return r;
}

int bfs_auto_cpu_threads(const BfsOptions& o, int hardware_threads) {
  if (hardware_threads <= 0)
    hardware_threads = int(std::max(1u, std::thread::hardware_concurrency()));
  return std::min(o.cpu_threads > 0 ? o.cpu_threads : hardware_threads, kBfsAutoCpuThreadsMax);
}

double bfs_multi_work(const CsrGraph& g, const DeviceInfo& device, const BfsOptions& o) {
  // Every reached vertex takes one wave for ceil(degree / wave) steps: at most n + m / wave wave
  // steps, done multi_max / wave at a time; and one wave walks the largest row alone.
  const BfsRule r = bfs_rule(device, o);
  const double wave = detail::bfs_wave_width(device, o.wave_width);
  return (double(g.n) * wave + double(g.edges())) / std::max(1, r.multi_max) +
         double(g.stats().max) / wave;
}

BfsResult bfs(Context& ctx, const CsrGraph& g, int32_t source, const BfsOptions& o) {
  if (source < 0 || source >= g.n)  // before the upload
    throw input_error("bfs: source " + std::to_string(source) + " outside [0, " +
                      std::to_string(g.n) + (g.n ? ")" : "): the graph is empty"));
  BfsOptions one = o;
  one.race_cpu_graph = false;  // one search: a race would only add the other path's cost
  return Bfs(ctx, g, one).run(source);
}

Bfs::Bfs(Context& ctx, const CsrGraph& g, const BfsOptions& o) : ctx_(ctx), g_(g), options_(o) {
  if (o.algorithm == BfsAlgorithm::bottom_up && !g.has_in_edges())
    throw input_error(
        "bfs: bottom-up needs the in-neighbours of a directed graph (build the "
        "CsrGraph with reverse = true)");
  if (int64_t(g.n) + int64_t(g.edges()) >= int64_t(INT32_MAX))  // merge-path items, int32 indices
    throw input_error("bfs: " + std::to_string(g.n) + " vertices + " + std::to_string(g.edges()) +
                      " edges must stay below 2^31 (32-bit indices on the device)");
  const BfsRule rule = bfs_rule(ctx.info(), o);
  cpu_graph_.candidate = o.algorithm == BfsAlgorithm::automatic && rule.cpu_graph_edges >= 0 &&
                         int64_t(g.edges()) <= rule.cpu_graph_edges;
  cpu_graph_.cpu = cpu_graph_.candidate;  // the rule's choice, until a race says otherwise
  racing_ = cpu_graph_.candidate && o.race_cpu_graph;
  if (o.algorithm == BfsAlgorithm::cpu || cpu_graph_.candidate) return;  // the graph stays here
  start_device();
}
Bfs::~Bfs() = default;

void Bfs::start_device() {
  const BfsOptions& o = options_;
  const BfsRule rule = bfs_rule(ctx_.info(), o);
  dev_ = std::make_unique<detail::BfsDevice>(ctx_, g_, o, g_.has_in_edges());
  whole_multi_ = o.algorithm == BfsAlgorithm::automatic && dev_->multi_in_kernel() &&
                 rule.multi_work >= 0 && bfs_multi_work(g_, ctx_.info(), o) <= rule.multi_work;
}

BfsResult Bfs::run(int32_t source) {
  const CsrGraph& g = g_;
  const BfsOptions& o = options_;
  if (source < 0 || source >= g.n)
    throw input_error("bfs: source " + std::to_string(source) + " outside [0, " +
                      std::to_string(g.n) + (g.n ? ")" : "): the graph is empty"));
  if (o.algorithm == BfsAlgorithm::cpu) return bfs_cpu(g, source, o.cpu_threads);
  if (racing_) return race(source);
  if (cpu_graph_.cpu) return bfs_cpu(g, source, bfs_auto_cpu_threads(o));  // the measured team
  return run_device(source);
}

// The whole-graph CPU candidate against the device path, from the same source, alternating,
// twice each (each path's faster run: the first runs pay once-only costs); the CPU's result is
// the search's. The loser's resources go: the device's buffers when the CPU path wins.
BfsResult Bfs::race(int32_t source) {
  racing_ = false;
  if (!dev_) start_device();  // the upload and the kernels' build stay outside the timing
  BfsResult first;
  double cpu_ms = 1e300, device_ms = 1e300;
  for (int k = 0; k < 2; ++k) {
    auto t = clock_type::now();
    BfsResult r = bfs_cpu(g_, source, bfs_auto_cpu_threads(options_));
    cpu_ms = std::min(cpu_ms, since(t));
    if (k == 0) first = std::move(r);
    t = clock_type::now();
    run_device(source);  // returns after the levels' and parents' read-back
    device_ms = std::min(device_ms, since(t));
  }
  cpu_graph_.raced = true, cpu_graph_.cpu_ms = cpu_ms, cpu_graph_.device_ms = device_ms;
  cpu_graph_.cpu = cpu_ms <= device_ms;
  if (cpu_graph_.cpu) dev_.reset();
  return first;
}

BfsResult Bfs::run_device(int32_t source) {
  const CsrGraph& g = g_;
  const BfsOptions& o = options_;
  detail::BfsDevice& dev = *dev_;
  // the strategy of every level, or automatic (per level); a small graph's auto is forced multi
  const BfsAlgorithm fixed = whole_multi_ ? BfsAlgorithm::multi : o.algorithm;
  Chooser choose{g, bfs_rule(ctx_.info(), o)};
  BfsResult r;
  r.levels.assign(size_t(g.n), -1);
  r.parents.assign(size_t(g.n), -1);
  r.multi_groups = dev.multi_groups(), r.multi_in_kernel = dev.multi_in_kernel();
  const auto t0 = clock_type::now();

  dev.start(source);
  r.levels[size_t(source)] = 0, r.parents[size_t(source)] = source;
  detail::Frontier f{1, g.degree(source)};
  std::vector<int32_t> host_frontier{source}, unsynced;
  bool mirror = true, frontier_on_host = true;
  int64_t mu = int64_t(g.edges()) - f.edges;
  for (int32_t level = 0; f.count > 0;) {
    const BfsAlgorithm s = fixed == BfsAlgorithm::automatic ? choose(f, mu, mirror) : fixed;
    const auto s0 = clock_type::now();
    if (s == BfsAlgorithm::cpu) {
      if (!mirror) dev.get_state(r.levels, r.parents), mirror = true;
      if (!frontier_on_host) host_frontier = dev.get_frontier(f.count), frontier_on_host = true;
      int64_t edges = 0;
      std::vector<int32_t> next =
          detail::cpu_top_down(g, r.levels, r.parents, host_frontier, level, edges, o.cpu_threads);
      unsynced.insert(unsynced.end(), next.begin(), next.end());
      r.steps.push_back({level++, s, f.count, f.edges, since(s0)});
      f = {int64_t(next.size()), edges};
      host_frontier.swap(next);
      mu -= edges;
      continue;
    }
    if (frontier_on_host) {
      dev.put_vertices(unsynced, r.levels, r.parents, host_frontier);
      unsynced.clear(), frontier_on_host = false;
    }
    const BfsRule& rule = choose.rule;
    detail::Run run;
    const bool forced = fixed == s;
    if (s == BfsAlgorithm::single)
      run = forced ? dev.single(f.count, level, INT32_MAX, INT32_MAX)
                   : dev.single(f.count, level, rule.cpu_max - 1, tiny_edges(rule) - 1);
    else if (s == BfsAlgorithm::multi)
      run = forced ? dev.multi(f.count, level, 0, INT32_MAX, INT32_MAX)
                   : dev.multi(f.count, level, g.n <= rule.mirror_max ? rule.cpu_max : 0,
                               rule.multi_max, rule.lb_edges);
    else if (s == BfsAlgorithm::bottom_up)
      run = dev.bottom_up(level);
    else if (s == BfsAlgorithm::lb)
      run = dev.lb(f.count, f.edges, level);
    else
      run = dev.queue(f.count, level, s == BfsAlgorithm::wave);
    mirror = false;
    const double ms = since(s0) / double(std::max<size_t>(1, run.next.size()));
    for (const detail::Frontier& next : run.next) {
      r.steps.push_back({level++, s, f.count, f.edges, ms});
      f = next;
      mu -= next.edges;
    }
  }
  r.ms = since(t0);
  if (!mirror)
    dev.get_state(r.levels, r.parents);
  else
    dev.finish();  // CPU steps only since start(): its writes complete before the next start()
  detail::summarize(g, r);
  return r;
}

int BfsResult::levels_run(BfsAlgorithm s) const {
  int k = 0;
  for (const BfsStep& st : steps) k += st.algorithm == s;
  return k;
}

BfsAlgorithm parse_bfs_algorithm(const std::string& name) {
  for (BfsAlgorithm s :
       {BfsAlgorithm::automatic, BfsAlgorithm::cpu, BfsAlgorithm::single, BfsAlgorithm::multi,
        BfsAlgorithm::queue, BfsAlgorithm::wave, BfsAlgorithm::lb, BfsAlgorithm::bottom_up})
    if (name == to_string(s)) return s;
  throw input_error("unknown BFS algorithm '" + name +
                    "' (expected auto, cpu, single, multi, queue, wave, lb or bottom-up)");
}

const char* to_string(BfsAlgorithm s) {
  switch (s) {
    case BfsAlgorithm::cpu:
      return "cpu";
    case BfsAlgorithm::single:
      return "single";
    case BfsAlgorithm::multi:
      return "multi";
    case BfsAlgorithm::queue:
      return "queue";
    case BfsAlgorithm::wave:
      return "wave";
    case BfsAlgorithm::lb:
      return "lb";
    case BfsAlgorithm::bottom_up:
      return "bottom-up";
    default:
      return "auto";
  }
}

namespace detail {
void summarize(const CsrGraph& g, BfsResult& r) {
  r.reached = 0, r.max_level = 0, r.sum_levels = 0, r.traversed_edges = 0;
  for (int32_t v = 0; v < g.n; ++v)
    if (r.levels[size_t(v)] >= 0) {
      ++r.reached;
      r.max_level = std::max(r.max_level, r.levels[size_t(v)]);
      r.sum_levels += r.levels[size_t(v)];
      r.traversed_edges += g.degree(v);
    }
  if (g.symmetric) r.traversed_edges /= 2;
}
}  // namespace detail

}  // namespace lockstep
