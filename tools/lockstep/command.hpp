// The CLI's command registry. Each command lives in its own cmd_*.cpp and registers itself
// with LOCKSTEP_COMMAND, so adding a command touches no other file. Commands parse their own
// options with Boost.Program_options through parse(), which adds --device and --help and turns
// usage mistakes into usage_error (exit 2). Exit codes: 0 ok, 1 bad input, 2 usage, 3 OpenCL,
// 4 internal error (any other exception: a bug, reported by message instead of an abort).
//
// EVERY NUMERIC OPTION is declared with number<T>(lo, hi) instead of po::value<T>():
//   opts.add_options()("repeat", number<int>(1, 1000000)->default_value(20), "timed runs");
// parse() then refuses a value outside [lo, hi] (NaN included) as a usage error naming the
// option, and --help shows the range. T must be signed: Boost reads "-1" into an unsigned type
// as its maximum without complaint, so declare counts as int/long long and cast where used.
// A "0 = automatic" option says so in its help text and includes 0 in its range.
#pragma once
#include <boost/program_options.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "exit_codes.hpp"
#include "report.hpp"

namespace lockstep::cli {

namespace po = boost::program_options;

/// The range check behind number<T>(); parse() applies it to every option that has one.
struct RangeCheck {
  virtual ~RangeCheck() = default;
  /// Throws po::error "--NAME must be in [lo, hi], got v" when the stored value is outside.
  virtual void check(const std::string& name, const boost::any& value) const = 0;
};

template <typename T>
class RangedValue : public po::typed_value<T>, public RangeCheck {
  static_assert(std::is_signed_v<T>,
                "unsigned options accept '-1' as their maximum: use a signed T");

 public:
  RangedValue(T lo, T hi) : po::typed_value<T>(nullptr), lo_(lo), hi_(hi) {}
  std::string name() const override { return po::typed_value<T>::name() + " in " + range(); }
  void check(const std::string& name, const boost::any& value) const override {
    const T v = boost::any_cast<T>(value);
    if (!(v >= lo_ && v <= hi_))  // NaN fails both comparisons
      throw po::error("--" + name + " must be in " + range() + ", got " + text(v));
  }

 private:
  static std::string text(T v) {
    std::ostringstream s;
    s.precision(15);
    s << v;
    return s.str();
  }
  std::string range() const { return "[" + text(lo_) + ", " + text(hi_) + "]"; }
  T lo_, hi_;
};

/// A numeric option accepting values in [lo, hi] (see the top of this file).
template <typename T>
RangedValue<T>* number(T lo, T hi) {
  return new RangedValue<T>(lo, hi);
}

using Args = std::vector<std::string>;
struct Command {
  std::string name;  // one word ("spmv") or two ("bench barrier")
  std::string summary;
  int (*run)(const Args& args);
};
std::vector<Command>& commands();
struct Register {
  explicit Register(Command c) { commands().push_back(std::move(c)); }
};
#define LOCKSTEP_COMMAND(name, summary, fn)                 \
  static ::lockstep::cli::Register lockstep_register_##fn { \
    { name, summary, fn }                                   \
  }

class Deprecated;  // vocabulary.hpp

/// Parses args against `opts` (plus --device and --help) with the given positionals, and the
/// deprecated spellings `old` (hidden from --help; each use warned on stderr).
/// Returns false when --help was printed (the command then returns 0).
bool parse(const std::string& usage, const Args& args, po::options_description opts,
           const po::positional_options_description& positional, po::variables_map& vm);
bool parse(const std::string& usage, const Args& args, po::options_description opts,
           const po::positional_options_description& positional, po::variables_map& vm,
           const Deprecated& old);

/// The device spec: --device when given, else "" (LOCKSTEP_DEVICE or the default).
std::string device_spec(const po::variables_map& vm);

/// Calls run(float{}) or run(double{}) as --precision says (usage_error otherwise), so a command
/// writes `return with_precision(vm, [&](auto t) { return go<decltype(t)>(vm); });`.
template <typename F>
auto with_precision(const po::variables_map& vm, F&& run) -> decltype(run(double{})) {
  const std::string p = vm["precision"].as<std::string>();
  if (p == "double") return run(double{});
  if (p == "float") return run(float{});
  throw usage_error("--precision must be float or double, not '" + p + "'");
}

}  // namespace lockstep::cli
