// `lockstep spmv FILE [--precision float|double] [--algorithm auto|scalar|vector|adaptive|merge]
// [--local-size N] [--rows-bits R] [--shuffle 0|1] [--verify] [--repeat N]`: runs and times one
// SpMV configuration; the last line holds key=value pairs (median_ms, gflops, gbs, and with
// --verify max_rel_err and verified). Exit 1 when verification fails. With --distributed (under
// mpirun) the matrix is split over the ranks (tools/lockstep/mpi/spmv.cpp).
#include <iostream>

#include "command.hpp"
#include "distributed.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/spmv_measure.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {
namespace {

template <typename T>
int run(const po::variables_map& vm) {
  auto host = read_matrix_market<T>(vm["file"].as<std::string>());  // bad input before the device
  Context ctx(device_spec(vm));
  SpmvBench<T> bench(ctx.queue(), host);
  const DeviceCsr<T>& a = bench.matrix();
  SpmvConfig c;
  SpmvAlgorithm k = parse_option(vm, "algorithm", parse_spmv_algorithm);
  if (k == SpmvAlgorithm::automatic) {
    c = a.automatic_config();
  } else {
    c = predict_spmv_config(ctx.info(), a.stats(), a.rows(), sizeof(T), a.contiguity());
    c.algorithm = k;
    if (k != SpmvAlgorithm::vector) c.shuffle = 0;
  }
  if (vm.count("local-size")) c.local_size = vm["local-size"].as<int>();
  if (vm.count("rows-bits")) c.rows_bits = vm["rows-bits"].as<int>();
  if (vm.count("shuffle")) c.shuffle = vm["shuffle"].as<int>();
  if (c.algorithm == SpmvAlgorithm::vector && (1 << c.rows_bits) > c.local_size) {
    if (vm.count("rows-bits"))  // 2^R rows share a group of local_size items: 2^R <= local_size
      throw usage_error(
          "--rows-bits " + std::to_string(c.rows_bits) + " needs a work-group of at least " +
          std::to_string(1 << c.rows_bits) + " items (2^R rows, one item each at least); " +
          (vm.count("local-size") ? "--local-size " + std::to_string(vm["local-size"].as<int>())
                                  : "the rule's local size " + std::to_string(c.local_size)) +
          " is smaller");
    while ((1 << c.rows_bits) > c.local_size) --c.rows_bits;
  }
  bool verify = vm.count("verify") > 0;
  auto m = bench.measure(c, vm["repeat"].as<int>(), verify);

  Report kv;
  kv.add("matrix", vm["file"].as<std::string>()).add("device", ctx.info().name);
  kv.add("precision", sizeof(T) == 8 ? "double" : "float")
      .add("algorithm", to_string(m.config.algorithm));
  kv.add("local_size", m.config.local_size);
  if (m.config.algorithm == SpmvAlgorithm::vector)
    kv.add("rows_bits", m.config.rows_bits).add("shuffle", m.config.shuffle);
  kv.add("rows", a.rows()).add("nnz", a.nnz()).add("median_ms", m.median_ms);
  kv.add("gflops", m.gflops).add("gbs", m.gbs);
  if (verify) kv.add("max_rel_err", m.max_rel_err).add("verified", int(m.verified));
  std::cout << kv.str() << "\n";
  return verify && !m.verified ? 1 : 0;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> out = names_of({SpmvAlgorithm::automatic});
  for (const std::string& n : names_of(all_spmv_algorithms())) out.push_back(n);
  return out;
}
const std::vector<std::string> kAlgorithms = algorithm_names();

int run_spmv(const Args& args) {
  po::options_description opts("options");
  Deprecated old;
  opts.add_options()("file", po::value<std::string>()->required(), "Matrix Market file")(
      "precision", po::value<std::string>()->default_value("double"), "float or double");
  add_algorithm_option(opts, kAlgorithms, "auto", "(the kernel)");
  old.alias("kernel", "algorithm");
  add_local_size_option(opts, number<int>(1, 4096),
                        "work-group size, a power of two (default: the rule)");
  old.alias("wg-bits", "local-size", number<int>(0, 12),
            [](const boost::any& bits) { return boost::any(1 << boost::any_cast<int>(bits)); });
  opts.add_options()("rows-bits", number<int>(0, 12), "vector: 2^R rows per work-group")(
      "shuffle", number<int>(0, 1), "vector on NVIDIA: warp shuffles in the reduction (0/1)")(
      "verify", "check y against a CPU reference computed in double")(
      "repeat", number<int>(1, 1000000)->default_value(20), "timed runs (the median is reported)")(
      "distributed", "under mpirun: split the matrix over the ranks, one device each (MPI builds)")(
      "partition", po::value<std::string>(),
      "with --distributed: nnz (row blocks of equal nonzeros; default for files), planes "
      "(whole planes: a gen: grid's, each rank generating its own; a file's bandwidth) or "
      "blocks[:PXxPYxPZ] (a gen: grid's boxes over a ranks grid, each rank generating its own, "
      "numbered box by box; by default the grid of fewest shared faces)")(
      "transpose", "with --distributed: y = A^T x");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse("lockstep spmv FILE [--precision float|double] [--algorithm " + join(kAlgorithms) +
                 "] [--local-size N] [--rows-bits R] [--verify] [--repeat N]",
             args, opts, pos, vm, old))
    return 0;
  (void)parse_option(vm, "algorithm", parse_spmv_algorithm);
  if (vm.count("local-size") && (vm["local-size"].as<int>() & (vm["local-size"].as<int>() - 1)))
    throw usage_error("--local-size must be a power of two, got " +
                      std::to_string(vm["local-size"].as<int>()));
  if (vm.count("distributed")) return distributed_spmv(vm);
  if (vm.count("transpose")) throw usage_error("--transpose needs --distributed");
  return with_precision(vm, [&](auto t) { return run<decltype(t)>(vm); });
}

}  // namespace
LOCKSTEP_COMMAND("spmv", "run, time and verify one CSR SpMV", run_spmv);
}  // namespace lockstep::cli
