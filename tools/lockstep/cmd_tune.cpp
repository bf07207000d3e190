// `lockstep tune [spmv|sort|apsp|align] ... [--no-store] [--json OUT]` and `lockstep tune --show`:
// one command for every tuning family (tune_families.cpp; spmv is the default, so `lockstep tune
// FILE.mtx` tunes SpMV). Every family prints in one format: a line per candidate timed
//   family=F key=K PARAM=V ... ms=T verified=0|1 error=E METRIC=V ...
// then, per problem, `best family=F key=K PARAM=V ... ms=T candidates=C search_space=S stored=0|1`
// followed by the family's columns. --json writes the device and, per problem, the best line's
// fields ("best") and every candidate line's ("candidates").
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "output.hpp"
#include "tune_families.hpp"

namespace lockstep::cli {
namespace {

int show(const po::variables_map& vm) {
  Context ctx(device_spec(vm));
  auto db = tuning::database(ctx.info());
  std::cout << "# " << db->path() << "\n";
  for (auto& e : db->entries()) {
    Report kv;
    kv.add("routine", e.routine)
        .add("key", e.key)
        .add("params", e.params.dump())
        .add("metrics", e.metrics.dump())
        .add("date", e.date);
    std::cout << kv.str() << "\n";
  }
  return 0;
}

// A progress bar redrawn with '\r', on a terminal only: in a log or a pipe the candidate lines on
// stdout say the same.
bool progress_shown() {
  static const bool tty = isatty(STDERR_FILENO) == 1;
  return tty;
}
bool progress_open = false;  // a progress line without its line break is on standard error

void progress(size_t done, size_t total, const tuning::Measured& m) {
  progress_open = true;
  if (total)
    std::fprintf(stderr, "\r[%-30s] %zu/%zu %-50s", std::string(30 * done / total, '#').c_str(),
                 done, total, tuning::str(m.params).c_str());
  else
    std::fprintf(stderr, "\rtuning: %zu candidates, last %-50s", done,
                 tuning::str(m.params).c_str());
  std::fflush(stderr);
}

int run_tune(const Args& all) {
  // `tune FAMILY ...`, or `tune FILE.mtx ...` (SpMV, the default family)
  const bool named = !all.empty() && tune_family_cli(all[0]);
  const std::string family = named ? all[0] : "spmv";
  const Args args(all.begin() + (named ? 1 : 0), all.end());
  const TuneFamilyCli& cli = *tune_family_cli(family);
  po::options_description opts("options");
  po::positional_options_description pos;
  cli.declare(opts, pos);
  opts.add_options()("no-store", "only print, do not store the best in the tuning database")(
      "json", po::value<std::string>(), "write the device and every candidate to this file")(
      "show", "list what the tuning database holds for this device");
  const std::string usage =
      "lockstep tune " + cli.usage + " [--no-store] [--json OUT] | lockstep tune --show";
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  if (vm.count("show")) return show(vm);
  std::vector<TuneJob> jobs;
  try {
    jobs = cli.jobs(vm);  // inputs are read (and refused) before the device opens
  } catch (const usage_error& e) {
    throw usage_error(std::string(e.what()) + "\nusage: " + usage);
  }
  Outputs outs(vm, {"json"}, {{"file", "FILE"}});  // before the device: a bad path fails first
  Context ctx(device_spec(vm));
  const DeviceInfo& d = ctx.info();
  nlohmann::json out = {{"family", family},
                        {"device",
                         {{"platform", d.platform},
                          {"name", d.name},
                          {"driver", d.driver_version},
                          {"compute_units", d.compute_units}}},
                        {"problems", nlohmann::json::array()}};
  // the database is read (and a file that is none refused) before the work, not at the store
  if (!vm.count("no-store")) tuning::database(d);
  std::vector<std::string> best_lines;
  struct LineBreak {  // an error (an exception passing by) starts on a line of its own
    ~LineBreak() {
      if (progress_open) std::fprintf(stderr, "\n");
      progress_open = false;
    }
  };
  for (TuneJob& job : jobs) {
    LineBreak line_break;
    std::unique_ptr<tuning::Family> f = job.make(ctx);
    job.options.store = !vm.count("no-store");
    if (progress_shown()) job.options.progress = progress;
    const tuning::Outcome r = tuning::tune(ctx, *f, job.options);
    if (progress_shown()) std::fprintf(stderr, "\n");
    progress_open = false;
    nlohmann::json problem = {{"key", r.key},
                              {"features", f->features()},
                              {"search_space", r.search_space},
                              {"candidates", nlohmann::json::array()}};
    for (const tuning::Measured& m : r.candidates) {
      Report kv;
      kv.add("family", r.family).add("key", r.key).add_all(m.params);
      kv.add("ms", m.ms).add("verified", m.verified).add("error", m.error).add_all(m.metrics);
      std::cout << kv.str() << "\n";
      problem["candidates"].push_back(kv.json());
    }
    Report best;
    best.add("family", r.family).add("key", r.key).add_all(r.best.params);
    best.add("ms", r.best.ms).add("candidates", r.candidates.size());
    best.add("search_space", r.search_space).add("stored", r.stored).add_all(r.best.metrics);
    if (job.summary) job.summary(r, best);
    std::cout << "best " << best.str() << std::endl;
    problem["best"] = best.json();
    out["problems"].push_back(problem);
  }
  outs.json("json", out, 1);
  outs.commit();
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("tune",
                 "autotune a family (spmv FILE.mtx, sort, apsp, align) or --show the database",
                 run_tune);
}  // namespace lockstep::cli
