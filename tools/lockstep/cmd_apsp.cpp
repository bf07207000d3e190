// `lockstep apsp`: all-pairs shortest paths of a Matrix Market graph (or of a generated random
// graph, --random N[,density[,seed]], for benchmarks without files) on the device, or with
// --cpu on the host's threads. Prints the configuration, optionally a path, and last a line
//   n= reachable_pairs= sum_dist= max_dist= min_dist= ms= gupdates_per_s= ms_KERNEL=...
// (n^3 updates / kernel time, in 10^9 per second; the diagonal counts as reachable; ms_KERNEL:
// the device time of each kernel of ApspResult::kernel_ms, e.g. ms_rest for the bulk). --out
// writes the distances as a Matrix Market `array` (inf for unreachable); --json the keys of both
// lines (and cpu=true|false).
#include <iostream>

#include "command.hpp"
#include "graph_options.hpp"
#include "lockstep/apsp.hpp"
#include "output.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {
namespace {

std::pair<int32_t, int32_t> parse_pair(const std::string& spec, int32_t n) {
  // digits only, each at most n (sscanf's %d wrapped 4294967297 to 1)
  long long u = 0, v = 0;
  const size_t comma = spec.find(',');
  auto number = [](const std::string& t, long long& x) {
    if (t.empty() || t.size() > 10 || t.find_first_not_of("0123456789") != std::string::npos)
      return false;
    x = std::stoll(t);
    return true;
  };
  if (comma == std::string::npos || !number(spec.substr(0, comma), u) ||
      !number(spec.substr(comma + 1), v) || u < 1 || v < 1 || u > n || v > n)
    throw usage_error("--path expects U,V with 1 <= U, V <= " + std::to_string(n) + ", got '" +
                      spec + "'");
  return {int32_t(u - 1), int32_t(v - 1)};
}

template <typename T>
void write_array(std::ostream& out, const ApspResult<T>& r) {
  out << "%%MatrixMarket matrix array real general\n% all-pairs shortest path distances "
         "(column-major); inf = unreachable\n"
      << r.n << " " << r.n << "\n";
  out.precision(9);
  for (int32_t j = 0; j < r.n; ++j)
    for (int32_t i = 0; i < r.n; ++i) {
      if (r.reachable(i, j))
        out << double(r.distance(i, j)) << "\n";
      else
        out << "inf\n";
    }
}

template <typename T>
void print_path(const ApspResult<T>& r, const std::string& spec) {
  auto [u, v] = parse_pair(spec, r.n);
  std::string hops;
  for (int32_t x : r.path(u, v)) hops += (hops.empty() ? "" : ",") + std::to_string(x + 1);
  Report p;
  p.add("from", u + 1).add("to", v + 1);
  if (r.reachable(u, v))
    p.add("distance", double(r.distance(u, v))).add("path", hops);
  else
    p.add("distance", "inf").add("path", "none");
  std::cout << p.str() << "\n";
}

// The last line: the distances' summary and the rates.
template <typename T>
Report distances(const ApspResult<T>& r, double best,
                 const std::map<std::string, double>& kernels) {
  long long reachable = 0;
  double sum = 0, mx = -HUGE_VAL, mn = HUGE_VAL;
  for (size_t i = 0; i < r.dist.size(); ++i)
    if (r.dist[i] != apsp_infinity<T>()) {
      const double d = r.dist[i];
      ++reachable, sum += d, mx = std::max(mx, d), mn = std::min(mn, d);
    }
  const double updates = double(r.n) * r.n * r.n;
  Report kv;  // distances are sums of weights: every digit
  kv.add("n", r.n).add("reachable_pairs", reachable).exact("sum_dist", sum);
  kv.exact("max_dist", reachable ? mx : 0.0).exact("min_dist", reachable ? mn : 0.0);
  kv.add("ms", best);
  kv.add("gupdates_per_s", best > 0 ? updates / (best * 1e6) : 0.0);
  for (auto& [kernel, ms] : kernels) kv.add("ms_" + kernel, ms);
  return kv;
}

template <typename T>
int run_typed(const po::variables_map& vm, const std::string& usage, Outputs& outs) {
  const bool cpu = vm.count("cpu");
  std::unique_ptr<Context> ctx;
  const Graph g = graph_from_options<T>(vm, usage, [&]() -> const DeviceInfo* {
    if (cpu) return nullptr;
    ctx = std::make_unique<Context>(device_spec(vm));
    return &ctx->info();
  });
  ApspConfig cfg;
  cfg.algorithm = parse_option(vm, "algorithm", parse_apsp_algorithm);
  cfg.tile = vm["tile"].as<int>();
  cfg.K = vm["K"].as<int>();
  cfg.thread_tile = vm["thread-tile"].as<int>();
  cfg.thread_rows = vm["thread-rows"].as<int>();
  cfg.unroll = vm["unroll"].as<int>();
  cfg.overlap = vm["overlap"].as<int>();
  cfg.paths = vm.count("paths") || vm.count("path");
  ApspResult<T> r;
  double best = 0;
  std::map<std::string, double> best_kernels;
  for (int rep = 0; rep < vm["repeat"].as<int>(); ++rep) {
    r = cpu ? apsp_cpu<T>(g, unsigned(vm["threads"].as<int>()), cfg.paths) : apsp<T>(*ctx, g, cfg);
    if (rep == 0 || r.ms < best) best = r.ms, best_kernels = r.kernel_ms;
  }
  Report conf;
  conf.add("device", cpu ? std::string("cpu") : ctx->info().name)
      .add("algorithm", to_string(r.config.algorithm))
      .add("tile", r.config.tile)
      .add("K", r.config.K)
      .add("thread_tile", r.config.thread_tile)
      .add("thread_rows", r.config.thread_rows)
      .add("unroll", r.config.unroll)
      .add("overlap", r.config.overlap)
      .add("type", std::is_integral_v<T> ? "i32" : "f32")
      .add("edges", g.src.size())
      .json_only("cpu", cpu);
  std::cout << conf.str() << "\n";
  if (vm.count("path")) print_path(r, vm["path"].as<std::string>());
  if (outs.has("out")) write_array(outs["out"], r);

  const Report kv = distances(r, best, best_kernels);
  nlohmann::json j = conf.json();
  j.update(kv.json());
  outs.json("json", j);
  outs.commit();
  std::cout << kv.str() << "\n";
  return 0;
}

const std::vector<std::string> kAlgorithms =
    names_of({ApspAlgorithm::naive, ApspAlgorithm::blocked, ApspAlgorithm::generalized});

int run_apsp(const Args& args) {
  const std::string usage =
      "lockstep apsp (GRAPH.mtx | --random N[,density[,seed]]) [--algorithm " + join(kAlgorithms) +
      "] [--tile R] [--K K] [--type f32|i32] [--paths] [--path U,V] [--out FILE] "
      "[--json OUT] [--cpu [--threads T]] [--repeat R] [--thread-tile C] [--thread-rows R] "
      "[--unroll U] [--overlap 0|1]";
  po::options_description opts("options");
  Deprecated old;
  opts.add_options()("graph", po::value<std::string>(),
                     "Matrix Market graph: (i, j, w) = edge i -> j")(
      "random", po::value<std::string>(),
      "generated graph instead of a file: N vertices, edge density (default 0.05), seed (default "
      "1); integer weights 1..100");
  add_algorithm_option(opts, kAlgorithms, "generalized", "(Floyd-Warshall variant)");
  old.alias("variant", "algorithm");
  opts.add_options()(
      "tile", number<int>(0, 64)->default_value(0),
      "tile side r: 16, 32 or 64 (0 = automatic: the tuning database, else the rule)")(
      "K", number<int>(0, 64)->default_value(0),
      "tiles fused per multi-tile, generalized (0 = automatic)")(
      "thread-tile", number<int>(0, 8)->default_value(0),
      "bulk micro-tile columns per work-item, 4|8 (0 = automatic)")(
      "thread-rows", number<int>(0, 16)->default_value(0),
      "bulk micro-tile rows per work-item, 4|8|16, rows x columns <= 64 (0 = the columns)")(
      "unroll", number<int>(0, 16)->default_value(0),
      "bulk k-loop unroll inside a staged chunk, dividing it (0 = automatic)")(
      "overlap", number<int>(-1, 1)->default_value(-1),
      "1: the next multi-tile's phases on a second queue beside the bulk, 0: not (-1 = automatic)")(
      "type", po::value<std::string>()->default_value("f32"), "weights: f32|i32")(
      "paths", "also compute the next-hop matrix")(
      "path", po::value<std::string>(), "print a shortest path U,V (1-based; implies --paths)")(
      "out", po::value<std::string>(), "write distances as Matrix Market array")(
      "json", po::value<std::string>(), "write the summary as JSON")(
      "cpu", "threaded CPU blocked Floyd-Warshall instead of the device")(
      "threads", number<int>(0, 4096)->default_value(0), "CPU threads (0 = all cores)")(
      "repeat", number<int>(1, 100000)->default_value(1), "run R times, report the fastest");
  po::positional_options_description pos;
  pos.add("graph", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm, old)) return 0;
  const int tile = vm["tile"].as<int>(), tt = vm["thread-tile"].as<int>();
  if (tile != 0 && tile != 16 && tile != 32 && tile != 64)
    throw usage_error("--tile must be 16, 32 or 64, got " + std::to_string(tile));
  if (tt != 0 && tt != 4 && tt != 8)
    throw usage_error("--thread-tile must be 4 or 8, got " + std::to_string(tt));
  (void)parse_option(vm, "algorithm", parse_apsp_algorithm);
  Outputs outs(vm, {"out", "json"}, {{"graph", "GRAPH"}});
  return f32_type(vm) ? run_typed<float>(vm, usage, outs) : run_typed<int32_t>(vm, usage, outs);
}

}  // namespace
LOCKSTEP_COMMAND("apsp", "all-pairs shortest paths (Floyd-Warshall: naive, blocked, generalized)",
                 run_apsp);
}  // namespace lockstep::cli
