// A CSR matrix split over MPI ranks in row blocks (balanced by nonzeros, or whole planes of a
// geometric matrix), and its SpMV.
//
//   lockstep::mpi::Session mpi;                                  // MPI_Init .. MPI_Finalize
//   lockstep::Context ctx(lockstep::mpi::select_rank_device(MPI_COMM_WORLD));
//   auto A = rank == 0 ? read_matrix_market<double>(f) : Csr<double>{};  // whole matrix on root
//   auto dA = lockstep::mpi::DistributedCsr<double>::scatter(MPI_COMM_WORLD, ctx.queue(), A);
//   cl::Buffer x = dA.make_vector(), y = dA.make_vector();
//   lockstep::mpi::spmv(dA, x, y);                                // y = A x on this rank's rows
//
// Rows and columns are partitioned independently: rows in blocks of about equal nonzeros (or the
// caller's offsets, e.g. partition_by_planes), the
// columns of a square matrix like its rows (so x and y share one layout, what CG needs), those
// of an m x n matrix in n / ranks blocks. Each rank renumbers its rows: first the interior rows
// (every column owned here: first those no other rank reads, then those some other rank reads),
// then the boundary rows (some column owned by another rank). So of a square matrix the last
// early_rows() rows hold every value sent to another rank: pipelined CG updates them first and
// starts the exchange before it updates the rest.
// Columns become local indices 0..nc-1 for the nc owned entries (square: in the local row
// order; rectangular: in global order) and nc..nc+h-1 for the h halo entries, sorted by global
// index, hence grouped by owner rank. A distributed x is nc values in this local order plus
// room for the halo; a distributed y is the local rows' values in local row order.
// The send and receive lists are computed once from the sparsity pattern (MPI_Alltoallv).
// The exchange (spmv.cpp): one pack kernel, then one download per neighbour into pinned, mapped
// host memory (CL_MEM_ALLOC_HOST_PTR, mapped once), each neighbour's MPI_Isend posted as soon as
// its download ends (the host polls the events and MPI together, so MPI progresses while the GPU
// works), each neighbour's halo uploaded from pinned memory as soon as its MPI_Irecv ends, while
// the interior rows run; the boundary rows wait for the uploads. Ranks of one host exchange
// through shared memory instead (LOCKSTEP_MPI_HALO, src/mpi/shared_halo.hpp): the download lands
// in a segment the neighbour maps, a flag replaces the message, and the neighbour uploads
// straight out of it; time_host_exchange measures the MPI part alone. Both parts are DeviceCsr
// matrices run by lockstep::spmv, so the single-GPU kernels and the tuning database serve each
// rank. The interior part writes y[0..ni), the boundary part a scratch buffer copied to y[ni..n).
// spmv_transpose() computes y = A^T x (x distributed like the rows, y like the columns): the
// local block's transpose (built on the first call) gives partial sums for the owned and the
// halo columns; the halo's are sent back to their owners, who add them (the reverse exchange).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/cg.hpp"
#include "lockstep/mpi/session.hpp"
#include "lockstep/spmv.hpp"

namespace lockstep::mpi {

class SharedHalo;  // src/mpi/shared_halo.hpp

/// Row offsets (parts + 1 values) splitting the rows into blocks of about equal nonzeros.
std::vector<int32_t> partition_by_nnz(const std::vector<int32_t>& row_ptr, int parts);
/// Row offsets splitting `rows` rows into blocks of whole planes of `plane` rows (the last plane
/// may be short), balanced by planes: for a stencil on a grid numbered plane by plane
/// (gen:laplace3d: plane = nx ny) each block is a slab and its halo one plane per neighbour.
std::vector<int32_t> partition_by_planes(int32_t rows, int32_t plane, int parts);
/// The plane of a matrix with a geometric structure: its bandwidth max |col - row| (laplace3d
/// N: N^2, laplace2d N: N), at least 1.
template <typename T>
int32_t bandwidth(const Csr<T>& a);

template <typename T>
struct DistributedCsrState;

template <typename T>
class DistributedCsr {
 public:
  /// Collective. `global` is read on `root` only (other ranks pass an empty Csr). `offsets`
  /// (size+1 row offsets, read on root) overrides the nonzero-balanced split. Throws
  /// collective_error on every rank when the matrix is too large or the offsets are wrong.
  static DistributedCsr scatter(MPI_Comm comm, cl::CommandQueue& queue, const Csr<T>& global,
                                std::vector<int32_t> offsets = {}, int root = 0);
  /// Collective: from this rank's rows (`mine`, global column indices, mine.cols = the global
  /// column count), the row offsets and the column offsets (empty: the row offsets, for a
  /// square matrix).
  DistributedCsr(MPI_Comm comm, cl::CommandQueue& queue, std::vector<int32_t> offsets,
                 const Csr<T>& mine, std::vector<int32_t> col_offsets = {});

