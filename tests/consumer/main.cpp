// The README's library example, built by CI against the *installed* package and run on the
// matrix given as the first argument: SpMV, then conjugate gradients (lockstep::cg).
#include <iostream>
#include <lockstep/lockstep.hpp>

int main(int argc, char** argv) {
  lockstep::Context ctx;  // LOCKSTEP_DEVICE, else the first GPU
  auto A = lockstep::read_matrix_market<double>(argc > 1 ? argv[1] : "matrices/laplace2d_64.mtx");
  lockstep::DeviceCsr<double> dA(ctx, A);  // upload once
  std::vector<double> x(A.cols, 1.0), y(A.rows, 0.0);
  lockstep::spmv(ctx, dA, x, y);            // y = A*x, tuned or predicted kernel
  lockstep::spmv(ctx, dA, x, y, 2.0, 1.0);  // y = 2*A*x + y
  std::vector<double> z;
  lockstep::CgResult cg = lockstep::cg(ctx, dA, y, z, {1e-10});  // solve A z = y: z = 3*1
  double sum = 0, err = 0;
  for (double v : y) sum += v;
  for (double v : z) err = std::max(err, std::abs(v - 3.0));
  auto want = lockstep::spmv_reference(A, x, x, 3.0, 0.0);
  double want_sum = 0;
  for (double v : want) want_sum += v;
  std::cout << "consumer: " << ctx.info().name << " sum(y)=" << sum << " expected " << want_sum
            << " cg_iterations=" << cg.iterations << " max|z-3|=" << err << "\n";
  return std::abs(sum - want_sum) <= 1e-9 * std::max(1.0, std::abs(want_sum)) && cg.converged &&
                 err <= 1e-6
             ? 0
             : 1;
}
