// The CLI's one vocabulary. Every command chooses its algorithm with --algorithm, its global
// barrier with --barrier and its work-group size with --local-size, declared here; the lists of
// names come from the library's enums through to_string (barrier names from
// all_barriers()), so no command spells them by hand.
//
// Old spellings (spmv --kernel and --wg-bits, apsp and search --variant, bfs --strategy,
// sort/align/bench barrier --strategy) are Deprecated aliases for this release: accepted, hidden
// from --help, and each use prints one line on stderr ("lockstep: --kernel is deprecated, use
// --algorithm").
//
//   po::options_description opts("options");
//   Deprecated old;
//   add_algorithm_option(opts, names_of({SortAlgorithm::automatic, SortAlgorithm::bitonic}),
//   "auto"); add_barrier_option(opts, "bitonic's global barrier"); old.alias("strategy",
//   "barrier"); if (!parse(usage, args, opts, pos, vm, old)) return 0; o.algorithm =
//   parse_option(vm, "algorithm", parse_sort_algorithm);
#pragma once
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <vector>

#include "command.hpp"
#include "lockstep/error.hpp"

namespace lockstep::cli {

/// "a|b|c" (or with another separator).
std::string join(const std::vector<std::string>& names, const std::string& sep = "|");

/// The names of enum values, through the library's to_string.
template <typename E>
std::vector<std::string> names_of(std::initializer_list<E> values) {
  std::vector<std::string> out;
  for (E v : values) out.emplace_back(to_string(v));
  return out;
}
template <typename E>
std::vector<std::string> names_of(const std::vector<E>& values) {
  std::vector<std::string> out;
  for (E v : values) out.emplace_back(to_string(v));
  return out;
}

/// The global barriers, from all_barriers(); with_auto puts "auto" first.
std::vector<std::string> barrier_names(bool with_auto = true);

/// --algorithm NAME: `names` is what it accepts, `def` its default; `note` follows the list.
void add_algorithm_option(po::options_description& opts, const std::vector<std::string>& names,
                          const std::string& def, const std::string& note = "");

/// --barrier NAME: `what` says whose barrier it is ("bitonic's global barrier").
void add_barrier_option(po::options_description& opts, const std::string& what,
                        const std::vector<std::string>& names = barrier_names(),
                        const std::string& def = "auto");

/// --local-size N with the command's range and default (a number<int>(lo, hi) value).
void add_local_size_option(po::options_description& opts, po::value_semantic* value,
                           const std::string& help);

/// A library parser applied to a string option; its input_error becomes a usage error naming
/// the option ("--algorithm: unknown sort algorithm 'x' (expected ...)").
template <typename F>
auto parse_option(const po::variables_map& vm, const std::string& option, F&& parse_name) {
  try {
    return parse_name(vm[option].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error("--" + option + ": " + e.what());
  }
}

/// The old spellings a command still accepts (see the top of this file).
class Deprecated {
 public:
  using Convert = std::function<boost::any(const boost::any&)>;
  /// `--old_name V` means `--new_name V`; `value` is how the old option reads its value (a
  /// string by default) and `convert` turns it into the new option's (e.g. bits to a size).
  Deprecated& alias(const std::string& old_name, const std::string& new_name,
                    po::value_semantic* value = nullptr, Convert convert = nullptr);
  const po::options_description& options() const { return hidden_; }
  /// Warns once per old spelling used and moves its value to the new name; giving both is a
  /// usage error.
  void resolve(po::variables_map& vm, std::ostream& warn) const;

 private:
  struct Alias {
    std::string old_name, new_name;
    Convert convert;
  };
  po::options_description hidden_;
  std::vector<Alias> aliases_;
};

}  // namespace lockstep::cli
