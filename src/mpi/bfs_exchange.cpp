// BitmapExchange (see bfs_exchange.hpp): the bottom-up levels' frontier bitmap on every rank.
#include "mpi/bfs_exchange.hpp"

#include <algorithm>
#include <string>

#include "lockstep/mpi/session.hpp"
#include "mpi/pinned.hpp"

namespace lockstep::mpi {
namespace {
constexpr int kTag = 11;
}  // namespace

BitmapExchange::BitmapExchange(Context& ctx, MPI_Comm comm, const std::vector<int32_t>& block)
    : ctx_(ctx), comm_(comm), me_(rank(comm)), ranks_(size(comm)), wait_(ctx.queue()) {
  for (int q = 0; q < ranks_; ++q) {
    displ_.push_back(block[size_t(q)] / 32);
    words_.push_back(int((block[size_t(q) + 1] - block[size_t(q)] + 31) / 32));
  }
  HaloMode mode;
  collective(comm, [&] { mode = HaloMode::from_environment(); });
  // Every same-host peer reads this rank's words from the start of its segment's half.
  std::vector<int> send_offset(size_t(ranks_), words_[size_t(me_)] ? 0 : -1);
  send_offset[size_t(me_)] = -1;
  shm_ = SharedHalo::open(comm, ctx.queue(), send_offset, size_t(words_[size_t(me_)]), 4, mode,
                          nullptr);
  bool other_hosts = false;
  for (int q = 0; q < ranks_; ++q) other_hosts |= q != me_ && !shared(q);
  collective(comm, [&] {
    if (other_hosts) host_ = pinned<uint32_t>(ctx.queue(), size_t(block.back() + 31) / 32 + 1);
  });
}

BitmapExchange::~BitmapExchange() = default;

void BitmapExchange::gather(const cl::Buffer& mine, const cl::Buffer& global) {
  auto& q = ctx_.queue();
  if (pending_) check(q.finish(), "clFinish"), release();
  const uint64_t seq = ++seq_;
  const size_t mw = size_t(words_[size_t(me_)]);
  bool shared_dest = false, mpi_dest = false;
  for (int r = 0; r < ranks_; ++r)
    if (r != me_) (shared(r) ? shared_dest : mpi_dest) = true;
  std::vector<MPI_Request> reqs;
  std::vector<int> waiting;    // peers whose words are not uploaded yet
  std::vector<int> recv_peer;  // the peer of each receive in reqs
  for (int r = 0; r < ranks_; ++r)
    if (r != me_ && words_[size_t(r)]) {
      waiting.push_back(r);
      if (!shared(r)) {
        reqs.emplace_back(), recv_peer.push_back(r);
        MPI_Irecv(host_.get() + displ_[size_t(r)], words_[size_t(r)], MPI_UINT32_T, r, kTag, comm_,
                  &reqs.back());
      }
    }
  const size_t recvs = reqs.size();
  wait_.start("bfs bitmap exchange " + std::to_string(seq));
  if (mw) {
    check(q.enqueueCopyBuffer(mine, global, 0, size_t(displ_[size_t(me_)]) * 4, mw * 4),
          "clEnqueueCopyBuffer");
    uint32_t* out = host_ ? host_.get() + displ_[size_t(me_)] : nullptr;
    if (shared_dest) {
      shm_->await_half(seq, wait_);
      out = static_cast<uint32_t*>(shm_->send_area(seq));
    }
    if (shared_dest || mpi_dest)
      check(q.enqueueReadBuffer(mine, CL_TRUE, 0, mw * 4, out), "clEnqueueReadBuffer");
    for (int r = 0; r < ranks_; ++r)
      if (r != me_ && shared(r)) shm_->post_ready(r, seq);
    for (int r = 0; r < ranks_; ++r)
      if (r != me_ && !shared(r)) {
        reqs.emplace_back();
        MPI_Isend(out, int(mw), MPI_UINT32_T, r, kTag, comm_, &reqs.back());
      }
  }
  // Upload each peer's words as they come: shared ones when their ready counter says so, the
  // others when their message arrived.
  auto upload = [&](int r, const void* from) {
    check(q.enqueueWriteBuffer(global, CL_FALSE, size_t(displ_[size_t(r)]) * 4,
                               size_t(words_[size_t(r)]) * 4, from),
          "clEnqueueWriteBuffer");
    check(q.flush(), "clFlush");
    wait_.progress();
  };
  std::vector<int> arrived(recvs);
  while (!waiting.empty()) {
    bool moved = false;
    for (size_t i = 0; i < waiting.size();) {
      const int r = waiting[i];
      bool got = false;
      if (shared(r)) {
        got = shm_->ready(r, seq);
        if (got) upload(r, shm_->from(r, seq));
      }
      if (got)
        waiting.erase(waiting.begin() + long(i)), moved = true;
      else
        ++i;
    }
    if (recvs) {
      int count = 0;
      MPI_Testsome(int(recvs), reqs.data(), &count, arrived.data(), MPI_STATUSES_IGNORE);
      for (int j = 0; count != MPI_UNDEFINED && j < count; ++j) {
        const int r = recv_peer[size_t(arrived[size_t(j)])];
        upload(r, host_.get() + displ_[size_t(r)]);
        waiting.erase(std::find(waiting.begin(), waiting.end(), r));
        moved = true;
      }
    }
    if (!moved && !waiting.empty()) wait_.poll_ranks(waiting);
  }
  MPI_Waitall(int(reqs.size() - recvs), reqs.data() + recvs, MPI_STATUSES_IGNORE);
  pending_ = shm_ != nullptr;
}

void BitmapExchange::scatter_or(const cl::Buffer& all, const cl::Buffer& mine) {
  auto& q = ctx_.queue();
  const size_t total = size_t(displ_.back() + words_.back()), mw = size_t(words_[size_t(me_)]);
  if (!all_) {
    collective(comm_, [&] {
      all_ = pinned<uint32_t>(q, total + 1);
      part_ = pinned<uint32_t>(q, mw + 1);
    });
  }
  if (total)
    check(q.enqueueReadBuffer(all, CL_TRUE, 0, total * 4, all_.get()), "clEnqueueReadBuffer");
  MPI_Reduce_scatter(all_.get(), part_.get(), words_.data(), MPI_UINT32_T, MPI_BOR, comm_);
  if (mw)
    check(q.enqueueWriteBuffer(mine, CL_FALSE, 0, mw * 4, part_.get()), "clEnqueueWriteBuffer");
}

void BitmapExchange::release() {
  if (!pending_) return;
  for (int r = 0; r < ranks_; ++r)
    if (r != me_ && shared(r) && words_[size_t(r)]) shm_->post_consumed(r, seq_);
  pending_ = false;
}

}  // namespace lockstep::mpi
