// Internal: the same-host halo path of the distributed SpMV (exchange.cpp). Each rank owns one
// POSIX shared-memory segment (shm_open, reserved with posix_fallocate so a full /dev/shm is an
// error at setup, not a SIGBUS later, and unlinked as soon as every neighbour has mapped it):
// a header of sequence counters, one 64-byte line each, then its send staging area twice (the
// send slices in the order of the send lists; odd exchanges use one copy, even ones the other).
// Neighbours on the same host map each other's segments, so the sender's GPU downloads its boundary
// slice straight into shared memory and the receiver's GPU uploads it straight out of it: no MPI
// message, no host copy. Every mapped segment is also registered with OpenCL once (a
// CL_MEM_USE_HOST_PTR buffer, mapped for the segment's life) so drivers that pin such memory DMA
// into it directly; where the mapping does not return the segment's own address the registration is
// dropped and the copies still work. Handshake per exchange number `seq` (1, 2, ...; every exchange
// is collective, so both sides count alike): the sender stores ready[dest] = seq (release) once its
// download completed; the receiver uploads after it reads ready >= seq (acquire), and stores
// consumed[src] = seq once the upload completed; the sender downloads exchange seq + 2 (the same
// half) into the slice only after it reads consumed >= seq. Counters are written by the segment's
// owner only. Users: the SpMV's halos (exchange.cpp), the distributed BFS's frontier bitmap
// (bfs_exchange.hpp: one slice, this rank's bitmap words, which every same-host rank reads) and its
// top-down pairs (bfs_pairs.hpp: one slice, a table of per-owner counts and the pairs bucketed by
// owner). HaloWait: the BFS exchanges' polls of the counters, with the no-progress guard.
#pragma once
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/runtime.hpp"

namespace lockstep::mpi {

/// LOCKSTEP_MPI_HALO: auto (shared memory between ranks of one host, MPI otherwise; MPI for all
/// when the segments cannot be set up), shm (the same, but a failed setup is an error),
/// shm-plain (shm without the OpenCL registration), mpi (MPI messages only).
struct HaloMode {
  bool shared = true, required = false, register_cl = true;
  static HaloMode from_environment();  // throws input_error on an unknown value
};

class HaloWait;

class SharedHalo {
 public:
  /// Collective over comm. send_offset[q]: the element offset of the slice this rank sends to
  /// rank q (-1: none); send_count: elements in this rank's send staging; elem: bytes each.
  /// Null when no rank pair of one host exchanges anything, or (mode not required) when a
  /// segment could not be made on some rank (`why` says which and why); the same on every rank.
  static std::unique_ptr<SharedHalo> open(MPI_Comm comm, cl::CommandQueue& queue,
                                          const std::vector<int>& send_offset, size_t send_count,
                                          size_t elem, HaloMode mode, std::string* why);
  ~SharedHalo();
  SharedHalo(const SharedHalo&) = delete;
  SharedHalo& operator=(const SharedHalo&) = delete;

  /// Whether rank q's slices travel through shared memory (same host, mapped).
  bool local(int q) const { return peer_[size_t(q)].base != nullptr; }
  int local_peers() const;
  bool registered() const { return registered_; }
  /// This rank's send staging of exchange `seq` (elements of `elem` bytes, the send lists'
  /// offsets; odd and even exchanges use the two halves of the segment).
  void* send_area(uint64_t seq) const;
  /// Where rank q's slice of exchange `seq` for this rank starts (q local).
  const void* from(int q, uint64_t seq) const;

  void post_ready(int dest, uint64_t seq);
  bool ready(int src, uint64_t seq) const;
  void post_consumed(int src, uint64_t seq);
  bool consumed(int dest, uint64_t seq) const;
  /// Polls (through `wait`) until every same-host peer consumed exchange seq - 2, the last one
  /// that used seq's half of this rank's segment (the BFS exchanges, whose every peer reads it).
  void await_half(uint64_t seq, const HaloWait& wait) const;

 private:
  struct Segment {
    char* base = nullptr;
    size_t bytes = 0;
    cl::Buffer registered;  // the CL_MEM_USE_HOST_PTR buffer, mapped at base
  };
  SharedHalo() = default;
  uint64_t* line(const Segment& s, size_t i) const {
    return reinterpret_cast<uint64_t*>(s.base + 64 * i);
  }
  void unmap(Segment& s);

  cl::CommandQueue queue_;
  int ranks_ = 0, me_ = 0;
  size_t header_ = 0, elem_ = 0;
  Segment mine_;
  std::vector<Segment> peer_;     // per rank of comm: mapped when local (never this rank's own)
  std::vector<int> offset_from_;  // per rank: the element offset of its slice for this rank
  bool registered_ = false;
};

/// Polling for an exchange's progress (the shared-memory counters, MPI requests, copies): a pause
/// between polls (a short sleep where the device is the CPU, whose threads need the core: PoCL;
/// a yield otherwise), and after 120 s without progress a runtime_error naming the exchange and
/// what it waits for (a peer that stopped), never a silent hang. Used by the SpMV's halo exchange
/// and the BFS's bitmap and pair exchanges.
class HaloWait {
 public:
  explicit HaloWait(bool cpu) : cpu_(cpu) {}
  explicit HaloWait(const cl::CommandQueue& queue);  // cpu: the queue's device is not a GPU
  /// Starts the no-progress clock of exchange `name` (e.g. "bfs pairs exchange 7").
  void start(std::string name);
  void progress() { since_ = std::chrono::steady_clock::now(); }
  /// One pause; when nothing progressed for 120 s, throws naming `waiting_for()` ("rank 2"),
  /// which is called only then.
  template <typename F>
  void poll(F&& waiting_for) const {
    pause();
    if (stalled()) fail(waiting_for());
  }
  /// The same, naming the ranks waited for ("rank 1 3").
  void poll_ranks(const std::vector<int>& ranks) const;

 private:
  void pause() const;
  bool stalled() const;
  [[noreturn]] void fail(const std::string& waiting_for) const;
  bool cpu_ = false;
  std::string name_;
  std::chrono::steady_clock::time_point since_ = std::chrono::steady_clock::now();
};

}  // namespace lockstep::mpi
