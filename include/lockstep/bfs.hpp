// Hybrid CPU/GPU breadth-first search that chooses its strategy per level (after the seed
// paper), with a direction-optimizing step (Beamer et al.). Strategies: `cpu` (one level of an
// OpenMP direction-optimizing BFS on the host), `single` (one work-group loops over levels in one
// launch while the frontier is small), `multi` (a persistent kernel through PersistentKernel: all
// co-resident groups loop over levels with a global barrier between them, until the frontier
// leaves its size band), `queue` (top-down, one work-item per frontier vertex), `wave` (one
// frontier vertex per wave of WAVE_WIDTH lanes), `lb` (top-down, load-balanced: the frontier's
// edges divided evenly among work-items by a scan of the degrees and a merge-path search, as
// Gunrock's LB advance), `bottom_up` (on bitmaps: unvisited vertices look for a parent in the
// frontier bitmap, the next frontier is a bitmap; converted from and to a queue only when the
// direction changes) and `automatic`, which picks per level with BfsRule.
//
//   lockstep::Context ctx;
//   lockstep::CsrGraph g(lockstep::read_graph("roads.gr.gz"));
//   auto r = lockstep::bfs(ctx, g, 0);              // r.levels[v], r.parents[v]; r.steps
//   lockstep::Bfs many(ctx, g);  auto r1 = many.run(1), r2 = many.run(2);  // one upload
//   std::string why = lockstep::validate_bfs(g, 0, r.levels, r.parents);  // empty when valid
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/graph.hpp"
#include "lockstep/persistent.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep {

enum class BfsAlgorithm { automatic, cpu, single, multi, queue, wave, lb, bottom_up };
BfsAlgorithm parse_bfs_algorithm(
    const std::string& name);  // auto|cpu|single|multi|queue|wave|lb|bottom-up
const char* to_string(BfsAlgorithm s);
using BfsStrategy [[deprecated("use BfsAlgorithm")]] = BfsAlgorithm;
[[deprecated("use parse_bfs_algorithm")]] inline BfsAlgorithm parse_bfs_strategy(
    const std::string& name) {
  return parse_bfs_algorithm(name);
}

/// The rule of `automatic`; zero fields get defaults from the device (bfs_rule()).
/// First, for the whole search: a graph of at most cpu_graph_edges edges runs on the host's
/// threads (the CPU path for every level: the GPU's fixed ~0.25 ms per search is more than the
/// host's whole search there). That rule only names a candidate: what the CPU path costs depends
/// on the host (sockets, NUMA, other load; on the 64-core host it ran 3-15x slower than the GPU),
/// so a Bfs engine races it once against the device path (BfsOptions::race_cpu_graph,
/// Bfs::cpu_graph()); the one-shot bfs() takes the rule as it is. Then a small graph runs `multi`
/// for every level, one persistent launch (no CPU, lb or bottom-up step, no host decision between
/// levels), when multi's barrier is in the kernel and its work over the whole search, in steps of
/// one wave, (n * WAVE_WIDTH + m) / multi_max + max_degree / WAVE_WIDTH (each vertex of n a wave
/// for ceil(degree / WAVE_WIDTH) steps, multi_max / WAVE_WIDTH waves at a time; plus one wave's
/// walk over the largest row), is at most multi_work. Otherwise, per level, with nf frontier
/// vertices, mf their out-edges and mu the edges of unvisited vertices:
///   bottom-up  when the graph has in-edges, nf > multi_max (or mf > lb_edges) and mf > mu / alpha
///              (Beamer's edge test); it stays bottom-up while nf >= n / beta (his switch back);
///   lb         when mf > lb_edges (a few hubs: a small frontier of many edges);
///   cpu        when nf < cpu_max and the host's copy of the levels is current (or n <=
///              mirror_max, so that refreshing it is cheap);
///   single     when nf < cpu_max otherwise (one launch runs levels while nf stays below it);
///   multi      when nf <= multi_max (one launch runs levels while nf and mf stay in band);
///   lb         when mf / nf >= lb_degree, else queue (uniform low degree: one item a vertex).
struct BfsRule {
  int32_t cpu_max = 0;    // seed rule: the work-group size
  int32_t multi_max = 0;  // seed rule: compute units x work-group size
  int64_t lb_edges = 0;   // frontier edges from which a level is load-balanced: 2 x multi_max
  double lb_degree = 0;   // mean frontier degree from which lb beats queue: WAVE_WIDTH / 4
  double alpha = 14, beta = 24;
  int32_t mirror_max = 1 << 16;
  /// The whole-graph `multi` rule's bound in wave steps: 256 on GPUs (the per-level switches it
  /// replaces cost 0.1-0.2 ms on the H100 on small graphs), never (-1) on other
  /// devices; < 0: never.
  double multi_work = 0;
  /// The whole-graph CPU rule's bound in edges: on GPUs 16384 x bfs_auto_cpu_threads(), i.e. at
  /// most 16384 x 16 (H100 host, 16 threads: facebook 176k edges CPU 0.263 ms
  /// against multi 0.280, wiki-Vote 104k 0.131 against 0.235; soc-Slashdot 948k 0.74 against
  /// 0.43, copter2 704k 2.68 against 0.47; on the 64-thread host the bound of 16384 x 64 sent
  /// NotreDame, mdual and soc-Slashdot to a CPU path 3-7x slower than the 16-thread host's),
  /// never (-1) on other devices (the device is the host); < 0: never.
  int64_t cpu_graph_edges = 0;
};

