// MPI session, rank-to-device mapping and failure agreement (see lockstep/mpi/session.hpp).
#include "lockstep/mpi/session.hpp"

#include <cstdlib>

#include "runtime/environment.hpp"

namespace lockstep::mpi {

Session::Session() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    MPI_Init(nullptr, nullptr);
    owner_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (owner_ && !finalised) MPI_Finalize();
}

int rank(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

int local_rank(MPI_Comm comm) {
  if (const auto v = env::value("LOCKSTEP_LOCAL_RANK")) return std::atoi(v->c_str());
  if (const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK"); v && *v) return std::atoi(v);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank(comm), MPI_INFO_NULL, &node);
  int r = rank(node);
  MPI_Comm_free(&node);
  return r;
}

cl::Device select_rank_device(MPI_Comm comm, const std::string& spec) {
  // The one device parser (runtime): a comma list's item, or the matching devices' (the GPUs'
  // when nothing is named), chosen by the local rank.
  return select_device(spec, size_t(local_rank(comm)));
}

void agree(MPI_Comm comm, int code, const std::string& message) {
  const int me = rank(comm), nranks = size(comm);
  int first = code ? me : nranks;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == nranks) return;
  std::string text = "rank " + std::to_string(me) + ": " + message;
  int header[2] = {code, int(text.size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  text.resize(size_t(header[1]));
  MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm);
  throw collective_error(header[0], text);
}

}  // namespace lockstep::mpi
