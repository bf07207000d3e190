// `lockstep bench barrier`: microseconds per global barrier and read-after-barrier errors for each
// (strategy, groups), one key=value line each. `--groups max` means the discovered co-residency of
// the bench kernel; asking for more groups than co-resident is refused (a line with refused=...,
// exit 1 at the end), never launched. `--strategy ring` measures instead the flag-ring hop
// latency (one release -> acquire between groups, what each tree / lock-free level costs).
#include <iostream>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "lockstep/barrier.hpp"
#include "output.hpp"

namespace lockstep::cli {
namespace {

// The comma list of option `opt`; an empty item ("1,,2", a trailing comma) is a usage error.
std::vector<std::string> split(const po::variables_map& vm, const char* opt) {
  const std::string s = vm[opt].as<std::string>();
  std::vector<std::string> out;
  std::string cur;
  for (char c : s + ",")
    if (c == ',') {
      if (cur.empty())
        throw usage_error(std::string("--") + opt + " has an empty item in '" + s +
                          "' (expected a comma list without empty entries)");
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  return out;
}

// --groups: each item "max" or a count >= 1, checked before the device is opened.
std::vector<std::string> group_list(const po::variables_map& vm) {
  std::vector<std::string> list = split(vm, "groups");
  for (const std::string& g : list) {
    size_t pos = 0;
    int v = 0;
    try {
      v = g == "max" ? 1 : std::stoi(g, &pos);
      if (g == "max") pos = g.size();
    } catch (const std::logic_error&) {  // invalid_argument, out_of_range
      pos = 0;
    }
    if (pos != g.size() || v < 1)
      throw usage_error("--groups expects a comma list of counts >= 1 or max, got '" + g + "'");
  }
  return list;
}

// --strategy ring: one line per (order, stride, groups); rounds * groups hops each.
int run_ring(Context& ctx, const std::vector<BarrierOrder>& orders, const std::vector<int>& strides,
             const std::vector<int>& groups_list, int local, int rounds) {
  int refused = 0;
  for (BarrierOrder order : orders)
    for (int stride : strides)
      for (int groups : groups_list) {
        KeyValues kv;
        kv.add("kind", "flag_ring").add("groups", groups).add("local", local);
        try {
          FlagRingResult r =
              bench_flag_ring(ctx, groups, local, rounds, stride ? stride : 1, order);
          kv.add("order", r.ordering).add("stride", stride ? stride : 1);
          kv.add("us_per_hop", r.us_per_hop).add("errors", r.errors).add("rounds", rounds);
        } catch (const input_error& e) {
          ++refused;
          kv.add("refused", std::string(e.what()));
        }
        std::cout << kv.str() << std::endl;
      }
  return refused ? 1 : 0;
}

int run_bench_barrier(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("strategy", po::value<std::string>()->default_value("all"),
                     "all|relaunch|lock|grouped-lock|lock-free|tree|ring (hop latency)")(
      "groups", po::value<std::string>()->default_value("max"), "comma list of counts or max")(
      "local-size", number<int>(1, 65536)->default_value(256), "work-items per group")(
      "rounds", number<int>(1, 100000000)->default_value(1000), "rounds (2 barriers each)")(
      "branch", number<int>(0, 65536)->default_value(0),
      "tree branching factor (0: about sqrt(G))")(
      "order", po::value<std::string>()->default_value("auto"),
      "NVIDIA ordering: comma list of auto|fence|acqrel|acqrel-rspin")(
      "stride", po::value<std::string>()->default_value("0"),
      "lock-free/tree flag spacing in ints: comma list of 0 (default)|1 (packed)|32 (padded)")(
      "no-data", "time the barriers alone (no data written or checked; as grid.sync()'s anchor)")(
      "json", po::value<std::string>(), "also write the results to this JSON file");
  po::variables_map vm;
  if (!parse("lockstep bench barrier [options]", args, opts, {}, vm)) return 0;
  int local = vm["local-size"].as<int>(), rounds = vm["rounds"].as<int>();
  std::vector<BarrierStrategy> strategies;
  const bool ring = vm["strategy"].as<std::string>() == "ring";
  const bool data = !vm.count("no-data");
  if (vm["strategy"].as<std::string>() == "all")
    strategies = all_barrier_strategies();
  else if (!ring)
    try {
      strategies.push_back(parse_barrier_strategy(vm["strategy"].as<std::string>()));
    } catch (const input_error& e) {
      throw usage_error(std::string("--strategy: ") + e.what());
    }
  const std::vector<std::string> group_specs = group_list(vm);
  std::vector<BarrierOrder> orders;
  for (const std::string& o : split(vm, "order")) {
    try {
      orders.push_back(parse_barrier_order(o));
    } catch (const input_error& e) {
      throw usage_error(e.what());
    }
  }
  std::vector<int> strides;
  for (const std::string& t : split(vm, "stride")) {
    if (t != "0" && t != "1" && t != "32")
      throw usage_error("--stride expects 0, 1 or 32, got '" + t + "'");
    strides.push_back(std::stoi(t));
  }
  Outputs outs(vm, {"json"});
  Context ctx(device_spec(vm));
  nlohmann::json results = nlohmann::json::array();
  if (ring) {
    std::vector<int> counts;
    for (const std::string& g : group_specs)
      counts.push_back(g == "max" ? bench_kernel_coresident(ctx, BarrierStrategy::lock, local)
                                  : std::stoi(g));
    return run_ring(ctx, orders, strides, counts, local, rounds);
  }
  int refused = 0, failed = 0;
  for (auto s : strategies) {
    bool flags = s == BarrierStrategy::lock_free || s == BarrierStrategy::tree;
    // relaunch has no ordering: run it once
    for (BarrierOrder order : s == BarrierStrategy::relaunch ? std::vector{orders.front()} : orders)
      for (int stride : flags ? strides : std::vector<int>{0})
        for (const std::string& g : group_specs) {
          BarrierVariant variant{order, stride};
          int groups = 0;
          KeyValues kv;
          kv.add("strategy", to_string(s));
          try {
            if (g == "max") {
              groups = bench_kernel_coresident(ctx, s, local, variant);
            } else {
              size_t pos = 0;
              groups = std::stoi(g, &pos);
              if (pos != g.size() || groups < 1) throw std::invalid_argument(g);
            }
          } catch (const std::logic_error&) {  // invalid_argument, out_of_range
            throw usage_error("--groups expects positive counts or max, got '" + g + "'");
          }
          kv.add("groups", groups).add("local", local);
          nlohmann::json row{{"strategy", to_string(s)}, {"groups", groups}, {"local", local}};
          try {
            BarrierBenchResult r =
                bench_barrier(ctx, s, groups, local, rounds, vm["branch"].as<int>(), variant, data);
            kv.add("order", r.ordering);
            if (!data && s != BarrierStrategy::relaunch)
              kv.add("data", 0);  // relaunch: always data
            if (flags) kv.add("stride", r.flag_stride);
            kv.add("us_per_barrier", r.us_per_barrier)
                .add("errors", r.errors)
                .add("rounds", rounds);
            if (s == BarrierStrategy::tree) kv.add("branch", r.branch).add("levels", r.levels);
            row["order"] = r.ordering;
            row["data"] = data;
            if (flags) row["stride"] = r.flag_stride;
            row["us_per_barrier"] = r.us_per_barrier;
            row["errors"] = r.errors;
            row["rounds"] = rounds;
          } catch (const input_error& e) {
            ++refused;
            kv.add("refused", std::string(e.what()));
            row["refused"] = e.what();
            std::cerr << "lockstep bench barrier: " << e.what() << "\n";
          } catch (const opencl_error& e) {  // e.g. a PTX variant the driver refuses: go on
            ++failed;
            std::string what = e.what();
            kv.add("failed", what.substr(0, what.find('\n')));
            row["failed"] = what;
            std::cerr << "lockstep bench barrier: " << what << "\n";
          }
          std::cout << kv.str() << std::endl;
          results.push_back(row);
        }
  }
  outs.json("json", results, 1);  // refused or failed rows included: the sweep's whole report
  outs.commit();
  return failed ? 3 : refused ? 1 : 0;  // 3: OpenCL error (printed per row, the sweep went on)
}

}  // namespace
LOCKSTEP_COMMAND("bench barrier", "global barrier strategies: us per barrier and errors",
                 run_bench_barrier);
}  // namespace lockstep::cli
