// `lockstep bench parse FILE [--repeat R]`: Matrix Market parse rate (text to CSR, one core).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "command.hpp"
#include "lockstep/error.hpp"
#include "lockstep/matrix_market.hpp"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

int run_bench_parse(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("file", po::value<std::string>()->required(), "Matrix Market file")(
      "repeat", number<int>(1, 10000)->default_value(3), "runs (the best is reported)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse("lockstep bench parse FILE [--repeat R]", args, opts, pos, vm)) return 0;
  std::string file = vm["file"].as<std::string>();
  std::error_code ec;
  if (file == "-" || fs::is_fifo(file, ec) || fs::is_character_file(file, ec))
    throw input_error(file +
                      ": bench parse reads the file R times: give a regular file, not a stream");
  double best = 1e300;
  size_t nnz = 0;
  for (int r = 0; r < vm["repeat"].as<int>(); ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto a = read_matrix_market<double>(file);
    best = std::min(
        best,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    nnz = a.nnz();
  }
  auto bytes = fs::file_size(file);
  Report kv;
  kv.add("file", file)
      .add("bytes", bytes)
      .add("nnz", nnz)
      .add("ms", best)
      .add("mb_per_s", bytes / best / 1e3);
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("bench parse", "Matrix Market parse rate", run_bench_parse);
}  // namespace lockstep::cli
