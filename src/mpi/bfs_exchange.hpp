// Internal: the distributed BFS's bottom-up exchange (src/mpi/bfs.cpp): every rank's frontier
// bitmap words (its block of the global bitmap) onto every rank's device. Ranks of one host
// share them through SharedHalo's segments (src/mpi/shared_halo.hpp, LOCKSTEP_MPI_HALO as for
// the SpMV's halos): each rank downloads its words once, straight into its segment, and posts
// its ready counter (the exchange number) to every same-host rank, which uploads the words out
// of that segment into its global bitmap as soon as the counter arrives (the peers' uploads
// overlap each other and the waits); once the level's kernels are done (their uploads with
// them) it posts consumed, which frees the sender's half of the segment for the exchange after
// next. Ranks of other hosts get the words by MPI_Isend / MPI_Irecv through pinned memory, each
// uploaded when its message arrives. This rank's own words go device to device.
// scatter_or (the top-down levels whose pairs would not fit, src/mpi/bfs_hub.cpp): each rank's
// bitmap of all vertices, ORed over the ranks, each rank getting the words of its own block
// (one MPI_Reduce_scatter with MPI_BOR through pinned memory).
#pragma once
#include <mpi.h>

#include <memory>
#include <vector>

#include "lockstep/runtime.hpp"
#include "mpi/shared_halo.hpp"

namespace lockstep::mpi {

class BitmapExchange {
 public:
  /// Collective over comm. block: ranks + 1 vertex offsets, multiples of 32 (the last n).
  BitmapExchange(Context& ctx, MPI_Comm comm, const std::vector<int32_t>& block);
  ~BitmapExchange();
  /// Every rank's words of its frontier bitmap (this rank's in `mine`, on the device) into
  /// `global` (the whole bitmap, on the device); returns with every upload enqueued on the
  /// context's queue. Collective.
  void gather(const cl::Buffer& mine, const cl::Buffer& global);
  /// `all` (on the device: this rank's bitmap of every vertex) ORed over the ranks; this rank's
  /// words of the result into `mine` (on the device), the upload enqueued on the context's
  /// queue (the caller finishes the queue before the next call). Collective.
  void scatter_or(const cl::Buffer& all, const cl::Buffer& mine);
  /// After the queue finished what followed gather() (its uploads with it).
  void release();
  /// Ranks whose words come through shared memory.
  int shared_peers() const { return shm_ ? shm_->local_peers() : 0; }

 private:
  bool shared(int q) const { return shm_ && shm_->local(q); }

  Context& ctx_;
  MPI_Comm comm_;
  int me_ = 0, ranks_ = 1;
  std::vector<int> words_, displ_;   // per rank: its words and their first word
  std::unique_ptr<SharedHalo> shm_;  // null: MPI only
  std::shared_ptr<uint32_t> host_;   // pinned: the global bitmap (other hosts' words, this rank's)
  std::shared_ptr<uint32_t> all_, part_;  // pinned: scatter_or's bitmap and this rank's words
  HaloWait wait_;                         // the polls of the counters, the no-progress guard
  uint64_t seq_ = 0;
  bool pending_ = false;  // a gather whose consumed flags are not posted yet
};

}  // namespace lockstep::mpi
