// Shared by the distributed commands: the MPI session around a command (a collective_error
// becomes the same message and exit code on every rank; any other failure, which may leave
// ranks waiting in a collective, ends the job with MPI_Abort), the rank's device, and the
// matrix read (or generated: "gen:laplace3d:N", "gen:laplace2d:N") on rank 0 and scattered.
#pragma once
#include <iostream>
#include <lockstep/lockstep.hpp>
#include <lockstep/mpi.hpp>
#include <memory>
#include <optional>
#include <sstream>

#include "command.hpp"
#include "exit_codes.hpp"
#include "matrix_source.hpp"

namespace lockstep::cli {

template <typename F>
int run_distributed(const std::string& command, F&& body) {
  mpi::Session session;
  int code = 0;
  try {
    code = body(MPI_COMM_WORLD);
  } catch (const mpi::collective_error& e) {
    // Every rank holds the same message, naming the failing rank: rank 0 prints it once.
    if (session.rank() == 0) std::cerr << "lockstep " + command + ": " + e.what() + "\n";
    code = e.exit_code();
  } catch (...) {  // not agreed on: other ranks may wait in a collective, so abort them all
    std::ostringstream err;
    code = exit_code_of_current_exception(
        "lockstep " + command + ": rank " + std::to_string(session.rank()), err);
    std::cerr << err.str() + "lockstep " + command + ": aborting every rank\n";
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  // Every rank has printed before any exits: mpirun kills the others once one exits non-zero.
  std::cout.flush();
  MPI_Barrier(MPI_COMM_WORLD);
  return code;
}

/// This rank's context on its device (collective: a rank without a device stops them all).
template <typename T>
std::unique_ptr<Context> rank_context(MPI_Comm comm, const po::variables_map& vm) {
  std::unique_ptr<Context> ctx;
  mpi::collective(comm, [&] {
    ctx = std::make_unique<Context>(mpi::select_rank_device(comm, device_spec(vm)));
    if (sizeof(T) == 8 && !ctx->info().fp64) throw input_error(ctx->info().name + " has no fp64");
  });
  return ctx;
}

/// Root's whole matrix (empty on the other ranks), read or generated (collective agreement).
template <typename T>
Csr<T> root_matrix(MPI_Comm comm, const std::string& file) {
  Csr<T> a;
  mpi::collective(comm, [&] {
    if (mpi::rank(comm) == 0) a = matrix_source<T>(file);
  });
  return a;
}

}  // namespace lockstep::cli
