// Sort key types, declared once: LOCKSTEP_KEY_TYPES lists each key type as (name, C++ type,
// cl/contract.h KEY_* value) in KeyType order; KeyType, key_type_of, with_key_type, the names,
// the library's instantiations and Python's dtype list (lockstep._lockstep.key_types) all come
// from it. A new key type is a line here, its KEY_* in cl/contract.h, its class (signed, float)
// in cl/sort_keys.cl (the bit transform, cl/sort_keys.h, serves the kernels and the host
// reference alike), and its text form in read_keys.
// Beside them the helpers every sort check shares (tests, `lockstep sort --verify`, the tuner):
// random_keys, key_bits and sort_verify.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace lockstep {

#define LOCKSTEP_KEY_TYPES(X) \
  X(u32, uint32_t, KEY_U32)   \
  X(i32, int32_t, KEY_I32)    \
  X(f32, float, KEY_F32)      \
  X(u64, uint64_t, KEY_U64)   \
  X(i64, int64_t, KEY_I64)    \
  X(f64, double, KEY_F64)

#define LOCKSTEP_KEY_ENUM(name, K, code) name,
enum class KeyType { LOCKSTEP_KEY_TYPES(LOCKSTEP_KEY_ENUM) };  // cl/contract.h KEY_*
#undef LOCKSTEP_KEY_ENUM

/// Every key type, in KeyType order.
const std::vector<KeyType>& all_key_types();
KeyType parse_key_type(const std::string& name);  // u32|i32|...; input_error
const char* to_string(KeyType t);
size_t key_bytes(KeyType t);

template <typename K>
struct KeyTypeOf;  // KeyTypeOf<K>::value: the KeyType of C++ type K (only key types have one)
#define LOCKSTEP_KEY_OF(name, K, code) \
  template <>                          \
  struct KeyTypeOf<K> : std::integral_constant<KeyType, KeyType::name> {};
LOCKSTEP_KEY_TYPES(LOCKSTEP_KEY_OF)
#undef LOCKSTEP_KEY_OF

template <typename K>
constexpr KeyType key_type_of() {
  return KeyTypeOf<K>::value;  // incomplete type: K is not a sort key type (LOCKSTEP_KEY_TYPES)
}

/// f(K{}) with K the C++ type of `type`, and its result: the one switch over key types.
template <typename F>
decltype(auto) with_key_type(KeyType type, F&& f) {
  switch (type) {
#define LOCKSTEP_KEY_CASE(name, K, code) \
  case KeyType::name:                    \
    return f(K{});
    LOCKSTEP_KEY_TYPES(LOCKSTEP_KEY_CASE)
#undef LOCKSTEP_KEY_CASE
  }
  throw std::invalid_argument("with_key_type: not a KeyType");
}

/// The bit pattern of a key (zero-extended to 64 bits): how sort checks compare keys (NaNs and
/// -0 included).
template <typename K>
uint64_t key_bits(K key) {
  uint64_t b = 0;
  static_assert(sizeof(K) <= sizeof(b));
  std::memcpy(&b, &key, sizeof(K));
  return b;
}

/// n keys from std::mt19937_64(seed): integers the generator's low bits (each draw r, or r % range
/// when range > 0: many equal keys); f32 r % 2000001 - 1000000 over 64 (steps of 1/64 in
/// +-15625, so equal keys occur), f64 (r >> 11) - 2^52 over 4096. No NaNs. The same keys for
/// a seed in the tests, `lockstep sort --n` and the tuner.
template <typename K>
std::vector<K> random_keys(size_t n, uint64_t seed, uint64_t range = 0);

/// What sort_verify found: keys not bitwise equal to the host reference's, and values wrong.
struct SortVerdict {
  size_t keys_wrong = 0, values_wrong = 0;
  bool ok() const { return keys_wrong == 0 && values_wrong == 0; }
};

/// The host reference of a sort of `in`: sort_cpu's keys, and its values when the values were
/// the input positions 0..n-1.
template <typename K>
struct SortReference {
  std::vector<K> keys;
  std::vector<uint32_t> values;
};
template <typename K>
SortReference<K> sort_reference(const std::vector<K>& in, bool descending);

/// Checks a device sort of `in` (order `descending`): `got` bitwise equal to sort_cpu's keys.
/// With values (the input positions 0..n-1, moved with their keys): `stable` (radix,
/// radix-persistent): exactly the stable reference's, so equal keys kept their order; else
/// (bitonic) every value an input position, used once, whose key (NaNs canonical) is the key
/// beside it. The second form takes the reference made once (the tuner checks many sorts).
template <typename K>
SortVerdict sort_verify(const std::vector<K>& in, const std::vector<K>& got,
                        const std::vector<uint32_t>* values, bool descending, bool stable);
template <typename K>
SortVerdict sort_verify(const std::vector<K>& in, const SortReference<K>& want,
                        const std::vector<K>& got, const std::vector<uint32_t>* values,
                        bool stable);

}  // namespace lockstep
