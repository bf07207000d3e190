// The options of `lockstep cg`, shared by the one-device and the distributed driver.
#pragma once
#include <lockstep/cg.hpp>

#include "command.hpp"

namespace lockstep::cli {

inline void add_cg_options(po::options_description& opts) {
  opts.add_options()("algorithm", po::value<std::string>()->default_value("classic"),
                     "classic (Hestenes-Stiefel) or pipelined (Ghysels-Vanroose: one fused "
                     "reduction per iteration, overlapped with the SpMV)")(
      "preconditioner", po::value<std::string>()->default_value("none"), "none or jacobi")(
      "replace-every", number<int>(0, 1000000)->default_value(100),
      "pipelined: residual replacement every N iterations (0: never)");
}

/// CgOptions from the command line; a bad name is a usage error naming the option.
inline CgOptions cg_options(const po::variables_map& vm, int maxit) {
  CgOptions o;
  o.tol = vm["tol"].as<double>();
  o.maxit = maxit;
  o.replace_every = vm["replace-every"].as<int>();
  const std::string a = vm["algorithm"].as<std::string>(), p = vm["preconditioner"].as<std::string>();
  if (a != "classic" && a != "pipelined")
    throw usage_error("--algorithm must be classic or pipelined, not '" + a + "'");
  if (p != "none" && p != "jacobi")
    throw usage_error("--preconditioner must be none or jacobi, not '" + p + "'");
  o.algorithm = parse_cg_algorithm(a);
  o.preconditioner = parse_preconditioner(p);
  return o;
}

}  // namespace lockstep::cli
