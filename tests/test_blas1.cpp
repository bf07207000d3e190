// Vector kernels (fill, axpby, dot) against host arithmetic, at sizes that are not multiples
// of the work-group size, and 0.
#include <random>

#include "lockstep/blas1.hpp"
#include "support.hpp"

using namespace lockstep;

TEST_CASE_TEMPLATE("fill, axpby and dot" * doctest::test_suite("portable"), T, float, double) {
  Context& ctx = test::context();
  if (std::is_same_v<T, double> && !ctx.info().fp64) return test::skip("no fp64 on this device");
  for (int n : {0, 1, 7, 93, 4099, 300000}) {
    CAPTURE(n);
    std::mt19937 rng(n);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<T> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = T(u(rng)), y[i] = T(u(rng));
    cl::Buffer bx = upload(ctx.queue(), x), by = upload(ctx.queue(), y);

    T d = dot<T>(ctx.queue(), n, bx, by);
    axpby<T>(ctx.queue(), n, T(2), bx, T(-0.5), by);
    auto got = download<T>(ctx.queue(), by, n);
    cl::Buffer bz = make_buffer(ctx.context(), CL_MEM_READ_WRITE, (n + 1) * sizeof(T));
    fill<T>(ctx.queue(), bz, n, T(3));
    auto z = download<T>(ctx.queue(), bz, n);

    double want = 0;
    std::vector<double> want_y(n), tol(n, test::tolerance<T>(2)), scale(n, 1.0);
    for (int i = 0; i < n; ++i) {
      want += double(x[i]) * double(y[i]);
      want_y[i] = 2.0 * double(x[i]) - 0.5 * double(y[i]);
    }
    CHECK(test::close(double(d), want, test::tolerance<T>(n), std::sqrt(double(n))));
    test::check_close(got, want_y, tol, scale);
    for (T v : z) REQUIRE(v == T(3));
  }
}
