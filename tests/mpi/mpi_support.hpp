// Support for the MPI tests: this rank's context (on the device select_rank_device picks, so
// LOCKSTEP_DEVICE applies as in the other tests), and root-to-ranks helpers.
#pragma once
#include "lockstep/mpi.hpp"
#include "support.hpp"

namespace lockstep::test {

inline MPI_Comm world() { return MPI_COMM_WORLD; }
inline int world_rank() { return mpi::rank(MPI_COMM_WORLD); }
inline int world_size() { return mpi::size(MPI_COMM_WORLD); }

inline Context& rank_context() {
  static Context ctx(mpi::select_rank_device(MPI_COMM_WORLD));
  return ctx;
}

/// Uploads this rank's part of a global vector (known on every rank) into a halo-sized vector.
template <typename T>
cl::Buffer upload_local(mpi::DistributedCsr<T>& a, const std::vector<T>& global,
                        mpi::Layout layout = mpi::Layout::rows) {
  std::vector<T> local = mpi::scatter_vector(a, global, 0, layout);
  cl::Buffer x = a.make_vector();
  if (!local.empty())
    check(a.queue().enqueueWriteBuffer(x, CL_TRUE, 0, local.size() * sizeof(T), local.data()),
          "clEnqueueWriteBuffer");
  return x;
}

}  // namespace lockstep::test
