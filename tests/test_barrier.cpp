// Global barrier tests on the device under test (PoCL in CI, where co-residency is the number of
// worker threads): every strategy survives many rounds of write / barrier / ordinary-load read of
// a neighbour's data with zero errors, on both the C11 and the OpenCL C 1.2 ordering paths, with
// packed and padded flags, and on NVIDIA with every PTX ordering variant (fence, acqrel,
// acqrel-rspin); the flag helpers carry data around a token ring; asking for more groups than
// co-resident is refused without launching; the tree runs with several levels; occupancy
// discovery returns a sane number without trusting a bad cache entry.
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "barrier/occupancy.hpp"
#include "lockstep/barrier.hpp"
#include "lockstep/kernel_builds.hpp"
#include "lockstep/persistent.hpp"
#include "support.hpp"

// Every case here is in the portability pass of .ci/run (ctest -L portable).
TEST_SUITE_BEGIN("portable");

namespace lockstep {
namespace {

using test::ScopedEnv;

void stress(Barrier s, int rounds, BarrierVariant v = {}) {
  Context& ctx = test::context();
  int groups = std::min(ctx.info().is_gpu() ? 64 : 4, bench_kernel_coresident(ctx, s, 64, v));
  if (groups < 2) {  // one group proves nothing about ordering between groups
    return test::skip(to_string(s) + " has " + std::to_string(groups) +
                      " co-resident group of 64 here");
  }

  BarrierBenchResult r = bench_barrier(ctx, s, groups, 64, rounds, 0, v);

  INFO(to_string(s) << " " << r.ordering << " stride=" << r.flag_stride << " groups=" << groups
                    << " us/barrier=" << r.us_per_barrier);
  CHECK(r.errors == 0);
}

// Errors of the flag_ring kernel (cl/barrier_bench.cl) over `groups` groups of 64.
long long flag_ring(BarrierOrder order, int groups, int rounds, int stride) {
  FlagRingResult r = bench_flag_ring(test::context(), groups, 64, rounds, stride, order);
  INFO(r.ordering << " groups=" << groups << " stride=" << stride << " us/hop=" << r.us_per_hop);
  CHECK(r.us_per_hop > 0);
  return r.errors;
}

// Groups of 64 that the ring may use: co-resident (the lock bench kernel's count as a proxy).
int ring_groups() {
  Context& ctx = test::context();
  return std::min(ctx.info().is_gpu() ? 64 : 4, bench_kernel_coresident(ctx, Barrier::lock, 64));
}

bool nvidia_ptx() {
  Defines d;
  std::string path = add_flag_defines(test::context(), d);
  return path != "c11" && path != "mem_fence";
}

}  // namespace

TEST_CASE("barrier: strategy names round-trip and bad names are refused") {
  for (auto s : all_barriers()) CHECK(parse_barrier(to_string(s)) == s);

  CHECK_THROWS_AS(parse_barrier("spin"), input_error);
  CHECK(to_string(Barrier::grouped_lock) == "grouped-lock");
  std::string names;  // one list (LOCKSTEP_BARRIERS), in Barrier order
  for (auto s : all_barriers()) names += to_string(s) + " ";
  CHECK(names == "relaunch lock grouped-lock lock-free tree ");
}

TEST_CASE("barrier: lock, 100000 rounds, zero errors, and the barriers alone lose no round") {
  stress(Barrier::lock, 100000);
  Context& ctx = test::context();
  int groups = std::min(4, bench_kernel_coresident(ctx, Barrier::lock, 64));

  BarrierBenchResult r = bench_barrier(ctx, Barrier::lock, groups, 64, 2000, 0, {}, false);

  CHECK(r.errors == 0);
  CHECK(r.us_per_barrier > 0);
}
// The lock with its arrivals split over K counters (BarrierVariant::lock_split; the default is
// one word): K = 1, 2, 3 on both ordering paths.
TEST_CASE("barrier: lock split over 1, 2 and 3 counters, zero errors") {
  for (int k : {1, 2, 3}) stress(Barrier::lock, 20000, {BarrierOrder::automatic, 0, k});
  ScopedEnv c12("LOCKSTEP_BARRIER_C11", "0");
  for (int k : {1, 2, 3}) stress(Barrier::lock, 5000, {BarrierOrder::automatic, 0, k});
  CHECK(GlobalBarrier(test::context().info(), Barrier::lock, 64, 64).lock_split() ==
        default_lock_split(test::context().info(), 64));
  // the rule: two words from two groups per SM on NVIDIA, one word below and elsewhere
  const DeviceInfo nv = device_profile("nvidia", 0, "3.0");
  const int cus = int(nv.compute_units);
  CHECK(default_lock_split(nv, 2 * cus) == 2);
  CHECK(default_lock_split(nv, 2 * cus - 1) == 1);
  CHECK(GlobalBarrier(nv, Barrier::lock, 2 * cus, 1024).lock_split() == 2);
  CHECK(GlobalBarrier(nv, Barrier::lock, 2 * cus, 1024, 0, {BarrierOrder::automatic, 0, 1})
            .lock_split() == 1);
  CHECK(default_lock_split(device_profile("cpu", 0, "3.0"), 1 << 20) == 1);
  CHECK_THROWS_AS(GlobalBarrier(test::context().info(), Barrier::lock, 4, 64, 0,
                                {BarrierOrder::automatic, 0, 33}),
                  input_error);
}
// The spin pause between polls of the top-bit word (BarrierVariant::spin_ns): grouped-lock
// pauses by default on NVIDIA only, lock never; an explicit pause is taken as asked; the range
// is checked (host only; the NVIDIA PTX test below runs the pauses on the GPU).
TEST_CASE("barrier: the spin pause's rule, macro and range") {
  const DeviceInfo nv = device_profile("nvidia", 0, "1.2");
  const GlobalBarrier grouped(nv, Barrier::grouped_lock, 1056, 256);
  CHECK(grouped.spin_ns() == 32);
  Defines d;
  CHECK(grouped.add_defines(d).options().find("-D BARRIER_SPIN_NS=32") != std::string::npos);
  CHECK(GlobalBarrier(nv, Barrier::lock, 132, 256).spin_ns() == 0);
  CHECK(GlobalBarrier(nv, Barrier::lock, 132, 256, 0, {BarrierOrder::automatic, 0, 0, 100})
            .spin_ns() == 100);
  CHECK(GlobalBarrier(nv, Barrier::tree, 132, 256).spin_ns() == 0);
  if (!nvidia_ptx())  // no nanosleep there: no pause whatever is asked
    CHECK(GlobalBarrier(test::context().info(), Barrier::grouped_lock, 4, 64, 0,
                        {BarrierOrder::automatic, 0, 0, 100})
              .spin_ns() == 0);
  for (int bad : {-2, 100001})
    CHECK_THROWS_AS(
        GlobalBarrier(nv, Barrier::lock, 4, 64, 0, {BarrierOrder::automatic, 0, 0, bad}),
        input_error);
}
TEST_CASE("barrier: grouped-lock, 100000 rounds, zero errors") {
  stress(Barrier::grouped_lock, 100000);
}
// Lock-free's master group spins one work-item after the other on PoCL (work-items run as
// loops), about 0.3 ms per barrier on a loaded 2-core machine: 20000 rounds keep it affordable.
TEST_CASE("barrier: lock-free, 20000 rounds, zero errors") { stress(Barrier::lock_free, 20000); }
TEST_CASE("barrier: tree, 100000 rounds, zero errors") { stress(Barrier::tree, 100000); }
TEST_CASE("barrier: lock-free and tree with flags on separate lines, 5000 rounds, zero errors") {
  stress(Barrier::lock_free, 5000, {BarrierOrder::automatic, 32});
  stress(Barrier::tree, 5000, {BarrierOrder::automatic, 32});
}
TEST_CASE("barrier: relaunch, 300 rounds, zero errors") { stress(Barrier::relaunch, 300); }

// 5000 rounds each: spinning work-groups lose whole time slices on a loaded 2-core PoCL machine.
TEST_CASE("barrier: the OpenCL C 1.2 path (NVIDIA's) is correct too") {
  ScopedEnv c12("LOCKSTEP_BARRIER_C11", "0");

  for (auto s : {Barrier::lock, Barrier::grouped_lock, Barrier::lock_free, Barrier::tree})
    stress(s, 5000);
  CHECK(flag_ring(BarrierOrder::automatic, ring_groups(), 2000, 32) == 0);
}

// NVIDIA only (the PTX variants compile nowhere else): every strategy with every ordering
// variant, packed and padded flags, 10^5 barriers each, and the flag helpers' token ring.
TEST_CASE("barrier: every NVIDIA PTX ordering variant is correct") {
  if (!nvidia_ptx()) {
    return test::skip("not an NVIDIA device: the PTX ordering variants are tested there");
  }
  for (auto o : {BarrierOrder::fence, BarrierOrder::acqrel, BarrierOrder::acqrel_rspin}) {
    for (auto s : {Barrier::lock, Barrier::grouped_lock}) stress(s, 50000, {o, 0});
    stress(Barrier::lock, 50000, {o, 0, 2});             // split over two words
    stress(Barrier::lock, 50000, {o, 0, 1, 100});        // a spin pause of 100 ns
    stress(Barrier::grouped_lock, 50000, {o, 0, 0, 0});  // grouped-lock without its pause
    for (auto s : {Barrier::lock_free, Barrier::tree})
      for (int stride : {1, 32}) stress(s, 50000, {o, stride});
    CHECK(flag_ring(o, ring_groups(), 2000, 1) == 0);
    CHECK(flag_ring(o, ring_groups(), 2000, 32) == 0);
  }
}

TEST_CASE("barrier: the flag helpers carry data around a ring of groups (C11 or 1.2 path)") {
  CHECK(flag_ring(BarrierOrder::automatic, ring_groups(), 2000, 1) == 0);
  CHECK(parse_barrier_order("acqrel-rspin") == BarrierOrder::acqrel_rspin);
  CHECK_THROWS_AS(parse_barrier_order("seq_cst"), input_error);
}

// Like with like: each launch is checked against its own kernel's discovery (the tree kernel's
// count for the tree run; comparing it with the lock kernel's let one cached, under-counted lock
// entry turn this test into a launch of the tree over its co-resident limit).
TEST_CASE("barrier: more groups than co-resident are refused, not launched") {
  Context& ctx = test::context();
  int most = bench_kernel_coresident(ctx, Barrier::lock, 64);
  int most_tree = bench_kernel_coresident(ctx, Barrier::tree, 64);

  CHECK_THROWS_WITH_AS(bench_barrier(ctx, Barrier::lock, most + 1, 64, 10),
                       doctest::Contains("co-resident"), input_error);
  std::string out;
  int rc = test::run_cli("bench barrier --barrier tree --local-size 64 --rounds 10 --groups " +
                             std::to_string(most_tree + 1),
                         out);

  INFO(out);
  CHECK(rc == 1);
  CHECK(out.find("refused=") != std::string::npos);
  CHECK(bench_barrier(ctx, Barrier::relaunch, most + 1, 64, 5).errors == 0);
  CHECK_THROWS_WITH_AS(bench_flag_ring(ctx, 1 << 20, 64, 10, 1), doctest::Contains("co-resident"),
                       input_error);
}

TEST_CASE("barrier: lock-free refuses more groups than work-items, tree rejects bad branch") {
  Context& ctx = test::context();

  CHECK_THROWS_AS(GlobalBarrier(ctx, Barrier::lock_free, 65, 64), input_error);
  CHECK_THROWS_AS(GlobalBarrier(ctx, Barrier::tree, 8, 64, 1), input_error);
  CHECK_THROWS_AS(GlobalBarrier(ctx, Barrier::tree, 8, 4, 8), input_error);
  CHECK(GlobalBarrier(ctx, Barrier::tree, 1000, 64, 2).tree_levels() == 11);
  CHECK(GlobalBarrier(ctx, Barrier::grouped_lock, 1056, 256).group_size() == 33);
}

TEST_CASE("barrier: tree with several levels (branch 2), in process and through the CLI") {
  // In process, on every device: as many groups of 16 as the tree kernel holds (at most 64; the
  // GPU gets 7 levels), branch 2. The level count is checked against ceil(log2 G) + 1 (leaf
  // flags, one level per halving, the release flag), and the barrier runs with zero errors.
  Context& ctx = test::context();
  const int groups = std::min(64, bench_kernel_coresident(ctx, Barrier::tree, 16));
  if (groups >= 2) {
    int want = 1;
    while ((1 << (want - 1)) < groups) ++want;
    BarrierBenchResult r = bench_barrier(ctx, Barrier::tree, groups, 16, 2000, 2);
    INFO(r.ordering << " groups=" << groups << " us/barrier=" << r.us_per_barrier);
    CHECK(r.branch == 2);
    CHECK(r.levels == want);
    CHECK(r.errors == 0);
  } else {  // a tree of one group has one level: nothing to show in this process
    MESSAGE("in-process part skipped: " << groups << " co-resident tree group of 16 here");
    CHECK(groups == 1);
  }

  // Through the CLI: 4 groups, 3 levels (the child's PoCL gets 4 threads, so 4 groups are
  // co-resident even on 2 cores; 4 groups of 16 are co-resident on any GPU).
  ScopedEnv threads("POCL_MAX_PTHREAD_COUNT", "4");
  std::string out;

  int rc = test::run_cli(
      "bench barrier --barrier tree --branch 2 --groups 4 --local-size 16 --rounds 200", out);

  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("levels=3") != std::string::npos);
  CHECK(out.find("errors=0") != std::string::npos);
}

