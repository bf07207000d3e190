// The halo exchange of the distributed SpMV (its host progress engine; the SpMV around it:
// exchange_run.cpp), hidden behind the interior rows (and, when a solver
// starts it early, behind the solver's own vector update).
//
// One exchange, in order: (main queue) pack the entries the neighbours need into send_dev_, then
// at once the interior rows; (copy queue, behind the pack) one download per send peer into its
// staging slice; (host) MPI_Irecv per MPI
// receive peer, and each send peer's message posted as soon as its download event completes;
// (copy queue) each receive peer's halo uploaded into x[nc + offset ..) as soon as it arrived;
// (main queue) the interior rows run meanwhile, enqueued before the exchange's host work;
// the boundary rows wait for every upload, into a
// scratch buffer copied to y[ni..n). The host never blocks in one thing while another could
// move: it polls the download events, the shared-memory flags and MPI_Testsome (which also
// progresses a reduction in flight, MPI_Iallreduce; with no MPI receive pending MPI_Iprobe
// does) until every send is posted and every same-host halo uploaded, then takes the MPI
// receives in arrival order (MPI_Waitany). No host copy anywhere.
// Two paths per neighbour (LOCKSTEP_MPI_HALO, shared_halo.hpp): a neighbour on the same host
// goes through shared memory: the download lands in this rank's shared segment, a flag
// (ready = exchange number) replaces the message, the neighbour's upload reads the segment and
// its flag (consumed) frees the slice for the exchange after next (odd and even exchanges use
// two halves), whose download waits for it (the host enqueues it once the flag is seen). Other
// neighbours go through MPI from pinned, mapped staging buffers (CL_MEM_ALLOC_HOST_PTR);
// time_host_exchange measures that part alone.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi/mpi_type.hpp"
#include "mpi/shared_halo.hpp"
#include "mpi/spmv_exchange.hpp"

