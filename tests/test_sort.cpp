// lockstep::sort against the host reference (sort_cpu, std::stable_sort on the same order):
// adversarial sizes (0, 1, 2, 3, 7, 93, 2^k +- 1, 4099, 10^6 + 3), all-equal, sorted and reversed
// input, NaN and +-0 for f32, every key type and order, both algorithms, every barrier strategy of
// the persistent bitonic sort on GPUs, relaunch and lock on CPUs (its phases read other
// work-groups' writes with ordinary loads right after the global barrier), radix's look-back (each
// tile's offset comes from other tiles' flags) and its histogram's last group (reads the others'
// counts with ordinary loads), its count + scan mode (CPU devices), its wave ranking (lanes
// emulated in local memory: the logic of the PTX path), its pass skipping, its one-group sort;
// pairs (radix: exactly the stable result; bitonic: sorted keys, and the multiset of pairs kept).
#include <algorithm>
#include <cmath>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/sort.hpp"
#include "lockstep/tuning.hpp"
#include "lockstep/tuning_db.hpp"
#include "sort/sort_impl.hpp"
#include "sort_support.hpp"

using namespace lockstep;

namespace {

using sort_test::check_sort;
using sort_test::random_keys;

const std::vector<size_t> kSizes = {0, 1, 2, 3, 7, 93, 127, 129, 255, 257, 1023, 1025, 4099};

}  // namespace

// Every strategy on a GPU, where groups really run side by side. On a CPU device the barriers'
// reads of other groups' writes are checked per strategy by the persistent-kernel and barrier
// tests (cheap programs), and bitonic runs relaunch and lock: each bitonic program costs PoCL
// about 40 s of code generation on a loaded 2-core host, six of them were the suite's largest
// case.
TEST_CASE("sort: bitonic u32 keys on every barrier strategy, adversarial sizes and inputs") {
  std::vector<const char*> strategies = {"relaunch", "lock"};
  if (test::context().info().is_gpu())
    strategies.insert(strategies.end(), {"grouped-lock", "lock-free", "tree", "auto"});
  for (const char* s : strategies) {
    SortOptions o;
    o.algorithm = SortAlgorithm::bitonic;
    o.barrier = parse_barrier_choice(s);
    o.tile = 64;  // small tiles: many global stages, fused passes of 1, 2 and 3 levels
    o.local_size = 16;
    for (size_t n : kSizes) check_sort(random_keys<uint32_t>(n, n + 1), o, false, s);
    std::vector<uint32_t> v = random_keys<uint32_t>(2049, 5);
    std::sort(v.begin(), v.end());
    check_sort(v, o, false, "sorted");
    std::reverse(v.begin(), v.end());
    check_sort(v, o, false, "reversed");
    check_sort(std::vector<uint32_t>(777, 42u), o, false, "all equal");
    check_sort(random_keys<uint32_t>(1500, 9, 3), o, false, "three values");
  }
}

// Tiles of 128 keys (16 work-items x 8): 4099 keys are 33 tiles. No one-group sort. Ranking per
// work-item (RADIX_MATCH=0) on every device.
detail::RadixParams small_tiles(bool chained) {
  detail::RadixParams p;
  p.local_size = 16;
  p.items = 8;
  p.chained = chained;
  p.private_counts = !test::context().info().is_gpu();  // 16 x 4 KiB of counters: CPUs only
  return p;
}

