// lockstep::sort: the algorithms' names, the `automatic` rule, the shared key -D set, dispatch to
// bitonic, radix or radix-persistent, and the host-vector overloads (upload, sort in place,
// download).
#include <numeric>
#include <tuple>

#include "lockstep/kernel_builds.hpp"
#include "runtime/defaults.hpp"
#include "sort_impl.hpp"

namespace lockstep {

SortAlgorithm parse_sort_algorithm(const std::string& name) {
  if (name == "auto") return SortAlgorithm::automatic;
  if (name == "bitonic") return SortAlgorithm::bitonic;
  if (name == "radix") return SortAlgorithm::radix;
  if (name == "radix-persistent") return SortAlgorithm::radix_persistent;
  throw input_error("unknown sort algorithm '" + name +
                    "' (expected auto, bitonic, radix or radix-persistent)");
}

const char* to_string(SortAlgorithm a) {
  switch (a) {
    case SortAlgorithm::automatic:
      return "auto";
    case SortAlgorithm::bitonic:
      return "bitonic";
    case SortAlgorithm::radix_persistent:
      return "radix-persistent";
    default:
      return "radix";
  }
}

// The rule until measurements on the target device set it (tools/bench/sort.sh): radix, and on
// GPUs radix-persistent above what radix's one-group sort holds (local size x small_items keys)
// up to radix_persistent_max, where the Onesweep passes cost five or more launches (~6 us
// between launches on the H100); sort() runs it only where co-resident groups hold every tile
// (HELD=1), else Onesweep. H100, u32 keys, one group / persistent / CUB SortKeys, us: 2^10 9.6 /
// 20.0 / 14.6, 2^12 14.5 / 22.3 / 15.4, 2^13 (above one group's 7680) - / 24.4 / 49.2;
// persistent / radix / CUB, ms: 2^17 0.031 / 0.094 / 0.066, 2^19 0.041 / 0.106 / 0.081, 2^20
// 0.061 / 0.099 / 0.094, 2^21 0.119 (24 keys per work-item) / 0.139 / 0.120; pairs 2^19 0.057 /
// 0.099 / 0.090 (2^20 pairs: 13 keys per work-item fit, too few to hold); u64 2^19 0.111 /
// 0.176 (Thrust 0.332). Radix is stable, O(n) per pass; CPU devices run it without look-back (no
// spinning), where the persistent bitonic sort's global barrier spins: measured on PoCL 3.1 (2
// cores, loaded), 100003 pairs took 3.7 ms (radix) against 112 ms (bitonic, lock), 4096 pairs
// 0.04 against 0.29 ms. Its numbers are the defaults table's "Sort" entries (runtime/defaults.cpp).
SortAlgorithm sort_rule(const DeviceInfo& device, KeyType type, size_t n, bool pairs) {
  const defaults::Sort rule = defaults::lookup<defaults::Sort>(device);
  const detail::RadixParams p = detail::radix_params(device, type, pairs, 0);
  const size_t one =
      p.small_items ? size_t(p.local_size) * size_t(p.small_items) : rule.persistent_min;
  if (rule.persistent && n > one && n <= detail::radix_persistent_max(device, p, type, pairs))
    return SortAlgorithm::radix_persistent;
  return SortAlgorithm::radix;
}

namespace detail {
Defines sort_key_defines(KeyType type, bool descending, bool pairs) {
  Defines d;
  d.set("KEY_TYPE", static_cast<long long>(type)).set("DESCENDING", descending ? 1 : 0);
  d.set("PAIRS", pairs ? 1 : 0);
  return d;
}

// Every key type, keys and pairs, both orders. Radix: the rule's parameters (radix_params),
// its one-group kernel and the tiled one. Radix-persistent: every ITEMS its rule and the tuner
// give (1, 2, 4, .. up to the rule's), HELD 1 and 0, and on GPUs radix_persistent_larger's (HELD
// 1), under the lock barrier (every strategy for u32 keys at ITEMS=1; HELD=1 never under
// relaunch). Bitonic (the default work-group size): the
// automatic tile of a large input under every barrier strategy (PersistentKernel's builds), and
// under the lock barrier (the GPU default) descending order, the small-input tile and the other
// fusion depths.
void sort_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  const int local = int(std::min<size_t>(256, d.max_work_group_size));
  for (KeyType t : all_key_types())
    for (bool pairs : {false, true}) {
      const RadixParams p = radix_params(d, t, pairs, 0);
      for (bool desc : {false, true})
        for (bool small : {true, false}) {
          if (small && p.small_items == 0) continue;
          // min_tiles (small n) shortens tiles to 4, 8, ... keys per work-item; on GPUs the one
          // group holds 1, 2, 4, .. small_items
          const RadixParams q = small ? p : onesweep_shape(p);
          std::vector<int> items{small ? q.small_items : q.items};
          for (int i = 4; !small && q.min_tiles > 0 && i < q.items; i += 4) items.push_back(i);
          for (int i = 1; small && d.is_gpu() && i < q.small_items; i *= 2) items.push_back(i);
          for (int i : items)
            out.push_back({"sort/radix", small ? "radix_small.cl" : "radix.cl",
                           radix_defines(d, t, desc, pairs, q, small, i).options()});
        }
      // the rule's ladder, then (GPUs, HELD=1 only) the larger tiles of the sort's second try
      const int most = std::min(p.items, radix_persistent_fit(d, p, t, pairs));
      std::vector<int> ladder;
      for (int i = 1; i < most; i *= 2) ladder.push_back(i);
      ladder.push_back(most);
      for (int i : radix_persistent_larger(d, p, t, pairs, most)) ladder.push_back(i);
      for (bool desc : {false, true})
        for (int i : ladder) {
          const bool every = t == KeyType::u32 && !pairs && !desc && i == 1;
          for (bool held : {true, false}) {
            if (!held && i > most) continue;
            std::vector<KernelBuild> b;
            persistent_kernel_builds(d, "sort/radix-persistent", "radix_persistent.cl",
                                     radix_persistent_defines(t, desc, pairs, p, i, held),
                                     p.local_size, b, every);
            for (KernelBuild& k : b)  // HELD=1 needs an in-kernel barrier
              if (!held || k.options.find("-D BARRIER_STRATEGY=0") == std::string::npos)
                out.push_back(std::move(k));
          }
        }
      const size_t elem = key_bytes(t) + (pairs ? 4 : 0);
      const int big = bitonic_tile(d, elem, local, size_t(1) << 30);
      const int small = bitonic_tile(d, elem, local, size_t(2 * local));
      persistent_kernel_builds(d, "sort/bitonic", "bitonic.cl",
                               bitonic_defines(t, false, pairs, big, 3), local, out);
      for (auto [desc, tile, fuse] :
           {std::tuple{true, big, 3}, {false, small, 3}, {false, big, 1}, {false, big, 2}})
        persistent_kernel_builds(d, "sort/bitonic", "bitonic.cl",
                                 bitonic_defines(t, desc, pairs, tile, fuse), local, out, false);
    }
}
}  // namespace detail

