// A command's output files (--json, --out, --levels-out, ...), all through lockstep::OutputFile
// (include/lockstep/io.hpp): opened before the run, so that a path that cannot be written fails
// before the work; written to temporary files; renamed into place by commit() only when the
// whole run succeeded. Until then no destination is touched, so a failed run leaves every output
// file as it was. An output that is the same file as an input, or as another output, is a usage
// error (exit 2) naming both options, and so is an output that is the tuning database. An output
// `-` is standard output, which then carries that output only: the summary lines go to stderr.
//
//   Outputs outs(vm, {"levels-out", "json"}, {{"graph", "GRAPH"}});
//   ... run ...
//   if (outs.has("levels-out")) outs["levels-out"] << ...;
//   outs.json("json", j);
//   outs.commit();
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "lockstep/io.hpp"

namespace lockstep::cli {

/// An input option whose value is a path, and how messages name it ("GRAPH", "--input").
struct InputOption {
  std::string option, label;
};

class Outputs {
 public:
  Outputs(const po::variables_map& vm, const std::vector<std::string>& outputs,
          const std::vector<InputOption>& inputs = {});
  bool has(const std::string& option) const;
  /// The stream of a given output option (check has() first).
  std::ostream& operator[](const std::string& option);
  /// Writes j (indented by `indent`) and a line break to the output `option`, when given.
  void json(const std::string& option, const nlohmann::json& j, int indent = 2);
  /// Flushes and checks every output, then renames each into place.
  void commit();

 private:
  std::vector<std::pair<std::string, std::unique_ptr<OutputFile>>> files_;
};

}  // namespace lockstep::cli
