// The graph input shared by `lockstep apsp` and `lockstep tune apsp`: exactly one of a Matrix
// Market GRAPH or --random N[,density[,seed]], and --type f32|i32; mistakes are usage errors.
#pragma once
#include <sstream>

#include "command.hpp"
#include "lockstep/apsp.hpp"

namespace lockstep::cli {

inline Graph random_from_spec(const std::string& spec) {
  std::istringstream s(spec);
  std::string part;
  std::vector<std::string> parts;
  while (std::getline(s, part, ',')) parts.push_back(part);
  try {
    if (parts.empty() || parts.size() > 3) throw std::invalid_argument("parts");
    size_t used = 0;
    const long n = std::stol(parts[0], &used);
    if (used != parts[0].size() || n < 0 || n > (1L << 20)) throw std::invalid_argument("n");
    const double density = parts.size() > 1 ? std::stod(parts[1], &used) : 0.05;
    if ((parts.size() > 1 && used != parts[1].size()) || !(density >= 0 && density <= 1))
      throw std::invalid_argument("density");
    const long long seed = parts.size() > 2 ? std::stoll(parts[2], &used) : 1;
    if ((parts.size() > 2 && used != parts[2].size()) || seed < 0) throw std::invalid_argument("seed");
    return random_graph(int32_t(n), density, uint64_t(seed));
  } catch (const std::logic_error&) {
    throw usage_error("--random expects N[,density[,seed]] with 0 <= N <= 2^20, density in [0, 1] and "
                      "seed >= 0 (e.g. 8192,0.05,1), got '" + spec + "'");
  }
}

/// Checks GRAPH xor --random and --type, then reads or generates the graph.
inline Graph graph_from_options(const po::variables_map& vm, const std::string& usage) {
  if (vm.count("graph") == vm.count("random"))
    throw usage_error("give exactly one of GRAPH or --random\nusage: " + usage);
  const std::string type = vm["type"].as<std::string>();
  if (type != "f32" && type != "i32") throw usage_error("--type must be f32 or i32, got " + type);
  return vm.count("random") ? random_from_spec(vm["random"].as<std::string>())
                            : read_graph(vm["graph"].as<std::string>());
}

}  // namespace lockstep::cli
