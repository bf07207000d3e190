// Distributed SpMV with the halo exchange hidden behind the interior rows, distributed dot,
// and the scatter/gather of vectors between root's global order and the ranks' local order.
//
// One SpMV, in order: (main queue) pack the entries the neighbours need; (copy queue) download
// them once the pack is done; (main queue) interior rows; (host) MPI_Irecv, wait for the
// download, MPI_Isend, MPI_Waitall; (copy queue) upload the halo into x[n..n+h); (main queue)
// wait for the upload, boundary rows into a scratch buffer, copy it to y[ni..n). The two queues
// let the copies overlap the interior kernel; the pack runs first so it never waits behind it.
#include <chrono>

#include "lockstep/blas1.hpp"
#include "lockstep/mpi/distributed_csr.hpp"
#include "mpi/mpi_type.hpp"

namespace lockstep::mpi {

template <typename T>
struct SpmvExchange {
  static void run(DistributedCsr<T>& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* t) {
    cl::CommandQueue& q = a.queue_;
    const int32_t n = a.local_rows(), ni = a.interior_, nb = n - ni;
    const bool exchange = !a.sends_.empty() || !a.recvs_.empty();
    cl::Event pack, down, up;
    if (exchange) {
      Defines d;
      set_value_type<T>(d);
      cl::Kernel k = kernel(q, "halo.cl", "halo_pack", d);
      const int count = int(a.send_index_.size());
      set_args(k, count, a.send_index_dev_, x, a.send_dev_);
      pack = launch(q, k, (size_t(count) + 63) / 64 * 64, 64);
      check(q.flush(), "clFlush");
      if (count) {
        std::vector<cl::Event> wait{pack};
        check(a.copy_queue_.enqueueReadBuffer(a.send_dev_, CL_FALSE, 0, size_t(count) * sizeof(T),
                                              a.send_host_.get(), &wait, &down),
              "clEnqueueReadBuffer");
        check(a.copy_queue_.flush(), "clFlush");
      }
    }
    SpmvRun interior = lockstep::spmv<T>(q, *a.interior_dev_, x, y);
    check(q.flush(), "clFlush");
    double mpi_ms = 0;
    if (exchange) {
      auto t0 = std::chrono::steady_clock::now();
      std::vector<MPI_Request> req;
      for (auto& r : a.recvs_) {
        req.emplace_back();
        MPI_Irecv(a.recv_host_.get() + r.offset, r.count, mpi_type<T>(), r.rank, 7, a.comm_,
                  &req.back());
      }
      if (!a.send_index_.empty()) check(down.wait(), "clWaitForEvents");
      for (auto& s : a.sends_) {
        req.emplace_back();
        MPI_Isend(a.send_host_.get() + s.offset, s.count, mpi_type<T>(), s.rank, 7, a.comm_,
                  &req.back());
      }
      MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
      mpi_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!a.halo_.empty()) {
        check(a.copy_queue_.enqueueWriteBuffer(x, CL_TRUE, size_t(a.local_cols()) * sizeof(T),
                                               a.halo_.size() * sizeof(T), a.recv_host_.get(),
                                               nullptr, &up),
              "clEnqueueWriteBuffer");
        std::vector<cl::Event> wait{up};
        check(q.enqueueBarrierWithWaitList(&wait), "clEnqueueBarrierWithWaitList");
      }
    }
    SpmvRun boundary = lockstep::spmv<T>(q, *a.boundary_dev_, x, a.boundary_y_);
    cl::Event copied = boundary.last;
    if (nb)
      check(q.enqueueCopyBuffer(a.boundary_y_, y, 0, size_t(ni) * sizeof(T), size_t(nb) * sizeof(T),
                                nullptr, &copied),
            "clEnqueueCopyBuffer");
    if (t) fill_timeline(q, pack, down, up, interior, boundary, copied, mpi_ms, *t);
  }

