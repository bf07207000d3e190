// lockstep::mpi::DistributedSpace: what lockstep::cg needs beyond SpMV and dot on one rank's
// share: the inverse diagonal of the local rows (interior part, then boundary part, whose
// local row r has its diagonal in local column offset + r), the scalars' non-blocking sum, and
// the two local parts pipelined CG folds into its update.
#include "lockstep/mpi/distributed_csr.hpp"

namespace lockstep::mpi {

template <typename T>
void DistributedSpace<T>::inverse_diagonal(cl::Buffer& dinv) {
  collective(a_.comm(), [&] {
    for (int part = 0; part < 2; ++part) {
      const int offset = part ? a_.interior_rows() : 0;
      const int bad = lockstep::inverse_diagonal<T>(
          a_.queue(), part ? a_.boundary() : a_.interior(), offset, dinv);
      if (bad >= 0) throw jacobi_diagonal_error(a_.global_rows_of_local()[size_t(bad)]);
    }
  });
}

template <typename T>
void DistributedSpace<T>::start_sum(double* v, int k) {
  if (reduction_ == Reduction::blocking) {
    sum_ = v, sum_count_ = k;
    return;
  }
  MPI_Iallreduce(MPI_IN_PLACE, v, k, MPI_DOUBLE, MPI_SUM, a_.comm(), &request_);
}

template <typename T>
void DistributedSpace<T>::finish_sum() {
  if (reduction_ == Reduction::blocking) {
    MPI_Allreduce(MPI_IN_PLACE, sum_, sum_count_, MPI_DOUBLE, MPI_SUM, a_.comm());
    return;
  }
  wait_progressing(a_, request_);
}

template <typename T>
const DeviceCsr<T>* DistributedSpace<T>::local_matrix() const {
  int ranks = 0;
  MPI_Comm_size(a_.comm(), &ranks);
  return ranks == 1 ? &a_.interior() : nullptr;
}

template <typename T>
typename DistributedSpace<T>::Parts DistributedSpace<T>::local_parts() const {
  if (local_matrix() || a_.early_rows() != a_.local_rows() - a_.interior_rows()) return {};
  return {&a_.interior(), &a_.boundary()};
}

template <typename T>
bool DistributedSpace<T>::all(bool mine) {
  int v = mine ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LAND, a_.comm());
  return v != 0;
}

template class DistributedSpace<float>;
template class DistributedSpace<double>;

}  // namespace lockstep::mpi
