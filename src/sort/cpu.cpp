// The host reference for lockstep::sort: the kernels' key transform (cl/sort_keys.h, included by
// cl/sort_keys.cl too, so the reference orders f32 and f64 exactly as the device does: -0 before
// +0, NaNs last in both orders, returned as the canonical quiet NaN), then a stable sort of (key,
// value) by transformed key: libstdc++'s parallel mode (__gnu_parallel::stable_sort, OpenMP) where
// built with OpenMP, so that verifying 2^27 keys takes seconds on a many-core host;
// std::stable_sort otherwise.
#include <algorithm>
#if defined(_OPENMP) && defined(__GLIBCXX__)
#include <parallel/algorithm>
#define LOCKSTEP_STABLE_SORT __gnu_parallel::stable_sort
#else
#define LOCKSTEP_STABLE_SORT std::stable_sort
#endif
#include <cstring>
#include <numeric>

#include "cl/sort_keys.h"
#include "lockstep/sort.hpp"

namespace lockstep {
namespace {

template <typename K>
constexpr bool kSigned = std::is_integral_v<K>&& std::is_signed_v<K>;
template <typename K>
constexpr bool kFloat = std::is_floating_point_v<K>;

template <typename K>
using Bits = std::conditional_t<sizeof(K) == 8, uint64_t, uint32_t>;
// cl/sort_keys.h's constants of K's width
template <typename K>
constexpr Bits<K> kSign = sizeof(K) == 8 ? Bits<K>(SORT_KEY_SIGN64) : Bits<K>(SORT_KEY_SIGN32);
template <typename K>
constexpr Bits<K> kInf = sizeof(K) == 8 ? Bits<K>(SORT_KEY_INF64) : Bits<K>(SORT_KEY_INF32);
template <typename K>
constexpr Bits<K> kQnan = sizeof(K) == 8 ? Bits<K>(SORT_KEY_QNAN64) : Bits<K>(SORT_KEY_QNAN32);

template <typename K>
uint64_t sortable_bits(K key, bool descending) {
  Bits<K> x;
  std::memcpy(&x, &key, sizeof x);
  return SORT_KEY_IN(x, kSign<K>, kInf<K>, Bits<K>(~Bits<K>(0)), kSigned<K>, kFloat<K>, descending);
}

}  // namespace

template <typename K>
void sort_cpu(std::vector<K>& keys, std::vector<uint32_t>* values, bool descending) {
  const size_t n = keys.size();
  if (values && values->size() != n) throw input_error("sort_cpu: values and keys differ in size");
  std::vector<std::pair<uint64_t, size_t>> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = {sortable_bits(keys[i], descending), i};
  LOCKSTEP_STABLE_SORT(order.begin(), order.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<K> k(n);
  std::vector<uint32_t> v(values ? n : 0);
  for (size_t i = 0; i < n; ++i) {
    k[i] = keys[order[i].second];
    if constexpr (kFloat<K>)
      if (k[i] != k[i]) {  // NaNs come back as the canonical quiet NaN, as from the device
        std::memcpy(&k[i], &kQnan<K>, sizeof(K));
      }
    if (values) v[i] = (*values)[order[i].second];
  }
  keys.swap(k);
  if (values) values->swap(v);
}

#define LOCKSTEP_SORT_CPU_INSTANTIATE(name, K, code) \
  template void sort_cpu<K>(std::vector<K>&, std::vector<uint32_t>*, bool);
LOCKSTEP_KEY_TYPES(LOCKSTEP_SORT_CPU_INSTANTIATE)

}  // namespace lockstep