  MPI_Comm comm() const;
  cl::CommandQueue& queue();
  int32_t global_rows() const;
  int32_t global_cols() const;
  int32_t local_rows() const;
  int32_t local_cols() const;
  /// Square, with columns partitioned like the rows: x and y share one layout.
  bool square() const;
  int32_t interior_rows() const;
  /// The trailing local rows that hold every value another rank reads (square matrices; else
  /// all rows): rows [local_rows() - early_rows(), local_rows()).
  int32_t early_rows() const;
  int32_t halo_size() const;
  size_t local_nnz() const;
  const std::vector<int32_t>& offsets() const;
  const std::vector<int32_t>& col_offsets() const;
  /// The global row of each local row (local order: interior rows, then boundary rows).
  const std::vector<int32_t>& global_rows_of_local() const;
  /// The global column of each owned local column.
  const std::vector<int32_t>& global_cols_of_local() const;
  /// Global indices of the halo entries, in halo order.
  const std::vector<int32_t>& halo() const;
  /// Values this rank sends per SpMV (sum over neighbours).
  size_t send_volume() const;
  int neighbours() const;  // ranks exchanged with, either direction
  /// Neighbours exchanged with through shared memory (same host), and whether their segments
  /// are registered with OpenCL (LOCKSTEP_MPI_HALO; see src/mpi/shared_halo.hpp). Why the
  /// shared path is off where it could be on ("" when it is not).
  int shared_neighbours() const;
  bool shared_registered() const;
  const std::string& shared_note() const;
  const DeviceCsr<T>& interior() const;
  const DeviceCsr<T>& boundary() const;
  /// A device vector with room for max(local rows, local columns) values and the halo: an x
  /// or a y of spmv, or of spmv_transpose.
  cl::Buffer make_vector() const;

  DistributedCsr(DistributedCsr&&) noexcept;
  DistributedCsr& operator=(DistributedCsr&&) noexcept;
  ~DistributedCsr();

  struct Peer {
    int rank;
    int32_t offset, count;  // slice of the send buffer, or of the halo
  };