TEST_CASE("sort: radix u32 keys and pairs, adversarial sizes and inputs, both offset modes") {
  for (bool chained : {false, true}) {
    const detail::RadixParams p = small_tiles(chained);
    SortOptions o;
    o.algorithm = SortAlgorithm::radix;
    const char* what = chained ? "radix, look-back" : "radix, count + scan";
    for (size_t n : kSizes) {
      check_sort(random_keys<uint32_t>(n, n + 7), o, false, what, &p);
      check_sort(random_keys<uint32_t>(n, n + 8, 50), o, true, what, &p);  // many equal keys
    }
    std::vector<uint32_t> v = random_keys<uint32_t>(3000, 11);
    std::sort(v.begin(), v.end());
    check_sort(v, o, true, "sorted", &p);
    std::reverse(v.begin(), v.end());
    check_sort(v, o, true, "reversed", &p);
    // Pass skipping: every pass (all equal), three of four (one odd run: a copy pass keeps the
    // result in place), two of four (bytes 1 and 2 vary).
    check_sort(std::vector<uint32_t>(2500, 0xFFFFFFFFu), o, true, "all equal max", &p);
    check_sort(random_keys<uint32_t>(2500, 12, 256), o, true, "one byte varies", &p);
    std::vector<uint32_t> mid = random_keys<uint32_t>(2500, 13, 1 << 16);
    for (auto& x : mid) x = (x << 8) | 0x5A000000u;
    check_sort(mid, o, true, "middle bytes vary", &p);
  }
}

TEST_CASE("sort: radix one-group sort and large n with the device's own parameters") {
  Context& ctx = test::context();
  SortOptions o;
  o.algorithm = SortAlgorithm::radix;
  const detail::RadixParams p = detail::radix_params(ctx.info(), KeyType::u32, true, 0);
  REQUIRE(p.small_items > 0);
  const size_t one = size_t(p.local_size) * size_t(p.small_items);
  const size_t local = size_t(p.local_size);  // GPUs: one-group tiles of 1, 4, 8, .. keys each
  for (size_t n :
       {size_t(1), size_t(3), 3 * local + 1, 8 * local - 5, one - 1, one, one + 1, size_t(1000003)})
    check_sort(random_keys<uint32_t>(n, n + 3, n % 2 ? 0 : 1000), o, true, "radix, own params");
  detail::RadixParams shorter = p;  // min_tiles: fewer keys per work-item (NVIDIA's small-n rule)
  shorter.min_tiles = 64;
  shorter.small_items = 0;
  {
    std::vector<uint32_t> in = random_keys<uint32_t>(100003, 5);
    SortResult r;
    cl::Buffer kb = upload(ctx.queue(), in);
    r = detail::radix_sort(ctx, KeyType::u32, kb, in.size(), false, shorter, nullptr);
    std::vector<uint32_t> got = download<uint32_t>(ctx.queue(), kb, in.size()), want = in;
    sort_cpu(want, nullptr, false);
    CHECK(got == want);
    const detail::RadixParams pass = detail::onesweep_shape(shorter);
    CHECK(r.tile < pass.local_size * pass.items);
    const size_t full = size_t(pass.local_size) * size_t(pass.items);  // a full tile
    CHECK(size_t(r.groups) > (in.size() + full - 1) / full);           // more tiles than full ones
  }
  std::vector<float> f(one / 2, std::nanf("1"));  // every pass skipped; NaNs still canonical
  f[0] = -std::nanf("2");
  check_sort(f, o, true, "radix, one group, all NaN");
  check_sort(std::vector<float>(one + 5, std::nanf("3")), o, true, "radix, passes, all NaN");
}

// The radix state's counters are zeroed once, at allocation, and every sort leaves them zero for
// the next one, whatever its key type (the layouts share the zero words): sorts of every type, one
// histogram group and several, skipped passes, interleaved in one context.
TEST_CASE("sort: radix sorts of every key type in turn keep the shared state zero") {
  SortOptions o;
  o.algorithm = SortAlgorithm::radix;
  for (int round = 0; round < 2; ++round)
    for (size_t n : {size_t(40000), size_t(10000)}) {
      check_sort(random_keys<uint64_t>(n, n + round), o, true, "u64");
      check_sort(random_keys<uint32_t>(n, n + round), o, true, "u32");
      check_sort(std::vector<uint32_t>(n, 77u), o, true, "u32, every pass skipped");
      check_sort(random_keys<float>(n, n + round), o, false, "f32");
      check_sort(random_keys<int32_t>(n, n + round, 1000), o, true, "i32");
    }
}

