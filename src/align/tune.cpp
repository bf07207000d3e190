// The alignment tuning family (see tuning.hpp): the shapes of one GPU algorithm (local_size
// work-items per group, cells = rows per work-item, tile_cols = columns per tile or chunk) on a
// planted random DNA pair of n x m; key "<algorithm>/e<floor(log10(n*m))>". Every candidate's
// score and ends are checked against the reference: the CPU alignment up to 2e8 cells, above
// that the rule's shape on the device. align_tuned fills the shape values left at 0 from the
// entry of the nearest size class (align_barrier/align_pipeline then apply the rule).
#include <algorithm>
#include <cmath>
#include <random>

#include "align/gpu_common.hpp"
#include "lockstep/kernel_builds.hpp"
#include "lockstep/tuning.hpp"

namespace lockstep {
namespace {

std::string db_key(AlignAlgorithm alg, double cells) {
  return to_string(alg) + "/e" + std::to_string(int(std::floor(std::log10(std::max(1.0, cells)))));
}

// The shapes one GPU algorithm is tuned over, and their limits.
std::vector<tuning::Space> align_spaces(AlignAlgorithm alg) {
  const bool pipe = alg == AlignAlgorithm::pipeline;
  if (pipe) return {{{"local_size", {64, 128}}, {"cells", {8, 16, 32}}, {"tile_cols", {32, 64}}}};
  return {{{"local_size", {128, 256}}, {"cells", {4, 8, 16}}, {"tile_cols", {512, 1024, 2048}}}};
}
bool align_valid(const tuning::Params& p) {
  const int t = p.at("local_size").get<int>(), r = p.at("cells").get<int>(),
            w = p.at("tile_cols").get<int>();
  return t >= 1 && t <= 1024 && r >= 1 && r <= 64 && w >= 1 && w <= (1 << 24);
}

AlignConfig shape_of(const tuning::Params& p, AlignAlgorithm alg) {
  AlignConfig c;
  c.algorithm = alg;
  c.local_size = p.at("local_size").get<int>();
  c.cells = p.at("cells").get<int>();
  c.tile_cols = p.at("tile_cols").get<int>();
  return c;
}

class AlignFamily : public tuning::Family {
 public:
  AlignFamily(Context& ctx, AlignAlgorithm alg, size_t n, size_t m, int repeat)
      : ctx_(ctx),
        alg_(alg),
        n_(n),
        m_(m),
        repeat_(std::max(1, repeat)),
        scoring_(dna_scoring(2, -3, 5, 2)) {
    std::mt19937 rng(2026);
    std::string sa(n, 'A'), sb(m, 'A');
    for (auto& x : sa) x = "ACGT"[rng() % 4];
    for (auto& x : sb) x = "ACGT"[rng() % 4];
    const size_t region = std::min(n, m) / 2;
    sb.replace(m / 4, region, sa.substr(n / 4, region));
    a_ = scoring_.encode(sa), b_ = scoring_.encode(sb);
    want_ = double(n) * double(m) <= 2e8
                ? align_cpu(a_, b_, scoring_)
                : align_one(detail::sw_rule(ctx.info(), AlignConfig{}, n, m,
                                            alg == AlignAlgorithm::barrier, scoring_.size()));
  }

  std::string name() const override { return "align"; }
  std::vector<tuning::Space> spaces() const override { return align_spaces(alg_); }
  bool valid(const tuning::Params& p) const override { return align_valid(p); }
  std::string key() const override { return db_key(alg_, double(n_) * double(m_)); }
  nlohmann::json features() const override { return {{"n", n_}, {"m", m_}}; }
  double run(const tuning::Params& p) override {
    double ms = 0;
    for (int k = 0; k < repeat_; ++k) {
      last_ = align_one(shape_of(p, alg_));
      ms = k == 0 ? last_.ms : std::min(ms, last_.ms);
    }
    return ms;
  }
  tuning::Verdict check(const tuning::Params&) override {
    return {last_.score == want_.score && last_.end_a == want_.end_a && last_.end_b == want_.end_b,
            0};
  }
  Defines defines(const tuning::Params& p) const override {
    const AlignConfig c = shape_of(p, alg_);
    const detail::SwShape s{c.local_size, c.cells, c.tile_cols};
    return alg_ == AlignAlgorithm::pipeline ? detail::sw_pipeline_defines(ctx_.info(), s, scoring_)
                                            : detail::sw_defines(s, scoring_);
  }
  nlohmann::json metrics(const tuning::Params&, double ms) const override {
    return {{"score", last_.score}, {"gcups", ms > 0 ? double(n_) * double(m_) / (ms * 1e6) : 0.0}};
  }

