// `lockstep tune sort [--type u32|i32|f32|u64] [--pairs] [--kmin A] [--kmax B] [--repeat R]
// [--no-store]`: times radix and the bitonic sort on every barrier strategy for n = 2^A .. 2^B,
// prints one line per candidate (fastest first per n), and stores the fastest per size class in
// the tuning database, which `lockstep sort --algorithm auto` then follows.
#include <iostream>

#include "command.hpp"
#include "lockstep/sort.hpp"

namespace lockstep::cli {
namespace {

int run_tune_sort(const Args& args) {
  const std::string usage =
      "lockstep tune sort [--type u32|i32|f32|u64] [--pairs] [--kmin A] [--kmax B] [--repeat R] "
      "[--no-store]";
  po::options_description opts("options");
  opts.add_options()("type", po::value<std::string>()->default_value("u32"), "u32|i32|f32|u64")(
      "pairs", "tune key-value sorting")("kmin", number<int>(0, 29)->default_value(10),
                                         "smallest n = 2^kmin")(
      "kmax", number<int>(0, 29)->default_value(22), "largest n = 2^kmax")(
      "repeat", number<int>(1, 1000)->default_value(3), "runs per candidate (fastest counts)")(
      "no-store", "only print, do not store the best in the tuning database");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  if (vm["kmin"].as<int>() > vm["kmax"].as<int>()) throw usage_error("--kmin must be <= --kmax");
  KeyType type;
  try {
    type = parse_key_type(vm["type"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(e.what());
  }
  Context ctx(device_spec(vm));
  const bool store = !vm.count("no-store");
  auto timings = sort_tune(ctx, type, vm.count("pairs") > 0, vm["kmin"].as<int>(),
                           vm["kmax"].as<int>(), vm["repeat"].as<int>(), store);
  size_t classes = 0, last_n = 0;
  for (const SortTiming& t : timings) {
    KeyValues kv;
    kv.add("n", t.n).add("algorithm", to_string(t.algorithm)).add("strategy", t.strategy);
    kv.add("ms", t.ms).add("gkeys_per_s", t.ms > 0 ? double(t.n) / (t.ms * 1e6) : 0.0);
    kv.add("best", t.n != last_n ? 1 : 0);
    classes += t.n != last_n;
    last_n = t.n;
    std::cout << kv.str() << "\n";
  }
  KeyValues done;
  done.add("type", to_string(type)).add("pairs", vm.count("pairs") ? 1 : 0);
  done.add("classes", classes).add("stored", store ? 1 : 0);
  std::cout << done.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("tune sort", "time sort algorithms/strategies per size, store the fastest",
                 run_tune_sort);
}  // namespace lockstep::cli
