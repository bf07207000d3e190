// i64 and f64 keys: u64's radix sort with the sign / IEEE bit transforms of cl/sort_keys.cl,
// against the host reference (NaNs last in both orders as the canonical quiet NaN, -0 before +0,
// +-inf, INT64_MIN/MAX), keys and pairs, both orders; the CLI's --type i64/f64. Few variants:
// radix only (bitonic shares the transforms through sort_keys.cl).
#include <cmath>
#include <limits>

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