namespace lockstep::mpi {

template <typename T>
std::string SpmvExchange<T>::waiting_for(const A& a) {
  std::string ranks = "rank";
  for (size_t i = 0; i < a.s_->sends_.size(); ++i)
    if (!a.s_->sent_[i]) ranks += " " + std::to_string(a.s_->sends_[i].rank) + " (send)";
  for (size_t j = 0; j < a.s_->recvs_.size(); ++j)
    if (!a.s_->arrived_[j]) ranks += " " + std::to_string(a.s_->recvs_[j].rank) + " (halo)";
  return ranks;
}

// The pack, first on the main queue (behind x's last write): run() enqueues the interior rows
// right after it, before any host work of the exchange, so they never wait for the host or a
// transfer. (A pack on the copy queue did not overlap the interior kernel on the H100: it ran
// after it, 0.15 ms late at 4 ranks.)
template <typename T>
void SpmvExchange<T>::pack(A& a, cl::Buffer& x) {
  a.s_->pack_ = cl::Event();
  if (a.s_->send_index_.empty()) return;
  cl::CommandQueue& q = a.s_->queue_;
  Defines d;
  set_value_type<T>(d);
  cl::Kernel k = kernel(q, "halo.cl", "halo_pack", d);
  const int count = int(a.s_->send_index_.size());
  set_args(k, count, a.s_->send_index_dev_, x, a.s_->send_dev_);
  a.s_->pack_ = launch(q, k, (size_t(count) + 63) / 64 * 64, 64);
}

template <typename T>
void SpmvExchange<T>::start(A& a, cl::Buffer& x, bool packed) {
  if (a.s_->exchange_x_()) complete(a);  // another vector's exchange: its halo first
  if (a.s_->sends_.empty() && a.s_->recvs_.empty()) return;
  if (!packed) {
    pack(a, x);
    check(a.s_->queue_.flush(), "clFlush");
  }
  // The last exchange's uploads read their staging: they end before new halos land there,
  // and a same-host neighbour's slice is released for its next download.
  for (size_t j = 0; j < a.s_->recvs_.size(); ++j) {
    release(a, j, true);
    a.s_->up_[j] = cl::Event(), a.s_->released_[j] = 0, a.s_->arrived_[j] = 0;
  }
  ++a.s_->seq_;
  for (size_t j = 0; j < a.s_->recvs_.size(); ++j) {
    const auto& r = a.s_->recvs_[j];
    a.s_->recv_req_[j] = MPI_REQUEST_NULL;
    if (!shared(a, r.rank))
      MPI_Irecv(a.s_->recv_host_.get() + r.offset, r.count, mpi_type<T>(), r.rank, kTag,
                a.s_->comm_, &a.s_->recv_req_[j]);
  }
  if (!a.s_->send_index_.empty()) {
    for (size_t i = 0; i < a.s_->sends_.size(); ++i)
      a.s_->sent_[i] = 0, a.s_->posted_[i] = 0, a.s_->send_req_[i] = MPI_REQUEST_NULL;
    post_downloads(a);  // on the copy queue, behind the pack's event
  }
  a.s_->exchange_x_ = x;
  progress(a);
}

// Downloads into staging that is free (a same-host slice: once the neighbour's consumed flag
// says it uploaded the last exchange's); true when it enqueued one.
template <typename T>
bool SpmvExchange<T>::post_downloads(A& a) {
  bool moved = false;
  std::vector<cl::Event> wait{a.s_->pack_};
  for (size_t i = 0; i < a.s_->sends_.size(); ++i) {
    const auto& s = a.s_->sends_[i];
    const bool shm = shared(a, s.rank);
    // A same-host slice's half was last read by the upload of exchange seq - 2.
    if (a.s_->posted_[i] ||
        (shm && !a.s_->shm_->consumed(s.rank, a.s_->seq_ < 2 ? 0 : a.s_->seq_ - 2)))
      continue;
    T* staging = shm ? static_cast<T*>(a.s_->shm_->send_area(a.s_->seq_)) : a.s_->send_host_.get();
    check(a.s_->copy_queue_.enqueueReadBuffer(
              a.s_->send_dev_, CL_FALSE, size_t(s.offset) * sizeof(T), size_t(s.count) * sizeof(T),
              staging + s.offset, &wait, &a.s_->down_[i]),
          "clEnqueueReadBuffer");
    a.s_->posted_[i] = 1, moved = true;
  }
  if (moved) check(a.s_->copy_queue_.flush(), "clFlush");
  return moved;
}

// A same-host halo's upload ended (or, `wait`, is waited for): its slice is the sender's again.
template <typename T>
void SpmvExchange<T>::release(A& a, size_t j, bool wait) {
  cl::Event& e = a.s_->up_[j];
  if (a.s_->released_[j] || !e()) return;
  if (wait)
    check(e.wait(), "clWaitForEvents");
  else if (!done(e))
    return;
  if (shared(a, a.s_->recvs_[j].rank)) a.s_->shm_->post_consumed(a.s_->recvs_[j].rank, a.s_->seq_);
  a.s_->released_[j] = 1;
}

// Downloads whose staging came free, sends whose downloads ended, uploads of halos that
// arrived, slices whose uploads ended; true when it moved something.
template <typename T>
bool SpmvExchange<T>::progress(A& a) {
  bool moved = a.s_->shm_ && post_downloads(a);
  for (size_t i = 0; i < a.s_->sends_.size(); ++i)
    if (a.s_->posted_[i] && !a.s_->sent_[i] && done(a.s_->down_[i])) {
      const auto& s = a.s_->sends_[i];
      if (shared(a, s.rank))
        a.s_->shm_->post_ready(s.rank, a.s_->seq_);
      else
        MPI_Isend(a.s_->send_host_.get() + s.offset, s.count, mpi_type<T>(), s.rank, kTag,
                  a.s_->comm_, &a.s_->send_req_[i]);
      a.s_->sent_[i] = 1, moved = true;
    }
  bool mpi_recv = false;
  for (size_t j = 0; j < a.s_->recvs_.size(); ++j) {
    const int src = a.s_->recvs_[j].rank;
    if (!shared(a, src)) {
      mpi_recv = mpi_recv || a.s_->recv_req_[j] != MPI_REQUEST_NULL;
    } else if (!a.s_->arrived_[j] && a.s_->shm_->ready(src, a.s_->seq_)) {
      upload(a, int(j)), moved = true;
    } else if (a.s_->arrived_[j]) {
      release(a, j, false);
    }
  }
  if (!mpi_recv) {  // MPI's own progress (a reduction in flight) without a receive to test
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, a.s_->comm_, &flag, MPI_STATUS_IGNORE);
    return moved;
  }
  std::vector<int> arrived(a.s_->recvs_.size());
  int count = 0;
  MPI_Testsome(int(a.s_->recv_req_.size()), a.s_->recv_req_.data(), &count, arrived.data(),
               MPI_STATUSES_IGNORE);
  for (int j = 0; j < count && count != MPI_UNDEFINED; ++j) upload(a, arrived[size_t(j)]);
  return moved || (count != MPI_UNDEFINED && count > 0);
}