 private:
  AlignResult align_one(AlignConfig c) {
    c.algorithm = alg_;
    return alg_ == AlignAlgorithm::pipeline ? align_pipeline(ctx_, a_, b_, scoring_, c)
                                            : align_barrier(ctx_, a_, b_, scoring_, c);
  }

  Context& ctx_;
  AlignAlgorithm alg_;
  size_t n_, m_;
  int repeat_;
  Scoring scoring_;
  std::vector<uint8_t> a_, b_;
  AlignResult want_, last_;
};

}  // namespace

namespace detail {
namespace {
// The pipeline's builds of one shape: 32-bit, and 16-bit where it may run.
void pipeline_builds(const DeviceInfo& d, const SwShape& s, const Scoring& sc,
                     std::vector<KernelBuild>& out) {
  persistent_kernel_builds(d, "align", "sw_pipeline.cl", sw_pipeline_defines(d, s, sc), s.T, out,
                           false);
  if (sw16_fits(d, s, sc))
    persistent_kernel_builds(d, "align", "sw_pipeline16.cl", sw_pipeline_defines(d, s, sc, 16), s.T,
                             out, false);
}
}  // namespace
}  // namespace detail

// The rule's shapes for a short and a long pair (the narrowest and widest barrier tile, the
// pipeline's short- and long-pair shapes) for
// DNA and BLOSUM62 (sw_barrier under every barrier strategy, sw_pipeline of cl/sw_pipeline.cl
// under its lock, with DPX_NV where the device has DPX, and cl/sw_pipeline16.cl where it fits);
// the tuning space's shapes, DNA, under the lock barrier (the pipeline's, and the GPU default of
// the barrier algorithm).
void detail::align_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  const Scoring alphabets[] = {dna_scoring(2, -3, 5, 2), blosum62(11, 1)};
  for (AlignAlgorithm alg : {AlignAlgorithm::barrier, AlignAlgorithm::pipeline}) {
    const bool barrier = alg == AlignAlgorithm::barrier;
    for (size_t m : {size_t(1) << 10, size_t(1) << 30})
      for (const Scoring& sc : alphabets) {
        const SwShape s = sw_shape(sw_rule(d, AlignConfig{}, m, m, barrier, sc.size()));
        if (barrier)
          persistent_kernel_builds(d, "align", "smith_waterman.cl", sw_defines(s, sc), s.T, out,
                                   true);
        else
          pipeline_builds(d, s, sc, out);
      }
    for (const tuning::Params& p : tuning::enumerate(align_spaces(alg), align_valid)) {
      const SwShape s = sw_shape(shape_of(p, alg));
      if (barrier)
        persistent_kernel_builds(d, "align", "smith_waterman.cl", sw_defines(s, alphabets[0]), s.T,
                                 out, false);
      else
        pipeline_builds(d, s, alphabets[0], out);
    }
  }
}

AlignConfig align_tuned(const DeviceInfo& device, AlignConfig c, size_t n, size_t m) {
  if (c.local_size && c.cells && c.tile_cols) return c;
  if (auto p = tuning::choose(device, "align", db_key(c.algorithm, double(n) * double(m)), true)) {
    if (!c.local_size) c.local_size = tuning::get_int(*p, "local_size");
    if (!c.cells) c.cells = tuning::get_int(*p, "cells");
    if (!c.tile_cols) c.tile_cols = tuning::get_int(*p, "tile_cols");
  }
  return c;
}

std::unique_ptr<tuning::Family> align_family(Context& ctx, AlignAlgorithm alg, size_t n, size_t m,
                                             int repeat) {
  if (alg != AlignAlgorithm::pipeline && alg != AlignAlgorithm::barrier)
    throw input_error("tune align: only the pipeline and barrier algorithms have shapes");
  return std::make_unique<AlignFamily>(ctx, alg, n, m, repeat);
}

}  // namespace lockstep
