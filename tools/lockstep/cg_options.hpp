// The options of `lockstep cg`, shared by the one-device and the distributed driver.
#pragma once
#include <algorithm>
#include <cmath>
#include <lockstep/cg.hpp>
#include <lockstep/csr.hpp>
#include <lockstep/error.hpp>
#include <sstream>
#include <string>

#include "command.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {

inline void add_cg_options(po::options_description& opts) {
  add_algorithm_option(
      opts, names_of({CgAlgorithm::classic, CgAlgorithm::pipelined, CgAlgorithm::single_reduction}),
      "classic",
      "(Hestenes-Stiefel; Ghysels-Vanroose: one fused reduction per iteration, "
      "overlapped with the SpMV; Chronopoulos-Gear: one reduction per iteration, "
      "after the SpMV, classic's iterates)");
  opts.add_options()("preconditioner", po::value<std::string>()->default_value("none"),
                     join(names_of({Preconditioner::none, Preconditioner::jacobi})).c_str())(
      "replace-every", number<int>(-1, 1000000)->default_value(-1),
      "pipelined: residual replacement every N iterations (0: never; -1: 100 in double, doubled "
      "up to 400 while the residuals agree, 20 in float)")(
      "separate-spmv",
      "pipelined: keep the SpMV a launch of its own (by default a "
      "one-row-per-work-item SpMV runs inside the update kernel)");
}

/// CgOptions from the command line; a bad name is a usage error naming the option.
inline CgOptions cg_options(const po::variables_map& vm, int maxit) {
  CgOptions o;
  o.tol = vm["tol"].as<double>();
  o.maxit = maxit;
  o.replace_every = vm["replace-every"].as<int>();
  o.fuse_spmv = !vm.count("separate-spmv");
  o.algorithm = parse_option(vm, "algorithm", parse_cg_algorithm);
  o.preconditioner = parse_option(vm, "preconditioner", parse_preconditioner);
  if (vm.count("separate-spmv") && o.algorithm != CgAlgorithm::pipelined)
    throw usage_error("--separate-spmv needs --algorithm pipelined");
  return o;
}

/// What conjugate gradients cannot start from: a non-square, zero, non-finite or non-symmetric
/// matrix (input_error naming the file and the entry). The one-device driver checks its matrix,
/// the distributed one root's whole matrix (a file; generated grids are SPD by construction).
template <typename T>
void check_cg_matrix(const std::string& file, const Csr<T>& A) {
  if (A.rows != A.cols) throw input_error(file + ": conjugate gradients needs a square matrix");
  bool zero = true;
  for (int32_t i = 0; i < A.rows; ++i)
    for (int32_t k = A.row_ptr[size_t(i)]; k < A.row_ptr[size_t(i) + 1]; ++k) {
      const double v = double(A.values[size_t(k)]);
      if (!std::isfinite(v))
        throw input_error(file + ": entry (" + std::to_string(i + 1) + ", " +
                          std::to_string(A.col_idx[size_t(k)] + 1) + ") is " +
                          (std::isnan(v) ? "NaN" : "infinite") +
                          ": conjugate gradients needs a finite SPD matrix");
      zero &= v == 0;
    }
  if (zero && A.rows > 0)
    throw input_error(file +
                      ": the matrix is zero (b = A*1 = 0): not positive definite, nothing "
                      "to solve");
  // Symmetry, before any iteration (on a non-symmetric matrix CG just fails to converge): each
  // entry against its mirror, found by binary search in the sorted columns of its row.
  for (int32_t i = 0; i < A.rows; ++i)
    for (int32_t k = A.row_ptr[size_t(i)]; k < A.row_ptr[size_t(i) + 1]; ++k) {
      const int32_t j = A.col_idx[size_t(k)];
      if (j == i) continue;
      const auto b = A.col_idx.begin() + A.row_ptr[size_t(j)];
      const auto e = A.col_idx.begin() + A.row_ptr[size_t(j) + 1];
      const auto it = std::lower_bound(b, e, i);
      const double v = double(A.values[size_t(k)]);
      const double w = it != e && *it == i ? double(A.values[size_t(it - A.col_idx.begin())]) : 0.0;
      if (std::fabs(v - w) > 1e-10 * std::max(std::fabs(v), std::fabs(w))) {
        std::ostringstream s;
        s.precision(17);
        s << file << ": not symmetric: entry (" << i + 1 << ", " << j + 1 << ") is " << v
          << " but (" << j + 1 << ", " << i + 1 << ") is " << w
          << ": conjugate gradients needs a symmetric positive definite matrix";
        throw input_error(s.str());
      }
    }
}

}  // namespace lockstep::cli
