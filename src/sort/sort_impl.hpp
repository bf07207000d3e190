// Internal to src/sort: the two algorithms behind lockstep::sort, and the -D set they share.
#pragma once
#include "lockstep/sort.hpp"

namespace lockstep::detail {

/// KEY_TYPE, DESCENDING and PAIRS for cl/sort_keys.cl.
Defines sort_key_defines(KeyType type, bool descending, bool pairs);

SortResult bitonic_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                        const SortOptions& opts, const cl::Buffer* values);
SortResult radix_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                      const SortOptions& opts, const cl::Buffer* values);

}  // namespace lockstep::detail
