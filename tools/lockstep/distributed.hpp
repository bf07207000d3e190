// `--distributed` for `lockstep cg`, `lockstep spmv`, `lockstep bfs` and `lockstep search`: run
// under mpirun, one rank per GPU. Defined in tools/lockstep/mpi/ when lockstep is built with MPI;
// otherwise the flag is a usage error, and the CLI does not depend on MPI.
#pragma once
#include "command.hpp"

namespace lockstep::cli {

struct SearchSetup;  // search_command.hpp

#ifdef LOCKSTEP_HAVE_MPI
int distributed_cg(const po::variables_map& vm);
int distributed_spmv(const po::variables_map& vm);
int distributed_bfs(const po::variables_map& vm);
int distributed_search(const po::variables_map& vm, SearchSetup& st);
#else
inline int distributed_unavailable() {
  throw usage_error(
      "--distributed needs lockstep built with MPI (libopenmpi-dev installed, -DLOCKSTEP_MPI=ON)");
}
inline int distributed_cg(const po::variables_map&) { return distributed_unavailable(); }
inline int distributed_spmv(const po::variables_map&) { return distributed_unavailable(); }
inline int distributed_bfs(const po::variables_map&) { return distributed_unavailable(); }
inline int distributed_search(const po::variables_map&, SearchSetup&) {
  return distributed_unavailable();
}
#endif

}  // namespace lockstep::cli
