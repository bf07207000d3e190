// Sorting on an OpenCL device: keys (u32, i32, f32, u64, i64, f64), optionally with u32 values or
// as an index permutation (argsort), ascending or descending, any n >= 0. Three algorithms:
//  - bitonic (the seed paper's persistent application): tiles sorted in local memory, then the
//    global stages either one launch per pass (relaunch) or all in ONE persistent kernel with a
//    global barrier (lock, grouped-lock, lock-free, tree) through PersistentKernel. Not stable.
//  - radix: LSD radix sort in the style of Onesweep (8-bit digits, one histogram pass, one pass
//    per digit with decoupled look-back, passes whose digit is the same for every key skipped;
//    small n in one launch of one work-group; CPU devices without look-back). Stable. n < 2^30.
//  - radix-persistent: the same LSD sort in ONE persistent launch (PersistentKernel: a global
//    barrier between a pass's counting and its scatter; a tile per co-resident work-group, kept
//    in registers and sorted in place), for the mid range (GPUs: past one group's tile up to
//    about a tile of 4 keys per work-item per compute unit). Stable. n < 2^30.
// f32 and f64 order: -inf < ... < -0 < +0 < ... < +inf, NaNs last (in both orders; returned as
// the canonical quiet NaN 0x7FC00000, f64 0x7FF8000000000000). i64 and f64 keys are u64's sort
// with a bit transform in and out (cl/sort_keys.cl). Descending is the exact reverse order (NaNs
// still last).
//
//   lockstep::Context ctx;
//   std::vector<float> v = {...};
//   lockstep::sort(ctx, v);                                          // ascending, auto
//   lockstep::sort(ctx, keys, values, {lockstep::SortAlgorithm::radix});
//   std::vector<uint32_t> perm = lockstep::argsort(ctx, v);           // stable (radix unless set)
//   lockstep::sort(ctx, lockstep::KeyType::u32, buf, n, opts);        // device buffer in place
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/persistent.hpp"
#include "lockstep/runtime.hpp"
#include "lockstep/sort_keys.hpp"

namespace lockstep {
namespace tuning {
class Family;
}

enum class SortAlgorithm { automatic, bitonic, radix, radix_persistent };
// auto|bitonic|radix|radix-persistent; input_error
SortAlgorithm parse_sort_algorithm(const std::string& name);
const char* to_string(SortAlgorithm a);

struct SortOptions {
  SortAlgorithm algorithm = SortAlgorithm::automatic;
  bool descending = false;
  BarrierChoice barrier;  // bitonic, radix-persistent: auto (empty) or a barrier strategy,
                          // relaunch included
  int tile = 0;           // bitonic: elements per local tile (power of two); 0 = rule
  int local_size = 0;     // bitonic work-group size; 0 = rule (radix: its own rule)
  int fuse = 0;           // bitonic: global strides fused per pass, 1..3; 0 = rule (3)
  int groups = 0;         // bitonic, radix-persistent: work-groups; 0 = min(tiles, co-resident)
  int items = 0;          // radix, radix-persistent: keys per work-item per tile; 0 = rule
};

/// What ran, and how long the device took (first kernel start to last kernel end).
struct SortResult {
  SortAlgorithm algorithm = SortAlgorithm::bitonic;
  std::string barrier = "none";  // bitonic: the barrier strategy; radix: "onesweep" (look-back),
                                 // "count-scan" (CPU devices) or "one-group" (small n);
                                 // radix-persistent: the barrier strategy, "+reload" when
                                 // groups < tiles or relaunch (tiles ranked twice, not held)
  int groups = 0, tile = 0, phases = 0;
  double ms = 0;
  // Device time per kernel (summed over its launches): radix "hist", "pass0".., "count", "scan",
  // "small"; ms minus their sum is the time between launches.
  std::map<std::string, double> kernel_ms;
};

/// The algorithm `automatic` picks without a tuning entry (a rule; see README "Sorting"): on GPUs
/// radix-persistent for the mid range, else radix.
SortAlgorithm sort_rule(const DeviceInfo& device, KeyType type, size_t n, bool pairs);

/// The sort as a tuning family (tuning.hpp) for n random_keys: parameters algorithm (radix;
/// radix-persistent with "items" where its tiles fit the compute units; or bitonic with each
/// barrier strategy: "barrier"), fastest of `repeat` runs each, checked by sort_verify. Key
/// "<type>/<keys|pairs>/n<n rounded up to 2^k>"; `automatic` reads the stored entry of the size
/// class before falling back to sort_rule.
std::unique_ptr<tuning::Family> sort_family(Context& ctx, KeyType type, bool pairs, size_t n,
                                            int repeat = 3);

/// Sorts n keys of `type` in `keys` in place; with `values` (n u32), moves them with their keys.
SortResult sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                const SortOptions& opts = {}, const cl::Buffer* values = nullptr);

template <typename K>
SortResult sort(Context& ctx, std::vector<K>& keys, const SortOptions& opts = {});
template <typename K>
SortResult sort(Context& ctx, std::vector<K>& keys, std::vector<uint32_t>& values,
                const SortOptions& opts = {});
/// The permutation that sorts `keys`: keys[perm[0]] <= keys[perm[1]] <= ...; stable (automatic
/// means a radix sort here), unless opts names bitonic.
template <typename K>
std::vector<uint32_t> argsort(Context& ctx, const std::vector<K>& keys,
                              const SortOptions& opts = {}, SortResult* result = nullptr);

/// Keys from a file (read_input: files, pipes, `-`, gzip): text with one number a line (blank
/// lines skipped; f32 also takes nan/inf), or with `binary` raw little-endian K values. Throws
/// input_error "PATH:LINE: ..." for a line that is not a K, "PATH: ..." for a bad binary size.
template <typename K>
std::vector<K> read_keys(const std::string& path, bool binary);

/// The host reference (std::stable_sort on the same key order, NaNs canonicalised as on the
/// device): what tests and `lockstep sort --verify` compare against.
template <typename K>
void sort_cpu(std::vector<K>& keys, std::vector<uint32_t>* values, bool descending);

}  // namespace lockstep
