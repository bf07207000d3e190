// MPI session, rank-to-device mapping and failure agreement (see lockstep/mpi/session.hpp).
#include "lockstep/mpi/session.hpp"

#include <cstdlib>
#include <sstream>
#include <vector>

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
  for (const char* name : {"LOCKSTEP_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK"})
    if (const char* v = std::getenv(name); v && *v) return std::atoi(v);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank(comm), MPI_INFO_NULL, &node);
  int r = rank(node);
  MPI_Comm_free(&node);
  return r;
}

cl::Device select_rank_device(MPI_Comm comm, const std::string& spec) {
  std::string list = spec;
  if (list.empty())
    if (const char* env = std::getenv("LOCKSTEP_DEVICE")) list = env;
  const int local = local_rank(comm);
  if (!list.empty()) {
    std::vector<std::string> items;
    std::stringstream s(list);
    for (std::string item; std::getline(s, item, ',');) items.push_back(item);
    if (items.empty()) items.push_back("");
    return select_device(items[size_t(local) % items.size()]);
  }
  std::vector<cl::Device> gpus;
  for (const cl::Device& d : all_devices())
    if (describe(d).is_gpu()) gpus.push_back(d);
  if (gpus.empty()) return select_device("");
  return gpus[size_t(local) % gpus.size()];
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
