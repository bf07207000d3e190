// The MPI datatype of a value type (float or double), and of a pair of int32 (Int32Pair).
#pragma once
#include <mpi.h>

#include <type_traits>

namespace lockstep::mpi {

template <typename T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "float or double");
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

/// Two int32 as one MPI element (the BFS's (row, column) and (vertex, parent) pairs), committed
/// on construction and freed when it goes.
struct Int32Pair {
  MPI_Datatype type;
  Int32Pair() {
    MPI_Type_contiguous(2, MPI_INT32_T, &type);
    MPI_Type_commit(&type);
  }
  ~Int32Pair() { MPI_Type_free(&type); }
  Int32Pair(const Int32Pair&) = delete;
  Int32Pair& operator=(const Int32Pair&) = delete;
};

}  // namespace lockstep::mpi