SortResult sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                const SortOptions& opts, const cl::Buffer* values) {
  // radix has no global barrier: opts.barrier does not apply to it (reported as "onesweep")
  const bool pairs = values != nullptr;
  const SortOptions o = detail::sort_choose(ctx.info(), type, n, pairs, opts);
  if (o.algorithm == SortAlgorithm::bitonic)
    return detail::bitonic_sort(ctx, type, keys, n, o, values);
  // the rule's radix-persistent (automatic, no items from a tuned entry) only where it holds its
  // tiles; a tuned or forced one reloads when it must
  if (o.algorithm == SortAlgorithm::radix_persistent) {
    const bool by_rule = opts.algorithm == SortAlgorithm::automatic && !o.items;
    const detail::RadixParams p = detail::radix_params(ctx.info(), type, pairs, 0);
    if (auto r = detail::radix_persistent_sort(ctx, type, keys, n, o, p, values, by_rule))
      return *r;
  }
  return detail::radix_sort(ctx, type, keys, n, o.descending,
                            detail::radix_params(ctx.info(), type, pairs, o.items), values);
}

template <typename K>
SortResult sort(Context& ctx, std::vector<K>& keys, const SortOptions& opts) {
  cl::Buffer b = upload(ctx.queue(), keys);
  SortResult r = sort(ctx, key_type_of<K>(), b, keys.size(), opts);
  keys = download<K>(ctx.queue(), b, keys.size());
  return r;
}

template <typename K>
SortResult sort(Context& ctx, std::vector<K>& keys, std::vector<uint32_t>& values,
                const SortOptions& opts) {
  if (values.size() != keys.size())
    throw input_error("sort: " + std::to_string(values.size()) + " values for " +
                      std::to_string(keys.size()) + " keys");
  cl::Buffer kb = upload(ctx.queue(), keys), vb = upload(ctx.queue(), values);
  SortResult r = sort(ctx, key_type_of<K>(), kb, keys.size(), opts, &vb);
  keys = download<K>(ctx.queue(), kb, keys.size());
  values = download<uint32_t>(ctx.queue(), vb, keys.size());
  return r;
}

template <typename K>
std::vector<uint32_t> argsort(Context& ctx, const std::vector<K>& keys, const SortOptions& opts,
                              SortResult* result) {
  std::vector<K> k = keys;
  std::vector<uint32_t> perm(keys.size());
  std::iota(perm.begin(), perm.end(), 0u);
  SortOptions o = opts;  // stable whatever automatic would pick: a radix sort
  if (o.algorithm == SortAlgorithm::automatic) {
    o = detail::sort_choose(ctx.info(), key_type_of<K>(), keys.size(), true, o);
    if (o.algorithm == SortAlgorithm::bitonic) o.algorithm = SortAlgorithm::radix;
  }
  SortResult r = sort(ctx, k, perm, o);
  if (result) *result = r;
  return perm;
}

#define LOCKSTEP_SORT_INSTANTIATE(name, K, code)                                                 \
  template SortResult sort<K>(Context&, std::vector<K>&, const SortOptions&);                    \
  template SortResult sort<K>(Context&, std::vector<K>&, std::vector<uint32_t>&,                 \
                              const SortOptions&);                                               \
  template std::vector<uint32_t> argsort<K>(Context&, const std::vector<K>&, const SortOptions&, \
                                            SortResult*);
LOCKSTEP_KEY_TYPES(LOCKSTEP_SORT_INSTANTIATE)

}  // namespace lockstep
