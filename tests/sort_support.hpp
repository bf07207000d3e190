// The sort tests' shared helpers (test_sort.cpp, test_sort_persistent.cpp): random keys of
// every type, their bit patterns, and check_sort, which sorts on the device and compares with
// the host reference sort_cpu (radix sorts: exactly the stable result, values included;
// bitonic: sorted keys, and every value still beside its own key).
#pragma once
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "lockstep/sort.hpp"
#include "sort/sort_impl.hpp"
#include "support.hpp"

namespace lockstep::sort_test {

template <typename K>
inline std::vector<K> random_keys(size_t n, uint64_t seed, uint64_t range = 0) {
  std::mt19937_64 rng(seed);
  std::vector<K> v(n);
  for (auto& x : v) {
    uint64_t r = range ? rng() % range : rng();
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
inline std::vector<uint64_t> bits(const std::vector<K>& v) {
  std::vector<uint64_t> b(v.size(), 0);
  for (size_t i = 0; i < v.size(); ++i) std::memcpy(&b[i], &v[i], sizeof(K));
  return b;
}

// Sorts keys (and values 0..n-1) on the device (with `radix`: detail::radix_sort, or
// detail::radix_persistent_sort when opts names radix-persistent, with those parameters, else
// lockstep::sort) and checks against the reference; returns what ran.
template <typename K>
inline SortResult check_sort(const std::vector<K>& in, const SortOptions& opts, bool pairs,
                             const char* what, const detail::RadixParams* radix = nullptr) {
  Context& ctx = test::context();
  std::vector<K> keys = in, want = in;
  std::vector<uint32_t> vals(in.size()), want_vals(in.size());
  for (size_t i = 0; i < in.size(); ++i) vals[i] = want_vals[i] = uint32_t(i);
  sort_cpu(want, pairs ? &want_vals : nullptr, opts.descending);

  SortResult r;
  if (radix) {
    cl::Buffer kb = upload(ctx.queue(), keys), vb = upload(ctx.queue(), vals);
    r = opts.algorithm == SortAlgorithm::radix_persistent
            ? *detail::radix_persistent_sort(ctx, key_type_of<K>(), kb, in.size(), opts, *radix,
                                             pairs ? &vb : nullptr)
            : detail::radix_sort(ctx, key_type_of<K>(), kb, in.size(), opts.descending, *radix,
                                 pairs ? &vb : nullptr);
    keys = download<K>(ctx.queue(), kb, in.size());
    vals = download<uint32_t>(ctx.queue(), vb, in.size());
  } else {
    r = pairs ? sort(ctx, keys, vals, opts) : sort(ctx, keys, opts);
  }

  INFO(what, " n=", in.size(), " type=", to_string(key_type_of<K>()), " desc=", opts.descending,
       " pairs=", pairs, " algorithm=", to_string(r.algorithm), " barrier=", r.barrier,
       " groups=", r.groups);
  const auto got = bits(keys), exp = bits(want);
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += got[i] != exp[i];
  CHECK_MESSAGE(bad == 0, bad, " keys out of place");
  if (!pairs) return r;
  if (r.algorithm == SortAlgorithm::radix || r.algorithm == SortAlgorithm::radix_persistent) {
    CHECK_MESSAGE(vals == want_vals, "radix is stable: values must match std::stable_sort");
  } else {  // not stable: every value still sits beside its own key
    size_t lost = 0;
    std::vector<char> seen(in.size(), 0);
    for (size_t i = 0; i < vals.size(); ++i) {
      const uint32_t v = vals[i];
      if (v >= in.size() || seen[v]) {
        ++lost;
        continue;
      }
      seen[v] = 1;
      std::vector<K> one{in[v]};
      sort_cpu(one, nullptr, false);  // canonical NaN, as the device returns it
      lost += bits(one)[0] != got[i];
    }
    CHECK_MESSAGE(lost == 0, lost, " pairs separated from their keys");
  }
  return r;
}

}  // namespace lockstep::sort_test