// The lock kernel of barrier_bench.cl as bench_kernel_coresident builds it, and its cache key.
struct LockBenchKernel {
  cl::Kernel kernel;
  cl::Buffer dummy;
  std::string key;
  LockBenchKernel(Context& ctx, int local_size) {
    GlobalBarrier probe(ctx, Barrier::lock, 1, local_size);
    Defines d;
    probe.add_defines(d);
    kernel = ctx.kernel("barrier_bench.cl", "barrier_bench", d);
    dummy = make_buffer(ctx.context(), CL_MEM_READ_WRITE, sizeof(int));
    set_args(kernel, probe.state(), dummy, dummy, 0);
    key = occupancy::cache_key(ctx, kernel, size_t(local_size), 0);
  }
};

void plant(const std::filesystem::path& dir, const std::string& key, int count) {
  nlohmann::json j = {{key, {{"count", count}, {"measurements", 2}}}};
  std::ofstream(dir / "occupancy.json") << j.dump(1);
}

int planted(const std::filesystem::path& dir, const std::string& key) {
  std::ifstream in(dir / "occupancy.json");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() && j.contains(key) ? j[key].value("count", 0) : 0;
}

TEST_CASE("barrier: occupancy discovery is sane, and what it stores is confirmed") {
  Context& ctx = test::context();
  test::TempDir dir;
  ScopedEnv cache("LOCKSTEP_CACHE_DIR", dir.path.string().c_str());
  const int units = int(ctx.info().compute_units);

  int n = bench_kernel_coresident(ctx, Barrier::grouped_lock, 32);

  CHECK(n >= 1);
  CHECK(n <= units * std::max<int>(1, 4096 / 32));
  if (!ctx.info().is_gpu()) CHECK(n == units);  // a CPU device: one group per thread, no timing
  CHECK(bench_kernel_coresident(ctx, Barrier::grouped_lock, 32) == n);
  // The census GPUs use, run here too: never above the compute units on a CPU device, and the
  // count it stores (if any) is one that reached the compute units or was measured twice.
  LockBenchKernel k(ctx, 64);
  int c = occupancy::census(ctx, k.kernel, 64, k.key);
  CHECK(c >= 1);
  if (!ctx.info().is_gpu()) CHECK(c <= units);
  int stored = planted(dir.path, k.key);
  CHECK((stored == 0 || stored == c));
}

