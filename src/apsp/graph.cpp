// Graphs for all-pairs shortest paths: the dense work matrices, negative-cycle
// search (Bellman-Ford) and path reconstruction from the next-hop matrix.
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "apsp/dense.hpp"
#include "lockstep/io.hpp"

namespace lockstep {

template <typename T>
void apsp_check_size(const std::string& where, int32_t n, bool paths, const DeviceInfo* device) {
  const double cells = double(n) * double(n), matrix = cells * sizeof(T);
  const char* type = std::is_integral_v<T> ? "i32" : "f32";
  std::ostringstream what;
  what << "all-pairs shortest paths of " << n << " vertices (" << type << ", n^2 distances"
       << (paths ? " and next hops" : "") << ", work and result)";
  check_host_memory(where, what.str(), 2 * (matrix + (paths ? cells * 4 : 0)));
  if (device && matrix > double(device->max_alloc_bytes))
    throw input_error(where + ": n = " + std::to_string(n) + " needs a " +
                      std::to_string((long long)(matrix / 1048576)) + " MiB " + type +
                      " matrix, more than the device's largest buffer (" +
                      std::to_string(device->max_alloc_bytes >> 20) + " MiB)");
}
template void apsp_check_size<float>(const std::string&, int32_t, bool, const DeviceInfo*);
template void apsp_check_size<int32_t>(const std::string&, int32_t, bool, const DeviceInfo*);

ApspAlgorithm parse_apsp_algorithm(const std::string& name) {
  if (name == "naive") return ApspAlgorithm::naive;
  if (name == "blocked") return ApspAlgorithm::blocked;
  if (name == "generalized") return ApspAlgorithm::generalized;
  throw input_error("unknown APSP variant '" + name + "' (expected naive, blocked or generalized)");
}
const char* to_string(ApspAlgorithm v) {
  switch (v) {
    case ApspAlgorithm::naive:
      return "naive";
    case ApspAlgorithm::blocked:
      return "blocked";
    default:
      return "generalized";
  }
}

std::vector<int32_t> find_negative_cycle(const Graph& g) {
  const int32_t n = g.n;
  std::vector<double> dist(n, 0.0);
  std::vector<int32_t> parent(n, -1), mark(n, -1);
  for (int32_t pass = 0; pass <= n; ++pass) {
    bool changed = false;
    for (size_t e = 0; e < g.src.size(); ++e)
      if (dist[g.src[e]] + g.weight[e] < dist[g.dst[e]]) {
        dist[g.dst[e]] = dist[g.src[e]] + g.weight[e];
        parent[g.dst[e]] = g.src[e];
        changed = true;
      }
    if (!changed) return {};
    // A cycle in the parent graph is a negative cycle.
    std::fill(mark.begin(), mark.end(), -1);
    for (int32_t s = 0; s < n; ++s) {
      int32_t v = s;
      while (v != -1 && mark[v] == -1) {
        mark[v] = s;
        v = parent[v];
      }
      if (v != -1 && mark[v] == s) {  // v is on a cycle found from s
        std::vector<int32_t> cycle{v};
        for (int32_t u = parent[v]; u != v; u = parent[u]) cycle.push_back(u);
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
    }
  }
  return {};
}

template <typename T>
std::vector<int32_t> ApspResult<T>::path(int32_t u, int32_t v) const {
  if (next.empty())
    throw input_error("path(" + std::to_string(u) + ", " + std::to_string(v) +
                      "): run apsp with paths = true");
  if (u < 0 || v < 0 || u >= n || v >= n)
    throw input_error("path(" + std::to_string(u) + ", " + std::to_string(v) +
                      "): vertices must be in [0, " + std::to_string(n) + ")");
  if (!reachable(u, v)) return {};
  std::vector<int32_t> p{u};
  while (u != v) {
    u = next[size_t(u) * n + v];
    if (u < 0 || p.size() > size_t(n)) throw input_error("next-hop matrix is inconsistent");
    p.push_back(u);
  }
  return p;
}
template struct ApspResult<float>;
template struct ApspResult<int32_t>;

namespace detail {

template <typename T>
void init_dense(const Graph& g, int32_t N, std::vector<T>& d, std::vector<int32_t>* next) {
  const T inf = work_infinity<T>();
  d.assign(size_t(N) * N, inf);
  for (int32_t i = 0; i < N; ++i) d[size_t(i) * N + i] = T(0);
  double max_abs = 0;
  for (size_t e = 0; e < g.src.size(); ++e) {
    const double w = g.weight[e];
    const size_t at = size_t(g.src[e]) * N + g.dst[e];
    if (std::isnan(w) || w == -HUGE_VAL)
      throw input_error("edge " + std::to_string(g.src[e] + 1) + " -> " +
                        std::to_string(g.dst[e] + 1) + ": weight must be a number below +inf");
    if (w == HUGE_VAL) continue;  // an explicit missing edge
    if constexpr (!std::is_integral_v<T>)
      if (!std::isfinite(T(w)))  // read_graph(..., WeightType::f32) names the file and line
        throw input_error("edge " + std::to_string(g.src[e] + 1) + " -> " +
                          std::to_string(g.dst[e] + 1) + ": weight " + std::to_string(w) +
                          " overflows f32 (the edge would become infinite, i.e. missing)");
    if constexpr (std::is_integral_v<T>) {
      if (w != std::floor(w))
        throw input_error("edge " + std::to_string(g.src[e] + 1) + " -> " +
                          std::to_string(g.dst[e] + 1) + ": weight " + std::to_string(w) +
                          " is not an integer (use f32)");
      max_abs = std::max(max_abs, std::fabs(w));
    }
    d[at] = std::min(d[at], T(w));
  }
  if constexpr (std::is_integral_v<T>)
    if (max_abs * std::max(1, g.n - 1) >= double(1 << 28))
      throw input_error("i32 weights too large: (n-1)*max|w| = " +
                        std::to_string(max_abs * std::max(1, g.n - 1)) +
                        " must stay below 2^28 (use f32)");
  if (next) {
    next->assign(size_t(N) * N, -1);
    for (int32_t i = 0; i < N; ++i)
      for (int32_t j = 0; j < N; ++j)
        if (i == j || !is_work_infinite(d[size_t(i) * N + j])) (*next)[size_t(i) * N + j] = j;
  }
}

template <typename T>
void finish(const Graph& g, int32_t N, const std::vector<T>& d, const std::vector<int32_t>* next,
            ApspResult<T>& r) {
  const int32_t n = g.n;
  for (int32_t v = 0; v < n; ++v)
    if (d[size_t(v) * N + v] < T(0)) {
      std::vector<int32_t> cycle = find_negative_cycle(g);
      std::ostringstream s;
      s << "negative cycle: vertex " << (cycle.empty() ? v : cycle[0]) + 1
        << " (1-based) lies on a cycle of negative weight";
      if (!cycle.empty() && cycle.size() <= 16) {
        s << " (";
        for (int32_t u : cycle) s << u + 1 << " -> ";
        s << cycle[0] + 1 << ")";
      }
      s << "; shortest paths are undefined";
      throw negative_cycle_error(s.str());
    }
  r.n = n;
  r.dist.resize(size_t(n) * n);
  if (next) r.next.resize(size_t(n) * n);
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < n; ++j) {
      const T v = d[size_t(i) * N + j];
      r.dist[size_t(i) * n + j] = is_work_infinite(v) ? apsp_infinity<T>() : v;
      if (next) r.next[size_t(i) * n + j] = is_work_infinite(v) ? -1 : (*next)[size_t(i) * N + j];
    }
}

template void init_dense(const Graph&, int32_t, std::vector<float>&, std::vector<int32_t>*);
template void init_dense(const Graph&, int32_t, std::vector<int32_t>&, std::vector<int32_t>*);
template void finish(const Graph&, int32_t, const std::vector<float>&, const std::vector<int32_t>*,
                     ApspResult<float>&);
template void finish(const Graph&, int32_t, const std::vector<int32_t>&,
                     const std::vector<int32_t>*, ApspResult<int32_t>&);

}  // namespace detail
}  // namespace lockstep
