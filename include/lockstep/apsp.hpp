// All-pairs shortest paths (Floyd-Warshall) on an OpenCL device, after the generalized blocked
// algorithm: `naive` (one launch per k), `blocked` (classic 3-phase on TILE x TILE tiles) and
// `generalized` (K consecutive block iterations fused into a multi-tile, so that the bulk of the
// matrix is read and written once per K*TILE values of k; K = 1 is `blocked`). Weights are float
// or int32_t; missing edges are infinite (apsp_infinity<T>()), duplicate edges keep the minimum,
// the diagonal is 0 unless a self-loop is negative. A negative cycle throws input_error naming a
// vertex on it. With `paths`, a next-hop matrix answers path(u, v).
//
//   lockstep::Context ctx;
//   auto g = lockstep::read_graph("roads.mtx");            // or generators.hpp's random_graph
//   auto r = lockstep::apsp<float>(ctx, g, {lockstep::ApspAlgorithm::generalized, 32, 4, true});
//   float d = r.distance(0, 7);  std::vector<int32_t> hops = r.path(0, 7);
#pragma once
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/graph.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep {
namespace tuning {
class Family;
}

enum class ApspAlgorithm { naive, blocked, generalized };
ApspAlgorithm parse_apsp_algorithm(const std::string& name);  // throws input_error
const char* to_string(ApspAlgorithm v);
using ApspVariant [[deprecated("use ApspAlgorithm")]] = ApspAlgorithm;
[[deprecated("use parse_apsp_algorithm")]] inline ApspAlgorithm parse_apsp_variant(
    const std::string& name) {
  return parse_apsp_algorithm(name);
}

struct ApspConfig {
  ApspAlgorithm algorithm = ApspAlgorithm::generalized;
  int tile = 0;  // r: 16, 32 or 64 (64 without paths); 0 = apsp_rule
  int K = 0;     // tiles per multi-tile (generalized); 0 = apsp_rule
  bool paths = false;
  int thread_tile = 0;  // bulk micro-tile columns per work-item (4 or 8); 0 = rule
  int thread_rows = 0;  // bulk micro-tile rows (4, 8 or 16; rows x columns <= 64); 0 = thread_tile
  int unroll = 0;       // bulk k-loop unroll inside a staged chunk (1, 2, 4, 8); 0 = rule
  int overlap = -1;     // 1: multi-tile k+1's phases on a second queue beside k's bulk; -1 = rule
};
/// The rule for tile, K and the bulk's micro-tile (tile 32, K*tile = 128; on GPUs without next
/// hops 8 x 8 unrolled twice beside the next multi-tile's phases, else 4 x 4: the fastest of the
/// H100 sweeps of tools/bench/apsp.sh at n = 8192, f32 and i32): fills the zero fields of
/// `requested`.
ApspConfig apsp_rule(const DeviceInfo& device, int32_t n, ApspConfig requested);

/// What apsp() runs for fields left 0: the entry `lockstep tune apsp` stored for this device, type,
/// paths flag and size class (next power of two of n), else apsp_rule.
template <typename T>
ApspConfig apsp_choose(const DeviceInfo& device, int32_t n, ApspConfig requested);

/// Floyd-Warshall as a tuning family (tuning.hpp) on g: parameters tile (16/32/64), K (tiles per
/// multi-tile, K*tile <= 256; 1 = blocked) and thread_tile (4/8), and around tile 32, K 4-8 the
/// bulk micro-tile rows, k-loop unroll and overlap; fastest of `repeat` runs each;
/// every candidate is checked against the reference distances (f32 within tolerance).
template <typename T>
std::unique_ptr<tuning::Family> apsp_family(Context& ctx, const Graph& g, bool paths,
                                            int repeat = 2);

template <typename T>
constexpr T apsp_infinity() {
  return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::max();
}

template <typename T>
struct ApspResult {
  int32_t n = 0;
  std::vector<T> dist;        // n x n row-major; apsp_infinity<T>() where unreachable
  std::vector<int32_t> next;  // with paths: next[u*n+v] = vertex after u towards v, -1 if none
  ApspConfig config;          // what ran (rule applied)
  double ms = 0;              // device time of the kernels (excluding transfers)
  // Device time per kernel, summed over its launches: naive, or lead, panel, cross (phases 1-3
  // inside a multi-tile's diagonal block), band, unband (the band pass, K > 1) and rest (the bulk
  // pass); ms minus their sum is the time between launches.
  std::map<std::string, double> kernel_ms;
  T distance(int32_t u, int32_t v) const { return dist[size_t(u) * n + v]; }
  bool reachable(int32_t u, int32_t v) const { return distance(u, v) != apsp_infinity<T>(); }
  /// The vertices u, ..., v of a shortest path; empty when unreachable. Needs paths.
  std::vector<int32_t> path(int32_t u, int32_t v) const;
};

/// All-pairs shortest paths on the device. T = float or int32_t. Integer weights need
/// (n-1)*max|w| < 2^28 (else input_error). Throws input_error on a negative cycle.
template <typename T>
ApspResult<T> apsp(Context& ctx, const Graph& g, ApspConfig config = {});

/// The same on the CPU: blocked Floyd-Warshall (tile 64) on `threads` std::threads (0 = all).
template <typename T>
ApspResult<T> apsp_cpu(const Graph& g, unsigned threads = 0, bool paths = false);

/// Size checks before allocation: refuses (input_error "WHERE: ...") an n-vertex run whose n x n
/// distance matrices (and next-hop matrices with paths), work and result, exceed host memory or,
/// given a device, whose distance matrix exceeds its largest buffer. apsp() and apsp_cpu() call
/// it; call it first to refuse before reading or generating a graph.
template <typename T>
void apsp_check_size(const std::string& where, int32_t n, bool paths,
                     const DeviceInfo* device = nullptr);

/// A negative cycle of g (its vertices in order), empty when there is none (Bellman-Ford from
/// a virtual source with cycle checks in the parent graph).
std::vector<int32_t> find_negative_cycle(const Graph& g);

}  // namespace lockstep
