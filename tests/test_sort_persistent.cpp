// The persistent radix sort (cl/radix_persistent.cl) against the host reference (sort_cpu):
// every key type and order, keys and pairs (exactly the stable result), sizes around the
// crossovers (one tile, 2^16 +- 1, 100003, 2^17), both of its modes: held (a group per tile, the
// tile kept in registers and written in place; here n <= 2 tiles on a 2-core PoCL) and reload
// (fewer co-resident groups than tiles, or relaunch: each tile ranked again and written to the
// scratch buffer, an odd number of moving passes copied back); pass skipping (no pass, one, two,
// pass 0 skipped after its ranking), f32 NaNs canonicalised when nothing moves; the GPU's wave
// ranking (lanes emulated in local memory) on the OpenCL C 1.2 ordering path NVIDIA runs; the
// automatic rule and the tuning database's choice.
// Cross-group data (every tile's counts, every group's AND/OR words, the keys other groups
// stored) is read with ordinary loads after global_barrier() only, whose plain-load guarantee
// test_barrier.cpp (barrier_bench's neighbour checks, every strategy and ordering path) and
// test_persistent.cpp already test: no new protocol.
// -D variants are few on purpose (PoCL compiles each with LLVM): on CPUs every case uses 128 keys
// per work-item (the CPU rule's tile, 2048 keys, which `lockstep sort` picks from 4097 keys on).
#include <cmath>
#include <cstdlib>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/tuning.hpp"
#include "sort_support.hpp"

using namespace lockstep;
using sort_test::check_sort;
using sort_test::random_keys;

namespace {

// The options of every case: radix-persistent, 128 keys per work-item on CPUs (one -D variant
// per type, order and pairs), the rule's on GPUs.
SortOptions persistent(bool descending = false) {
  SortOptions o;
  o.algorithm = SortAlgorithm::radix_persistent;
  o.descending = descending;
  o.items = test::context().info().is_gpu() ? 0 : 128;
  return o;
}

// Held mode exactly when every tile has its own group under an in-kernel barrier.
void check_mode(const SortResult& r, size_t n) {
  if (n == 0) return;
  const size_t tiles = (n + size_t(r.tile) - 1) / size_t(r.tile);
  const bool reload = r.barrier.find("+reload") != std::string::npos;
  INFO("n=", n, " tile=", r.tile, " groups=", r.groups, " barrier=", r.barrier);
  CHECK(reload == (r.barrier.rfind("relaunch", 0) == 0 || size_t(r.groups) < tiles));
}

template <typename K>
void sizes(const std::vector<size_t>& ns, bool descending, bool pairs, uint64_t range = 0) {
  for (size_t n : ns) {
    const SortResult r = check_sort(random_keys<K>(n, n + 17, range), persistent(descending), pairs,
                                    "radix-persistent");
    check_mode(r, n);
  }
}

}  // namespace

TEST_CASE("sort: radix-persistent, every key type and order, keys and pairs, around crossovers") {
  // u32 at every size (held up to 2 tiles on 2 cores, then reload); the other types each order
  // in one mode (f32 ascending in both, below), so that each -D variant is built once.
  const std::vector<size_t> all = {1, 3, 2000, 4096, 8193, 65535, 65537, 100003, 131072};
  const std::vector<size_t> held = {3000}, reload = {65537, 100003};
  sizes<uint32_t>(all, false, false);
  sizes<uint32_t>(all, false, true);
  sizes<uint32_t>(all, true, true, 5000);  // many equal keys: stability
  sizes<int32_t>(reload, false, true, 100000);
  sizes<int32_t>(held, true, true, 100000);
  sizes<uint64_t>(held, false, true);
  sizes<uint64_t>(reload, true, true);
  for (bool desc : {false, true}) {
    std::vector<float> f = random_keys<float>(100003, 5);
    const float nan = std::nanf(""), inf = INFINITY;
    for (size_t i = 0; i < f.size(); i += 7)
      f[i] = (i % 3 == 0) ? nan : (i % 3 == 1) ? -0.0f : 0.0f;
    f[1] = inf, f[2] = -inf, f[3] = -nan;
    check_mode(check_sort(f, persistent(desc), true, "f32 with NaN, +-0, +-inf"), f.size());
  }
}

