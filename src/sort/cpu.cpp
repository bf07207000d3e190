// The host reference for lockstep::sort: the key transform of cl/sort_keys.cl written once more
// in C++ (so the reference orders f32 and f64 exactly as the device does: -0 before +0, NaNs last
// in both orders, returned as 0x7FC00000 / 0x7FF8000000000000), then a stable sort of (key, value)
// by transformed key: libstdc++'s parallel mode (__gnu_parallel::stable_sort, OpenMP) where built
// with OpenMP, so that verifying 2^27 keys takes seconds on a many-core host; std::stable_sort
// otherwise.
#include <algorithm>
#if defined(_OPENMP) && defined(__GLIBCXX__)
#include <parallel/algorithm>
#define LOCKSTEP_STABLE_SORT __gnu_parallel::stable_sort
#else
#define LOCKSTEP_STABLE_SORT std::stable_sort
#endif
#include <cstring>
#include <numeric>

#include "lockstep/sort.hpp"

namespace lockstep {
namespace {

template <typename K>
uint64_t sortable_bits(K key, bool descending) {
  uint64_t x;
  if constexpr (sizeof(K) == 8) {
    std::memcpy(&x, &key, 8);
    constexpr uint64_t sign = uint64_t(1) << 63;
    if constexpr (std::is_same_v<K, int64_t>) x ^= sign;
    if constexpr (std::is_same_v<K, double>) {
      if ((x & ~sign) > 0x7FF0000000000000ull) return ~uint64_t(0);  // NaN: last in both orders
      x = (x & sign) ? ~x : (x | sign);
    }
  } else {
    uint32_t u;
    std::memcpy(&u, &key, 4);
    if constexpr (std::is_same_v<K, int32_t>) u ^= 0x80000000u;
    if constexpr (std::is_same_v<K, float>) {
      if ((u & 0x7FFFFFFFu) > 0x7F800000u) return ~uint64_t(0);  // NaN: last in both orders
      u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    }
    x = u;
  }
  return descending ? (sizeof(K) == 8 ? ~x : (~x & 0xFFFFFFFFu)) : x;
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
    if constexpr (std::is_same_v<K, float>)
      if (k[i] != k[i]) {
        const uint32_t nan = 0x7FC00000u;
        std::memcpy(&k[i], &nan, 4);
      }
    if constexpr (std::is_same_v<K, double>)
      if (k[i] != k[i]) {
        const uint64_t nan = 0x7FF8000000000000ull;
        std::memcpy(&k[i], &nan, 8);
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