struct BfsOptions {
  BfsAlgorithm algorithm = BfsAlgorithm::automatic;
  BfsRule rule;
  int local_size = 256;
  int wave_width = 0;     // 0: the device's wave width (32 where it reports 1)
  BarrierChoice barrier;  // multi's global barrier (relaunch: one launch per level)
  int cpu_threads = 0;    // 0: OpenMP's default (the hardware threads)
  /// automatic, when the rule sends the whole graph to the CPU path: a Bfs engine's first search
  /// also runs the device path from the same source and keeps the faster one for its later
  /// searches (Bfs::cpu_graph()). false: the rule alone. bfs() (one search) never races.
  bool race_cpu_graph = true;
};
/// bfs_rule with its zero fields filled for this device and these options.
BfsRule bfs_rule(const DeviceInfo& device, const BfsOptions& options);
/// The host threads that `automatic`'s whole-graph CPU rule is scaled by and that its CPU path
/// then runs on: cpu_threads, else the hardware threads (hardware_threads <= 0: this host's),
/// at most kBfsAutoCpuThreadsMax, the team the rule was measured with. More threads cost every
/// level's parallel region more (OpenMP fork/join over 64 threads) and were never measured to
/// win, so a many-core host takes the 16-core host's decisions rather than a slower path.
constexpr int kBfsAutoCpuThreadsMax = 16;
int bfs_auto_cpu_threads(const BfsOptions& options, int hardware_threads = 0);
/// The whole-graph rule's estimate for g on this device, (n * WAVE_WIDTH + edges) / multi_max +
/// largest degree / WAVE_WIDTH (bfs_rule's multi_max; the kernels' wave width), to compare with
/// multi_work.
double bfs_multi_work(const CsrGraph& g, const DeviceInfo& device, const BfsOptions& options);

/// One step of the host loop: a level, or several levels run by one single/multi launch.
struct BfsStep {
  int32_t level = 0;  // the frontier's level
  BfsAlgorithm algorithm = BfsAlgorithm::cpu;
  int64_t frontier = 0, edges = 0;  // vertices of the frontier and their out-edges
  double ms = 0;                    // this level's time (a multi-level launch's time split evenly)
};