// A bad occupancy entry on disk is never trusted: an under-count (1 where the CPU device has more
// compute units) would be served to every later run, and an over-count would hang a spin barrier;
// either is replaced by a measured, confirmed count.
TEST_CASE("barrier: a poisoned occupancy cache entry is not trusted") {
  Context& ctx = test::context();
  test::TempDir dir;
  ScopedEnv cache("LOCKSTEP_CACHE_DIR", dir.path.string().c_str());
  const int units = int(ctx.info().compute_units);
  LockBenchKernel k(ctx, 64);

  plant(dir.path, k.key, 1);
  int n = bench_kernel_coresident(ctx, Barrier::lock, 64);
  plant(dir.path, k.key, 100000);
  int c = occupancy::census(ctx, k.kernel, 64, k.key);

  if (!ctx.info().is_gpu()) CHECK(n == units);
  if (units > 1 && !ctx.info().is_gpu()) CHECK(n > 1);
  CHECK(c < 100000);
  if (!ctx.info().is_gpu()) CHECK(c <= units);
  int now = planted(dir.path, k.key);  // replaced, unless no count was confirmed (then only kept)
  CHECK((now == c || (now == 100000 && c < units)));
  CHECK(test::count_files(dir.path, ".tmp") == 0);
}

}  // namespace lockstep

