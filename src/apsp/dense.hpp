// Internal to src/apsp: the padded dense matrices that both the device and the CPU Floyd-Warshall
// work on, and the conversion back to an ApspResult (infinities normalized, negative cycles
// reported). Integers use infinity 2^30-1 and a floor of -2^30 (see cl/floyd_warshall.cl).
#pragma once
#include <type_traits>
#include <vector>

#include "lockstep/apsp.hpp"

namespace lockstep::detail {

/// Throws input_error for a configuration the kernels cannot run (after apsp_rule).
void apsp_validate(const ApspConfig& c);
/// The -D sets of a configuration: cl/floyd_warshall.cl (every tile kernel), and
/// cl/floyd_warshall_rest.cl's bulk (the micro-tile) and band pass (4 x 4).
struct ApspDefines {
  Defines tile, rest, band;
};
template <typename T>
ApspDefines apsp_defines(const ApspConfig& cfg, bool poison, bool gpu);

template <typename T>
constexpr T work_infinity() {
  if constexpr (std::is_integral_v<T>)
    return T((1 << 30) - 1);
  else
    return std::numeric_limits<T>::infinity();
}
template <typename T>
constexpr bool is_work_infinite(T v) {
  if constexpr (std::is_integral_v<T>)
    return v >= T(1 << 29);
  else
    return v == std::numeric_limits<T>::infinity();
}

/// N x N (N >= g.n) distances: infinity off the diagonal, 0 on it, each edge's minimum weight,
/// a negative self-loop kept. next (when non-null): j for an edge i -> j, i on the diagonal, -1
/// otherwise. Throws input_error for integer weights that are fractional or too large.
template <typename T>
void init_dense(const Graph& g, int32_t N, std::vector<T>& d, std::vector<int32_t>* next);

/// Crops the N x N work matrices to n x n into `r`; a negative diagonal throws input_error naming
/// a vertex on a negative cycle of g.
template <typename T>
void finish(const Graph& g, int32_t N, const std::vector<T>& d, const std::vector<int32_t>* next,
            ApspResult<T>& r);

}  // namespace lockstep::detail