struct BfsResult {
  std::vector<int32_t> levels;   // -1: unreached
  std::vector<int32_t> parents;  // parents[source] = source, -1: unreached
  std::vector<BfsStep> steps;    // one per level
  double ms = 0;                 // traversal wall time (after the upload, before the download)
  int32_t reached = 0, max_level = 0;
  int64_t sum_levels = 0;
  /// Traversed edges, Graph500 convention: the edges of the traversed component, each once
  /// (out-edges of reached vertices, halved when the graph is symmetric, so each undirected edge
  /// once). Duplicate input edges were merged when the CsrGraph was built, and a self-loop,
  /// stored once, counts one half: both slightly below Graph500's count of input tuples.
  int64_t traversed_edges = 0;
  bool cpu_graph = false;        // every level ran on the host's CPU path (bfs_cpu), no device
  int multi_groups = 0;          // work-groups of the multi kernel (co-resident when in-kernel)
  bool multi_in_kernel = false;  // multi's global barrier is in the kernel (not relaunch)
  double gteps() const { return ms > 0 ? double(traversed_edges) / (ms * 1e6) : 0; }
  int levels_run(BfsAlgorithm s) const;
};

/// BFS from `source`. Throws input_error for a source outside [0, n), or bottom_up on a directed
/// graph built without its reverse adjacency.
BfsResult bfs(Context& ctx, const CsrGraph& g, int32_t source, const BfsOptions& options = {});

namespace detail {
class BfsDevice;
}
/// automatic's whole-graph CPU path in one Bfs engine: whether the rule chose it
/// (BfsRule::cpu_graph_edges) and, when raced, what each path cost and which one won.
struct BfsCpuGraph {
  bool candidate = false;            // the rule sent the whole graph to the CPU path
  bool raced = false;                // the first search ran both paths (race_cpu_graph)
  bool cpu = false;                  // the engine's searches run the CPU path (else the device's)
  double cpu_ms = 0, device_ms = 0;  // the race: each path's faster of two runs (wall clock)
};

/// The same for many sources: the graph is uploaded and the kernels built once. `g` must
/// outlive it. When automatic's rule sends the whole graph to the CPU path and
/// options.race_cpu_graph holds, the first run() measures instead of trusting the rule: it runs
/// the CPU path (its result is returned) and the device path (the graph uploaded then, each
/// level chosen as without the rule) from the same source, twice each, alternating, timing each
/// on the host's wall clock (the device's after its final read-back) and keeping each path's
/// faster run (first runs pay once-only costs: lazy program loading, OpenMP's thread team,
/// first-touch pages); every later run() takes the faster path. Nothing is kept beyond the
/// engine: timings under load are not facts.
class Bfs {
 public:
  Bfs(Context& ctx, const CsrGraph& g, const BfsOptions& options = {});
  ~Bfs();
  BfsResult run(int32_t source);
  const BfsCpuGraph& cpu_graph() const { return cpu_graph_; }

 private:
  void start_device();
  BfsResult race(int32_t source);
  BfsResult run_device(int32_t source);

  Context& ctx_;
  const CsrGraph& g_;
  BfsOptions options_;
  std::unique_ptr<detail::BfsDevice> dev_;  // none for algorithm cpu or the CPU path
  bool whole_multi_ = false;                // automatic, and the graph is small: multi only
  BfsCpuGraph cpu_graph_;                   // automatic, and the graph is tiny
  bool racing_ = false;                     // the next run() races the two paths
};
/// The host-only BFS (OpenMP, direction-optimizing): algorithm cpu without a device.
BfsResult bfs_cpu(const CsrGraph& g, int32_t source, int threads = 0);

/// Graph500's search keys: min(k, candidates) distinct random vertices of out-degree >= 1 in the
/// largest connected component (of a directed graph with in-edges: the largest strongly
/// connected one, so every source reaches all of it), drawn with `seed`; with the component's
/// size (its vertices' out-edges, halved when symmetric, as BfsResult::traversed_edges counts).
struct BfsSources {
  std::vector<int32_t> sources;
  int32_t component_vertices = 0;
  int64_t component_edges = 0;
};
BfsSources bfs_sources(const CsrGraph& g, int k, uint64_t seed);

/// Graph500-style validation: source at level 0 and its own parent; every other reached vertex's
/// parent is reached one level up and the parent -> vertex edge exists; every edge u -> v from a
/// reached u reaches v with levels[v] <= levels[u] + 1 (so both directions of an undirected edge
/// differ by at most one); unreached vertices have parent -1. Returns "" or the first violation.
std::string validate_bfs(const CsrGraph& g, int32_t source, const std::vector<int32_t>& levels,
                         const std::vector<int32_t>& parents);

}  // namespace lockstep
