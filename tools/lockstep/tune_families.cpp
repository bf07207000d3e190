// The families of `lockstep tune`: spmv (a Matrix Market file; model-led within --budget, or
// --exhaustive), sort (random keys of 2^kmin .. 2^kmax, one job per size), apsp (a graph or
// --random) and align (a planted random DNA pair; --shapes T:R:W lists the candidates).
#include "tune_families.hpp"

#include <cstdio>

#include "graph_options.hpp"
#include "lockstep/align.hpp"
#include "lockstep/apsp.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/sort.hpp"
#include "lockstep/spmv_tuner.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {
namespace {

template <typename T>
std::vector<TuneJob> spmv_jobs(const po::variables_map& vm) {
  const std::string file = vm["file"].as<std::string>();
  auto host = std::make_shared<Csr<T>>(read_matrix_market<T>(file));  // bad input before the device
  const int repeat = vm["repeat"].as<int>();
  TuneJob job;
  job.make = [host, repeat](Context& ctx) { return spmv_family<T>(ctx, *host, repeat); };
  job.options.exhaustive = vm.count("exhaustive") > 0;
  job.options.budget_s = vm["budget"].as<double>();
  job.summary = [file](const tuning::Outcome& r, Report& kv) {
    SpmvConfig scalar;
    scalar.algorithm = SpmvAlgorithm::scalar;
    const tuning::Measured* s = r.find(spmv_params(scalar));
    const tuning::Measured* d = r.find(spmv_params(seed_default_config()));
    kv.add("matrix", file).add("precision", sizeof(T) == 8 ? "double" : "float");
    kv.add("speedup_vs_scalar", s ? s->ms / r.best.ms : 0.0);
    kv.add("speedup_vs_seed_default", d ? d->ms / r.best.ms : 0.0);
  };
  return {job};
}

const TuneFamilyCli spmv_cli{
    "FILE.mtx [--precision float|double] [--budget S] [--exhaustive] [--repeat R]",
    [](po::options_description& o, po::positional_options_description& pos) {
      o.add_options()("file", po::value<std::string>(), "Matrix Market file")(
          "precision", po::value<std::string>()->default_value("double"), "float or double")(
          "budget", number<double>(0, 1e6)->default_value(60), "seconds for the model-led search")(
          "exhaustive", "time every valid configuration")(
          "repeat", number<int>(1, 100000)->default_value(10), "timed runs per candidate (median)");
      pos.add("file", 1);
    },
    [](const po::variables_map& vm) {
      if (!vm.count("file")) throw usage_error("a Matrix Market file is required");
      return with_precision(vm, [&](auto t) { return spmv_jobs<decltype(t)>(vm); });
    }};

const TuneFamilyCli sort_cli{
    "sort [--type " + join(names_of(all_key_types())) +
        "] [--pairs] [--kmin A] [--kmax B] [--repeat R]",
    [](po::options_description& o, po::positional_options_description&) {
      const std::string types = join(names_of(all_key_types()));
      o.add_options()("type", po::value<std::string>()->default_value("u32"), types.c_str())(
          "pairs", "tune key-value sorting")("kmin", number<int>(0, 29)->default_value(10),
                                             "smallest n = 2^kmin")(
          "kmax", number<int>(0, 29)->default_value(22), "largest n = 2^kmax")(
          "repeat", number<int>(1, 1000)->default_value(3), "runs per candidate (fastest counts)");
    },
    [](const po::variables_map& vm) {
      if (vm["kmin"].as<int>() > vm["kmax"].as<int>())
        throw usage_error("--kmin must be <= --kmax");
      const KeyType type = parse_option(vm, "type", parse_key_type);
      const bool pairs = vm.count("pairs") > 0;
      const int repeat = vm["repeat"].as<int>();
      std::vector<TuneJob> jobs;
      for (int k = vm["kmin"].as<int>(); k <= vm["kmax"].as<int>(); ++k) {
        TuneJob job;
        job.make = [=](Context& ctx) {
          return sort_family(ctx, type, pairs, size_t(1) << k, repeat);
        };
        jobs.push_back(job);
      }
      return jobs;
    }};

const TuneFamilyCli apsp_cli{
    "apsp (GRAPH.mtx | --random N[,density[,seed]]) [--type f32|i32] [--paths] [--repeat R]",
    [](po::options_description& o, po::positional_options_description& pos) {
      o.add_options()("graph", po::value<std::string>(), "Matrix Market graph")(
          "random", po::value<std::string>(), "generated graph: N[,density[,seed]]")(
          "type", po::value<std::string>()->default_value("f32"), "f32|i32")(
          "paths", "tune the next-hop (paths) kernels")(
          "repeat", number<int>(1, 1000)->default_value(2), "runs per candidate (fastest counts)");
      pos.add("graph", 1);
    },
    [](const po::variables_map& vm) {
      // sizes checked on the host here; the device is not open yet (its limits: at the run)
      const std::string usage = "lockstep tune " + apsp_cli.usage;
      const auto host = []() -> const DeviceInfo* { return nullptr; };
      const bool paths = vm.count("paths") > 0, f32 = f32_type(vm);
      auto g = std::make_shared<Graph>(f32 ? graph_from_options<float>(vm, usage, host)
                                           : graph_from_options<int32_t>(vm, usage, host));
      if (g->n < 1)  // nothing to time: an entry of ms=0 would be stored as the best
        throw usage_error((vm.count("random") ? "--random " + vm["random"].as<std::string>()
                                              : vm["graph"].as<std::string>()) +
                          ": a graph of 0 vertices has nothing to tune\nusage: " + usage);
      const int repeat = vm["repeat"].as<int>();
      TuneJob job;
      job.make = [=](Context& ctx) {
        return f32 ? apsp_family<float>(ctx, *g, paths, repeat)
                   : apsp_family<int32_t>(ctx, *g, paths, repeat);
      };
      return std::vector<TuneJob>{job};
    }};

tuning::Params parse_shape(const std::string& item) {
  int t = 0, r = 0, w = 0;
  char c1 = 0, c2 = 0, extra = 0;
  if (std::sscanf(item.c_str(), "%d%c%d%c%d%c", &t, &c1, &r, &c2, &w, &extra) != 5 || c1 != ':' ||
      c2 != ':' || t < 1 || t > 1024 || r < 1 || r > 64 || w < 1 || w > (1 << 24))
    throw usage_error(
        "--shapes expects T:R:W[,T:R:W...] (T in [1, 1024], R in [1, 64], W >= 1), got '" + item +
        "'");
  return {{"local_size", t}, {"cells", r}, {"tile_cols", w}};
}

const TuneFamilyCli align_cli{
    "align [--algorithm pipeline|barrier] [--n N] [--m M] [--shapes T:R:W,...] [--repeat R]",
    [](po::options_description& o, po::positional_options_description&) {
      add_algorithm_option(o, names_of({AlignAlgorithm::pipeline, AlignAlgorithm::barrier}),
                           "pipeline");
      o.add_options()("n", number<long long>(1, 1 << 30)->default_value(200000), "length of A")(
          "m", number<long long>(1, 1 << 30)->default_value(180000), "length of B")(
          "shapes", po::value<std::string>(),
          "candidates local_size:cells:tile_cols (default: the declared grid)")(
          "repeat", number<int>(1, 1000)->default_value(2), "runs per candidate (fastest counts)");
    },
    [](const po::variables_map& vm) {
      const AlignAlgorithm alg = parse_option(vm, "algorithm", parse_align_algorithm);
      if (alg != AlignAlgorithm::pipeline && alg != AlignAlgorithm::barrier)
        throw usage_error("--algorithm must be pipeline or barrier");
      TuneJob job;
      if (vm.count("shapes")) {
        const std::string spec = vm["shapes"].as<std::string>();
        for (size_t p = 0; p <= spec.size();) {
          const size_t q = std::min(spec.find(',', p), spec.size());
          job.options.candidates.push_back(parse_shape(spec.substr(p, q - p)));
          p = q + 1;
        }
      }
      const size_t n = size_t(vm["n"].as<long long>()), m = size_t(vm["m"].as<long long>());
      const int repeat = vm["repeat"].as<int>();
      job.make = [=](Context& ctx) { return align_family(ctx, alg, n, m, repeat); };
      return std::vector<TuneJob>{job};
    }};

}  // namespace

const TuneFamilyCli* tune_family_cli(const std::string& name) {
  if (name == "spmv") return &spmv_cli;
  if (name == "sort") return &sort_cli;
  if (name == "apsp") return &apsp_cli;
  if (name == "align") return &align_cli;
  return nullptr;
}

}  // namespace lockstep::cli
