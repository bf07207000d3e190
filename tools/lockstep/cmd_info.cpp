// `lockstep info FILE [--json]`: shape, nnz (after symmetry expansion and duplicate summing)
// and row-length statistics of a Matrix Market file.
#include <iostream>

#include "command.hpp"
#include "lockstep/matrix_market.hpp"

namespace lockstep::cli {
namespace {

int run_info(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("file", po::value<std::string>()->required(), "Matrix Market file")(
      "json", "print a JSON object instead of key=value pairs");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse("lockstep info FILE [--json]", args, opts, pos, vm)) return 0;

  auto a = read_matrix_market<double>(vm["file"].as<std::string>());
  RowStats s = row_stats(a);
  Report kv;
  kv.json_only("file", vm["file"].as<std::string>());
  kv.add("rows", a.rows).add("cols", a.cols).add("nnz", a.nnz()).add("row_min", s.min);
  kv.add("row_max", s.max).add("row_mean", s.mean).add("row_std", s.std);
  std::cout << (vm.count("json") ? kv.json().dump() : kv.str()) << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("info", "shape, nnz and row-length statistics of a Matrix Market file", run_info);
}  // namespace lockstep::cli
