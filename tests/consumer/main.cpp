// The README's library example, built by CI against the *installed* package and run on the
// matrix given as the first argument.
#include <lockstep/lockstep.hpp>

#include <iostream>

int main(int argc, char** argv) {
  lockstep::Context ctx;                                      // LOCKSTEP_DEVICE, else the first GPU
  auto A = lockstep::read_matrix_market<double>(argc > 1 ? argv[1] : "matrices/laplace2d_64.mtx");
  lockstep::DeviceCsr<double> dA(ctx.queue(), A);             // upload once
  std::vector<double> x(A.cols, 1.0), y(A.rows, 0.0);
  lockstep::spmv(ctx.queue(), dA, x, y);                      // y = A*x, tuned or predicted kernel
  lockstep::spmv(ctx.queue(), dA, x, y, 2.0, 1.0);            // y = 2*A*x + y
  double sum = 0;
  for (double v : y) sum += v;
  auto want = lockstep::spmv_reference(A, x, x, 3.0, 0.0);
  double want_sum = 0;
  for (double v : want) want_sum += v;
  std::cout << "consumer: " << ctx.info().name << " sum(y)=" << sum << " expected " << want_sum << "\n";
  return std::abs(sum - want_sum) <= 1e-9 * std::max(1.0, std::abs(want_sum)) ? 0 : 1;
}
