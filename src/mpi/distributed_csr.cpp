// Building a DistributedCsr: the nonzero-balanced row split, the scatter of root's matrix, the
// interior/boundary row order, the halo numbering and the send/receive lists (one
// MPI_Alltoall of counts and one MPI_Alltoallv of requested global indices, done once).
#include "lockstep/mpi/distributed_csr.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "mpi/csr_state.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/pinned.hpp"
#include "mpi/shared_halo.hpp"

namespace lockstep::mpi {

std::vector<int32_t> partition_by_nnz(const std::vector<int32_t>& row_ptr, int parts) {
  const int32_t rows = int32_t(row_ptr.size()) - 1;
  const int64_t nnz = row_ptr.back();
  std::vector<int32_t> offsets(size_t(parts) + 1, rows);
  offsets[0] = 0;
  for (int p = 1; p < parts; ++p) {
    int64_t target = nnz * p / parts;
    auto it = std::lower_bound(row_ptr.begin(), row_ptr.end(), target);
    offsets[size_t(p)] = std::max(offsets[size_t(p) - 1], int32_t(it - row_ptr.begin()));
    if (nnz == 0) offsets[size_t(p)] = int32_t(int64_t(rows) * p / parts);
  }
  return offsets;
}

std::vector<int32_t> partition_by_planes(int32_t rows, int32_t plane, int parts) {
  plane = std::max<int32_t>(1, plane);
  const int64_t planes = (int64_t(rows) + plane - 1) / plane;
  std::vector<int32_t> offsets(size_t(parts) + 1);
  for (int p = 0; p <= parts; ++p)
    offsets[size_t(p)] = int32_t(std::min<int64_t>(rows, planes * p / parts * plane));
  return offsets;
}

template <typename T>
int32_t bandwidth(const Csr<T>& a) {
  int32_t b = 1;
  for (int32_t r = 0; r < a.rows; ++r)
    for (int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      b = std::max(b, std::abs(a.col_idx[size_t(k)] - r));
  return b;
}
template int32_t bandwidth<float>(const Csr<float>&);
template int32_t bandwidth<double>(const Csr<double>&);

template <typename T>
DistributedCsr<T> DistributedCsr<T>::scatter(MPI_Comm comm, cl::CommandQueue& queue,
                                             const Csr<T>& global, std::vector<int32_t> offsets,
                                             int root) {
  const int me = rank(comm), p = size(comm);
  std::vector<int32_t> col_offsets;
  collective(comm, [&] {
    if (me != root) return;
    if (global.nnz() > size_t(INT_MAX)) throw input_error("more than 2^31 nonzeros");
    if (offsets.empty()) offsets = partition_by_nnz(global.row_ptr, p);
    if (offsets.size() != size_t(p) + 1 || offsets.front() != 0 || offsets.back() != global.rows ||
        !std::is_sorted(offsets.begin(), offsets.end()))
      throw input_error("row offsets must be " + std::to_string(p + 1) +
                        " ascending values from 0 to rows");
    // Square: the columns follow the rows (one vector layout). Else n / p columns per rank.
    col_offsets = offsets;
    if (global.rows != global.cols)
      for (int q = 0; q <= p; ++q) col_offsets[size_t(q)] = int32_t(int64_t(global.cols) * q / p);
  });
  offsets.resize(size_t(p) + 1);
  col_offsets.resize(size_t(p) + 1);
  MPI_Bcast(offsets.data(), p + 1, MPI_INT32_T, root, comm);
  MPI_Bcast(col_offsets.data(), p + 1, MPI_INT32_T, root, comm);

  // Row lengths, column indices and values of each block, by MPI_Scatterv.
  std::vector<int> row_counts(static_cast<size_t>(p)), row_displs(static_cast<size_t>(p)),
      nz_counts(static_cast<size_t>(p)), nz_displs(static_cast<size_t>(p));
  std::vector<int32_t> lengths;
  if (me == root) {
    lengths.resize(size_t(global.rows));
    for (int32_t r = 0; r < global.rows; ++r)
      lengths[size_t(r)] = global.row_ptr[r + 1] - global.row_ptr[r];
    for (int q = 0; q < p; ++q) {
      row_displs[q] = offsets[q], row_counts[q] = offsets[q + 1] - offsets[q];
      nz_displs[q] = global.row_ptr[offsets[q]],
      nz_counts[q] = global.row_ptr[offsets[q + 1]] - nz_displs[q];
    }
  }
  Csr<T> mine;
  mine.cols = col_offsets.back();
  mine.rows = offsets[me + 1] - offsets[me];
  std::vector<int32_t> my_lengths(size_t(mine.rows));
  MPI_Scatterv(lengths.data(), row_counts.data(), row_displs.data(), MPI_INT32_T, my_lengths.data(),
               mine.rows, MPI_INT32_T, root, comm);
  mine.row_ptr.assign(size_t(mine.rows) + 1, 0);
  for (int32_t r = 0; r < mine.rows; ++r)
    mine.row_ptr[r + 1] = mine.row_ptr[r] + my_lengths[size_t(r)];
  mine.col_idx.resize(size_t(mine.row_ptr.back()));
  mine.values.resize(size_t(mine.row_ptr.back()));
  MPI_Scatterv(global.col_idx.data(), nz_counts.data(), nz_displs.data(), MPI_INT32_T,
               mine.col_idx.data(), mine.row_ptr.back(), MPI_INT32_T, root, comm);
  MPI_Scatterv(global.values.data(), nz_counts.data(), nz_displs.data(), mpi_type<T>(),
               mine.values.data(), mine.row_ptr.back(), mpi_type<T>(), root, comm);
  return DistributedCsr(comm, queue, std::move(offsets), mine, std::move(col_offsets));
}

template <typename T>
DistributedCsr<T>::DistributedCsr(MPI_Comm comm, cl::CommandQueue& queue,
                                  std::vector<int32_t> offsets, const Csr<T>& mine,
                                  std::vector<int32_t> col_offsets)
    : s_(std::make_unique<DistributedCsrState<T>>()) {
  s_->comm_ = comm;
  s_->queue_ = queue;
  s_->offsets_ = std::move(offsets);
  s_->col_offsets_ = col_offsets.empty() ? s_->offsets_ : std::move(col_offsets);
  const int me = rank(comm), p = size(comm);
  collective(comm, [&] {
    if (s_->offsets_.size() != size_t(p) + 1 || s_->col_offsets_.size() != size_t(p) + 1 ||
        mine.rows != s_->offsets_[size_t(me) + 1] - s_->offsets_[size_t(me)] ||
        mine.cols != s_->col_offsets_.back())
      throw input_error("DistributedCsr: this rank's rows do not match the offsets");
  });
  const int32_t r0 = s_->offsets_[size_t(me)], n = mine.rows;
  const int32_t c0 = s_->col_offsets_[size_t(me)], nc = s_->col_offsets_[size_t(me) + 1] - c0;
  s_->square_ = s_->col_offsets_ == s_->offsets_;
  s_->local_nnz_ = mine.nnz();
  // Interior rows first, then boundary rows; perm maps an owned global row to its local row.
  auto owned = [&](int32_t g) { return g >= c0 && g < c0 + nc; };
  std::vector<char> is_boundary(static_cast<size_t>(n), 0);
  for (int32_t r = 0; r < n; ++r)
    for (int32_t k = mine.row_ptr[r]; k < mine.row_ptr[r + 1]; ++k)
      if (!owned(mine.col_idx[size_t(k)]))
        is_boundary[size_t(r)] = 1, s_->halo_.push_back(mine.col_idx[size_t(k)]);
  std::sort(s_->halo_.begin(), s_->halo_.end());
  s_->halo_.erase(std::unique(s_->halo_.begin(), s_->halo_.end()), s_->halo_.end());

  // Receive lists: halo entries grouped by owner. Send lists: what the others ask of us.
  std::vector<int> want(size_t(p), 0), give(size_t(p), 0), want_displs(size_t(p), 0),
      give_displs(size_t(p), 0);
  for (int32_t g : s_->halo_)
    ++want[size_t(std::upper_bound(s_->col_offsets_.begin(), s_->col_offsets_.end(), g) -
                  s_->col_offsets_.begin() - 1)];
  MPI_Alltoall(want.data(), 1, MPI_INT, give.data(), 1, MPI_INT, comm);
  for (int q = 1; q < p; ++q) {
    want_displs[size_t(q)] = want_displs[size_t(q) - 1] + want[size_t(q) - 1];
    give_displs[size_t(q)] = give_displs[size_t(q) - 1] + give[size_t(q) - 1];
  }
  std::vector<int32_t> asked(size_t(give_displs.back() + give.back()));
  MPI_Alltoallv(s_->halo_.data(), want.data(), want_displs.data(), MPI_INT32_T, asked.data(),
                give.data(), give_displs.data(), MPI_INT32_T, comm);
  for (int q = 0; q < p; ++q) {
    if (want[size_t(q)]) s_->recvs_.push_back({q, want_displs[size_t(q)], want[size_t(q)]});
    if (give[size_t(q)]) s_->sends_.push_back({q, give_displs[size_t(q)], give[size_t(q)]});
  }

  // Row classes: 0 interior and read by no other rank, 1 interior and read, 2 boundary (a
  // square matrix's rows are its columns; otherwise nothing is early and class 1 stays empty).
  std::vector<char> cls(is_boundary.begin(), is_boundary.end());
  for (char& c : cls) c = char(2 * c);
  if (s_->col_offsets_ == s_->offsets_)
    for (int32_t g : asked)
      if (cls[size_t(g - r0)] == 0) cls[size_t(g - r0)] = 1;
  std::vector<int32_t> perm(static_cast<size_t>(n));
  for (char pass = 0; pass < 3; ++pass)
    for (int32_t r = 0; r < n; ++r)
      if (cls[size_t(r)] == pass)
        perm[size_t(r)] = int32_t(s_->global_row_.size()), s_->global_row_.push_back(r0 + r);
  s_->interior_ = n - int32_t(std::count(cls.begin(), cls.end(), 2));
  s_->early_ =
      s_->col_offsets_ == s_->offsets_ ? n - int32_t(std::count(cls.begin(), cls.end(), 0)) : n;
  // Owned columns: square, in the local row order (x and y share it); else in global order.
  auto x_local = [&](int32_t g) { return s_->square_ ? perm[size_t(g - c0)] : g - c0; };
  s_->global_col_ = s_->square_ ? s_->global_row_ : std::vector<int32_t>(size_t(nc));
  if (!s_->square_)
    for (int32_t c = 0; c < nc; ++c) s_->global_col_[size_t(c)] = c0 + c;

  // The two parts over local columns (owned: x_local, halo: nc + position in s_->halo_).
  auto local_col = [&](int32_t g) {
    if (owned(g)) return x_local(g);
    return nc +
           int32_t(std::lower_bound(s_->halo_.begin(), s_->halo_.end(), g) - s_->halo_.begin());
  };
  Csr<T> part[2];
  for (int b = 0; b < 2; ++b)
    part[b].cols = nc + halo_size(), part[b].rows = b ? n - s_->interior_ : s_->interior_;
  for (int32_t l = 0; l < n; ++l) {
    const int32_t r = s_->global_row_[size_t(l)] - r0;
    Csr<T>& c = part[l < s_->interior_ ? 0 : 1];
    std::vector<std::pair<int32_t, T>> row;
    for (int32_t k = mine.row_ptr[r]; k < mine.row_ptr[r + 1]; ++k)
      row.emplace_back(local_col(mine.col_idx[size_t(k)]), mine.values[size_t(k)]);
    std::sort(row.begin(), row.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (auto& [col, v] : row) c.col_idx.push_back(col), c.values.push_back(v);
    c.row_ptr.push_back(int32_t(c.col_idx.size()));
  }
  for (int32_t g : asked) s_->send_index_.push_back(x_local(g));

  // Device side: the last step, so a failure on one rank (no memory) is agreed on, not a hang.
  collective(comm, [&] {
    s_->interior_dev_ = std::make_unique<DeviceCsr<T>>(s_->queue_, part[0]);
    s_->boundary_dev_ = std::make_unique<DeviceCsr<T>>(s_->queue_, part[1]);
    cl::Context ctx = s_->queue_.template getInfo<CL_QUEUE_CONTEXT>();
    cl::Device dev = s_->queue_.template getInfo<CL_QUEUE_DEVICE>();
    cl_int err = CL_SUCCESS;
    s_->cpu_ = !(dev.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU);
    s_->copy_queue_ = cl::CommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    s_->send_index_dev_ = upload(s_->queue_, s_->send_index_, CL_MEM_READ_ONLY);
    s_->send_dev_ = make_buffer(ctx, CL_MEM_READ_WRITE,
                                std::max<size_t>(1, s_->send_index_.size()) * sizeof(T));
    s_->boundary_y_ = make_buffer(ctx, CL_MEM_READ_WRITE,
                                  size_t(std::max<int32_t>(1, n - s_->interior_)) * sizeof(T));
    s_->send_host_ = pinned<T>(s_->queue_, s_->send_index_.size());
    s_->recv_host_ = pinned<T>(s_->queue_, s_->halo_.size());
  });
  s_->down_.resize(s_->sends_.size()), s_->send_req_.resize(s_->sends_.size()),
      s_->sent_.resize(s_->sends_.size());
  s_->posted_.resize(s_->sends_.size());
  s_->up_.resize(s_->recvs_.size()), s_->recv_req_.resize(s_->recvs_.size());
  s_->arrived_.resize(s_->recvs_.size()), s_->released_.resize(s_->recvs_.size());
  // Same-host neighbours: shared-memory segments (collective; LOCKSTEP_MPI_HALO).
  HaloMode mode;
  collective(comm, [&] { mode = HaloMode::from_environment(); });
  std::vector<int> send_offset(size_t(p), -1);
  for (const Peer& s : s_->sends_) send_offset[size_t(s.rank)] = s.offset;
  s_->shm_ = SharedHalo::open(comm, s_->queue_, send_offset, s_->send_index_.size(), sizeof(T),
                              mode, &s_->shared_note_);
}

template <typename T>
int DistributedCsr<T>::shared_neighbours() const {
  return s_->shm_ ? s_->shm_->local_peers() : 0;
}

template <typename T>
bool DistributedCsr<T>::shared_registered() const {
  return s_->shm_ && s_->shm_->registered();
}

template <typename T>
int DistributedCsr<T>::neighbours() const {
  std::vector<int> ranks;
  for (auto& s : s_->sends_) ranks.push_back(s.rank);
  for (auto& r : s_->recvs_) ranks.push_back(r.rank);
  std::sort(ranks.begin(), ranks.end());
  return int(std::unique(ranks.begin(), ranks.end()) - ranks.begin());
}

template <typename T>
cl::Buffer DistributedCsr<T>::make_vector() const {
  size_t n = size_t(std::max(local_rows(), local_cols())) + s_->halo_.size();
  return make_buffer(s_->queue_.template getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                     std::max<size_t>(1, n) * sizeof(T));
}

// The accessors (the state is complete only here).
template <typename T>
DistributedCsr<T>::DistributedCsr(DistributedCsr&&) noexcept = default;
template <typename T>
DistributedCsr<T>& DistributedCsr<T>::operator=(DistributedCsr&&) noexcept = default;
template <typename T>
DistributedCsr<T>::~DistributedCsr() = default;
template <typename T>
MPI_Comm DistributedCsr<T>::comm() const {
  return s_->comm_;
}
template <typename T>
cl::CommandQueue& DistributedCsr<T>::queue() {
  return s_->queue_;
}
template <typename T>
int32_t DistributedCsr<T>::global_rows() const {
  return s_->offsets_.back();
}
template <typename T>
int32_t DistributedCsr<T>::global_cols() const {
  return s_->col_offsets_.back();
}
template <typename T>
int32_t DistributedCsr<T>::local_rows() const {
  return int32_t(s_->global_row_.size());
}
template <typename T>
int32_t DistributedCsr<T>::local_cols() const {
  return int32_t(s_->global_col_.size());
}
template <typename T>
bool DistributedCsr<T>::square() const {
  return s_->square_;
}
template <typename T>
int32_t DistributedCsr<T>::interior_rows() const {
  return s_->interior_;
}
template <typename T>
int32_t DistributedCsr<T>::early_rows() const {
  return s_->early_;
}
template <typename T>
int32_t DistributedCsr<T>::halo_size() const {
  return int32_t(s_->halo_.size());
}
template <typename T>
size_t DistributedCsr<T>::local_nnz() const {
  return s_->local_nnz_;
}
template <typename T>
const std::vector<int32_t>& DistributedCsr<T>::offsets() const {
  return s_->offsets_;
}
template <typename T>
const std::vector<int32_t>& DistributedCsr<T>::col_offsets() const {
  return s_->col_offsets_;
}
template <typename T>
const std::vector<int32_t>& DistributedCsr<T>::global_rows_of_local() const {
  return s_->global_row_;
}
template <typename T>
const std::vector<int32_t>& DistributedCsr<T>::global_cols_of_local() const {
  return s_->global_col_;
}
template <typename T>
const std::vector<int32_t>& DistributedCsr<T>::halo() const {
  return s_->halo_;
}
template <typename T>
size_t DistributedCsr<T>::send_volume() const {
  return s_->send_index_.size();
}
template <typename T>
const std::string& DistributedCsr<T>::shared_note() const {
  return s_->shared_note_;
}
template <typename T>
const DeviceCsr<T>& DistributedCsr<T>::interior() const {
  return *s_->interior_dev_;
}
template <typename T>
const DeviceCsr<T>& DistributedCsr<T>::boundary() const {
  return *s_->boundary_dev_;
}

template class DistributedCsr<float>;
template class DistributedCsr<double>;

}  // namespace lockstep::mpi