 private:
  template <typename U>
  friend struct SpmvExchange;
  template <typename U>
  friend struct TransposeExchange;
  // The layout, the device blocks, the send and receive lists and the exchange in flight:
  // src/mpi/csr_state.hpp (the exchanges change them; nothing of it is API).
  std::unique_ptr<DistributedCsrState<T>> s_;
};

/// Device timestamps (ms from the start of the pack kernel) of one SpMV's parts; mpi_ms is
/// the host's time in MPI_Waitall.
struct SpmvTimeline {
  double pack_end = 0, download_end = 0, upload_start = 0, upload_end = 0;
  double interior_start = 0, interior_end = 0, boundary_start = 0, boundary_end = 0;
  double mpi_ms = 0;
  /// Whether the exchange (pack .. upload) finished before the interior rows did.
  bool hidden() const { return upload_end <= interior_end; }
};

/// y = A x on this rank's rows. x must come from make_vector() (its halo part is overwritten);
/// y needs local_rows() values. Collective. With `timeline`, waits and fills it. Completes the
/// exchange start_exchange(a, x) began, else runs it whole.
template <typename T>
void spmv(DistributedCsr<T>& a, cl::Buffer& x, cl::Buffer& y, SpmvTimeline* timeline = nullptr);
/// Starts spmv(a, x, y)'s exchange: packs and downloads the values of x other ranks read (in
/// queue order: they must be final when the queue gets there), posts the receives and sends
/// what has arrived on the host. Collective (with the spmv that completes it).
template <typename T>
void start_exchange(DistributedCsr<T>& a, cl::Buffer& x);
/// x's halo present and its uploads ordered before the next command on a's queue: completes
/// the exchange start_exchange(a, x) began, else runs one (the halo is fetched anew).
/// Collective.
template <typename T>
void await_halo(DistributedCsr<T>& a, cl::Buffer& x);
/// Waits for `e` while the exchange in flight progresses: a finished download's MPI_Isend, an
/// arrived halo's upload, MPI's own progress (the reduction in flight).
template <typename T>
void wait_progressing(DistributedCsr<T>& a, const cl::Event& e);
/// Waits for the MPI request `r` (a reduction in flight) while the exchange in flight
/// progresses (its sends posted, its halos uploaded), until nothing of it is left to move.
template <typename T>
void wait_progressing(DistributedCsr<T>& a, MPI_Request& r);
/// Mean ms of the exchange's MPI part alone (host to host, the pinned staging buffers, no
/// device), over `samples` exchanges after a barrier: what the shared-memory path costs.
template <typename T>
double time_host_exchange(DistributedCsr<T>& a, int samples);
/// The device events of the last exchange (its pack, downloads and uploads so far).
template <typename T>
ExchangeEvents exchange_events(const DistributedCsr<T>& a);
/// y = A^T x: x holds local_rows() values (local row order), y receives local_cols() values
/// (local column order; y needs make_vector()'s room). Collective.
template <typename T>
void spmv_transpose(DistributedCsr<T>& a, const cl::Buffer& x, cl::Buffer& y);
/// The dot product of two distributed vectors of n local values (MPI_Allreduce), on every rank.
template <typename T>
double dot(MPI_Comm comm, cl::CommandQueue& queue, int n, const cl::Buffer& x, const cl::Buffer& y);

/// Which partition a vector follows: the rows (y of spmv, x of spmv_transpose) or the columns.
enum class Layout { rows, cols };
/// Root's global vector -> this rank's values in local order (collective).
template <typename T>
std::vector<T> scatter_vector(const DistributedCsr<T>& a, const std::vector<T>& global,
                              int root = 0, Layout layout = Layout::rows);
/// This rank's values in local order -> the global vector on root (empty elsewhere).
template <typename T>
std::vector<T> gather_vector(const DistributedCsr<T>& a, const std::vector<T>& local, int root = 0,
                             Layout layout = Layout::rows);

/// How the scalars' global sum of CG waits: `overlapped`, one MPI_Iallreduce started as soon as
/// the local sums exist, waited for while the halo exchange in flight moves (wait_progressing);
/// `blocking`, one MPI_Allreduce when the sum is needed, the exchange standing still meanwhile.
enum class Reduction { overlapped, blocking };

/// Where lockstep::cg runs on this rank: local vectors with halo room, distributed dot and
/// SpMV, the local rows' inverse diagonal, and the scalars' global sum (Reduction).
template <typename T>
class DistributedSpace : public CgSpace<T>, public CgDistributed<T> {
 public:
  using Parts = typename CgDistributed<T>::Parts;
  explicit DistributedSpace(DistributedCsr<T>& a, Reduction reduction = Reduction::overlapped)
      : a_(a), reduction_(reduction) {}
  CgDistributed<T>* distributed() override { return this; }
  int n() const override { return a_.local_rows(); }
  cl::CommandQueue& queue() override { return a_.queue(); }
  cl::Buffer vector() const override { return a_.make_vector(); }
  void spmv(cl::Buffer& x, cl::Buffer& y) override { mpi::spmv(a_, x, y); }
  int early_rows() const override { return a_.early_rows(); }
  void start_exchange(cl::Buffer& x) override { mpi::start_exchange(a_, x); }
  void await_halo(cl::Buffer& x) override { mpi::await_halo(a_, x); }
  ExchangeEvents exchange_events() const override { return mpi::exchange_events(a_); }
  /// Several ranks, and the boundary rows are the early rows: the interior and boundary parts.
  Parts local_parts() const override;
  bool all(bool mine) override;
  void wait(const cl::Event& e) override { mpi::wait_progressing(a_, e); }
  double dot(const cl::Buffer& x, const cl::Buffer& y) override {
    return mpi::dot<T>(a_.comm(), a_.queue(), n(), x, y);
  }
  /// Collective: a non-positive diagonal on any rank throws collective_error on every rank.
  void inverse_diagonal(cl::Buffer& dinv) override;
  void start_sum(double* v, int k) override;
  void finish_sum() override;
  /// One rank: the whole matrix (no halo, nothing to exchange); else null.
  const DeviceCsr<T>* local_matrix() const override;

 private:
  DistributedCsr<T>& a_;
  Reduction reduction_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  double* sum_ = nullptr;  // blocking: the values start_sum was given
  int sum_count_ = 0;
};

}  // namespace lockstep::mpi
