// The distributed SpMV around the halo exchange (exchange.cpp, the host progress engine): the
// pack and the interior rows first on the main queue, the exchange, the boundary rows once every
// halo is uploaded; its timeline from the events' profiling (SpmvTimeline), the last
// exchange's events (pipelined CG's iteration timeline), and time_host_exchange, the MPI part
// alone.
#include <algorithm>
#include <chrono>
#include <vector>

#include "mpi/mpi_type.hpp"
#include "mpi/shared_halo.hpp"
#include "mpi/spmv_exchange.hpp"

namespace lockstep::mpi {

template <typename T>
void SpmvExchange<T>::run(A& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* t) {
  cl::CommandQueue& q = a.s_->queue_;
  const int32_t ni = a.s_->interior_, nb = a.local_rows() - ni;
  // The pack and the interior rows go first on the main queue; the exchange's host work
  // (unless start_exchange began it) after them.
  const bool starting =
      a.s_->exchange_x_() != x() && (!a.s_->sends_.empty() || !a.s_->recvs_.empty());
  if (starting) {
    if (a.s_->exchange_x_()) complete(a);  // another vector's downloads read send_dev_: end them
    pack(a, x);
  }
  SpmvRun interior = lockstep::spmv<T>(q, *a.s_->interior_dev_, x, y);
  check(q.flush(), "clFlush");
  if (starting) start(a, x, true);
  const auto t0 = std::chrono::steady_clock::now();
  if (a.s_->exchange_x_()) complete(a);
  const double mpi_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // The boundary rows wait for every upload.
  order_uploads(a);
  SpmvRun boundary = lockstep::spmv<T>(q, *a.s_->boundary_dev_, x, a.s_->boundary_y_);
  cl::Event copied = boundary.last;
  if (nb)
    check(q.enqueueCopyBuffer(a.s_->boundary_y_, y, 0, size_t(ni) * sizeof(T),
                              size_t(nb) * sizeof(T), nullptr, &copied),
          "clEnqueueCopyBuffer");
  if (t) fill_timeline(a, interior, boundary, copied, mpi_ms, *t);
}

template <typename T>
void SpmvExchange<T>::fill_timeline(A& a, SpmvRun interior, SpmvRun boundary, cl::Event copied,
                                    double mpi_ms, SpmvTimeline& t) {
  check(a.s_->queue_.finish(), "clFinish");
  check(a.s_->copy_queue_.finish(), "clFinish");
  auto at = [](const cl::Event& e, cl_profiling_info what) {  // 0 where a marker has none
    cl_ulong v = 0;
    if (e() && e.getProfilingInfo(what, &v) != CL_SUCCESS) v = 0;
    return v;
  };
  const cl::Event& pack = a.s_->pack_;  // zero: the pack's start, or the interior's (no pack here)
  const cl_ulong in0 = at(interior.first, CL_PROFILING_COMMAND_START);
  const cl_ulong zero = pack() ? std::min(at(pack, CL_PROFILING_COMMAND_START), in0) : in0;
  auto ms = [&](const cl::Event& e, cl_profiling_info what) {
    return e() ? (double(at(e, what)) - double(zero)) * 1e-6 : 0.0;
  };
  t.pack_end = ms(pack, CL_PROFILING_COMMAND_END);
  t.download_end = t.pack_end;
  for (const cl::Event& e : a.s_->down_)
    t.download_end = std::max(t.download_end, ms(e, CL_PROFILING_COMMAND_END));
  t.upload_start = t.upload_end = -1;
  for (const cl::Event& e : a.s_->up_) {
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

template <typename T>
double SpmvExchange<T>::host_only(A& a, int samples) {
  if (a.s_->exchange_x_()) complete(a);
  std::vector<MPI_Request> req;
  double total = 0;
  for (int s = 0; s < samples; ++s) {
    MPI_Barrier(a.s_->comm_);
    const auto t0 = std::chrono::steady_clock::now();
    req.clear();
    for (const auto& r : a.s_->recvs_)
      if (!shared(a, r.rank))
        MPI_Irecv(a.s_->recv_host_.get() + r.offset, r.count, mpi_type<T>(), r.rank, kTag + 1,
                  a.s_->comm_, &req.emplace_back());
    for (const auto& p : a.s_->sends_)
      if (!shared(a, p.rank))
        MPI_Isend(a.s_->send_host_.get() + p.offset, p.count, mpi_type<T>(), p.rank, kTag + 1,
                  a.s_->comm_, &req.emplace_back());
    MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
    total +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return samples ? total / samples : 0.0;
}

template <typename T>
ExchangeEvents SpmvExchange<T>::events(const A& a) {
  return {a.s_->pack_, a.s_->down_, a.s_->up_};
}

template <typename T>
void spmv(DistributedCsr<T>& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* timeline) {
  SpmvExchange<T>::run(a, x, y, timeline);
}
template <typename T>
double time_host_exchange(DistributedCsr<T>& a, int samples) {
  return SpmvExchange<T>::host_only(a, samples);
}
template <typename T>
ExchangeEvents exchange_events(const DistributedCsr<T>& a) {
  return SpmvExchange<T>::events(a);
}

#define LOCKSTEP_INSTANTIATE(T)                                                       \
  template void spmv<T>(DistributedCsr<T>&, cl::Buffer&, cl::Buffer&, SpmvTimeline*); \
  template double time_host_exchange<T>(DistributedCsr<T>&, int);                     \
  template ExchangeEvents exchange_events<T>(const DistributedCsr<T>&);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep::mpi
