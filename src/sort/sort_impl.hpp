// Internal to src/sort: the two algorithms behind lockstep::sort, and the -D set they share.
#pragma once
#include "lockstep/sort.hpp"

namespace lockstep::detail {

/// KEY_TYPE, DESCENDING and PAIRS for cl/sort_keys.cl.
Defines sort_key_defines(KeyType type, bool descending, bool pairs);

/// The tuning-database key of a problem: "<type>/<keys|pairs>/n<n rounded up to 2^k>".
std::string sort_db_key(KeyType type, bool pairs, size_t n);
/// Resolves `automatic` in o: the stored measurement of this size class, else sort_rule.
SortOptions sort_choose(const DeviceInfo& device, KeyType type, size_t n, bool pairs,
                        SortOptions o);

SortResult bitonic_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                        const SortOptions& opts, const cl::Buffer* values);
SortResult radix_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                      const SortOptions& opts, const cl::Buffer* values);

}  // namespace lockstep::detail
