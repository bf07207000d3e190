// `lockstep tune FILE.mtx [--precision float|double] [--budget S] [--exhaustive] [--json OUT]`
// and `lockstep tune --show`: tunes SpMV for a matrix on the chosen device, prints every
// candidate and a last `best ...` line, stores the winner in the tuning database.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/spmv_tuner.hpp"
#include "lockstep/tuning_db.hpp"
#include "output.hpp"

namespace lockstep::cli {
namespace {

nlohmann::json to_json(const SpmvMeasurement& m, double copy_gbs) {
  return {{"kernel", to_string(m.config.kernel)}, {"wg_bits", m.config.wg_bits},
          {"rows_bits", m.config.rows_bits}, {"shuffle", m.config.shuffle}, {"items", m.config.items},
          {"median_ms", m.median_ms}, {"gflops", m.gflops}, {"gbs", m.gbs},
          {"pct_copy_bw", 100 * m.gbs / copy_gbs}, {"max_rel_err", m.max_rel_err}, {"verified", m.verified}};
}

std::string params(const SpmvConfig& c) {
  char b[64];
  if (c.kernel == SpmvKernel::vector)
    std::snprintf(b, sizeof b, "wg_bits=%d rows_bits=%d shuffle=%d", c.wg_bits, c.rows_bits, c.shuffle);
  else if (c.kernel == SpmvKernel::merge)
    std::snprintf(b, sizeof b, "wg_bits=%d items=%d", c.wg_bits, c.items);
  else
    std::snprintf(b, sizeof b, "wg_bits=%d", c.wg_bits);
  return b;
}

template <typename T>
int tune(const po::variables_map& vm) {
  std::string file = vm["file"].as<std::string>();
  Outputs outs(vm, {"json"}, {{"file", "FILE"}});
  auto host = read_matrix_market<T>(file);  // bad input before the device
  Context ctx(device_spec(vm));
  SpmvTuneOptions o;
  o.budget_s = vm["budget"].as<double>();
  o.exhaustive = vm.count("exhaustive") > 0;
  o.repeats = vm["repeat"].as<int>();
  o.progress = [](size_t done, size_t total, const SpmvMeasurement& m) {
    if (total)
      std::fprintf(stderr, "\r[%-30s] %zu/%zu %-40s", std::string(30 * done / total, '#').c_str(), done, total, m.config.str().c_str());
    else
      std::fprintf(stderr, "\rtuning: %zu candidates, last %-40s", done, m.config.str().c_str());
    std::fflush(stderr);
  };
  SpmvTuneResult r = tune_spmv<T>(ctx, host, o);
  std::fprintf(stderr, "\n");

  std::printf("%-9s %-34s %10s %9s %9s %7s %s\n", "kernel", "parameters", "median_ms", "GFLOP/s", "GB/s", "%copy", "verified");
  for (auto& m : r.candidates)
    std::printf("%-9s %-34s %10.5f %9.2f %9.1f %7.1f %d\n", to_string(m.config.kernel).c_str(), params(m.config).c_str(),
                m.median_ms, m.gflops, m.gbs, 100 * m.gbs / r.copy_gbs, int(m.verified));
  if (vm.count("json")) {
    const DeviceInfo& d = ctx.info();
    nlohmann::json j = {{"matrix", file}, {"precision", sizeof(T) == 8 ? "double" : "float"},
                        {"device", {{"platform", d.platform}, {"name", d.name}, {"driver", d.driver_version},
                                    {"compute_units", d.compute_units}}},
                        {"copy_gbs", r.copy_gbs}, {"search_space", r.search_space}, {"candidates", nlohmann::json::array()}};
    for (auto& m : r.candidates) j["candidates"].push_back(to_json(m, r.copy_gbs));
    outs.json("json", j, 1);
  }
  outs.commit();
  KeyValues kv;
  kv.add("matrix", file).add("precision", sizeof(T) == 8 ? "double" : "float");
  kv.add("kernel", to_string(r.best.config.kernel)).add("wg_bits", r.best.config.wg_bits);
  kv.add("rows_bits", r.best.config.kernel == SpmvKernel::vector ? r.best.config.rows_bits : 0);
  kv.add("shuffle", r.best.config.shuffle);
  if (r.best.config.kernel == SpmvKernel::merge) kv.add("items", r.best.config.items);
  kv.add("median_ms", r.best.median_ms).add("gflops", r.best.gflops);
  kv.add("gbs", r.best.gbs).add("pct_copy_bw", 100 * r.best.gbs / r.copy_gbs);
  kv.add("speedup_vs_scalar", r.scalar.median_ms / r.best.median_ms);
  kv.add("speedup_vs_seed_default", r.seed_default.median_ms / r.best.median_ms);
  kv.add("candidates", r.candidates.size()).add("search_space", r.search_space);
  std::cout << "best " << kv.str() << std::endl;
  return 0;
}

int show(const po::variables_map& vm) {
  Context ctx(device_spec(vm));
  TuningDb db(ctx.info());
  std::cout << "# " << db.path() << "\n";
  for (auto& e : db.entries()) {
    KeyValues kv;
    kv.add("routine", e.routine).add("key", e.key).add("params", e.params.dump()).add("metrics", e.metrics.dump()).add("date", e.date);
    std::cout << kv.str() << "\n";
  }
  return 0;
}

int run_tune(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("file", po::value<std::string>(), "Matrix Market file")(
      "precision", po::value<std::string>()->default_value("double"), "float or double")(
      "budget", number<double>(0, 1e6)->default_value(60), "seconds for the model-driven search")(
      "exhaustive", "time every valid configuration")(
      "repeat", number<int>(1, 100000)->default_value(10), "timed runs per candidate (median)")(
      "json", po::value<std::string>(), "write every candidate and the device to this file")(
      "show", "list what the tuning database holds for this device");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  std::string usage = "lockstep tune FILE.mtx [--precision float|double] [--budget S] [--exhaustive] [--json OUT] | lockstep tune --show";
  if (!parse(usage, args, opts, pos, vm)) return 0;
  if (vm.count("show")) return show(vm);
  if (!vm.count("file")) throw usage_error("a Matrix Market file is required\nusage: " + usage);
  return with_precision(vm, [&](auto t) { return tune<decltype(t)>(vm); });
}

}  // namespace
LOCKSTEP_COMMAND("tune", "autotune SpMV for a Matrix Market file (or --show the database)", run_tune);
}  // namespace lockstep::cli
