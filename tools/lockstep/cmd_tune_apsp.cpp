// `lockstep tune apsp (GRAPH | --random N[,density[,seed]]) [--type f32|i32] [--paths]`: times
// every (tile, K, thread tile) candidate of the blocked/generalized Floyd-Warshall on the graph,
// prints one line per candidate, fastest first, and stores the fastest in the tuning database,
// which `lockstep apsp` (no --tile/--K given) then uses for graphs of the same size class.
#include <iostream>

#include "command.hpp"
#include "graph_options.hpp"
#include "lockstep/apsp.hpp"

namespace lockstep::cli {
namespace {

template <typename T>
int tune_typed(const po::variables_map& vm, const std::string& usage) {
  std::unique_ptr<Context> device;
  const Graph g = graph_from_options<T>(vm, usage, [&] {
    device = std::make_unique<Context>(device_spec(vm));
    return &device->info();
  });
  Context& ctx = *device;
  auto timings =
      apsp_tune<T>(ctx, g, vm.count("paths") > 0, vm["repeat"].as<int>(), !vm.count("no-store"));
  for (const ApspTiming& t : timings) {
    KeyValues kv;
    kv.add("n", g.n).add("variant", to_string(t.config.variant)).add("tile", t.config.tile);
    kv.add("K", t.config.K).add("thread_tile", t.config.thread_tile).add("ms", t.ms);
    kv.add("gupdates_per_s", t.ms > 0 ? double(g.n) * g.n * g.n / (t.ms * 1e6) : 0.0);
    std::cout << kv.str() << "\n";
  }
  const ApspConfig& b = timings.front().config;
  KeyValues best;
  best.add("best_tile", b.tile).add("best_K", b.K).add("best_thread_tile", b.thread_tile);
  best.add("ms", timings.front().ms).add("stored", vm.count("no-store") ? 0 : 1);
  std::cout << best.str() << "\n";
  return 0;
}

int run_tune_apsp(const Args& args) {
  const std::string usage =
      "lockstep tune apsp (GRAPH.mtx | --random N[,density[,seed]]) [--type f32|i32] [--paths] "
      "[--repeat R] [--no-store]";
  po::options_description opts("options");
  opts.add_options()("graph", po::value<std::string>(), "Matrix Market graph")(
      "random", po::value<std::string>(), "generated graph: N[,density[,seed]]")(
      "type", po::value<std::string>()->default_value("f32"), "f32|i32")(
      "paths", "tune the next-hop (paths) kernels")("repeat", number<int>(1, 1000)->default_value(2),
                                                    "runs per candidate (fastest counts)")(
      "no-store", "only print, do not store the best in the tuning database");
  po::positional_options_description pos;
  pos.add("graph", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  return f32_type(vm) ? tune_typed<float>(vm, usage) : tune_typed<int32_t>(vm, usage);
}

}  // namespace
LOCKSTEP_COMMAND("tune apsp", "time Floyd-Warshall tile/K candidates, store the fastest",
                 run_tune_apsp);
}  // namespace lockstep::cli
