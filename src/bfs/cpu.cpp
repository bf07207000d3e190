// The host's BFS levels (OpenMP; serial when a frontier is small): top-down claims vertices with
// a compare-and-swap on levels[], bottom-up scans in-neighbours against a frontier bitmap; each
// thread collects its discoveries, then they are concatenated. bfs_cpu() strings them together
// with Beamer's direction switch (the thresholds of BfsRule).
#include <algorithm>
#include <chrono>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bfs/steps.hpp"
#include "lockstep/error.hpp"
#include "runtime/parallel_errors.hpp"

namespace lockstep {
namespace detail {
int cpu_team(int threads, int64_t work_edges) {
#ifdef _OPENMP
  const int64_t most = threads > 0 ? threads : omp_get_max_threads();
  return int(std::max<int64_t>(1, std::min(most, work_edges / kCpuEdgesPerThread)));
#else
  (void)threads, (void)work_edges;
  return 1;
#endif
}

std::vector<int32_t> cpu_top_down(const CsrGraph& g, std::vector<int32_t>& levels,
                                  std::vector<int32_t>& parents,
                                  const std::vector<int32_t>& frontier, int32_t level,
                                  int64_t& edges, int threads) {
  std::vector<int32_t> next;
  int64_t found_edges = 0;
  const int64_t nf = int64_t(frontier.size());
  int32_t* lv = levels.data();
  int64_t work = 0;  // the frontier's out-edges
  for (const int32_t u : frontier) work += g.degree(u);
  ParallelErrors errors;  // (a push_back that fails under `ulimit -v`: reported, not an abort)
#pragma omp parallel num_threads(cpu_team(threads, work)) reduction(+ : found_edges)
  {
    std::vector<int32_t> mine;
    // chunks of 64 vertices, each through run() once (a call per vertex cost the serial path
    // ~10 %: the body no longer optimized as one loop)
#pragma omp for schedule(dynamic, 1) nowait
    for (int64_t c = 0; c < (nf + 63) / 64; ++c)
      errors.run([&] {
        int64_t found = 0;
        const int64_t end = std::min(nf, c * 64 + 64);
        for (int64_t i = c * 64; i < end; ++i) {
          const int32_t u = frontier[size_t(i)];
          for (int32_t e = g.offsets[size_t(u)]; e < g.offsets[size_t(u) + 1]; ++e) {
            const int32_t v = g.adj[size_t(e)];
            int32_t expected = -1;
            if (__atomic_load_n(lv + v, __ATOMIC_RELAXED) == -1 &&
                __atomic_compare_exchange_n(lv + v, &expected, level + 1, false, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
              parents[size_t(v)] = u;
              mine.push_back(v);
              found += g.degree(v);
            }
          }
        }
        found_edges += found;
      });
#pragma omp critical
    errors.run([&] { next.insert(next.end(), mine.begin(), mine.end()); });
  }
  errors.rethrow();
  edges += found_edges;
  return next;
}

std::vector<int32_t> cpu_bottom_up(const CsrGraph& g, std::vector<int32_t>& levels,
                                   std::vector<int32_t>& parents,
                                   const std::vector<int32_t>& frontier, int32_t level,
                                   int64_t& edges, int threads) {
  std::vector<uint64_t> bits((size_t(g.n) + 63) / 64, 0);
  const int64_t nf = int64_t(frontier.size());
#pragma omp parallel for num_threads(cpu_team(threads, nf)) schedule(static)
  for (int64_t i = 0; i < nf; ++i) {
    const int32_t u = frontier[size_t(i)];
    __atomic_fetch_or(&bits[size_t(u) >> 6], uint64_t(1) << (u & 63), __ATOMIC_RELAXED);
  }
  const auto& in_off = g.in_offsets();
  const auto& in_adj = g.in_adj();
  std::vector<int32_t> next;
  int64_t found_edges = 0;
  const int64_t work = int64_t(in_adj.size());  // at most every in-edge is scanned
  ParallelErrors errors;
#pragma omp parallel num_threads(cpu_team(threads, work)) reduction(+ : found_edges)
  {
    std::vector<int32_t> mine;
#pragma omp for schedule(dynamic, 1) nowait
    for (int64_t c = 0; c < (int64_t(g.n) + 1023) / 1024; ++c)  // chunks of 1024 vertices
      errors.run([&] {
        int64_t found = 0;
        const int32_t end = int32_t(std::min<int64_t>(g.n, c * 1024 + 1024));
        for (int32_t v = int32_t(c * 1024); v < end; ++v) {
          if (levels[size_t(v)] != -1) continue;
          for (int32_t e = in_off[size_t(v)]; e < in_off[size_t(v) + 1]; ++e) {
            const int32_t u = in_adj[size_t(e)];
            if ((bits[size_t(u) >> 6] >> (u & 63)) & 1) {
              levels[size_t(v)] = level + 1;
              parents[size_t(v)] = u;
              mine.push_back(v);
              found += g.degree(v);
              break;
            }
          }
        }
        found_edges += found;
      });
#pragma omp critical
    errors.run([&] { next.insert(next.end(), mine.begin(), mine.end()); });
  }
  errors.rethrow();
  edges += found_edges;
  return next;
}

}  // namespace detail

BfsResult bfs_cpu(const CsrGraph& g, int32_t source, int threads) {
  if (source < 0 || source >= g.n)
    throw input_error("bfs: source " + std::to_string(source) + " outside [0, " +
                      std::to_string(g.n) + (g.n ? ")" : "): the graph is empty"));
  const BfsRule rule;
  BfsResult r;
  r.cpu_graph = true;
  const auto t0 = std::chrono::steady_clock::now();
  r.levels.assign(size_t(g.n), -1);
  r.parents.assign(size_t(g.n), -1);
  r.levels[size_t(source)] = 0, r.parents[size_t(source)] = source;
  std::vector<int32_t> frontier{source};
  int64_t mf = g.degree(source), mu = int64_t(g.edges()) - mf;
  bool bottom_up = false;
  for (int32_t level = 0; !frontier.empty(); ++level) {
    const auto s0 = std::chrono::steady_clock::now();
    const int64_t nf = int64_t(frontier.size());
    if (g.has_in_edges())
      bottom_up = bottom_up ? nf >= g.n / rule.beta : double(mf) > double(mu) / rule.alpha;
    int64_t edges = 0;
    std::vector<int32_t> next =
        bottom_up ? detail::cpu_bottom_up(g, r.levels, r.parents, frontier, level, edges, threads)
                  : detail::cpu_top_down(g, r.levels, r.parents, frontier, level, edges, threads);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count();
    r.steps.push_back({level, BfsAlgorithm::cpu, nf, mf, ms});
    frontier.swap(next);
    mf = edges, mu -= edges;
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  detail::summarize(g, r);
  return r;
}

}  // namespace lockstep