TEST_CASE("sort: radix-persistent skips constant digits, held and reload, and relaunch") {
  for (const char* barrier : {"auto", "relaunch"}) {
    SortOptions o = persistent();
    o.barrier = parse_barrier_choice(barrier);
    for (size_t n : {size_t(3000), size_t(65537)}) {
      INFO(barrier, " n=", n);
      check_mode(check_sort(std::vector<uint32_t>(n, 0xFFFFFFFFu), o, true, "nothing moves"), n);
      check_sort(random_keys<uint32_t>(n, 1, 256), o, true, "one pass moves: copied back");
      std::vector<uint32_t> mid = random_keys<uint32_t>(n, 2, 1 << 16);
      for (auto& x : mid) x = (x << 8) | 0x5A000000u;
      check_sort(mid, o, true, "two passes move");
      std::vector<uint32_t> top = random_keys<uint32_t>(n, 3, 256);
      for (auto& x : top) x = (x << 24) | 0x00ABCDEFu;  // pass 0 ranked, then skipped
      check_sort(top, o, true, "only the top byte moves");
      std::vector<uint32_t> v = random_keys<uint32_t>(n, 4);
      std::sort(v.begin(), v.end());
      check_sort(v, o, true, "sorted");
      std::reverse(v.begin(), v.end());
      check_mode(check_sort(v, o, true, "reversed"), n);
    }
  }
  SortOptions f = persistent();
  for (size_t n : {size_t(3000), size_t(65537)}) {  // nothing moves: NaNs still canonical
    std::vector<float> nans(n, std::nanf("1"));
    nans[0] = -std::nanf("2");
    check_sort(nans, f, true, "all NaN");
    std::vector<float> x = random_keys<float>(n, 7);
    x[5] = std::nanf(""), x[6] = -0.0f, x[7] = INFINITY;
    check_sort(x, f, true, "f32");
  }
  // An explicit count, more groups than tiles: HELD=0 whatever the count (the sort reloads), on
  // an in-kernel barrier where 3 groups are co-resident, else on relaunch (PoCL on 2 cores).
  SortOptions three = persistent();
  three.groups = 3;
  const SortResult r3 = check_sort(random_keys<uint32_t>(1000, 9), three, true, "3 groups");
  CHECK(r3.barrier.find("+reload") != std::string::npos);
  std::vector<uint64_t> high = random_keys<uint64_t>(65537, 6, 1 << 20);
  for (auto& x : high) x <<= 36;  // passes 4-6 of 8 move: an odd count, copied back
  check_sort(high, persistent(true), true, "u64, high bytes move");
}

TEST_CASE("sort: radix-persistent with wave ranking on the OpenCL C 1.2 path (what NVIDIA runs)") {
  test::ScopedEnv c12("LOCKSTEP_BARRIER_C11", "0");
  SortOptions o;
  o.algorithm = SortAlgorithm::radix_persistent;
  o.items = 2;
  detail::RadixParams p;
  p.match = detail::RadixMatch::lanes;  // the leader/peer logic of the PTX path, lanes emulated in
                                        // local memory
  p.wave = 32;
  p.local_size = 64;
  p.items = 2;
  for (size_t n : {size_t(200), size_t(4099)})  // 2 tiles (held on 2 cores); many (reload)
    check_mode(check_sort(random_keys<uint32_t>(n, n + 1, 40), o, true, "waves", &p), n);
}

TEST_CASE("sort: the automatic rule and the tuning database pick radix-persistent by size") {
  const DeviceInfo nv = device_profile("nvidia", 0, "1.2"), cpu = device_profile("cpu", 0, "3.0");
  CHECK(sort_rule(nv, KeyType::u32, 65536, false) == SortAlgorithm::radix_persistent);
  CHECK(sort_rule(nv, KeyType::u64, 8193, true) == SortAlgorithm::radix_persistent);
  CHECK(sort_rule(nv, KeyType::u32, 1024, false) == SortAlgorithm::radix);
  {  // the one-group sort wherever it holds n, radix-persistent just above
    const detail::RadixParams p = detail::radix_params(nv, KeyType::u32, false, 0);
    const size_t one = size_t(p.local_size) * size_t(p.small_items);
    CHECK(sort_rule(nv, KeyType::u32, one, false) == SortAlgorithm::radix);
    CHECK(sort_rule(nv, KeyType::u32, one + 1, false) == SortAlgorithm::radix_persistent);
  }
  CHECK(sort_rule(nv, KeyType::u32, size_t(1) << 20, false) == SortAlgorithm::radix_persistent);
  CHECK(sort_rule(nv, KeyType::u32, size_t(1) << 24, false) == SortAlgorithm::radix);
  CHECK(sort_rule(cpu, KeyType::u32, 65536, false) == SortAlgorithm::radix);
  CHECK(parse_sort_algorithm("radix-persistent") == SortAlgorithm::radix_persistent);
  CHECK(std::string(to_string(SortAlgorithm::radix_persistent)) == "radix-persistent");

  Context& ctx = test::context();
  for (size_t n : {size_t(1000), size_t(1) << 21}) {  // candidates only where tiles fit the CUs
    size_t persistent_candidates = 0;
    for (const auto& p : tuning::enumerate(*sort_family(ctx, KeyType::u32, false, n)))
      persistent_candidates += p.at("algorithm") == "radix-persistent";
    CHECK((persistent_candidates > 0) == (n == 1000));
  }

  test::TempDir dir;
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", (dir.path / "tuning.json").string());
  const int items = ctx.info().is_gpu() ? 2 : 128;
  TuningEntry e;
  e.routine = "sort";
  e.key = "u32/keys/n8192";
  e.params = {{"algorithm", "radix-persistent"}, {"items", items}};
  tuning::store(ctx.info(), e);
  const SortResult r = check_sort(random_keys<uint32_t>(5000, 8), {}, false, "automatic");
  CHECK(r.algorithm == SortAlgorithm::radix_persistent);
  CHECK(r.tile == detail::radix_params(ctx.info(), KeyType::u32, false, 0).local_size * items);
}
