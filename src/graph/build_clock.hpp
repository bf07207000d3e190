// Internal: per-phase wall times of a CSR build (graph/rows.cpp, mpi/bfs_graph.cpp), printed to
// stderr as `build_phase <where> <phase>_s=<seconds>` when LOCKSTEP_BUILD_TIMES is set (a
// profiling aid for issue 37's R-MAT builds; silent otherwise).
#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace lockstep::detail {

class BuildClock {
 public:
  explicit BuildClock(const char* where) : where_(where) {}
  void lap(const char* phase) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "build_phase %s %s_s=%.3f\n", where_, phase,
                 std::chrono::duration<double>(now - t_).count());
    t_ = now;
  }

 private:
  const char* where_;
  bool on_ = std::getenv("LOCKSTEP_BUILD_TIMES") != nullptr;
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
};

}  // namespace lockstep::detail
