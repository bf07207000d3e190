// `lockstep bench barrier`: microseconds per global barrier and read-after-barrier errors for each
// (strategy, groups), one key=value line each. `--groups max` means the discovered co-residency of
// the bench kernel; asking for more groups than co-resident is refused (a line with refused=...,
// exit 1 at the end), never launched. `--barrier ring` measures instead the flag-ring hop
// latency (one release -> acquire between groups, what each tree / lock-free level costs).
// --json writes every line's fields as one array.
#include <iostream>

#include "command.hpp"
#include "lockstep/barrier.hpp"
#include "output.hpp"
#include "vocabulary.hpp"

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

// --barrier ring: one line per (order, stride, groups); rounds * groups hops each.
int run_ring(Context& ctx, const std::vector<BarrierOrder>& orders, const std::vector<int>& strides,
             const std::vector<int>& groups_list, int local, int rounds, nlohmann::json& rows) {
  int refused = 0;
  for (BarrierOrder order : orders)
    for (int stride : strides)
      for (int groups : groups_list) {
        Report kv;
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
        rows.push_back(kv.json());
      }
  return refused ? 1 : 0;
}

struct Sweep {
  std::vector<Barrier> strategies;  // empty: ring
  std::vector<std::string> groups;
  std::vector<BarrierOrder> orders;
  std::vector<int> strides;
  int local = 0, rounds = 0, branch = 0, split = 0, spin_ns = -1;
  bool data = true;
};

Sweep parse_sweep(const po::variables_map& vm) {
  Sweep w;
  const std::string b = vm["barrier"].as<std::string>();
  if (b == "all")
    w.strategies = all_barriers();
  else if (b != "ring")
    w.strategies.push_back(parse_option(vm, "barrier", parse_barrier));
  w.groups = group_list(vm);
  for (const std::string& o : split(vm, "order")) {
    try {
      w.orders.push_back(parse_barrier_order(o));
    } catch (const input_error& e) {
      throw usage_error(std::string("--order: ") + e.what());
    }
  }
  for (const std::string& t : split(vm, "stride")) {
    if (t != "0" && t != "1" && t != "32")
      throw usage_error("--stride expects 0, 1 or 32, got '" + t + "'");
    w.strides.push_back(std::stoi(t));
  }
  w.local = vm["local-size"].as<int>(), w.rounds = vm["rounds"].as<int>();
  w.branch = vm["branch"].as<int>(), w.data = !vm.count("no-data");
  w.split = vm["split"].as<int>();
  w.spin_ns = vm["spin-ns"].as<int>();
  return w;
}

// One (strategy, order, stride, groups) row; `refused`/`failed` count what did not run.
Report bench_row(Context& ctx, const Sweep& w, Barrier s, BarrierVariant variant,
                 const std::string& g, int& refused, int& failed) {
  const bool flags = s == Barrier::lock_free || s == Barrier::tree;
  int groups = 0;
  try {
    groups = g == "max" ? bench_kernel_coresident(ctx, s, w.local, variant) : std::stoi(g);
  } catch (const std::logic_error&) {  // invalid_argument, out_of_range (group_list checked)
    throw usage_error("--groups expects positive counts or max, got '" + g + "'");
  }
  Report kv;
  kv.add("barrier", to_string(s)).add("groups", groups).add("local", w.local);
  try {
    BarrierBenchResult r =
        bench_barrier(ctx, s, groups, w.local, w.rounds, w.branch, variant, w.data);
    kv.add("order", r.ordering).add("data", w.data || s == Barrier::relaunch);
    if (flags) kv.add("stride", r.flag_stride);
    kv.add("us_per_barrier", r.us_per_barrier).add("errors", r.errors).add("rounds", w.rounds);
    if (s == Barrier::tree) kv.add("branch", r.branch).add("levels", r.levels);
    if (s == Barrier::lock) kv.add("split", r.lock_split);
    if (s == Barrier::lock || s == Barrier::grouped_lock) kv.add("spin_ns", r.spin_ns);
  } catch (const input_error& e) {
    ++refused;
    kv.add("refused", std::string(e.what()));
    std::cerr << "lockstep bench barrier: " << e.what() << "\n";
  } catch (const opencl_error& e) {  // e.g. a PTX variant the driver refuses: go on
    ++failed;
    const std::string what = e.what();
    kv.add("failed", what.substr(0, what.find('\n')));
    if (what.find('\n') != std::string::npos) kv.json_only("failed_log", what);
    std::cerr << "lockstep bench barrier: " << what << "\n";
  }
  return kv;
}