TEST_CASE("sort: every key type and order, both algorithms, with pairs") {
  for (bool desc : {false, true})
    for (SortAlgorithm a : {SortAlgorithm::bitonic, SortAlgorithm::radix}) {
      SortOptions o;
      o.algorithm = a;
      o.descending = desc;
      o.barrier = Barrier::lock;
      o.tile = 256;
      o.local_size = 32;
      o.items = 2;
      const bool bitonic = a == SortAlgorithm::bitonic;
      for (size_t n : {size_t(93), size_t(5000), size_t(20000)}) {  // radix: one group, tiles
        // Descending on f32 only (NaN, -0 and inf, the hardest order): every (key type, order)
        // is a program of its own per algorithm, and one costs a PoCL compile of 10-20 s (a
        // bitonic one more). Bitonic sorts the bits of the key transform radix shares
        // (cl/sort_keys.cl, checked per type below by radix), so it runs the two widths alone:
        // u64, and f32 descending.
        if (!desc && !bitonic) check_sort(random_keys<int32_t>(n, n, 1000), o, true, "i32");
        if (!desc) check_sort(random_keys<uint64_t>(n, n), o, true, "u64");
        if (bitonic && !desc) continue;
        std::vector<float> f = random_keys<float>(n, n);
        const float nan = std::nanf(""), inf = INFINITY;
        for (size_t i = 0; i < n; i += 7) f[i] = (i % 3 == 0) ? nan : (i % 3 == 1) ? -0.0f : 0.0f;
        f[1] = inf, f[2] = -inf, f[3] = -nan;
        check_sort(f, o, true, "f32 with NaN, +-0, +-inf");
      }
    }
}

TEST_CASE("sort: argsort, automatic choice, errors") {
  Context& ctx = test::context();
  const std::vector<float> keys = {3.5f, -1.0f, 3.5f, 0.0f, -0.0f, 2.0f};
  SortOptions o;
  o.algorithm = SortAlgorithm::radix;
  o.items = 2;
  CHECK(argsort(ctx, keys, o) == std::vector<uint32_t>{1, 4, 3, 5, 0, 2});
  o.descending = true;
  CHECK(argsort(ctx, keys, o) == std::vector<uint32_t>{0, 2, 5, 3, 4, 1});

  SortResult r;  // automatic argsort is stable (a radix sort): equal keys keep their order
  std::vector<uint32_t> big = random_keys<uint32_t>(100000, 3);
  for (uint32_t& x : big) x %= 1000;  // ~100 copies of each key
  std::vector<uint32_t> perm = argsort(ctx, big, {}, &r);
  CHECK((r.algorithm == SortAlgorithm::radix || r.algorithm == SortAlgorithm::radix_persistent));
  for (size_t i = 1; i < perm.size(); ++i) {
    REQUIRE(big[perm[i - 1]] <= big[perm[i]]);
    if (big[perm[i - 1]] == big[perm[i]]) REQUIRE(perm[i - 1] < perm[i]);
  }

  std::vector<uint32_t> k(5), v(4);
  CHECK_THROWS_AS(sort(ctx, k, v), input_error);
  SortOptions bad;
  bad.algorithm = SortAlgorithm::bitonic;
  bad.tile = 100;
  CHECK_THROWS_AS(sort(ctx, k, bad), input_error);
  CHECK_THROWS_AS(parse_key_type("f16"), input_error);
  CHECK_THROWS_AS(parse_sort_algorithm("quick"), input_error);
}

