// MPI plumbing for lockstep::mpi: the MPI_Init/MPI_Finalize guard, the device each rank uses
// (chosen by its rank on the host), and agreement on failures. Every fallible local step of a
// distributed program runs inside collective(): the ranks then agree (MPI_Allreduce of an error
// flag) and, when any rank failed, every rank throws the same collective_error carrying the
// first failing rank's message, so a bad file on rank 0 or a missing device on rank 1 ends all
// ranks with one clear message instead of a hang.
#pragma once
#include <mpi.h>

#include <new>
#include <stdexcept>
#include <string>

#include "lockstep/error.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep::mpi {

/// MPI_Init on construction (unless MPI is already initialised), MPI_Finalize on destruction.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  bool owner_ = false;
  int rank_ = 0, size_ = 1;
};

int rank(MPI_Comm comm);
int size(MPI_Comm comm);
/// This rank's index among the ranks of its host: LOCKSTEP_LOCAL_RANK, else
/// OMPI_COMM_WORLD_LOCAL_RANK, else the rank in MPI_Comm_split_type(MPI_COMM_TYPE_SHARED).
int local_rank(MPI_Comm comm);

/// The device of this rank (L = local_rank). spec, or LOCKSTEP_DEVICE when spec is empty: a
/// comma list "0,1" gives rank L item L mod count; one name that several devices match
/// ("nvidia") gives rank L the match L mod matches; an index is used by every rank. With
/// neither, rank L takes GPU L mod (number of GPUs), else the default device. So `mpirun -np 2`
/// on a 2-GPU host uses both. Not collective: call it inside collective(), so that a rank
/// without a device stops every rank.
cl::Device select_rank_device(MPI_Comm comm, const std::string& spec = "");

/// The same failure on every rank: exit_code 1 (bad input) or 3 (OpenCL), message prefixed by
/// the failing rank ("rank 1: ...").
class collective_error : public std::runtime_error {
 public:
  collective_error(int exit_code, const std::string& message)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

/// Collective: all ranks learn whether any rank failed (code != 0); if so every rank throws
/// collective_error with the lowest failing rank's code and message.
void agree(MPI_Comm comm, int code, const std::string& message);

/// Runs a local step, turning its exception into a code and message, then agree().
template <typename F>
void collective(MPI_Comm comm, F&& step) {
  int code = 0;
  std::string message;
  try {
    step();
  } catch (const opencl_error& e) {
    code = 3, message = std::string("OpenCL error: ") + e.what();
  } catch (const std::bad_alloc&) {
    code = 1, message = "out of host memory";
  } catch (const std::exception& e) {
    code = 1, message = e.what();
  }
  agree(comm, code, message);
}

}  // namespace lockstep::mpi
