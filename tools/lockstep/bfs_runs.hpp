// `lockstep bfs`, the runs: one algorithm over every source, a key=value line per run, and the
// algorithm's summary Report (cmd_bfs.cpp parses the options and prints).
#pragma once
#include <memory>
#include <ostream>
#include <vector>

#include "lockstep/bfs.hpp"
#include "report.hpp"

namespace lockstep::cli {

struct BfsPlan {
  std::vector<int32_t> sources;
  int repeat = 1, warmup = 1;
  bool validate = false;
  std::ostream* steps = nullptr;  // --steps-out: the first source's last run, level by level
};

struct BfsRuns {
  Report summary;     // reached= max_level= sum_levels= ms= gteps= ... algorithm= X_levels=
  BfsResult first;    // the first source's first run (its levels for --levels-out)
};

/// Runs o.algorithm (on ctx, or the CPU when ctx is null) as `plan` says.
BfsRuns run_algorithm(Context* ctx, const CsrGraph& g, const BfsOptions& o, const BfsPlan& plan);

}  // namespace lockstep::cli
