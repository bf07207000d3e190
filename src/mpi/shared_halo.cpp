// The same-host halo segments (see shared_halo.hpp): setup, registration, the handshake.
#include "mpi/shared_halo.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "lockstep/mpi/session.hpp"
#include "runtime/environment.hpp"

namespace lockstep::mpi {

HaloMode HaloMode::from_environment() {
  HaloMode m;
  const std::string v = env::value("LOCKSTEP_MPI_HALO").value_or("auto");
  if (v == "mpi")
    m.shared = false;
  else if (v == "shm")
    m.required = true;
  else if (v == "shm-plain")
    m.required = true, m.register_cl = false;
  else if (v != "auto")
    throw input_error("LOCKSTEP_MPI_HALO is auto, shm, shm-plain or mpi, not '" + v + "'");
  return m;
}

namespace {

size_t page_round(size_t bytes) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

std::string segment_name(long long pid, long long serial) {
  return "/lockstep-halo-" + std::to_string(pid) + "-" + std::to_string(serial);
}

// Maps the named segment (created and sized when `create`); throws runtime_error naming it.
char* map_segment(const std::string& name, size_t bytes, bool create) {
  const int fd = create ? shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600)
                        : shm_open(name.c_str(), O_RDWR, 0600);
  auto fail = [&](const char* call, int err) {
    throw std::runtime_error(std::string(call) + "(" + name + "): " + std::strerror(err));
  };
  if (fd < 0) fail("shm_open", errno);
  if (create) {
    if (ftruncate(fd, off_t(bytes)) != 0) {
      const int err = errno;
      close(fd), shm_unlink(name.c_str()), fail("ftruncate", err);
    }
    if (const int err = posix_fallocate(fd, 0, off_t(bytes)); err != 0)
      close(fd), shm_unlink(name.c_str()), fail("posix_fallocate (is /dev/shm full?)", err);
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int err = errno;
  close(fd);
  if (p == MAP_FAILED) {
    if (create) shm_unlink(name.c_str());
    fail("mmap", err);
  }
  return static_cast<char*>(p);
}

}  // namespace

std::unique_ptr<SharedHalo> SharedHalo::open(MPI_Comm comm, cl::CommandQueue& queue,
                                             const std::vector<int>& send_offset, size_t send_count,
                                             size_t elem, HaloMode mode, std::string* why) {
  if (why) why->clear();
  int ranks = 1, me = 0;
  MPI_Comm_size(comm, &ranks), MPI_Comm_rank(comm, &me);
  int want[2] = {mode.shared ? 1 : 0, mode.required ? 0 : 1};  // every rank takes one decision
  MPI_Allreduce(MPI_IN_PLACE, want, 2, MPI_INT, MPI_MIN, comm);
  mode.required = !want[1];
  if (!want[0] || ranks == 1) return nullptr;

  // Hosts: each rank's host is named by the lowest rank of comm on it.
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
  int leader = me;
  MPI_Bcast(&leader, 1, MPI_INT, 0, node);
  MPI_Comm_free(&node);
  std::vector<int> host(size_t(ranks), 0), offset_from(size_t(ranks), -1);
  MPI_Allgather(&leader, 1, MPI_INT, host.data(), 1, MPI_INT, comm);
  MPI_Alltoall(send_offset.data(), 1, MPI_INT, offset_from.data(), 1, MPI_INT, comm);
  std::vector<char> local(size_t(ranks), 0);
  int pairs = 0;
  for (int q = 0; q < ranks; ++q)
    if (q != me && host[size_t(q)] == leader &&
        (send_offset[size_t(q)] >= 0 || offset_from[size_t(q)] >= 0))
      local[size_t(q)] = 1, ++pairs;
  int any = pairs;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm);
  if (!any) return nullptr;

