// `lockstep tune align [--algorithm pipeline|barrier] [--n N --m M] [--shapes T:R:W,...]`: times
// the alignment kernels' shapes (work-items, rows per work-item, columns per chunk or tile) on a
// planted random DNA pair, one line per candidate, fastest first, and stores the fastest in the
// tuning database, which `lockstep align` (no --local-size/--cells/--tile-cols) then uses for
// pairs of the nearest size class.
#include <iostream>

#include "command.hpp"
#include "lockstep/align.hpp"

namespace lockstep::cli {
namespace {

std::vector<AlignConfig> parse_shapes(const std::string& spec) {
  std::vector<AlignConfig> out;
  size_t p = 0;
  while (p <= spec.size()) {
    const size_t q = std::min(spec.find(',', p), spec.size());
    int t = 0, r = 0, w = 0;
    char c1 = 0, c2 = 0, extra = 0;
    const std::string item = spec.substr(p, q - p);
    if (std::sscanf(item.c_str(), "%d%c%d%c%d%c", &t, &c1, &r, &c2, &w, &extra) != 5 || c1 != ':' ||
        c2 != ':' || t < 1 || t > 1024 || r < 1 || r > 64 || w < 1 || w > (1 << 24))
      throw usage_error(
          "--shapes expects T:R:W[,T:R:W...] (T in [1, 1024], R in [1, 64], W >= 1), got '" + item +
          "'");
    AlignConfig c;
    c.local_size = t, c.cells = r, c.tile_cols = w;
    out.push_back(c);
    p = q + 1;
  }
  return out;
}

int run_tune_align(const Args& args) {
  const std::string usage =
      "lockstep tune align [--algorithm pipeline|barrier] [--n N] [--m M] [--shapes T:R:W,...] "
      "[--repeat R] [--no-store]";
  po::options_description opts("options");
  opts.add_options()("algorithm", po::value<std::string>()->default_value("pipeline"),
                     "pipeline|barrier")("n", number<long long>(1, 1 << 30)->default_value(200000),
                                         "length of A")(
      "m", number<long long>(1, 1 << 30)->default_value(180000), "length of B")(
      "shapes", po::value<std::string>(), "candidates T:R:W (default: a built-in grid)")(
      "repeat", number<int>(1, 1000)->default_value(2), "runs per candidate (fastest counts)")(
      "no-store", "only print, do not store the best in the tuning database");
  po::variables_map vm;
  if (!parse(usage, args, opts, {}, vm)) return 0;
  AlignAlgorithm alg;
  try {
    alg = parse_align_algorithm(vm["algorithm"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(e.what());
  }
  if (alg != AlignAlgorithm::pipeline && alg != AlignAlgorithm::barrier)
    throw usage_error("--algorithm must be pipeline or barrier");
  const std::vector<AlignConfig> shapes = vm.count("shapes")
                                              ? parse_shapes(vm["shapes"].as<std::string>())
                                              : std::vector<AlignConfig>{};
  const size_t n = size_t(vm["n"].as<long long>()), m = size_t(vm["m"].as<long long>());
  Context ctx(device_spec(vm));
  auto timings = align_tune(ctx, alg, n, m, shapes, vm["repeat"].as<int>(), !vm.count("no-store"));
  const double cells = double(n) * double(m);
  for (const AlignTiming& t : timings) {
    KeyValues kv;
    kv.add("algorithm", to_string(alg)).add("n", n).add("m", m);
    kv.add("local_size", t.config.local_size).add("cells_per_item", t.config.cells);
    kv.add("tile_cols", t.config.tile_cols).add("score", t.score).add("ms", t.ms);
    kv.add("gcups", t.ms > 0 ? cells / (t.ms * 1e6) : 0.0);
    std::cout << kv.str() << "\n";
  }
  const AlignConfig& b = timings.front().config;
  KeyValues best;
  best.add("best_local_size", b.local_size)
      .add("best_cells", b.cells)
      .add("best_tile_cols", b.tile_cols);
  best.add("ms", timings.front().ms).add("stored", vm.count("no-store") ? 0 : 1);
  std::cout << best.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("tune align", "time Smith-Waterman kernel shapes, store the fastest",
                 run_tune_align);
}  // namespace lockstep::cli