  static void fill_timeline(cl::CommandQueue& q, cl::Event pack, cl::Event down, cl::Event up,
                            SpmvRun interior, SpmvRun boundary, cl::Event copied, double mpi_ms,
                            SpmvTimeline& t) {
    check(q.finish(), "clFinish");
    auto at = [](const cl::Event& e, cl_profiling_info what) {  // 0 where a marker has none
      cl_ulong v = 0;
      if (e() && e.getProfilingInfo(what, &v) != CL_SUCCESS) v = 0;
      return v;
    };
    const cl_ulong zero = pack() ? at(pack, CL_PROFILING_COMMAND_START)
                                 : at(interior.first, CL_PROFILING_COMMAND_START);
    auto ms = [&](const cl::Event& e, cl_profiling_info what) {
      return e() ? (double(at(e, what)) - double(zero)) * 1e-6 : 0.0;
    };
    t.pack_end = ms(pack, CL_PROFILING_COMMAND_END);
    t.download_end = down() ? ms(down, CL_PROFILING_COMMAND_END) : t.pack_end;
    t.upload_start = up() ? ms(up, CL_PROFILING_COMMAND_START) : t.download_end;
    t.upload_end = up() ? ms(up, CL_PROFILING_COMMAND_END) : t.upload_start;
    t.interior_start = ms(interior.first, CL_PROFILING_COMMAND_START);
    t.interior_end = ms(interior.last, CL_PROFILING_COMMAND_END);
    t.boundary_start = ms(boundary.first, CL_PROFILING_COMMAND_START);
    t.boundary_end = ms(copied, CL_PROFILING_COMMAND_END);
    t.mpi_ms = mpi_ms;
  }
};

template <typename T>
void spmv(DistributedCsr<T>& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* timeline) {
  SpmvExchange<T>::run(a, x, y, timeline);
}

template <typename T>
double dot(MPI_Comm comm, cl::CommandQueue& queue, int n, const cl::Buffer& x,
           const cl::Buffer& y) {
  double local = n ? double(lockstep::dot<T>(queue, n, x, y)) : 0.0;
  MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm);
  return local;
}

namespace {

// Counts and displacements of each rank's block in the global vector, its first global index,
// and the global index of each local value, for one layout.
template <typename T>
struct Blocks {
  std::vector<int> counts, displs;
  int32_t first = 0;
  const std::vector<int32_t>* global_of_local = nullptr;
  Blocks(const DistributedCsr<T>& a, Layout layout) {
    const std::vector<int32_t>& off = layout == Layout::rows ? a.offsets() : a.col_offsets();
    const int p = size(a.comm());
    for (int q = 0; q < p; ++q)
      displs.push_back(off[size_t(q)]), counts.push_back(off[size_t(q) + 1] - off[size_t(q)]);
    first = off[size_t(rank(a.comm()))];
    global_of_local = layout == Layout::rows ? &a.global_rows_of_local() : &a.global_cols_of_local();
  }
};

}  // namespace

template <typename T>
std::vector<T> scatter_vector(const DistributedCsr<T>& a, const std::vector<T>& global, int root,
                              Layout layout) {
  const Blocks<T> b(a, layout);
  const size_t n = b.global_of_local->size();
  std::vector<T> block(n), local(n);
  MPI_Scatterv(rank(a.comm()) == root ? global.data() : nullptr, b.counts.data(), b.displs.data(),
               mpi_type<T>(), block.data(), int(n), mpi_type<T>(), root, a.comm());
  for (size_t l = 0; l < n; ++l) local[l] = block[size_t((*b.global_of_local)[l] - b.first)];
  return local;
}

template <typename T>
std::vector<T> gather_vector(const DistributedCsr<T>& a, const std::vector<T>& local, int root,
                             Layout layout) {
  const Blocks<T> b(a, layout);
  const int me = rank(a.comm());
  const size_t n = b.global_of_local->size();
  const size_t total = size_t(b.displs.back() + b.counts.back());
  std::vector<T> block(n), global(me == root ? total : 0);
  for (size_t l = 0; l < n; ++l) block[size_t((*b.global_of_local)[l] - b.first)] = local[l];
  MPI_Gatherv(block.data(), int(n), mpi_type<T>(), global.data(), b.counts.data(),
              b.displs.data(), mpi_type<T>(), root, a.comm());
  return global;
}

#define LOCKSTEP_INSTANTIATE(T)                                                                    \
  template void spmv<T>(DistributedCsr<T>&, cl::Buffer&, cl::Buffer&, SpmvTimeline*);              \
  template double dot<T>(MPI_Comm, cl::CommandQueue&, int, const cl::Buffer&, const cl::Buffer&);  \
  template std::vector<T> scatter_vector<T>(const DistributedCsr<T>&, const std::vector<T>&, int,  \
                                            Layout);                                             \
  template std::vector<T> gather_vector<T>(const DistributedCsr<T>&, const std::vector<T>&, int,   \
                                           Layout);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep::mpi
