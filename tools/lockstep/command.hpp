// The CLI's command registry. Each command lives in its own cmd_*.cpp and registers itself
// with LOCKSTEP_COMMAND, so adding a command touches no other file. Commands parse their own
// options with Boost.Program_options through parse(), which adds --device and --help and turns
// usage mistakes into usage_error (exit 2). Exit codes: 0 ok, 1 bad input, 2 usage, 3 OpenCL.
#pragma once
#include <boost/program_options.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace lockstep::cli {

namespace po = boost::program_options;

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
#define LOCKSTEP_COMMAND(name, summary, fn) \
  static ::lockstep::cli::Register lockstep_register_##fn{{name, summary, fn}}

/// Parses args against `opts` (plus --device and --help) with the given positionals.
/// Returns false when --help was printed (the command then returns 0).
bool parse(const std::string& usage, const Args& args, po::options_description opts,
           const po::positional_options_description& positional, po::variables_map& vm);

/// The device spec: --device when given, else "" (LOCKSTEP_DEVICE or the default).
std::string device_spec(const po::variables_map& vm);

/// Calls run(float{}) or run(double{}) as --precision says (usage_error otherwise), so a command
/// writes `return with_precision(vm, [&](auto t) { return go<decltype(t)>(vm); });`.
template <typename F>
int with_precision(const po::variables_map& vm, F&& run) {
  const std::string p = vm["precision"].as<std::string>();
  if (p == "double") return run(double{});
  if (p == "float") return run(float{});
  throw usage_error("--precision must be float or double, not '" + p + "'");
}

/// One output line of key=value pairs, in insertion order.
class KeyValues {
 public:
  template <typename T>
  KeyValues& add(const std::string& key, const T& value) {
    std::ostringstream s;
    s.precision(6);
    s << value;
    std::string v = s.str();
    if (v.find(' ') != std::string::npos) v = "\"" + v + "\"";
    line_ += (line_.empty() ? "" : " ") + key + "=" + v;
    return *this;
  }
  const std::string& str() const { return line_; }

 private:
  std::string line_;
};

}  // namespace lockstep::cli
