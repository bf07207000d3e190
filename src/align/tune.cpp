// The alignment's automatic shapes: `lockstep tune align` times candidate shapes (work-items per
// group, rows per work-item, columns per tile/chunk) of one GPU algorithm on a planted random DNA
// pair of the asked size, checks that every candidate reports the same score and ends as the
// first, and stores the fastest in the tuning database under routine "align", key
// "<algorithm>/e<floor(log10(n*m))>". align_barrier/align_pipeline fill the shape values left at
// 0 from the entry of the nearest size class, else from the rule in gpu_common.hpp.
#include <algorithm>
#include <cmath>
#include <random>

#include "align/gpu_common.hpp"
#include "lockstep/tuning_db.hpp"

namespace lockstep {
namespace {

std::string db_key(AlignAlgorithm alg, double cells) {
  return to_string(alg) + "/e" + std::to_string(int(std::floor(std::log10(std::max(1.0, cells)))));
}

}  // namespace

AlignConfig align_tuned(const DeviceInfo& device, AlignConfig c, size_t n, size_t m) {
  if (c.local_size && c.cells && c.tile_cols) return c;
  const double cells = double(n) * double(m);
  std::optional<TuningEntry> best;
  int dist = 1 << 30;
  for (const TuningEntry& e : TuningDb(device).entries("align")) {
    const std::string prefix = to_string(c.algorithm) + "/e";
    if (e.key.rfind(prefix, 0) != 0) continue;
    const int d = std::abs(std::atoi(e.key.c_str() + prefix.size()) -
                           int(std::floor(std::log10(std::max(1.0, cells)))));
    if (d < dist) dist = d, best = e;
  }
  if (best) {
    if (!c.local_size) c.local_size = best->params.value("local_size", 0);
    if (!c.cells) c.cells = best->params.value("cells", 0);
    if (!c.tile_cols) c.tile_cols = best->params.value("tile_cols", 0);
  }
  return c;
}

std::vector<AlignTiming> align_tune(Context& ctx, AlignAlgorithm alg, size_t n, size_t m,
                                    std::vector<AlignConfig> candidates, int repeat, bool store) {
  if (alg != AlignAlgorithm::pipeline && alg != AlignAlgorithm::barrier)
    throw input_error("tune align: only the pipeline and barrier algorithms have shapes");
  if (candidates.empty())
    for (int t : {128, 256})
      for (int r : {4, 8, 16})
        for (int w : alg == AlignAlgorithm::pipeline ? std::vector<int>{64, 128, 512}
                                                     : std::vector<int>{512, 1024, 2048}) {
          AlignConfig c;
          c.local_size = t, c.cells = r, c.tile_cols = w;
          candidates.push_back(c);
        }
  std::mt19937 rng(2026);
  std::string sa(n, 'A'), sb(m, 'A');
  for (auto& x : sa) x = "ACGT"[rng() % 4];
  for (auto& x : sb) x = "ACGT"[rng() % 4];
  const size_t region = std::min(n, m) / 2;
  sb.replace(m / 4, region, sa.substr(n / 4, region));
  Scoring s = dna_scoring(2, -3, 5, 2);
  const auto a = s.encode(sa), b = s.encode(sb);
  std::vector<AlignTiming> out;
  for (AlignConfig c : candidates) {
    c.algorithm = alg;
    AlignTiming t{c, 0};
    AlignResult first;
    for (int k = 0; k < repeat; ++k) {
      AlignResult r = alg == AlignAlgorithm::pipeline ? align_pipeline(ctx, a, b, s, c)
                                                      : align_barrier(ctx, a, b, s, c);
      t.ms = k == 0 ? r.ms : std::min(t.ms, r.ms);
      first = r;
    }
    if (!out.empty() && (first.score != out.front().score || first.end_a != out.front().end_a ||
                         first.end_b != out.front().end_b))
      throw std::logic_error("tune align: a candidate disagrees with the first on score or ends");
    t.score = first.score, t.end_a = first.end_a, t.end_b = first.end_b;
    out.push_back(t);
  }
  std::stable_sort(out.begin(), out.end(), [](auto& x, auto& y) { return x.ms < y.ms; });
  if (store) {
    const AlignConfig& b0 = out.front().config;
    TuningEntry e;
    e.routine = "align";
    e.key = db_key(alg, double(n) * double(m));
    e.features = {{"n", n}, {"m", m}};
    e.params = {{"local_size", b0.local_size}, {"cells", b0.cells}, {"tile_cols", b0.tile_cols}};
    e.metrics = {{"ms", out.front().ms}, {"gcups", double(n) * double(m) / (out.front().ms * 1e6)}};
    TuningDb(ctx.info()).store(e);
  }
  return out;
}

}  // namespace lockstep
