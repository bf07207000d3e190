// `lockstep spmv-model FILE [--precision float|double]`: the untuned SpMV rule's inputs (rows,
// nnz, row-length statistics, column contiguity) and its choice on the chosen device, as one
// key=value line. tools/bench/spmv.sh records it per matrix for tools/bench/fit_spmv_rule.py.
#include <iostream>

#include "command.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/spmv.hpp"

namespace lockstep::cli {
namespace {

int run_spmv_model(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("file", po::value<std::string>()->required(), "Matrix Market file")(
      "precision", po::value<std::string>()->default_value("double"), "float or double");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse("lockstep spmv-model FILE [--precision float|double]", args, opts, pos, vm)) return 0;
  const std::string p = vm["precision"].as<std::string>();
  if (p != "float" && p != "double")
    throw usage_error("--precision must be float or double, not '" + p + "'");

  auto a = read_matrix_market<double>(vm["file"].as<std::string>());
  RowStats s = row_stats(a);
  double contiguity = column_contiguity(a);
  DeviceInfo d = describe(select_device(device_spec(vm)));
  SpmvConfig c = predict_spmv_config(d, s, a.rows, p == "double" ? 8 : 4, contiguity);

  Report kv;
  kv.add("model", vm["file"].as<std::string>()).add("device", d.name).add("precision", p);
  kv.add("rows", a.rows).add("nnz", a.nnz()).add("row_mean", s.mean).add("row_std", s.std);
  kv.add("row_max", s.max).add("contiguity", contiguity).add("wave_width", d.wave_width);
  kv.add("compute_units", d.compute_units).add("choice", c.str());
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("spmv-model", "the untuned SpMV rule's features and choice for a matrix",
                 run_spmv_model);
}  // namespace lockstep::cli
