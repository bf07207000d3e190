// PersistentKernel: every strategy (auto and relaunch included) runs the phased shift kernel of
// cl/persistent_check.cl, whose phases read another work-group's previous writes with ordinary
// loads; too many groups are refused for an explicit strategy, clamped on request, and sent to
// relaunch by auto; the launcher's group policy (useful maximum, lock-free limit, relaunch) and
// its sibling kernels.
#include <numeric>

#include "lockstep/persistent.hpp"
#include "support.hpp"

// Every case here is in the portability pass of .ci/run (ctest -L portable).
TEST_SUITE_BEGIN("portable");

using namespace lockstep;

namespace {

// Runs `phases` phases of the shift over the kernel's groups and checks every value.
void check_shift(PersistentKernel& pk, int phases) {
  Context& ctx = test::context();
  const int n = int(pk.global_size()), l = pk.local_size();
  std::vector<int> in(static_cast<size_t>(n));
  std::iota(in.begin(), in.end(), 1000);
  cl::Buffer a = upload(ctx.queue(), in), b = upload(ctx.queue(), std::vector<int>(size_t(n), -1));

  pk.run_phases(phases, [&](int begin, int end) { pk.set_args(a, b, begin, end); });
  std::vector<int> out = download<int>(ctx.queue(), phases % 2 ? b : a, size_t(n));

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[size_t(i)] != in[size_t((i + int64_t(phases) * l) % n)] + phases;
  CHECK_MESSAGE(wrong == 0, to_string(pk.barrier()), " groups=", pk.groups(), ": ", wrong, " of ",
                n, " values wrong");
}

}  // namespace

TEST_CASE("persistent kernel: every strategy runs the phased shift and reads other groups") {
  Context& ctx = test::context();
  for (const char* name : {"auto", "relaunch", "lock", "grouped-lock", "lock-free", "tree"}) {
    PersistentConfig cfg;
    cfg.barrier = parse_barrier_choice(name);
    cfg.local_size = 64;
    cfg.clamp = true;
    cfg.groups = 6;
    PersistentKernel pk(ctx, "persistent_check.cl", "persistent_shift", {}, cfg);

    CHECK(pk.groups() >= 1);
    CHECK(pk.groups() <= 6);
    if (pk.in_kernel()) CHECK(pk.groups() <= pk.coresident());
    check_shift(pk, 37);
  }
}

TEST_CASE("persistent kernel: too many groups are refused, clamped, or relaunched by auto") {
  Context& ctx = test::context();
  PersistentConfig cfg;
  cfg.local_size = 64;
  cfg.groups = 0;  // as many as co-resident
  PersistentKernel fit(ctx, "persistent_check.cl", "persistent_shift", {}, cfg);
  const int resident = fit.coresident();
  CHECK(fit.in_kernel());
  CHECK(fit.groups() == resident);

  cfg.groups = resident + 1;
  cfg.barrier = Barrier::lock;
  CHECK_THROWS_AS(PersistentKernel(ctx, "persistent_check.cl", "persistent_shift", {}, cfg),
                  input_error);

  cfg.clamp = true;
  PersistentKernel clamped(ctx, "persistent_check.cl", "persistent_shift", {}, cfg);
  CHECK(clamped.groups() == resident);

  cfg.barrier = auto_barrier;
  cfg.clamp = false;
  PersistentKernel relaunched(ctx, "persistent_check.cl", "persistent_shift", {}, cfg);
  CHECK(relaunched.barrier() == Barrier::relaunch);
  CHECK(relaunched.groups() == resident + 1);
  check_shift(relaunched, 5);

  CHECK_THROWS_AS(parse_barrier_choice("spin"), input_error);
}

TEST_CASE("persistent kernel: the group policy (useful maximum, lock-free limit) and siblings") {
  Context& ctx = test::context();
  PersistentConfig cfg;
  cfg.local_size = 64;
  cfg.max_groups = 3;  // the useful maximum caps "as many as co-resident"
  PersistentKernel few(ctx, "persistent_check.cl", "persistent_shift", {}, cfg);
  CHECK(few.in_kernel());
  CHECK(few.groups() == std::min(3, few.coresident()));
  check_shift(few, 5);

  cfg.max_groups = 0;  // lock-free: the master group watches at most local-size groups
  cfg.local_size = 4;
  cfg.barrier = Barrier::lock_free;
  PersistentKernel lock_free(ctx, "persistent_check.cl", "persistent_shift", {}, cfg);
  CHECK(lock_free.groups() >= 1);
  CHECK(lock_free.groups() <= 4);
  CHECK(lock_free.groups() <= lock_free.coresident());
  check_shift(lock_free, 7);

  cfg.local_size = 64;  // relaunch needs no co-residency: max_groups groups
  cfg.max_groups = 1000;
  cfg.barrier = Barrier::relaunch;
  PersistentKernel relaunch(ctx, "persistent_check.cl", "persistent_shift", {}, cfg);
  CHECK(relaunch.groups() == 1000);
  check_shift(relaunch, 3);

  // A sibling is built with the persistent program's options: LOCAL_SIZE and the barrier's.
  CHECK(few.defines().options().find("-D LOCAL_SIZE=64") != std::string::npos);
  cl::Kernel options = few.sibling("persistent_options");
  cl::Buffer out = upload(ctx.queue(), std::vector<int>(2, -1));
  set_args(options, out);
  launch(ctx.queue(), options, 1, 1);
  const std::vector<int> got = download<int>(ctx.queue(), out, 2);
  CHECK(got[0] == 64);
  CHECK(got[1] == int(few.barrier()));
}

TEST_SUITE_END();
