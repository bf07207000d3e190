// The MPI test binary's main: MPI_Init, the doctest cases on every rank (each case is
// collective: every rank runs the same cases in the same order), and one exit status for all
// ranks (the worst).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "lockstep/mpi.hpp"

int main(int argc, char** argv) {
  lockstep::mpi::Session session;
  doctest::Context context(argc, argv);
  int status = context.run();
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return status;
}
