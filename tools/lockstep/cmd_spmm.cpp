// `lockstep spmm FILE|gen:laplace2d:N|gen:laplace3d:N --k K[,K...] [--layout row|col]
// [--precision float|double] [--tune] [--algorithm team|merge|auto] [--local-size N --team T
// --vec V --items I] [--repeat N]`: times one CSR SpMM (Y = A X, X of K columns) through the tuning
// family (event-timed median after a warm-up; checked against a host product in double). --tune
// first searches every valid algorithm and shape (--algorithm team|merge: that algorithm's) with
// the one tuning engine and stores the fastest verified one, which `auto` (and lockstep.Matrix @ X)
// then uses. Last line: key=value pairs.
#include <iostream>

#include "command.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/spmm.hpp"
#include "lockstep/tuning.hpp"
#include "matrix_source.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {
namespace {

template <typename T>
int run_k(const po::variables_map& vm, Context& ctx, const Csr<T>& host, int k, DenseLayout layout);

template <typename T>
int run(const po::variables_map& vm, const std::vector<int>& ks) {
  const std::string file = vm["file"].as<std::string>();
  auto host = matrix_source<T>(file);  // bad input before the device
  Context ctx(device_spec(vm));
  const DenseLayout layout = parse_option(vm, "layout", parse_dense_layout);
  int rc = 0;
  for (int k : ks) rc |= run_k<T>(vm, ctx, host, k, layout);
  return rc;
}

template <typename T>
int run_k(const po::variables_map& vm, Context& ctx, const Csr<T>& host, int k,
          DenseLayout layout) {
  const std::string file = vm["file"].as<std::string>();
  auto family = spmm_family<T>(ctx, host, k, layout, vm["repeat"].as<int>());
  const std::string algorithm = vm["algorithm"].as<std::string>();
  if (vm.count("tune")) {
    tuning::Options o;  // the space is small: every valid shape (of --algorithm's, if named)
    if (algorithm != "auto")
      for (const tuning::Params& p : tuning::enumerate(*family))
        if (p.at("algorithm") == algorithm) o.candidates.push_back(p);
    const tuning::Outcome r = tuning::tune(ctx, *family, o);
    std::cout << "tuned=" << r.candidates.size() << " best " << tuning::str(r.best.params)
              << " ms=" << r.best.ms << " stored=" << int(r.stored) << "\n";
  }
  SpmmConfig c;
  {
    DeviceCsr<T> dev(ctx, host);
    c = choose_spmm_config(ctx.info(), dev, k, layout);
  }
  if (algorithm != "auto") {
    const SpmmAlgorithm a = parse_spmm_algorithm(algorithm);
    if (a != c.algorithm) c.items = a == SpmmAlgorithm::merge ? spmm_merge_items : 0;
    c.algorithm = a;
  }
  if (vm.count("local-size")) c.local_size = vm["local-size"].as<int>();
  if (vm.count("team")) c.team = vm["team"].as<int>();
  if (vm.count("vec")) c.vec = vm["vec"].as<int>();
  if (vm.count("transpose")) c.transpose = vm["transpose"].as<int>() != 0;
  if (vm.count("items")) {
    if (c.algorithm != SpmmAlgorithm::merge) throw usage_error("--items needs --algorithm merge");
    c.items = vm["items"].as<int>();
  }
  if (!spmm_valid(c, ctx.info(), k, layout))
    throw usage_error("this shape cannot run k=" + std::to_string(k) + " " + to_string(layout) +
                      ": " + c.str());
  const tuning::Params p = spmm_params(c);
  const double ms = family->run(p);
  const tuning::Verdict v = family->check(p);
  const nlohmann::json m = family->metrics(p, ms);
  Report kv;
  kv.add("matrix", file).add("device", ctx.info().name);
  kv.add("precision", sizeof(T) == 8 ? "double" : "float")
      .add("k", k)
      .add("layout", to_string(layout));
  kv.add("rows", host.rows).add("nnz", host.nnz());
  kv.add("algorithm", to_string(c.algorithm)).add("local_size", c.local_size);
  kv.add("team", c.team).add("vec", c.vec).add("items", c.items).add("transpose", int(c.transpose));
  kv.add("median_ms", ms)
      .add("gflops", m["gflops"].get<double>())
      .add("gbs", m["gbs"].get<double>());
  kv.add("max_rel_err", v.error).add("verified", int(v.ok));
  std::cout << kv.str() << "\n";
  return v.ok ? 0 : 1;
}

int run_spmm(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("file", po::value<std::string>()->required(),
                     "Matrix Market file, gen:laplace2d:N or gen:laplace3d:N")(
      "k", po::value<std::string>()->default_value("8"), "columns of X: K or a list K,K,...")(
      "layout", po::value<std::string>()->default_value("row"), "row (C order) or col (Fortran)")(
      "precision", po::value<std::string>()->default_value("float"), "float or double");
  add_algorithm_option(opts, {"auto", "team", "merge"}, "auto",
                       "(team: a team per row; merge: merge-path, equal rows + nonzeros per team)");
  add_local_size_option(opts, number<int>(1, 4096), "work-group size (default: tuned or rule)");
  opts.add_options()("team", number<int>(1, 32),
                     "work-items per team (a power of two; they share the columns)")(
      "vec", number<int>(1, 4), "adjacent columns per load: 1, 2 or 4 (row layout)")(
      "items", number<int>(1, 4096), "merge: merge-path steps (rows + nonzeros) per team")(
      "transpose", number<int>(0, 1),
      "col layout: 1 copies X row-major, runs the row-major shape and copies Y back; 0 the "
      "column-major kernel (default: tuned or rule)")(
      "tune",
      "search every valid shape first (of --algorithm's, if named) and store the fastest verified "
      "one")("repeat", number<int>(1, 100000)->default_value(20),
             "timed runs (the median is reported)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse("lockstep spmm FILE [--k K[,K...]] [--layout row|col] [--precision float|double] "
             "[--tune] [--algorithm team|merge|auto] "
             "[--local-size N --team T --vec V --items I --transpose 0|1] [--repeat N]",
             args, opts, pos, vm))
    return 0;
  (void)parse_option(vm, "layout", parse_dense_layout);
  if (vm["algorithm"].as<std::string>() != "auto")
    (void)parse_option(vm, "algorithm", parse_spmm_algorithm);
  std::vector<int> ks;  // --k 4,8,16,32: one matrix read, a line per k
  std::string list = vm["k"].as<std::string>();
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    const std::string one = list.substr(at, comma - at);
    char* end = nullptr;
    const long k = std::strtol(one.c_str(), &end, 10);
    if (one.empty() || *end || k < 1 || k > 4096)
      throw usage_error("--k takes K or K,K,... with each K in [1, 4096], got '" + list + "'");
    ks.push_back(int(k));
    at = comma + 1;
  }
  return with_precision(vm, [&](auto t) { return run<decltype(t)>(vm, ks); });
}

}  // namespace
LOCKSTEP_COMMAND("spmm", "run, time and verify one CSR SpMM (k right-hand sides), optionally tuned",
                 run_spmm);
}  // namespace lockstep::cli
