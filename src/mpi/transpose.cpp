// y = A^T x for a distributed matrix (what LSQR-type solvers need beside y = A x): x is
// distributed like the rows, y like the columns. Each rank multiplies by the transpose of its
// local block (interior and boundary rows together, built on the host from the device parts on
// the first call), which gives partial sums for its owned columns and for its halo columns;
// the halo's partial sums travel back to their owners along the forward exchange's lists in
// reverse (what a rank receives as halo in spmv it sends here, and vice versa), and each owner
// adds what it receives to its own columns.
#include "mpi/csr_state.hpp"
#include "mpi/mpi_type.hpp"

namespace lockstep::mpi {

template <typename T>
struct TransposeExchange {
  // The local block's transpose: rows = owned + halo columns, columns = local rows.
  static void build(DistributedCsr<T>& a) {
    cl::CommandQueue& q = a.s_->queue_;
    const int32_t nc = a.local_cols(), h = a.halo_size(), n = a.local_rows();
    Csr<T> t;
    t.rows = nc + h;
    t.cols = n;
    std::vector<std::vector<std::pair<int32_t, T>>> rows(size_t(t.rows));
    for (int part = 0; part < 2; ++part) {
      const DeviceCsr<T>& d = part ? *a.s_->boundary_dev_ : *a.s_->interior_dev_;
      const int32_t first = part ? a.s_->interior_ : 0;
      const auto rp = download<int32_t>(q, d.row_ptr(), size_t(d.rows()) + 1);
      const auto ci = download<int32_t>(q, d.col_idx(), d.nnz());
      const auto v = download<T>(q, d.values(), d.nnz());
      for (int32_t r = 0; r < d.rows(); ++r)
        for (int32_t k = rp[size_t(r)]; k < rp[size_t(r) + 1]; ++k)
          rows[size_t(ci[size_t(k)])].emplace_back(first + r, v[size_t(k)]);
    }
    t.row_ptr.assign(1, 0);
    for (auto& row : rows) {  // columns ascending: rows were visited in local order
      for (auto& [c, v] : row) t.col_idx.push_back(c), t.values.push_back(v);
      t.row_ptr.push_back(int32_t(t.col_idx.size()));
    }
    a.s_->transpose_dev_ = std::make_shared<DeviceCsr<T>>(q, t);
  }

  static void run(DistributedCsr<T>& a, const cl::Buffer& x, cl::Buffer& y) {
    collective(a.s_->comm_, [&] {
      if (!a.s_->transpose_dev_) build(a);
    });
    cl::CommandQueue& q = a.s_->queue_;
    const int32_t nc = a.local_cols(), h = a.halo_size();
    cl::Buffer z = make_buffer(q.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                               std::max<size_t>(1, size_t(nc + h)) * sizeof(T));
    if (nc + h) lockstep::spmv<T>(q, *a.s_->transpose_dev_, x, z);
    std::vector<T> zh = download<T>(q, z, size_t(nc + h));
    std::vector<T> incoming(a.s_->send_index_.size());
    std::vector<MPI_Request> req;
    for (auto& s : a.s_->sends_) {  // forward: I send them x values; here they send me partials
      req.emplace_back();
      MPI_Irecv(incoming.data() + s.offset, s.count, mpi_type<T>(), s.rank, 8, a.s_->comm_,
                &req.back());
    }
    for (auto& r : a.s_->recvs_) {  // forward: they send me halo values; here I send them partials
      req.emplace_back();
      MPI_Isend(zh.data() + nc + r.offset, r.count, mpi_type<T>(), r.rank, 8, a.s_->comm_,
                &req.back());
    }
    MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE);
    for (size_t i = 0; i < incoming.size(); ++i) zh[size_t(a.s_->send_index_[i])] += incoming[i];
    if (nc)
      check(q.enqueueWriteBuffer(y, CL_TRUE, 0, size_t(nc) * sizeof(T), zh.data()),
            "clEnqueueWriteBuffer");
  }
};

template <typename T>
void spmv_transpose(DistributedCsr<T>& a, const cl::Buffer& x, cl::Buffer& y) {
  TransposeExchange<T>::run(a, x, y);
}

template void spmv_transpose<float>(DistributedCsr<float>&, const cl::Buffer&, cl::Buffer&);
template void spmv_transpose<double>(DistributedCsr<double>&, const cl::Buffer&, cl::Buffer&);

}  // namespace lockstep::mpi
