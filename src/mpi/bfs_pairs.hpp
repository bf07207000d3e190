// Internal: the distributed BFS's top-down exchange (src/mpi/bfs_level.cpp): each rank's
// (vertex, parent) pairs, bucketed by owner on its device, to their owners' devices. Ranks of
// one host go through SharedHalo's segments (src/mpi/shared_halo.hpp, LOCKSTEP_MPI_HALO as for
// the SpMV's halos and the bottom-up bitmap): a half of a rank's segment holds a table (per
// owner: its pairs' count and first pair) and then the pairs; the rank downloads its bucketed
// pairs straight into the half, writes the table and posts its ready counter (the exchange
// number) to every same-host rank, and each of those, as each peer's counter arrives, uploads
// its own bucket out of that peer's segment into its receive buffer (the uploads overlap the
// waits); once the claim kernel over them is done it posts consumed, which frees the sender's
// half for the exchange after next. No collective call for them. Ranks of other hosts, or all
// ranks under LOCKSTEP_MPI_HALO=mpi: the counts by MPI_Alltoall and the pairs by MPI_Alltoallv
// through pinned memory (every rank makes these calls when any rank has a peer on another host,
// with no counts for its same-host peers). The pairs of a level: at most `capacity` (a level
// runs bottom-up on every rank when some rank's frontier edges pass it: the reduced `over` flag
// of bfs.cpp) and at most the other ranks' vertices (the expand sends each once a search). A
// segment's half holds fewer, min(that, `shared`, 2^22 by default); a level whose pairs could
// pass that on some rank (fits()) sends every pair by MPI on every rank (the same reduction
// tells all), so the segments stay small and the levels that need them (few pairs) use them.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "lockstep/runtime.hpp"
#include "mpi/shared_halo.hpp"

namespace lockstep::mpi {

class PairExchange {
 public:
  /// Collective over comm. capacity: the most pairs this rank sends in one exchange;
  /// shared_capacity: the most its segment holds (0: 2^22); vertices, owned: the graph's and
  /// this rank's (a level sends at most the others' once).
  PairExchange(Context& ctx, MPI_Comm comm, int64_t capacity, int64_t shared_capacity,
               int64_t vertices, int64_t owned);
  ~PairExchange();
  /// `bucketed` (on the device) holds counts[r] pairs for each owner r, in owner order; `over`:
  /// this rank had more pairs than its capacity (then every rank throws collective_error after
  /// the exchange). Returns how many pairs came to this rank, in recv() from its start, every
  /// upload enqueued on the context's queue. Collective. by_segment, the same on every rank
  /// (fits() on every rank): same-host peers through the segments; else every pair by MPI. The
  /// first `downloaded` pairs are in stage(by_segment) already (the caller's read, completed).
  int64_t exchange(const cl::Buffer& bucketed, const std::vector<int>& counts, bool over,
                   int32_t level, bool by_segment, int64_t downloaded = 0);
  /// Where the next exchange's bucketed pairs go on the host (this rank's half of its segment,
  /// once every same-host peer consumed the exchange before last; else pinned memory of room()
  /// pairs): the caller may download them there before exchange(). Starts the exchange.
  int32_t* stage(bool by_segment);
  int64_t room() const { return room_; }
  int64_t segment_room() const { return segment_room_; }
  /// Whether a level of `edges` frontier edges on this rank fits its segment's half.
  bool fits(int64_t edges) const { return std::min(edges, room_) <= segment_room_; }
  const cl::Buffer& recv() const { return recv_; }
  /// After the queue finished what followed exchange() (the uploads with it).
  void release();
  /// Ranks whose pairs come through shared memory.
  int shared_peers() const { return shm_ ? shm_->local_peers() : 0; }

 private:
  bool shared(int q) const { return shm_ && shm_->local(q); }
  void reserve(size_t pairs, size_t keep);  // recv_ for `pairs`, its first `keep` kept
  int64_t by_messages(const int32_t* out, std::vector<int> scount, const std::vector<int>& sdispl,
                      size_t at, int& bad);

  Context& ctx_;
  MPI_Comm comm_;
  int me_ = 0, ranks_ = 1;
  static constexpr int64_t kSegmentPairs = int64_t(1) << 22;  // 32 MiB a half
  int64_t room_ = 0, segment_room_ = 0;  // the most pairs of a level; of one through a segment
  bool messages_ = true;                 // some rank has a peer of another host (or no segments)
  std::unique_ptr<SharedHalo> shm_;      // null: MPI only
  std::shared_ptr<int32_t> send_, got_;  // pinned: bucketed pairs (no segments), pairs received
  size_t got_cap_ = 0, recv_cap_ = 0;
  cl::Buffer recv_;
  HaloWait wait_;
  uint64_t seq_ = 0;
  bool pending_ = false;       // an exchange whose consumed flags are not posted yet
  int32_t* staged_ = nullptr;  // stage()'s answer, until exchange()
};

}  // namespace lockstep::mpi
