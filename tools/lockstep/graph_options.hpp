// The graph input shared by `lockstep apsp` and `lockstep tune apsp`: exactly one of a Matrix
// Market GRAPH or --random N[,density[,seed]], and --type f32|i32; mistakes are usage errors.
// Sizes are checked before anything is allocated: a file's weights as it is read (f32/i32 range,
// with FILE:LINE), then its n x n matrices against host memory and the device's largest buffer;
// --random's matrices and edge list before a single edge is drawn.
#pragma once
#include <functional>
#include <sstream>

#include "command.hpp"
#include "lockstep/apsp.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/io.hpp"

namespace lockstep::cli {

struct RandomSpec {
  int32_t n = 0;
  double density = 0.05;
  uint64_t seed = 1;
};

inline RandomSpec parse_random_spec(const std::string& spec) {
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
    if ((parts.size() > 2 && used != parts[2].size()) || seed < 0)
      throw std::invalid_argument("seed");
    return {int32_t(n), density, uint64_t(seed)};
  } catch (const std::logic_error&) {
    throw usage_error(
        "--random expects N[,density[,seed]] with 0 <= N <= 2^20, density in [0, 1] and "
        "seed >= 0 (e.g. 8192,0.05,1), got '" +
        spec + "'");
  }
}

/// Checks GRAPH xor --random and --type, then reads or generates the graph, each size checked
/// first (see the top of this file). `device` gives the device the run will use (nullptr: the
/// CPU); it is called after a file is read (bad input before the device) and before --random
/// draws its edges.
template <typename T>
Graph graph_from_options(const po::variables_map& vm, const std::string& usage,
                         const std::function<const DeviceInfo*()>& device) {
  const bool paths = vm.count("paths") || vm.count("path");
  if (vm.count("graph") == vm.count("random"))
    throw usage_error("give exactly one of GRAPH or --random\nusage: " + usage);
  if (vm.count("random")) {
    const std::string spec = vm["random"].as<std::string>(), where = "--random " + spec;
    const RandomSpec r = parse_random_spec(spec);
    apsp_check_size<T>(where, r.n, paths);  // the host first: no device opened in vain
    // the edge list (src, dst, weight: 16 bytes an edge) before any edge is drawn
    check_host_memory(where, "its edge list", 16 * r.density * double(r.n) * double(r.n));
    if (const DeviceInfo* d = device()) apsp_check_size<T>(where, r.n, paths, d);
    return random_graph(r.n, r.density, r.seed);
  }
  const std::string file = vm["graph"].as<std::string>();
  Graph g = read_graph(file, GraphFormat::automatic, false,
                       std::is_integral_v<T> ? WeightType::i32 : WeightType::f32);
  apsp_check_size<T>(file, g.n, paths);
  if (const DeviceInfo* d = device()) apsp_check_size<T>(file, g.n, paths, d);
  return g;
}

/// --type as a usage error when it is neither f32 nor i32; true for f32.
inline bool f32_type(const po::variables_map& vm) {
  const std::string type = vm["type"].as<std::string>();
  if (type != "f32" && type != "i32") throw usage_error("--type must be f32 or i32, got " + type);
  return type == "f32";
}

}  // namespace lockstep::cli