TEST_SUITE_END();

// The old spellings of the C++ API (BarrierStrategy, StrategyChoice, auto_strategy, the
// *_strategy functions, GlobalBarrier::strategy()) stay one release as deprecated aliases of
// Barrier, BarrierChoice, auto_barrier, parse_barrier, all_barriers, default_barrier and
// barrier(). Host only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
namespace lockstep {
TEST_CASE("barrier: the old strategy names still work, as deprecated aliases") {
  static_assert(std::is_same_v<BarrierStrategy, Barrier>);
  static_assert(std::is_same_v<StrategyChoice, BarrierChoice>);
  CHECK(parse_barrier_strategy("tree") == Barrier::tree);
  CHECK(all_barrier_strategies() == all_barriers());
  CHECK_FALSE(auto_strategy.has_value());
  CHECK(parse_strategy_choice("lock") == BarrierChoice(Barrier::lock));
  const DeviceInfo d = device_profile("nvidia", 0, "3.0");
  for (int groups : {1, 264, 1056})
    CHECK(default_barrier_strategy(d, groups, 256) == default_barrier(d, groups, 256));
  const GlobalBarrier g(d, Barrier::grouped_lock, 8, 64);
  CHECK(g.strategy() == Barrier::grouped_lock);
  CHECK(g.barrier() == Barrier::grouped_lock);
}
}  // namespace lockstep
#pragma GCC diagnostic pop
