// `lockstep bfs`, the runs: each algorithm over every source, a key=value line per run, and each
// algorithm's summary Report (cmd_bfs.cpp parses the options and prints). Interleaved
// (--interleave), every algorithm runs each source's repeats in turn, so that a slow spell of
// the host falls on all of them rather than on one algorithm's block.
#pragma once
#include <functional>
#include <map>
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
  bool interleave = false;        // one engine (one copy of the graph) per algorithm at once
  std::ostream* steps = nullptr;  // --steps-out: the first source's last run, level by level
};

struct BfsRuns {
  Report summary;   // reached= max_level= sum_levels= ms= gteps= ... algorithm= X_levels=
  BfsResult first;  // the first source's first run (its levels for --levels-out)
};

/// One algorithm's runs: its engine (on ctx, or the CPU when ctx is null), a line per run, and
/// the summary.
class AlgorithmRuns {
 public:
  AlgorithmRuns(Context* ctx, const CsrGraph& g, const BfsOptions& o, const BfsPlan& plan);
  ~AlgorithmRuns();
  void warm_up();               // plan.warmup untimed searches from the first source
  void run(size_t i, int rep);  // source i's run rep: searched, validated, printed, counted
  BfsRuns finish();

 private:
  BfsResult search(int32_t source);
  Context* ctx_;
  const CsrGraph& g_;
  BfsOptions o_;
  const BfsPlan& plan_;
  std::unique_ptr<Bfs> engine_;
  BfsRuns out_;
  std::vector<std::vector<double>> reps_;  // per source, its runs' ms
  std::vector<double> teps_;
  std::map<BfsAlgorithm, int> counts_;
};

/// Every algorithm of `list` as `plan` says, in order or interleaved; `done(k, runs)` for each
/// in list order, as soon as its runs end (in order: after its own; interleaved: after all).
void run_algorithms(Context* ctx, const CsrGraph& g, BfsOptions o,
                    const std::vector<BfsAlgorithm>& list, const BfsPlan& plan,
                    const std::function<void(size_t, const BfsRuns&)>& done);

}  // namespace lockstep::cli
