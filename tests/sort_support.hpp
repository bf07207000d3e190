// The sort tests' shared helper (test_sort.cpp, test_sort_persistent.cpp): check_sort, which
// sorts on the device and checks with sort_verify (radix sorts: exactly the stable result,
// values included; bitonic: sorted keys, and every value still beside its own key). Random keys
// and key bits are the library's (lockstep/sort_keys.hpp).
#pragma once
#include <vector>

#include "lockstep/sort.hpp"
#include "sort/sort_impl.hpp"
#include "support.hpp"

namespace lockstep::sort_test {

using lockstep::random_keys;  // lockstep/sort_keys.hpp: the keys of a seed, as the CLI's

// Sorts keys (and values 0..n-1) on the device (with `radix`: detail::radix_sort, or
// detail::radix_persistent_sort when opts names radix-persistent, with those parameters, else
// lockstep::sort) and checks against the reference; returns what ran.
template <typename K>
inline SortResult check_sort(const std::vector<K>& in, const SortOptions& opts, bool pairs,
                             const char* what, const detail::RadixParams* radix = nullptr) {
  Context& ctx = test::context();
  std::vector<K> keys = in;
  std::vector<uint32_t> vals(in.size());
  for (size_t i = 0; i < in.size(); ++i) vals[i] = uint32_t(i);

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
  // radix is stable: values equal std::stable_sort's; bitonic: each value beside its own key
  const bool stable = r.algorithm != SortAlgorithm::bitonic;
  const SortVerdict v = sort_verify(in, keys, pairs ? &vals : nullptr, opts.descending, stable);
  CHECK_MESSAGE(v.keys_wrong == 0, v.keys_wrong, " keys out of place");
  CHECK_MESSAGE(v.values_wrong == 0, v.values_wrong,
                stable ? " values differ from std::stable_sort's" : " pairs separated");
  return r;
}

}  // namespace lockstep::sort_test
