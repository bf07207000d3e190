// The one tuning engine. A family (spmv, sort, apsp, align) declares what can be tuned and how to
// try it; the engine searches, verifies every candidate, stores the winner in the tuning
// database, and choose() answers the automatic calls.
//
//   A family declares                            the engine does
//   spaces() + valid(): parameters, constraints   enumerates the candidates (or takes a list)
//   key(), features(): the problem's size class   searches: exhaustive, or model-led (seeds()
//   run(p): one candidate, its time in ms           and neighbours(), within a budget)
//   check(p): the last run against the reference  times and checks each; a wrong one is never best
//   defines(p): parameters -> -D options          stores the best with the device (TuningDb)
//
// Parameter names are the database's names, the CLI's words and (upper-cased) the kernels' -D
// macros: `local_size` is the work-group size everywhere (LOCAL_SIZE). choose(device, family,
// key) reads the database loaded once per process and per database file; tune() and store()
// re-read the file before they write it, and their result becomes the process's copy.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/tuning_db.hpp"

namespace lockstep::tuning {

/// Parameter values by name: integers, or names (e.g. "algorithm": "vector").
using Params = nlohmann::json;

/// One tunable parameter and its candidate values.
struct Parameter {
  std::string name;
  std::vector<nlohmann::json> values;
};
/// A product of parameters; a family's space is the union of its products (e.g. one per kernel).
using Space = std::vector<Parameter>;

/// The outcome of checking one run against the reference.
struct Verdict {
  bool ok = false;
  double error = 0;  // the family's measure (max relative error; 0 for exact results)
};

class Family {
 public:
  virtual ~Family() = default;
  /// The database routine and CLI family name ("spmv", "sort", "apsp", "align").
  virtual std::string name() const = 0;
  virtual std::vector<Space> spaces() const = 0;
  /// Constraints beyond the declared values (device limits, combinations).
  virtual bool valid(const Params&) const { return true; }
  /// The size class of the problem being tuned (the database key) and what describes it.
  virtual std::string key() const = 0;
  virtual nlohmann::json features() const { return nlohmann::json::object(); }
  /// Runs one candidate; its time in ms. Throws input_error when the device cannot run it
  /// (the candidate is then skipped).
  virtual double run(const Params& p) = 0;
  /// Checks the output of the last run(p) against the reference, with the family's tolerance.
  virtual Verdict check(const Params& p) = 0;
  /// The -D options of a candidate (default: every integer parameter as NAME=value).
  virtual Defines defines(const Params& p) const;
  /// Model-led search: the candidates timed first (the model's prediction, baselines) and the
  /// candidates one step away from p. A family without neighbours is searched exhaustively.
  virtual std::vector<Params> seeds() const { return {}; }
  virtual std::vector<Params> neighbours(const Params&) const { return {}; }
  /// Extra columns for a timed candidate (e.g. GB/s) and for the outcome (e.g. speedups).
  virtual nlohmann::json metrics(const Params&, double /*ms*/) const {
    return nlohmann::json::object();
  }
};

struct Options {
  bool exhaustive = true;          // false: seeds + neighbours (needs a family with neighbours)
  double budget_s = 0;             // model-led: wall-clock budget (0: none)
  size_t limit = 0;                // model-led: most candidates timed (0: a quarter of the space)
  std::vector<Params> candidates;  // non-empty: exactly these (each still checked by valid())
  bool store = true;
  std::function<void(size_t done, size_t total, const struct Measured&)> progress;
};

struct Measured {
  Params params;
  double ms = 0;
  bool verified = false;
  double error = 0;
  nlohmann::json metrics = nlohmann::json::object();
};

struct Outcome {
  std::string family, key;
  std::vector<Measured> candidates;  // in the order timed
  Measured best;
  size_t search_space = 0;
  bool stored = false;
  /// The measurement of these parameters, if it was timed.
  const Measured* find(const Params& p) const;
};

/// Every valid candidate of a family's declared space.
std::vector<Params> enumerate(const Family& family);
/// The same for spaces and a constraint alone (kernel_builds() lists a family's builds with it,
/// without the problem a Family instance needs).
std::vector<Params> enumerate(const std::vector<Space>& spaces,
                              const std::function<bool(const Params&)>& valid);
/// Searches, verifies each candidate, and stores the fastest verified one (options.store).
/// Throws input_error when no candidate verified.
Outcome tune(Context& ctx, Family& family, const Options& options = {});

/// The process's copy of this device's database (loaded on first use per database file).
std::shared_ptr<const TuningDb> database(const DeviceInfo& device);
/// Stores an entry: re-reads the file, inserts, writes; that becomes the process's copy.
bool store(const DeviceInfo& device, const TuningEntry& entry);
/// The stored parameters of (family, key), from the process's copy. With `nearest`, keys end in
/// a number (a size class) and the entry of the same prefix with the closest number answers.
std::optional<Params> choose(const DeviceInfo& device, const std::string& family,
                             const std::string& key, bool nearest = false);

/// The parameter `name` as an int, or `fallback` when absent or not a number.
int get_int(const Params& p, const std::string& name, int fallback = 0);
/// The parameter `name`, or its old spelling `old_name` (an entry stored before the rename; the
/// first use of each old spelling prints one line on stderr: "lockstep: tuning parameter
/// 'kernel' is deprecated, use 'algorithm'"); nullptr when neither is there.
const nlohmann::json* find(const Params& p, const std::string& name, const std::string& old_name);
/// "name=value name=value" by name (the CLI's and the logs' spelling).
std::string str(const Params& p);

}  // namespace lockstep::tuning