template <typename T>
void SpmvExchange<T>::upload(A& a, int peer) {
  const auto& r = a.s_->recvs_[size_t(peer)];
  const T* from = shared(a, r.rank) ? static_cast<const T*>(a.s_->shm_->from(r.rank, a.s_->seq_))
                                    : a.s_->recv_host_.get() + r.offset;
  check(a.s_->copy_queue_.enqueueWriteBuffer(
            a.s_->exchange_x_, CL_FALSE, size_t(a.local_cols() + r.offset) * sizeof(T),
            size_t(r.count) * sizeof(T), from, nullptr, &a.s_->up_[size_t(peer)]),
        "clEnqueueWriteBuffer");
  check(a.s_->copy_queue_.flush(), "clFlush");
  a.s_->arrived_[size_t(peer)] = 1;
}

// Every send posted, every halo arrived and its upload enqueued, every send complete.
template <typename T>
void SpmvExchange<T>::complete(A& a) {
  poll_until(a, [&] { return all_sent(a) && all_arrived(a); });
  for (;;) {
    int peer = MPI_UNDEFINED;
    MPI_Waitany(int(a.s_->recv_req_.size()), a.s_->recv_req_.data(), &peer, MPI_STATUS_IGNORE);
    if (peer == MPI_UNDEFINED) break;
    upload(a, peer);
  }
  MPI_Waitall(int(a.s_->send_req_.size()), a.s_->send_req_.data(), MPI_STATUSES_IGNORE);
  a.s_->exchange_x_ = cl::Buffer();
}

template <typename T>
void SpmvExchange<T>::wait(A& a, const cl::Event& e) {
  poll_until(a, [&] { return !a.s_->exchange_x_() || done(e); });
  check(e.wait(), "clWaitForEvents");
}

// A request (the solver's reduction) waited for while the exchange in flight moves: its sends
// posted as their downloads end, its halos uploaded as they arrive, until the request ends or
// nothing of the exchange is left to move (then MPI_Wait).
template <typename T>
void SpmvExchange<T>::wait(A& a, MPI_Request& r) {
  int finished = 0;
  auto received = [&] {
    return std::all_of(a.s_->arrived_.begin(), a.s_->arrived_.end(), [](char c) { return c; });
  };
  if (a.s_->exchange_x_())
    poll_until(a, [&] {
      MPI_Test(&r, &finished, MPI_STATUS_IGNORE);
      return finished || (all_sent(a) && received());
    });
  if (!finished) MPI_Wait(&r, MPI_STATUS_IGNORE);
}

// x's halo in place before the main queue's next command; a fresh exchange when none of x is
// in flight (start() completes another vector's first).
template <typename T>
void SpmvExchange<T>::await(A& a, cl::Buffer& x) {
  if (a.s_->exchange_x_() != x()) start(a, x);
  if (a.s_->exchange_x_()) complete(a);
  order_uploads(a);
}

template <typename T>
void SpmvExchange<T>::order_uploads(A& a) {
  std::vector<cl::Event> copies;
  for (const cl::Event& e : a.s_->up_)
    if (e()) copies.push_back(e);
  if (!copies.empty())
    check(a.s_->queue_.enqueueBarrierWithWaitList(&copies), "clEnqueueBarrierWithWaitList");
}

template struct SpmvExchange<float>;
template struct SpmvExchange<double>;

template <typename T>
void start_exchange(DistributedCsr<T>& a, cl::Buffer& x) {
  SpmvExchange<T>::start(a, x);
}
template <typename T>
void wait_progressing(DistributedCsr<T>& a, const cl::Event& e) {
  SpmvExchange<T>::wait(a, e);
}
template <typename T>
void wait_progressing(DistributedCsr<T>& a, MPI_Request& r) {
  SpmvExchange<T>::wait(a, r);
}
template <typename T>
void await_halo(DistributedCsr<T>& a, cl::Buffer& x) {
  SpmvExchange<T>::await(a, x);
}

#define LOCKSTEP_INSTANTIATE(T)                                            \
  template void start_exchange<T>(DistributedCsr<T>&, cl::Buffer&);        \
  template void wait_progressing<T>(DistributedCsr<T>&, const cl::Event&); \
  template void wait_progressing<T>(DistributedCsr<T>&, MPI_Request&);     \
  template void await_halo<T>(DistributedCsr<T>&, cl::Buffer&);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep::mpi