int run_bench_barrier(const Args& args) {
  po::options_description opts("options");
  Deprecated old;
  add_barrier_option(
      opts, "the barriers timed (ring: the flag-ring hop latency)",
      [] {
        std::vector<std::string> n = barrier_names(false);
        n.insert(n.begin(), "all");
        n.push_back("ring");
        return n;
      }(),
      "all");
  old.alias("strategy", "barrier");
  add_local_size_option(opts, number<int>(1, 4096)->default_value(256), "work-items per group");
  opts.add_options()("groups", po::value<std::string>()->default_value("max"),
                     "comma list of counts or max")(
      "rounds", number<int>(1, 100000000)->default_value(1000), "rounds (2 barriers each)")(
      "branch", number<int>(0, 65536)->default_value(0),
      "tree branching factor (0: about sqrt(G))")(
      "split", number<int>(0, 32)->default_value(0),
      "lock: counters the arrivals are split over (0 or 1: one word, as grid.sync())")(
      "spin-ns", number<int>(-1, 100000)->default_value(-1),
      "lock, grouped-lock on NVIDIA: nanoseconds between spin polls (-1: the rule)")(
      "order", po::value<std::string>()->default_value("auto"),
      "NVIDIA ordering: comma list of auto|fence|acqrel|acqrel-rspin")(
      "stride", po::value<std::string>()->default_value("0"),
      "lock-free/tree flag spacing in ints: comma list of 0 (default)|1 (packed)|32 (padded)")(
      "no-data", "time the barriers alone (no data written or checked; as grid.sync()'s anchor)")(
      "json", po::value<std::string>(), "also write the results to this JSON file");
  po::variables_map vm;
  if (!parse("lockstep bench barrier [options]", args, opts, {}, vm, old)) return 0;
  const Sweep w = parse_sweep(vm);
  Outputs outs(vm, {"json"});
  Context ctx(device_spec(vm));
  nlohmann::json rows = nlohmann::json::array();
  int refused = 0, failed = 0;
  if (w.strategies.empty()) {
    std::vector<int> counts;
    for (const std::string& g : w.groups)
      counts.push_back(g == "max" ? bench_kernel_coresident(ctx, Barrier::lock, w.local)
                                  : std::stoi(g));
    refused = run_ring(ctx, w.orders, w.strides, counts, w.local, w.rounds, rows);
  }
  for (auto s : w.strategies) {
    const bool flags = s == Barrier::lock_free || s == Barrier::tree;
    // relaunch has no ordering: run it once
    for (BarrierOrder order : s == Barrier::relaunch ? std::vector{w.orders.front()} : w.orders)
      for (int stride : flags ? w.strides : std::vector<int>{0})
        for (const std::string& g : w.groups) {
          const Report row = bench_row(ctx, w, s, BarrierVariant{order, stride, w.split, w.spin_ns},
                                       g, refused, failed);
          std::cout << row.str() << std::endl;
          rows.push_back(row.json());
        }
  }
  outs.json("json", rows, 1);  // refused or failed rows included: the sweep's whole report
  outs.commit();
  return failed ? 3 : refused ? 1 : 0;  // 3: OpenCL error (printed per row, the sweep went on)
}

}  // namespace
LOCKSTEP_COMMAND("bench barrier", "global barrier strategies: us per barrier and errors",
                 run_bench_barrier);
}  // namespace lockstep::cli
