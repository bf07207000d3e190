// `lockstep tune <family>`: what each family adds to the one tune command (cmd_tune.cpp): its
// options and positionals, and the tuning jobs it makes from them (inputs are read here, before
// the device opens). One job is one problem (one database key); sort makes one per size.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "command.hpp"
#include "lockstep/tuning.hpp"

namespace lockstep::cli {

struct TuneJob {
  std::function<std::unique_ptr<tuning::Family>(Context&)> make;
  tuning::Options options;
  /// Family columns for the best line (e.g. matrix, speedups), after the common ones.
  std::function<void(const tuning::Outcome&, Report&)> summary;
};

struct TuneFamilyCli {
  std::string usage;  // the part after `lockstep tune`
  std::function<void(po::options_description&, po::positional_options_description&)> declare;
  std::function<std::vector<TuneJob>(const po::variables_map&)> jobs;
};

/// The CLI of a family ("spmv", "sort", "apsp", "align"); nullptr for another name.
const TuneFamilyCli* tune_family_cli(const std::string& name);

}  // namespace lockstep::cli
