// i64 and f64 keys: u64's radix sort with the sign / IEEE bit transforms of cl/sort_keys.cl,
// against the host reference (NaNs last in both orders as the canonical quiet NaN, -0 before +0,
// +-inf, INT64_MIN/MAX), keys and pairs, both orders; the CLI's --type i64/f64. Few variants:
// radix only (bitonic shares the transforms through sort_keys.cl).
#include <cmath>
#include <cstring>
#include <limits>

#include "cl/sort_keys.h"
#include "sort_support.hpp"

using namespace lockstep;
using namespace lockstep::sort_test;

TEST_CASE("sort: i64 and f64 keys (radix), NaN, -0.0, infinities and the extremes") {
  SortOptions o;
  o.algorithm = SortAlgorithm::radix;
  for (bool desc : {false, true}) {
    o.descending = desc;
    for (size_t n : {size_t(0), size_t(1), size_t(93), size_t(20000)}) {
      std::vector<int64_t> i = random_keys<int64_t>(n, n + 1);
      if (n > 3) {
        i[0] = std::numeric_limits<int64_t>::min(), i[1] = std::numeric_limits<int64_t>::max();
        i[2] = -1, i[3] = 0;
      }
      check_sort(i, o, /*pairs=*/desc, "i64");
      std::vector<double> f = random_keys<double>(n, n + 2);
      const double nan = std::nan(""), inf = INFINITY;
      for (size_t k = 0; k < n; k += 7) f[k] = (k % 3 == 0) ? nan : (k % 3 == 1) ? -0.0 : 0.0;
      if (n > 3) f[1] = inf, f[2] = -inf, f[3] = -nan;
      check_sort(f, o, /*pairs=*/!desc, "f64 with NaN, +-0, +-inf");
    }
  }
}

TEST_CASE("sort: i64 and f64 keys on the host reference, argsort and the type names") {
  std::vector<double> v = {3.5, std::nan(""), -0.0, 0.0, -1.0, -INFINITY};
  std::vector<double> want = v;
  sort_cpu(want, nullptr, false);
  CHECK(want[0] == -INFINITY);
  CHECK((want[2] == 0.0 && std::signbit(want[2])));
  CHECK((want[3] == 0.0 && !std::signbit(want[3])));
  CHECK(std::isnan(want[5]));
  SortOptions o;
  o.algorithm = SortAlgorithm::radix;
  const std::vector<uint32_t> perm = argsort(test::context(), v, o);
  CHECK(perm == std::vector<uint32_t>{5, 4, 2, 3, 0, 1});  // stable: -0 (2) before +0 (3)
  CHECK(parse_key_type("i64") == KeyType::i64);
  CHECK(parse_key_type("f64") == KeyType::f64);
  CHECK(key_bytes(KeyType::f64) == 8);
  CHECK(std::string(to_string(KeyType::i64)) == "i64");
  CHECK_THROWS_WITH_AS(parse_key_type("f16"), doctest::Contains("i64 or f64"), input_error);
}

// The one key list (lockstep/sort_keys.hpp) and the one sort check: sort_verify must fail on a
// wrong key bit (-0 for +0), on equal keys whose values swapped (stable sorts only) and on a
// value separated from its key. Host only.
TEST_CASE("sort: every key type round-trips; sort_verify finds a wrong key and a wrong value") {
  for (KeyType t : all_key_types()) {
    CHECK(parse_key_type(to_string(t)) == t);
    CHECK(with_key_type(t, [](auto k) { return key_type_of<decltype(k)>(); }) == t);
  }
  const std::vector<float> in = random_keys<float>(1000, 3, 50);  // 50 values: equal keys
  CHECK(key_bits(in[7]) == key_bits(random_keys<float>(1000, 3, 50)[7]));
  std::vector<float> got = in;
  std::vector<uint32_t> vals(in.size());
  for (size_t i = 0; i < vals.size(); ++i) vals[i] = uint32_t(i);
  sort_cpu(got, &vals, false);
  CHECK(sort_verify(in, got, &vals, false, true).ok());
  size_t eq = 0, ne = 0;  // a run of equal keys, and a key change
  while (key_bits(got[eq]) != key_bits(got[eq + 1])) ++eq;
  while (key_bits(got[ne]) == key_bits(got[ne + 1])) ++ne;
  std::vector<uint32_t> swapped = vals;
  std::swap(swapped[eq], swapped[eq + 1]);
  CHECK(sort_verify(in, got, &swapped, false, true).values_wrong == 2);  // not stable
  CHECK(sort_verify(in, got, &swapped, false, false).ok());              // still beside its key
  swapped = vals;
  std::swap(swapped[ne], swapped[ne + 1]);
  CHECK(sort_verify(in, got, &swapped, false, false).values_wrong == 2);  // pairs separated
  std::vector<float> zeros{0.0f, -0.0f}, wrong{0.0f, -0.0f};
  CHECK(sort_verify(zeros, wrong, nullptr, false, true).keys_wrong == 2);  // -0 comes first
  CHECK(sort_verify(zeros, wrong, nullptr, true, true).ok());
}

