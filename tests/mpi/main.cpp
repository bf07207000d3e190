// The MPI test binary's main: MPI_Init, the doctest cases on every rank (each case is
// collective: every rank runs the same cases in the same order), and one exit status for all
// ranks: 1 when any rank failed or built a kernel file the kernel registry lacks, else 77 when
// every rank skipped every case it ran (CTest's SKIP_RETURN_CODE), else 0. Skipped cases
// (test::skip) are listed by rank 0.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/mpi.hpp"
#include "skip_listener.hpp"

int main(int argc, char** argv) {
  lockstep::mpi::Session session;
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  int failed = result != 0;
  if (const auto missing = lockstep::unregistered_kernel_files(); !missing.empty()) {
    std::cout << "lockstep_mpi_tests: kernel files built but missing from the kernel registry "
                 "(lockstep::kernel_families()):";
    for (const auto& f : missing) std::cout << ' ' << f;
    std::cout << std::endl;
    failed = 1;
  }
  const bool me = lockstep::mpi::rank(MPI_COMM_WORLD) == 0;
  const auto& counts = lockstep::test::skip_counts();
  int all_skipped = me ? counts.report("lockstep_mpi_tests")
                       : counts.cases_run > 0 && int(counts.skipped.size()) == counts.cases_run;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &all_skipped, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return failed ? 1 : all_skipped ? 77 : 0;
}
