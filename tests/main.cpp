// doctest's main for the lockstep suite. The skip listener (skip_listener.hpp) counts the test
// cases that reported themselves skipped; the run prints how many, and exits 77 when it passed
// and every case it ran was skipped (a single case run by CTest: SKIP_RETURN_CODE 77 shows it as
// "Skipped", not "Passed"). A run that built a kernel file the kernel registry lacks
// (lockstep/kernel_builds.hpp) fails, naming the file: precompile and the AMD/SPIR-V compile pass
// would never have seen it.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>

#include "lockstep/kernel_builds.hpp"
#include "skip_listener.hpp"

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  if (const auto missing = lockstep::unregistered_kernel_files(); !missing.empty()) {
    std::cout << "lockstep_tests: kernel files built but missing from the kernel registry "
                 "(lockstep::kernel_families()):";
    for (const auto& f : missing) std::cout << ' ' << f;
    std::cout << std::endl;
    return 1;
  }
  const bool all_skipped = lockstep::test::skip_counts().report("lockstep_tests");
  return result == 0 && all_skipped ? 77 : result;
}
