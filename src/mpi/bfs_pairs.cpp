// PairExchange (see bfs_pairs.hpp): the top-down levels' (vertex, parent) pairs to their owners.
#include "mpi/bfs_pairs.hpp"

#include <algorithm>
#include <string>

#include "lockstep/mpi/session.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/pinned.hpp"

namespace lockstep::mpi {

PairExchange::PairExchange(Context& ctx, MPI_Comm comm, int64_t capacity, int64_t shared_capacity,
                           int64_t vertices, int64_t owned)
    : ctx_(ctx), comm_(comm), me_(rank(comm)), ranks_(size(comm)), wait_(ctx.queue()) {
  HaloMode mode;
  collective(comm, [&] { mode = HaloMode::from_environment(); });
  // A level's pairs: at most `capacity`, and each vertex of another rank at most once a search.
  room_ = std::min<int64_t>(capacity, std::max<int64_t>(vertices - owned, 0));
  segment_room_ = std::min<int64_t>(room_, shared_capacity > 0 ? shared_capacity : kSegmentPairs);
  // A half: the table (count, first pair) per owner, one pair's room each, then the pairs;
  // every same-host peer reads from the half's start.
  std::vector<int> send_offset(size_t(ranks_), 0);
  send_offset[size_t(me_)] = -1;
  shm_ = SharedHalo::open(comm, ctx.queue(), send_offset, size_t(ranks_) + size_t(segment_room_), 8,
                          mode, nullptr);
  int others = 0;  // a peer whose pairs go by message
  for (int q = 0; q < ranks_; ++q) others |= q != me_ && !shared(q);
  MPI_Allreduce(MPI_IN_PLACE, &others, 1, MPI_INT, MPI_MAX, comm);
  messages_ = others || !shm_;
  collective(comm, [&] { send_ = pinned<int32_t>(ctx.queue(), size_t(room_) * 2 + 2); });
}

PairExchange::~PairExchange() = default;

void PairExchange::reserve(size_t pairs, size_t keep) {
  if (pairs <= recv_cap_) return;
  const size_t cap = std::max<size_t>(pairs * 2, 1 << 16);
  cl::Buffer b = make_buffer(ctx_.context(), CL_MEM_READ_WRITE, cap * 8);
  if (keep)  // the queue is in order: the uploads before this copy land in the old buffer
    check(ctx_.queue().enqueueCopyBuffer(recv_, b, 0, 0, keep * 8), "clEnqueueCopyBuffer");
  recv_ = b, recv_cap_ = cap;
}

int32_t* PairExchange::stage(bool by_segment) {
  if (staged_) return staged_;
  if (pending_) check(ctx_.queue().finish(), "clFinish"), release();
  staged_ = send_.get();
  if (by_segment && shm_) {  // every rank counts the exchanges through the segments alike
    const uint64_t seq = ++seq_;
    wait_.start("bfs pairs exchange " + std::to_string(seq));
    if (shared_peers() > 0) {
      shm_->await_half(seq, wait_);
      staged_ = static_cast<int32_t*>(shm_->send_area(seq)) + 2 * size_t(ranks_);
    }
  }
  return staged_;
}

int64_t PairExchange::exchange(const cl::Buffer& bucketed, const std::vector<int>& counts,
                               bool over, int32_t level, bool by_segment, int64_t downloaded) {
  auto& q = ctx_.queue();
  int32_t* const out = stage(by_segment);
  staged_ = nullptr;
  const uint64_t seq = seq_;
  const bool use_shm = by_segment && shm_, segment = use_shm && shared_peers() > 0;
  const size_t np = size_t(ranks_);
  std::vector<int> scount = counts, sdispl(np, 0);
  int64_t sum = 0;  // past the room never: the expand sends each vertex once a search, and
  for (int c : counts) sum += c;  // by_segment only when no rank's frontier edges pass it
  over |= sum > (segment ? segment_room_ : room_);
  if (over) std::fill(scount.begin(), scount.end(), -1);
  int64_t pairs = 0;
  for (size_t r = 0; r < np; ++r) {
    if (r) sdispl[r] = sdispl[r - 1] + std::max(scount[r - 1], 0);
    pairs += std::max(scount[r], 0);
  }
  if (segment) {
    int32_t* table = out - 2 * np;
    for (size_t r = 0; r < np; ++r) table[2 * r] = scount[r], table[2 * r + 1] = sdispl[r];
  }
  if (pairs > downloaded)
    check(q.enqueueReadBuffer(bucketed, CL_TRUE, 0, size_t(pairs) * 8, out), "clEnqueueReadBuffer");
  for (int r = 0; r < ranks_; ++r)
    if (segment && shared(r)) shm_->post_ready(r, seq);
  // Upload the pairs for this rank out of each same-host peer's segment as its counter comes.
  int bad = over ? me_ : -1;  // the lowest rank with more pairs than its buffer
  size_t at = 0;
  std::vector<int> waiting;
  for (int r = 0; r < ranks_; ++r)
    if (use_shm && shared(r)) waiting.push_back(r);
  while (!waiting.empty()) {
    bool moved = false;
    for (size_t i = 0; i < waiting.size();) {
      const int r = waiting[i];
      if (!shm_->ready(r, seq)) {
        ++i;
        continue;
      }
      const int32_t* t = static_cast<const int32_t*>(shm_->from(r, seq));
      const int c = t[2 * me_], first = t[2 * me_ + 1];
      if (c < 0) bad = bad < 0 ? r : std::min(bad, r);
      if (c > 0) {
        reserve(at + size_t(c), at);
        check(q.enqueueWriteBuffer(recv_, CL_FALSE, at * 8, size_t(c) * 8,
                                   t + 2 * (np + size_t(first))),
              "clEnqueueWriteBuffer");
        check(q.flush(), "clFlush");
        at += size_t(c);
      }
      waiting.erase(waiting.begin() + long(i)), moved = true;
    }
    if (moved)
      wait_.progress();
    else if (!waiting.empty())
      wait_.poll_ranks(waiting);
  }
  pending_ = segment;
  if (!use_shm || messages_) {
    for (int r = 0; r < ranks_; ++r)
      if (use_shm && shared(r)) scount[size_t(r)] = over ? -1 : 0;
    at += by_messages(out, scount, sdispl, at, bad);
  }
  if (bad >= 0)
    throw collective_error(4, "rank " + std::to_string(bad) + ": bfs: level " +
                                  std::to_string(level) + ": remote pairs past the buffer");
  return int64_t(at);
}

// The counts by MPI_Alltoall (-1 from a rank past its buffer: then every rank stops after it),
// the pairs by MPI_Alltoallv into pinned memory, uploaded into recv_ from `at`.
int64_t PairExchange::by_messages(const int32_t* out, std::vector<int> scount,
                                  const std::vector<int>& sdispl, size_t at, int& bad) {
  auto& q = ctx_.queue();
  const size_t np = size_t(ranks_);
  std::vector<int> rcount(np, 0), rdispl(np, 0);
  MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, comm_);
  for (int r = 0; r < ranks_; ++r)
    if (rcount[size_t(r)] < 0) bad = bad < 0 ? r : std::min(bad, r);
  for (int r = 0; r < ranks_; ++r)  // every rank saw the -1: none goes on to the pairs
    if (rcount[size_t(r)] < 0) return 0;
  for (size_t r = 1; r < np; ++r) rdispl[r] = rdispl[r - 1] + rcount[r - 1];
  const size_t total = size_t(rdispl.back() + rcount.back());
  if (total > got_cap_) {  // grow the pinned receive side to twice what came
    got_cap_ = std::max<size_t>(total * 2, 1 << 16);
    got_ = pinned<int32_t>(q, got_cap_ * 2);
  }
  const Int32Pair pair;
  MPI_Alltoallv(out, scount.data(), sdispl.data(), pair.type, got_.get(), rcount.data(),
                rdispl.data(), pair.type, comm_);
  if (total) {
    reserve(at + total, at);
    check(q.enqueueWriteBuffer(recv_, CL_FALSE, at * 8, total * 8, got_.get()),
          "clEnqueueWriteBuffer");
  }
  return int64_t(total);
}

void PairExchange::release() {
  if (!pending_) return;
  for (int r = 0; r < ranks_; ++r)
    if (shared(r)) shm_->post_consumed(r, seq_);
  pending_ = false;
}

}  // namespace lockstep::mpi