// cl/sort_keys.h, the one key transform of the kernels and the host reference: in both orders the
// transformed bits of every key type order the keys as numbers (-0 before +0, NaNs last), and
// the inverse returns every number and the canonical quiet NaN. Host only.
namespace {
template <typename K, typename U>
void check_transform(std::vector<K> keys, U sign, U inf, U max, U qnan) {
  constexpr bool is_signed = std::is_same_v<K, int32_t> || std::is_same_v<K, int64_t>;
  constexpr bool is_float = std::is_floating_point_v<K>;
  for (bool desc : {false, true}) {
    CAPTURE(desc);
    std::vector<U> bits;
    for (K k : keys) {
      U x;
      std::memcpy(&x, &k, sizeof x);
      const U y = SORT_KEY_IN(x, sign, inf, max, is_signed, is_float, desc);
      bits.push_back(y);
      const U back = SORT_KEY_OUT(y, sign, max, qnan, is_signed, is_float, desc);
      CHECK(back == (is_float && k != k ? qnan : x));
    }
    // keys are listed in ascending order (NaNs last): the bits must be too, or reversed
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
      CAPTURE(i);
      if (is_float && keys[i + 1] != keys[i + 1])
        CHECK(bits[i + 1] == max);  // NaN: last in both orders
      else
        CHECK((desc ? bits[i] > bits[i + 1] : bits[i] < bits[i + 1]));
    }
  }
}
}  // namespace

TEST_CASE("sort: cl/sort_keys.h orders every key type's bits as its numbers, both ways") {
  using L32 = std::numeric_limits<int32_t>;
  using L64 = std::numeric_limits<int64_t>;
  check_transform<uint32_t, uint32_t>({0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu},
                                      SORT_KEY_SIGN32, SORT_KEY_INF32, SORT_KEY_MAX32,
                                      SORT_KEY_QNAN32);
  check_transform<int32_t, uint32_t>({L32::min(), -2, -1, 0, 1, L32::max()}, SORT_KEY_SIGN32,
                                     SORT_KEY_INF32, SORT_KEY_MAX32, SORT_KEY_QNAN32);
  check_transform<float, uint32_t>({-INFINITY, -3.5f, -std::numeric_limits<float>::denorm_min(),
                                    -0.0f, 0.0f, 1e-40f, 2.0f, INFINITY, std::nanf("")},
                                   SORT_KEY_SIGN32, SORT_KEY_INF32, SORT_KEY_MAX32,
                                   SORT_KEY_QNAN32);
  check_transform<uint64_t, uint64_t>({0ull, 1ull, ~0ull >> 1, 1ull << 63, ~0ull - 1},
                                      SORT_KEY_SIGN64, SORT_KEY_INF64, SORT_KEY_MAX64,
                                      SORT_KEY_QNAN64);
  check_transform<int64_t, uint64_t>({L64::min(), -1, 0, 1, L64::max()}, SORT_KEY_SIGN64,
                                     SORT_KEY_INF64, SORT_KEY_MAX64, SORT_KEY_QNAN64);
  check_transform<double, uint64_t>(
      {-INFINITY, -1e300, -0.0, 0.0, 5e-324, 1.0, INFINITY, -std::nan("")}, SORT_KEY_SIGN64,
      SORT_KEY_INF64, SORT_KEY_MAX64, SORT_KEY_QNAN64);
}
