// Distributed dot, and the scatter/gather of vectors between root's global order and the
// ranks' local order (the SpMV and its exchange: exchange.cpp).
#include "lockstep/blas1.hpp"
#include "lockstep/mpi/distributed_csr.hpp"
#include "mpi/mpi_type.hpp"

namespace lockstep::mpi {

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
    global_of_local =
        layout == Layout::rows ? &a.global_rows_of_local() : &a.global_cols_of_local();
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
  MPI_Gatherv(block.data(), int(n), mpi_type<T>(), global.data(), b.counts.data(), b.displs.data(),
              mpi_type<T>(), root, a.comm());
  return global;
}

#define LOCKSTEP_INSTANTIATE(T)                                                                   \
  template double dot<T>(MPI_Comm, cl::CommandQueue&, int, const cl::Buffer&, const cl::Buffer&); \
  template std::vector<T> scatter_vector<T>(const DistributedCsr<T>&, const std::vector<T>&, int, \
                                            Layout);                                              \
  template std::vector<T> gather_vector<T>(const DistributedCsr<T>&, const std::vector<T>&, int,  \
                                           Layout);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep::mpi
