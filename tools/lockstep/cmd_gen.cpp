// `lockstep gen KIND ARGS... -o FILE.mtx [--seed S]`: writes a generated matrix.
#include <cmath>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>

#include "command.hpp"
#include "lockstep/error.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/matrix_market.hpp"

namespace lockstep::cli {
namespace {

struct Kind {
  std::string args;
  int count;
  std::function<Csr<double>(const std::vector<double>&, uint64_t)> make;
};

const std::map<std::string, Kind>& kinds() {
  static const std::map<std::string, Kind> k{
      {"laplace2d", {"N", 1, [](auto& a, uint64_t) { return gen::laplace2d(int32_t(a[0])); }}},
      {"grid",
       {"N", 1,
        [](auto& a, uint64_t) {
          return gen::laplace2d(int32_t(a[0]));
        }}},  // BFS: the laplace2d pattern
      {"laplace3d", {"N", 1, [](auto& a, uint64_t) { return gen::laplace3d(int32_t(a[0])); }}},
      {"uniform",
       {"n k", 2,
        [](auto& a, uint64_t s) { return gen::uniform(int32_t(a[0]), int32_t(a[1]), s); }}},
      {"powerlaw",
       {"n alpha", 2, [](auto& a, uint64_t s) { return gen::powerlaw(int32_t(a[0]), a[1], s); }}},
      {"banded",
       {"n w", 2,
        [](auto& a, uint64_t s) { return gen::banded(int32_t(a[0]), int32_t(a[1]), s); }}},
      {"dense",
       {"n k", 2,
        [](auto& a, uint64_t s) { return gen::dense_rows(int32_t(a[0]), int32_t(a[1]), s); }}},
      {"hubs",
       {"n k hubs hub_len", 4,
        [](auto& a, uint64_t s) {
          return gen::hubs(int32_t(a[0]), int32_t(a[1]), int32_t(a[2]), int32_t(a[3]), s);
        }}},
      {"blocks3d",
       {"n b", 2,
        [](auto& a, uint64_t s) { return gen::blocks3d(int32_t(a[0]), int32_t(a[1]), s); }}},
      {"rmat",
       {"scale edgefactor", 2,
        [](auto& a, uint64_t s) { return gen::rmat(int32_t(a[0]), int32_t(a[1]), s); }}},
  };
  return k;
}

int run_gen(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("kind", po::value<std::string>()->required(), "matrix kind")(
      "args", po::value<std::vector<std::string>>()->multitoken(), "kind arguments")(
      "output,o", po::value<std::string>()->required(), "output .mtx file")(
      "seed", number<long long>(0, std::numeric_limits<long long>::max())->default_value(1),
      "random seed");
  po::positional_options_description pos;
  pos.add("kind", 1).add("args", -1);
  std::string usage = "lockstep gen KIND ARGS... -o FILE.mtx [--seed S]\nkinds:";
  for (auto& [name, k] : kinds()) usage += "\n  " + name + " " + k.args;
  usage += "\n(a protein FASTA database: lockstep gen proteins --help)";
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;

  std::string name = vm["kind"].as<std::string>();
  auto it = kinds().find(name);
  if (it == kinds().end()) throw usage_error("unknown kind '" + name + "'\nusage: " + usage);
  auto raw =
      vm.count("args") ? vm["args"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (int(raw.size()) != it->second.count)
    throw usage_error(name + " takes " + std::to_string(it->second.count) +
                      " argument(s): " + it->second.args);
  std::vector<double> a;
  for (auto& s : raw) {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s, &used);
    } catch (const std::exception&) {
    }
    if (used != s.size() || s.empty()) throw usage_error(name + ": '" + s + "' is not a number");
    a.push_back(v);
  }
  std::istringstream names(it->second.args);  // every argument but alpha is a count
  std::string arg;
  for (size_t i = 0; names >> arg; ++i)
    if (arg != "alpha" &&
        !(a[i] >= 0 && a[i] <= std::numeric_limits<int32_t>::max() && a[i] == std::floor(a[i])))
      throw usage_error(name + ": " + arg + " must be an integer in [0, 2147483647], got '" +
                        raw[i] + "'");
    else if (arg == "alpha" && !std::isfinite(a[i]))
      throw usage_error(name + ": alpha must be finite, got '" + raw[i] + "'");
  Csr<double> m;
  try {
    m = it->second.make(a, uint64_t(vm["seed"].as<long long>()));
  } catch (const input_error& e) {
    throw usage_error(e.what());
  }
  write_matrix_market(vm["output"].as<std::string>(), m);
  Report kv;
  kv.add("file", vm["output"].as<std::string>())
      .add("rows", m.rows)
      .add("cols", m.cols)
      .add("nnz", m.nnz());
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("gen",
                 "generate a matrix (laplace2d, laplace3d, uniform, powerlaw, banded, dense, hubs, "
                 "blocks3d, rmat)",
                 run_gen);
}  // namespace lockstep::cli
