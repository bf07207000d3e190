// The MPI datatype of a value type (float or double).
#pragma once
#include <mpi.h>

#include <type_traits>

namespace lockstep::mpi {

template <typename T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "float or double");
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

}  // namespace lockstep::mpi