  std::unique_ptr<SharedHalo> h(new SharedHalo());
  h->queue_ = queue, h->ranks_ = ranks, h->me_ = me, h->elem_ = elem, h->offset_from_ = offset_from;
  h->header_ = page_round(64 * 2 * size_t(ranks));
  h->peer_.resize(size_t(ranks));
  std::vector<unsigned long long> bytes(static_cast<size_t>(ranks));
  // Two halves (exchanges alternate between them): a download waits only for the upload of
  // the exchange before the last, long done, not for the neighbour's latest.
  const unsigned long long mine_bytes =
      h->header_ + 2 * page_round(std::max<size_t>(1, send_count) * elem);
  MPI_Allgather(&mine_bytes, 1, MPI_UNSIGNED_LONG_LONG, bytes.data(), 1, MPI_UNSIGNED_LONG_LONG,
                comm);
  static long long serial = 0;
  long long id[2] = {(long long)getpid(), serial++};
  std::vector<long long> ids(2 * size_t(ranks));
  std::string message;
  try {
    if (pairs) h->mine_.base = map_segment(segment_name(id[0], id[1]), mine_bytes, true);
    h->mine_.bytes = pairs ? mine_bytes : 0;
  } catch (const std::exception& e) {
    message = e.what();
  }
  MPI_Allgather(id, 2, MPI_LONG_LONG, ids.data(), 2, MPI_LONG_LONG, comm);
  for (int q = 0; q < ranks && message.empty(); ++q)
    if (local[size_t(q)]) try {
        Segment& s = h->peer_[size_t(q)];
        s.base = map_segment(segment_name(ids[2 * size_t(q)], ids[2 * size_t(q) + 1]),
                             bytes[size_t(q)], false);
        s.bytes = bytes[size_t(q)];
      } catch (const std::exception& e) {
        message = e.what();
      }
  // Registration: never fatal; `registered` says whether every segment took it.
  bool reg = mode.register_cl && message.empty();
  auto register_segment = [&](Segment& s) {
    if (!s.base || !reg) return;
    try {
      cl_int err = CL_SUCCESS;
      cl::Buffer b(queue.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                   s.bytes, s.base, &err);
      void* p = err == CL_SUCCESS ? queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                           0, s.bytes, nullptr, nullptr, &err)
                                  : nullptr;
      if (err == CL_SUCCESS && p == s.base) return void(s.registered = b);
      if (p) queue.enqueueUnmapMemObject(b, p), queue.finish();
    } catch (const std::exception&) {
    }
    reg = false;
  };
  register_segment(h->mine_);
  for (Segment& s : h->peer_) register_segment(s);
  h->registered_ = reg;
  int ok = message.empty() ? 1 : 0;  // also the barrier: every segment mapped (or failed)
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  if (h->mine_.base) shm_unlink(segment_name(id[0], id[1]).c_str());
  if (ok) return h;
  h.reset();
  if (mode.required)
    agree(comm, message.empty() ? 0 : 1, "LOCKSTEP_MPI_HALO: no shared-memory halo: " + message);
  if (why)
    *why = message.empty() ? "another rank could not set up its shared-memory halo" : message;
  return nullptr;
}

void SharedHalo::unmap(Segment& s) {
  if (!s.base) return;
  if (s.registered()) {
    queue_.enqueueUnmapMemObject(s.registered, s.base);  // no throw in a destructor
    queue_.finish();
    s.registered = cl::Buffer();
  }
  munmap(s.base, s.bytes);
  s.base = nullptr;
}

SharedHalo::~SharedHalo() {
  for (Segment& s : peer_) unmap(s);
  unmap(mine_);
}

int SharedHalo::local_peers() const {
  int n = 0;
  for (const Segment& s : peer_) n += s.base != nullptr;
  return n;
}

void* SharedHalo::send_area(uint64_t seq) const {
  return mine_.base + header_ + (seq % 2) * ((mine_.bytes - header_) / 2);
}

const void* SharedHalo::from(int q, uint64_t seq) const {
  const Segment& s = peer_[size_t(q)];
  return s.base + header_ + (seq % 2) * ((s.bytes - header_) / 2) +
         size_t(offset_from_[size_t(q)]) * elem_;
}

void SharedHalo::post_ready(int dest, uint64_t seq) {
  __atomic_store_n(line(mine_, size_t(dest)), seq, __ATOMIC_RELEASE);
}
bool SharedHalo::ready(int src, uint64_t seq) const {
  return __atomic_load_n(line(peer_[size_t(src)], size_t(me_)), __ATOMIC_ACQUIRE) >= seq;
}
void SharedHalo::post_consumed(int src, uint64_t seq) {
  __atomic_store_n(line(mine_, size_t(ranks_ + src)), seq, __ATOMIC_RELEASE);
}
bool SharedHalo::consumed(int dest, uint64_t seq) const {
  return __atomic_load_n(line(peer_[size_t(dest)], size_t(ranks_) + size_t(me_)),
                         __ATOMIC_ACQUIRE) >= seq;
}

void SharedHalo::await_half(uint64_t seq, const HaloWait& wait) const {
  for (int r = 0; r < ranks_; ++r)
    while (local(r) && !consumed(r, seq < 2 ? 0 : seq - 2))
      wait.poll([r] { return "rank " + std::to_string(r) + " (consumed)"; });
}

HaloWait::HaloWait(const cl::CommandQueue& queue) {
  const cl::Device dev = queue.getInfo<CL_QUEUE_DEVICE>();
  cpu_ = !(dev.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU);
}

void HaloWait::start(std::string name) {
  name_ = std::move(name);
  progress();
}

void HaloWait::poll_ranks(const std::vector<int>& ranks) const {
  poll([&] {
    std::string names = "rank";
    for (int r : ranks) names += " " + std::to_string(r);
    return names;
  });
}

namespace {
constexpr double kStallSeconds = 120;  // nothing moved that long: a peer stopped; an error
}  // namespace

void HaloWait::pause() const {
  if (cpu_)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  else
    std::this_thread::yield();
}

bool HaloWait::stalled() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count() >=
         kStallSeconds;
}

void HaloWait::fail(const std::string& waiting_for) const {
  throw std::runtime_error(name_ + ": nothing moved for " + std::to_string(int(kStallSeconds)) +
                           " s; waiting for " + waiting_for);
}

}  // namespace lockstep::mpi
