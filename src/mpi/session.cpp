// MPI session, rank-to-device mapping and failure agreement (see lockstep/mpi/session.hpp).
#include "lockstep/mpi/session.hpp"

#include <algorithm>
#include <cctype>
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
  const size_t local = size_t(local_rank(comm));
  std::vector<std::string> items;
  std::stringstream s(list);
  for (std::string item; std::getline(s, item, ',');) items.push_back(item);
  if (items.size() > 1) return select_device(items[local % items.size()]);
  // One name (or none: the GPUs) that several devices match: local rank L takes the L-th.
  std::string want = items.empty() ? "" : items[0];
  auto lower = [](std::string t) {
    for (char& c : t) c = char(std::tolower(static_cast<unsigned char>(c)));
    return t;
  };
  bool index = !want.empty() && std::all_of(want.begin(), want.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (index) return select_device(want);
  std::vector<cl::Device> matches;
  for (const cl::Device& d : all_devices()) {
    DeviceInfo i = describe(d);
    if (want.empty() ? i.is_gpu()
                     : lower(i.name).find(lower(want)) != std::string::npos ||
                           lower(i.platform).find(lower(want)) != std::string::npos)
      matches.push_back(d);
  }
  if (matches.empty()) return select_device(want);  // its error, or the default device
  return matches[local % matches.size()];
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
