// Sort key types (lockstep/sort_keys.hpp): their names, sizes and the contract check, and the
// helpers every sort check shares: random_keys and sort_verify.
#include <random>

#include "cl/contract.h"
#include "lockstep/error.hpp"
#include "lockstep/sort.hpp"

namespace lockstep {

#define LOCKSTEP_KEY_CONTRACT(name, K, code) \
  static_assert(int(KeyType::name) == code, "KeyType::" #name " differs from cl/contract.h");
LOCKSTEP_KEY_TYPES(LOCKSTEP_KEY_CONTRACT)
#undef LOCKSTEP_KEY_CONTRACT

const std::vector<KeyType>& all_key_types() {
#define LOCKSTEP_KEY_VALUE(name, K, code) KeyType::name,
  static const std::vector<KeyType> all{LOCKSTEP_KEY_TYPES(LOCKSTEP_KEY_VALUE)};
#undef LOCKSTEP_KEY_VALUE
  return all;
}

const char* to_string(KeyType t) {
#define LOCKSTEP_KEY_NAME(name, K, code) #name,
  static const char* const names[] = {LOCKSTEP_KEY_TYPES(LOCKSTEP_KEY_NAME)};
#undef LOCKSTEP_KEY_NAME
  return names[int(t)];
}

KeyType parse_key_type(const std::string& name) {
  const std::vector<KeyType>& all = all_key_types();
  std::string expected;  // "u32, i32, ... or f64"
  for (size_t i = 0; i < all.size(); ++i) {
    if (name == to_string(all[i])) return all[i];
    expected += (i == 0                ? ""
                 : i + 1 == all.size() ? " or "
                                       : ", ") +
                std::string(to_string(all[i]));
  }
  throw input_error("unknown key type '" + name + "' (expected " + expected + ")");
}

size_t key_bytes(KeyType t) {
  return with_key_type(t, [](auto k) { return sizeof(k); });
}

template <typename K>
std::vector<K> random_keys(size_t n, uint64_t seed, uint64_t range) {
  std::mt19937_64 rng(seed);
  std::vector<K> v(n);
  for (auto& x : v) {
    const uint64_t r = range ? rng() % range : rng();
    if constexpr (std::is_same_v<K, float>)
      x = float(int64_t(r % 2000001) - 1000000) / 64.0f;
    else if constexpr (std::is_same_v<K, double>)
      x = double(int64_t(r >> 11) - (int64_t(1) << 52)) / 4096.0;
    else
      x = K(r);
  }
  return v;
}

template <typename K>
SortReference<K> sort_reference(const std::vector<K>& in, bool descending) {
  SortReference<K> want{in, std::vector<uint32_t>(in.size())};
  for (size_t i = 0; i < in.size(); ++i) want.values[i] = uint32_t(i);
  sort_cpu(want.keys, &want.values, descending);
  return want;
}

template <typename K>
SortVerdict sort_verify(const std::vector<K>& in, const SortReference<K>& want,
                        const std::vector<K>& got, const std::vector<uint32_t>* values,
                        bool stable) {
  const size_t n = in.size();
  SortVerdict v;
  for (size_t i = 0; i < n; ++i)
    v.keys_wrong += i >= got.size() || key_bits(got[i]) != key_bits(want.keys[i]);
  if (!values) return v;
  if (values->size() != n) {
    v.values_wrong = n;
    return v;
  }
  if (stable) {
    for (size_t i = 0; i < n; ++i) v.values_wrong += (*values)[i] != want.values[i];
    return v;
  }
  std::vector<char> seen(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t p = (*values)[i];
    if (p >= n || seen[p] || i >= got.size()) {
      ++v.values_wrong;
      continue;
    }
    seen[p] = 1;
    std::vector<K> one{in[p]};
    sort_cpu(one, nullptr, false);  // the canonical NaN, as the device returns it
    v.values_wrong += key_bits(one[0]) != key_bits(got[i]);
  }
  return v;
}

template <typename K>
SortVerdict sort_verify(const std::vector<K>& in, const std::vector<K>& got,
                        const std::vector<uint32_t>* values, bool descending, bool stable) {
  return sort_verify(in, sort_reference(in, descending), got, values, stable);
}

#define LOCKSTEP_KEYS_INSTANTIATE(name, K, code)                                      \
  template std::vector<K> random_keys<K>(size_t, uint64_t, uint64_t);                 \
  template SortReference<K> sort_reference<K>(const std::vector<K>&, bool);           \
  template SortVerdict sort_verify<K>(const std::vector<K>&, const std::vector<K>&,   \
                                      const std::vector<uint32_t>*, bool, bool);      \
  template SortVerdict sort_verify<K>(const std::vector<K>&, const SortReference<K>&, \
                                      const std::vector<K>&, const std::vector<uint32_t>*, bool);
LOCKSTEP_KEY_TYPES(LOCKSTEP_KEYS_INSTANTIATE)

}  // namespace lockstep
