// Internal: per-phase wall times of a CSR build (graph/rows.cpp, mpi/bfs_graph.cpp), printed to
// stderr as `build_phase <where> <phase>_s=<seconds>` when LOCKSTEP_BUILD_TIMES is set (a
// profiling aid for large R-MAT builds; silent otherwise). lap() prints the time since the
// previous lap; tally() adds it to a phase that repeats (a distributed round's steps), printed
// with the clock's last line.
#pragma once
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "runtime/environment.hpp"

namespace lockstep::detail {

class BuildClock {
 public:
  explicit BuildClock(std::string where) : where_(std::move(where)) {}
  BuildClock(const BuildClock&) = delete;
  BuildClock& operator=(const BuildClock&) = delete;
  ~BuildClock() {
    for (const auto& [phase, s] : sums_) print(phase, s);
  }
  void lap(const char* phase) {
    if (on_) print(phase, since());
  }
  void tally(const char* phase) {
    if (!on_) return;
    const double s = since();
    for (auto& [name, sum] : sums_)
      if (std::strcmp(name, phase) == 0) {
        sum += s;
        return;
      }
    sums_.emplace_back(phase, s);
  }

 private:
  double since() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - t_).count();
    t_ = now;
    return s;
  }
  void print(const char* phase, double s) const {
    std::fprintf(stderr, "build_phase %s %s_s=%.3f\n", where_.c_str(), phase, s);
  }
  std::string where_;
  bool on_ = env::is_on("LOCKSTEP_BUILD_TIMES");
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
  std::vector<std::pair<const char*, double>> sums_;
};

}  // namespace lockstep::detail