TEST_CASE("sort: the OpenCL C 1.2 ordering path (what NVIDIA runs): barriers and look-back" *
          doctest::test_suite("portable")) {
  test::ScopedEnv c12("LOCKSTEP_BARRIER_C11", "0");
  // The GPU path of radix: look-back, histogram by local atomics, ranking by waves of 32 and 64
  // lanes (emulated: the leader/peer logic of the PTX path), one-group sort by waves too.
  SortOptions r;
  r.algorithm = SortAlgorithm::radix;
  for (int wave : {32, 64}) {
    detail::RadixParams p = small_tiles(true);
    p.private_counts = false;
    p.match = detail::RadixMatch::lanes;
    p.wave = wave;
    p.local_size = 2 * wave;
    p.items = 2;
    p.small_items = 3;
    check_sort(random_keys<uint32_t>(4099, 21), r, true, "radix, 1.2 path, waves", &p);
    check_sort(random_keys<uint32_t>(size_t(5 * wave), 23, 30), r, true, "one group, waves", &p);
    if (wave != 64) continue;
    // Onesweep in its own shape (NVIDIA's rule): 384 work-items, the last 128 own no digit, and
    // the ranking scratch (6 waves of 64) larger than the tile it shares local memory with.
    detail::RadixParams shaped = p;
    shaped.pass_local_size = 384;
    shaped.pass_items = 2;
    check_sort(random_keys<uint32_t>(4099, 24), r, true, "radix, Onesweep's own shape", &shaped);
    check_sort(random_keys<uint32_t>(4099, 25), r, false, "radix, Onesweep's own shape", &shaped);
  }
  // Bitonic on the 1.2 path under one strategy: every strategy's 1.2 barrier is tested by
  // "barrier: the OpenCL C 1.2 path (NVIDIA's) is correct too" (a bitonic build costs a PoCL
  // compile of about 20 s).
  for (auto s : {Barrier::lock}) {
    SortOptions b;
    b.algorithm = SortAlgorithm::bitonic;
    b.barrier = s;
    b.tile = 64;
    b.local_size = 16;
    check_sort(random_keys<uint32_t>(4099, 22), b, false, "bitonic, 1.2 path");
  }
}

TEST_CASE("sort: automatic follows the tuning database entry of the size class") {
  Context& ctx = test::context();
  test::TempDir dir;
  const std::string db = (dir.path / "tuning.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", db);
  TuningEntry e;
  e.routine = "sort";
  e.key = "u32/keys/n4096";  // n rounded up to a power of two
  e.params = {{"algorithm", "bitonic"}, {"barrier", "relaunch"}};
  tuning::store(ctx.info(), e);
  std::vector<uint32_t> keys = random_keys<uint32_t>(3000, 31), want = keys;
  SortOptions o;
  o.tile = 64;  // the variant of the strategy test above: no new program
  o.local_size = 16;

  SortResult r = sort(ctx, keys, o);

  CHECK(r.algorithm == SortAlgorithm::bitonic);
  CHECK(r.barrier == "relaunch");
  sort_cpu(want, nullptr, false);
  CHECK(keys == want);
}

// NVIDIA's Onesweep shape (radix_params, onesweep_shape): with the ranking scratch sharing the
// tile's local memory, every key type and kind fits the 48 KiB a group has without shortening
// its tile, holds two groups per compute unit under its register cap (64 Ki registers), and
// gives each of the 256 digits an owner; the one-group sort keeps 256 work-items and no cap.
TEST_CASE("sort: NVIDIA's Onesweep shape fits 48 KiB and two groups per compute unit") {
  DeviceInfo nv = device_profile("nvidia", 0, "1.2"), roomy = nv;
  nv.local_mem_bytes = 48 * 1024;
  roomy.local_mem_bytes = 228 * 1024;
  for (KeyType t : {KeyType::u32, KeyType::f32, KeyType::u64})
    for (bool pairs : {false, true}) {
      const detail::RadixParams p = detail::radix_params(nv, t, pairs, 0);
      const detail::RadixParams q = detail::onesweep_shape(p);
      INFO(to_string(t), " pairs=", pairs, " Onesweep ", q.local_size, " x ", q.items);
      CHECK(p.local_size == 256);
      CHECK(q.items == detail::onesweep_shape(detail::radix_params(roomy, t, pairs, 0)).items);
      CHECK((q.local_size >= 256 && q.local_size % 32 == 0));
      CHECK(q.pass_registers >= 32);
      CHECK(2 * q.local_size * q.pass_registers <= 65536);
      const std::string pass = detail::radix_defines(nv, t, false, pairs, q, false).options();
      CHECK(pass.find("-cl-nv-maxrregcount=" + std::to_string(q.pass_registers)) !=
            std::string::npos);
      const std::string one = detail::radix_defines(nv, t, false, pairs, p, true).options();
      CHECK(one.find("maxrregcount") == std::string::npos);
    }
}
