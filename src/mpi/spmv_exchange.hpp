// SpmvExchange, the halo exchange of a DistributedCsr (a friend of it): the host progress
// engine (exchange.cpp: pack, start, progress, complete, wait) and the SpMV around it
// (exchange_run.cpp: run, its timeline, the host-only timing). Private to src/mpi.
#pragma once
#include <algorithm>
#include <chrono>
#include <string>

#include "mpi/csr_state.hpp"
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
    return std::all_of(a.s_->sent_.begin(), a.s_->sent_.end(), [](char c) { return c != 0; });
  }
  // The host's polling loop (HaloWait): progress, else a pause; nothing moving for 120 s (a
  // neighbour that stopped: its flag never comes) is an error naming the ranks waited for,
  // never a silent hang (a failed rank ends the job: the CLI aborts on such errors).
  template <typename Done>
  static void poll_until(A& a, Done done) {
    HaloWait wait(a.s_->cpu_);
    wait.start("halo exchange " + std::to_string(a.s_->seq_));
    while (!done()) {
      if (progress(a))
        wait.progress();
      else
        wait.poll([&] { return waiting_for(a); });
    }
  }
  static std::string waiting_for(const A& a);  // "rank 1 (send) 2 (halo)": what is not done

  static bool shared(const A& a, int rank) { return a.s_->shm_ && a.s_->shm_->local(rank); }
  static bool all_arrived(const A& a) {
    for (size_t j = 0; j < a.s_->recvs_.size(); ++j)
      if (!a.s_->arrived_[j] && shared(a, a.s_->recvs_[j].rank)) return false;
    return true;
  }

  // The progress engine (exchange.cpp).
  static void pack(A& a, cl::Buffer& x);
  // `packed`: run() enqueued the pack already (and completed any other vector's exchange).
  static void start(A& a, cl::Buffer& x, bool packed = false);
  static bool post_downloads(A& a);
  static void release(A& a, size_t j, bool wait);
  static bool progress(A& a);
  static void upload(A& a, int peer);
  static void complete(A& a);
  static void wait(A& a, const cl::Event& e);
  static void wait(A& a, MPI_Request& r);  // r complete, the exchange in flight progressing
  static void await(A& a, cl::Buffer& x);
  static void order_uploads(A& a);  // the main queue's next command waits for the uploads

  // The SpMV, its timeline and the host-only timing (exchange_run.cpp).
  static void run(A& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* t);
  static void fill_timeline(A& a, SpmvRun interior, SpmvRun boundary, cl::Event copied,
                            double mpi_ms, SpmvTimeline& t);
  static double host_only(A& a, int samples);
  static ExchangeEvents events(const A& a);  // the last exchange's (exchange_events)
};

}  // namespace lockstep::mpi
