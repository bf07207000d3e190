// The options of `lockstep cg`, shared by the one-device and the distributed driver.
#pragma once
#include <lockstep/cg.hpp>

#include "command.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {

inline void add_cg_options(po::options_description& opts) {
  add_algorithm_option(opts, names_of({CgAlgorithm::classic, CgAlgorithm::pipelined}), "classic",
                       "(Hestenes-Stiefel; Ghysels-Vanroose: one fused reduction per iteration, "
                       "overlapped with the SpMV)");
  opts.add_options()("preconditioner", po::value<std::string>()->default_value("none"),
                     join(names_of({Preconditioner::none, Preconditioner::jacobi})).c_str())(
      "replace-every", number<int>(-1, 1000000)->default_value(-1),
      "pipelined: residual replacement every N iterations (0: never; -1: 100 in double, 20 in "
      "float)")(
      "separate-spmv", "pipelined: keep the SpMV a launch of its own (by default, on one device, "
                       "a one-row-per-work-item SpMV runs inside the update kernel)");
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

}  // namespace lockstep::cli
