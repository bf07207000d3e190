// Distributed SpMV and its halo exchange, hidden behind the interior rows (and, when a solver
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
// two halves), whose download waits for it (the host enqueues it once the flag is seen). Other neighbours go through MPI from pinned, mapped
// staging buffers (CL_MEM_ALLOC_HOST_PTR); time_host_exchange measures that part alone.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "lockstep/mpi/distributed_csr.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/shared_halo.hpp"

namespace lockstep::mpi {

template <typename T>
struct SpmvExchange {
  using A = DistributedCsr<T>;
  static constexpr int kTag = 7;

  static bool done(const cl::Event& e) {
    cl_int status = CL_QUEUED;
    check(e.getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &status), "clGetEventInfo");
    if (status < 0) check(status, "a halo copy (event status)");
    return status == CL_COMPLETE;
  }
  static bool all_sent(const A& a) {
    return std::all_of(a.sent_.begin(), a.sent_.end(), [](char c) { return c != 0; });
  }
  // A GPU: give the core back briefly; PoCL: sleep, the device's threads need the core.
  static void pause(const A& a) {
    if (a.cpu_)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    else
      std::this_thread::yield();
  }

  // The host's polling loop: progress, else pause; nothing moving for kStallSeconds (a
  // neighbour that stopped: its flag never comes) is an error naming the ranks waited for,
  // never a silent hang (a failed rank ends the job: the CLI aborts on such errors).
  static constexpr double kStallSeconds = 120;
  struct Poll {
    std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
    void step(A& a) {
      if (progress(a)) {
        since = std::chrono::steady_clock::now();
        return;
      }
      pause(a);
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count() <
          kStallSeconds)
        return;
      std::string ranks;
      for (size_t i = 0; i < a.sends_.size(); ++i)
        if (!a.sent_[i]) ranks += " " + std::to_string(a.sends_[i].rank) + " (send)";
      for (size_t j = 0; j < a.recvs_.size(); ++j)
        if (!a.arrived_[j]) ranks += " " + std::to_string(a.recvs_[j].rank) + " (halo)";
      throw std::runtime_error("halo exchange " + std::to_string(a.seq_) + ": nothing moved for " +
                               std::to_string(int(kStallSeconds)) + " s; waiting for rank" +
                               ranks);
    }
  };

  static bool shared(const A& a, int rank) { return a.shm_ && a.shm_->local(rank); }
  static bool all_arrived(const A& a) {
    for (size_t j = 0; j < a.recvs_.size(); ++j)
      if (!a.arrived_[j] && shared(a, a.recvs_[j].rank)) return false;
    return true;
  }

  // The pack, first on the main queue (behind x's last write): run() enqueues the interior rows
  // right after it, before any host work of the exchange, so they never wait for the host or a
  // transfer. (A pack on the copy queue did not overlap the interior kernel on the H100: it ran
  // after it, 0.15 ms late at 4 ranks; BENCHMARKS.md, eleventh session.)
  static void pack(A& a, cl::Buffer& x) {
    a.pack_ = cl::Event();
    if (a.send_index_.empty()) return;
    cl::CommandQueue& q = a.queue_;
    Defines d;
    set_value_type<T>(d);
    cl::Kernel k = kernel(q, "halo.cl", "halo_pack", d);
    const int count = int(a.send_index_.size());
    set_args(k, count, a.send_index_dev_, x, a.send_dev_);
    a.pack_ = launch(q, k, (size_t(count) + 63) / 64 * 64, 64);
  }

  // `packed`: run() enqueued the pack already (and completed any other vector's exchange).
  static void start(A& a, cl::Buffer& x, bool packed = false) {
    if (a.exchange_x_()) complete(a);  // another vector's exchange: its halo first
    if (a.sends_.empty() && a.recvs_.empty()) return;
    if (!packed) {
      pack(a, x);
      check(a.queue_.flush(), "clFlush");
    }
    // The last exchange's uploads read their staging: they end before new halos land there,
    // and a same-host neighbour's slice is released for its next download.
    for (size_t j = 0; j < a.recvs_.size(); ++j) {
      release(a, j, true);
      a.up_[j] = cl::Event(), a.released_[j] = 0, a.arrived_[j] = 0;
    }
    ++a.seq_;
    for (size_t j = 0; j < a.recvs_.size(); ++j) {
      const auto& r = a.recvs_[j];
      a.recv_req_[j] = MPI_REQUEST_NULL;
      if (!shared(a, r.rank))
        MPI_Irecv(a.recv_host_.get() + r.offset, r.count, mpi_type<T>(), r.rank, kTag, a.comm_,
                  &a.recv_req_[j]);
    }
    if (!a.send_index_.empty()) {
      for (size_t i = 0; i < a.sends_.size(); ++i)
        a.sent_[i] = 0, a.posted_[i] = 0, a.send_req_[i] = MPI_REQUEST_NULL;
      post_downloads(a);  // on the copy queue, behind the pack's event
    }
    a.exchange_x_ = x;
    progress(a);
  }

  // Downloads into staging that is free (a same-host slice: once the neighbour's consumed flag
  // says it uploaded the last exchange's); true when it enqueued one.
  static bool post_downloads(A& a) {
    bool moved = false;
    std::vector<cl::Event> wait{a.pack_};
    for (size_t i = 0; i < a.sends_.size(); ++i) {
      const auto& s = a.sends_[i];
      const bool shm = shared(a, s.rank);
      // A same-host slice's half was last read by the upload of exchange seq - 2.
      if (a.posted_[i] || (shm && !a.shm_->consumed(s.rank, a.seq_ < 2 ? 0 : a.seq_ - 2)))
        continue;
      T* staging = shm ? static_cast<T*>(a.shm_->send_area(a.seq_)) : a.send_host_.get();
      check(a.copy_queue_.enqueueReadBuffer(a.send_dev_, CL_FALSE, size_t(s.offset) * sizeof(T),
                                            size_t(s.count) * sizeof(T), staging + s.offset,
                                            &wait, &a.down_[i]),
            "clEnqueueReadBuffer");
      a.posted_[i] = 1, moved = true;
    }
    if (moved) check(a.copy_queue_.flush(), "clFlush");
    return moved;
  }

  // A same-host halo's upload ended (or, `wait`, is waited for): its slice is the sender's again.
  static void release(A& a, size_t j, bool wait) {
    cl::Event& e = a.up_[j];
    if (a.released_[j] || !e()) return;
    if (wait)
      check(e.wait(), "clWaitForEvents");
    else if (!done(e))
      return;
    if (shared(a, a.recvs_[j].rank)) a.shm_->post_consumed(a.recvs_[j].rank, a.seq_);
    a.released_[j] = 1;
  }

  // Downloads whose staging came free, sends whose downloads ended, uploads of halos that
  // arrived, slices whose uploads ended; true when it moved something.
  static bool progress(A& a) {
    bool moved = a.shm_ && post_downloads(a);
    for (size_t i = 0; i < a.sends_.size(); ++i)
      if (a.posted_[i] && !a.sent_[i] && done(a.down_[i])) {
        const auto& s = a.sends_[i];
        if (shared(a, s.rank))
          a.shm_->post_ready(s.rank, a.seq_);
        else
          MPI_Isend(a.send_host_.get() + s.offset, s.count, mpi_type<T>(), s.rank, kTag, a.comm_,
                    &a.send_req_[i]);
        a.sent_[i] = 1, moved = true;
      }
    bool mpi_recv = false;
    for (size_t j = 0; j < a.recvs_.size(); ++j) {
      const int src = a.recvs_[j].rank;
      if (!shared(a, src)) {
        mpi_recv = mpi_recv || a.recv_req_[j] != MPI_REQUEST_NULL;
      } else if (!a.arrived_[j] && a.shm_->ready(src, a.seq_)) {
        upload(a, int(j)), moved = true;
      } else if (a.arrived_[j]) {
        release(a, j, false);
      }
    }
    if (!mpi_recv) {  // MPI's own progress (a reduction in flight) without a receive to test
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, a.comm_, &flag, MPI_STATUS_IGNORE);
      return moved;
    }
    std::vector<int> arrived(a.recvs_.size());
    int count = 0;
    MPI_Testsome(int(a.recv_req_.size()), a.recv_req_.data(), &count, arrived.data(),
                 MPI_STATUSES_IGNORE);
    for (int j = 0; j < count && count != MPI_UNDEFINED; ++j) upload(a, arrived[size_t(j)]);
    return moved || (count != MPI_UNDEFINED && count > 0);
  }

  static void upload(A& a, int peer) {
    const auto& r = a.recvs_[size_t(peer)];
    const T* from = shared(a, r.rank) ? static_cast<const T*>(a.shm_->from(r.rank, a.seq_))
                                      : a.recv_host_.get() + r.offset;
    check(a.copy_queue_.enqueueWriteBuffer(
              a.exchange_x_, CL_FALSE, size_t(a.local_cols() + r.offset) * sizeof(T),
              size_t(r.count) * sizeof(T), from, nullptr, &a.up_[size_t(peer)]),
          "clEnqueueWriteBuffer");
    check(a.copy_queue_.flush(), "clFlush");
    a.arrived_[size_t(peer)] = 1;
  }

  // Every send posted, every halo arrived and its upload enqueued, every send complete.
  static void complete(A& a) {
    for (Poll poll; !all_sent(a) || !all_arrived(a);) poll.step(a);
    for (;;) {
      int peer = MPI_UNDEFINED;
      MPI_Waitany(int(a.recv_req_.size()), a.recv_req_.data(), &peer, MPI_STATUS_IGNORE);
      if (peer == MPI_UNDEFINED) break;
      upload(a, peer);
    }
    MPI_Waitall(int(a.send_req_.size()), a.send_req_.data(), MPI_STATUSES_IGNORE);
    a.exchange_x_ = cl::Buffer();
  }

  static void wait(A& a, const cl::Event& e) {
    for (Poll poll; a.exchange_x_() && !done(e);) poll.step(a);
    check(e.wait(), "clWaitForEvents");
  }

  static void run(A& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* t) {
    cl::CommandQueue& q = a.queue_;
    const int32_t ni = a.interior_, nb = a.local_rows() - ni;
    // The pack and the interior rows go first on the main queue; the exchange's host work
    // (unless start_exchange began it) after them.
    const bool starting = a.exchange_x_() != x() && (!a.sends_.empty() || !a.recvs_.empty());
    if (starting) {
      if (a.exchange_x_()) complete(a);  // another vector's downloads read send_dev_: end them
      pack(a, x);
    }
    SpmvRun interior = lockstep::spmv<T>(q, *a.interior_dev_, x, y);
    check(q.flush(), "clFlush");
    if (starting) start(a, x, true);
    const auto t0 = std::chrono::steady_clock::now();
    if (a.exchange_x_()) complete(a);
    const double mpi_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // The boundary rows wait for every upload.
    std::vector<cl::Event> copies;
    for (const cl::Event& e : a.up_)
      if (e()) copies.push_back(e);
    if (!copies.empty())
      check(q.enqueueBarrierWithWaitList(&copies), "clEnqueueBarrierWithWaitList");
    SpmvRun boundary = lockstep::spmv<T>(q, *a.boundary_dev_, x, a.boundary_y_);
    cl::Event copied = boundary.last;
    if (nb)
      check(q.enqueueCopyBuffer(a.boundary_y_, y, 0, size_t(ni) * sizeof(T), size_t(nb) * sizeof(T),
                                nullptr, &copied),
            "clEnqueueCopyBuffer");
    if (t) fill_timeline(a, interior, boundary, copied, mpi_ms, *t);
  }

  static void fill_timeline(A& a, SpmvRun interior, SpmvRun boundary, cl::Event copied,
                            double mpi_ms, SpmvTimeline& t) {
    check(a.queue_.finish(), "clFinish");
    check(a.copy_queue_.finish(), "clFinish");
    auto at = [](const cl::Event& e, cl_profiling_info what) {  // 0 where a marker has none
      cl_ulong v = 0;
      if (e() && e.getProfilingInfo(what, &v) != CL_SUCCESS) v = 0;
      return v;
    };
    const cl::Event& pack = a.pack_;  // the two queues start together: zero is the earlier
    const cl_ulong in0 = at(interior.first, CL_PROFILING_COMMAND_START);
    const cl_ulong zero = pack() ? std::min(at(pack, CL_PROFILING_COMMAND_START), in0) : in0;
    auto ms = [&](const cl::Event& e, cl_profiling_info what) {
      return e() ? (double(at(e, what)) - double(zero)) * 1e-6 : 0.0;
    };
    t.pack_end = ms(pack, CL_PROFILING_COMMAND_END);
    t.download_end = t.pack_end;
    for (const cl::Event& e : a.down_)
      t.download_end = std::max(t.download_end, ms(e, CL_PROFILING_COMMAND_END));
    t.upload_start = t.upload_end = -1;
    for (const cl::Event& e : a.up_) {
      if (!e()) continue;
      const double s = ms(e, CL_PROFILING_COMMAND_START);
      t.upload_start = t.upload_start < 0 ? s : std::min(t.upload_start, s);
      t.upload_end = std::max(t.upload_end, ms(e, CL_PROFILING_COMMAND_END));
    }
    if (t.upload_start < 0) t.upload_start = t.upload_end = t.download_end;
    t.interior_start = ms(interior.first, CL_PROFILING_COMMAND_START);
    t.interior_end = ms(interior.last, CL_PROFILING_COMMAND_END);
    t.boundary_start = ms(boundary.first, CL_PROFILING_COMMAND_START);
    t.boundary_end = ms(copied, CL_PROFILING_COMMAND_END);
    t.mpi_ms = mpi_ms;
  }

  static double host_only(A& a, int samples) {
    if (a.exchange_x_()) complete(a);
    std::vector<MPI_Request> req;
    double total = 0;
    for (int s = 0; s < samples; ++s) {
      MPI_Barrier(a.comm_);
      const auto t0 = std::chrono::steady_clock::now();
      req.clear();
      for (const auto& r : a.recvs_)
        if (!shared(a, r.rank))
          MPI_Irecv(a.recv_host_.get() + r.offset, r.count, mpi_type<T>(), r.rank, kTag + 1,
                  a.comm_, &req.emplace_back());
      for (const auto& p : a.sends_)
        if (!shared(a, p.rank))
          MPI_Isend(a.send_host_.get() + p.offset, p.count, mpi_type<T>(), p.rank, kTag + 1,
                  a.comm_, &req.emplace_back());
      MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
      total +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    return samples ? total / samples : 0.0;
  }
};

template <typename T>
void spmv(DistributedCsr<T>& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* timeline) {
  SpmvExchange<T>::run(a, x, y, timeline);
}
template <typename T>
void start_exchange(DistributedCsr<T>& a, cl::Buffer& x) {
  SpmvExchange<T>::start(a, x);
}
template <typename T>
void wait_progressing(DistributedCsr<T>& a, const cl::Event& e) {
  SpmvExchange<T>::wait(a, e);
}
template <typename T>
double time_host_exchange(DistributedCsr<T>& a, int samples) {
  return SpmvExchange<T>::host_only(a, samples);
}

#define LOCKSTEP_INSTANTIATE(T)                                                       \
  template void spmv<T>(DistributedCsr<T>&, cl::Buffer&, cl::Buffer&, SpmvTimeline*); \
  template void start_exchange<T>(DistributedCsr<T>&, cl::Buffer&);                   \
  template void wait_progressing<T>(DistributedCsr<T>&, const cl::Event&);            \
  template double time_host_exchange<T>(DistributedCsr<T>&, int);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep::mpi
