// `lockstep precompile [--family F,...] [--type T,...] [--list]`: builds the kernels a workload
// uses on the device into the program cache (memory, then disk: later processes load them instead
// of compiling), with a progress line per build on stderr; the last line on stdout:
// `builds= seconds=`. --list prints the selection (family, file, options) without building.
#include <iostream>

#include "command.hpp"
#include "lockstep/kernel_builds.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {
namespace {

const std::vector<std::string> kFamilies = {"spmv", "spmm",  "cg",   "blas1",   "sort",
                                            "bfs",  "align", "apsp", "barrier", "copy"};

/// The comma list of --OPTION (not given: empty, every one); each item a prefix of one of
/// `known` (`exact`: one of them), else a usage error naming the option and the item.
std::vector<std::string> list_of(const po::variables_map& vm, const std::string& option,
                                 const std::vector<std::string>& known, bool exact) {
  const std::string s = vm[option].as<std::string>();
  std::vector<std::string> out;
  if (vm[option].defaulted()) return out;
  const std::string expected = " (expected a comma list of " + join(known, ", ") + ")";
  if (s.empty()) throw usage_error("--" + option + ": empty" + expected);
  for (size_t at = 0; at <= s.size();) {
    const size_t comma = std::min(s.find(',', at), s.size());
    const std::string item = s.substr(at, comma - at);
    bool ok = !item.empty();
    if (ok) {
      ok = false;
      for (const std::string& k : known) ok |= exact ? k == item : k.rfind(item, 0) == 0;
    }
    if (!ok)
      throw usage_error("--" + option + " " + s + ": " +
                        (item.empty() ? std::string("an empty item") : "'" + item + "' unknown") +
                        expected);
    out.push_back(item);
    at = comma + 1;
  }
  return out;
}

int run_precompile(const Args& args) {
  std::string names;  // the kernel registry's families
  for (const KernelFamily& f : kernel_families())
    names += (names.empty() ? "" : ", ") + std::string(f.name);
  const std::string family_help = "families, by prefix: " + names + " (default: all)";
  const std::vector<std::string> types_known = build_types();
  const std::string type_help = "value / key types: " + join(types_known, ",") + " (default: all)";
  po::options_description opts("options");
  opts.add_options()("family", po::value<std::string>()->default_value(""), family_help.c_str())(
      "type", po::value<std::string>()->default_value(""), type_help.c_str())(
      "list", "print the selected builds (family, file, options) instead of building them");
  po::variables_map vm;
  if (!parse("lockstep precompile [--family F,...] [--type T,...] [--list]", args, opts, {}, vm))
    return 0;
  const std::vector<std::string> families = list_of(vm, "family", kFamilies, false);
  const std::vector<std::string> types = list_of(vm, "type", types_known, true);
  Context ctx(device_spec(vm));
  const std::vector<KernelBuild> builds = select_builds(ctx.info(), families, types);
  if (vm.count("list")) {
    for (const KernelBuild& b : builds)
      std::cout << b.family << '\t' << b.file << '\t' << b.options << '\n';
    return 0;
  }
  const double s =
      precompile(ctx, builds, [](size_t done, size_t total, const KernelBuild& b, double sec) {
        std::cerr << "[" << done << "/" << total << "] " << b.family << " " << b.file << " "
                  << int(sec * 1000) << " ms\n";
      });
  std::cout << "device=\"" << ctx.info().name << "\" builds=" << builds.size() << " seconds=" << s
            << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("precompile",
                 "build the kernels a workload uses into the program cache, with progress",
                 run_precompile);
}  // namespace lockstep::cli
