// The flag-array pipeline (cl/sw_pipeline.cl): row stripes of LOCAL_SIZE*SW_R rows, stripe k
// owned by group k mod G, each streaming along all columns of B and waiting, before each chunk
// of SW_W columns, only on the progress flag of the stripe above. No global barrier; launched once
// through PersistentKernel with an in-kernel strategy (clamped), so G never exceeds the co-resident
// groups: a group spinning on the flag of a group that never started would hang.
#include "align/gpu_common.hpp"

namespace lockstep {

namespace {

// One launch of sw_pipeline (bits 32) or sw_pipeline16 (bits 16: double stripes of 2 x T x R
// rows); *over tells whether the 16-bit run saw a score leave its range.
AlignResult run_pipeline(Context& ctx, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                         const Scoring& sc, const AlignConfig& c, const detail::SwShape& s,
                         int bits, bool* over) {
  const int n = int(a.size()), m = int(b.size()), rows = s.rows() * (bits == 16 ? 2 : 1);
  const int stripes = (n + rows - 1) / rows, n_pad = stripes * rows;
  Defines defs = detail::sw_pipeline_defines(ctx.info(), s, sc, bits);

  PersistentConfig pc;
  pc.barrier = Barrier::lock;
  pc.groups = std::min(c.groups, stripes);
  pc.max_groups = stripes;  // no group without a stripe
  pc.local_size = s.T;
  pc.clamp = true;  // never more groups than co-resident
  PersistentKernel pk(ctx, bits == 16 ? "sw_pipeline16.cl" : "sw_pipeline.cl",
                      bits == 16 ? "sw_pipeline16" : "sw_pipeline", defs, pc);

  const detail::SwBuffers buf(ctx, a, size_t(n_pad), b, sc);
  cl::Buffer flags = upload(ctx.queue(), std::vector<int>(size_t(stripes), 0));
  cl::Buffer best = upload(ctx.queue(), detail::initial_best(pk.groups()));
  cl::Buffer overflow = upload(ctx.queue(), std::vector<int>(1, 0));
  cl::Event ev;
  if (bits == 16) {
    pk.set_args(buf.A, buf.B, n, m, buf.table, sc.gap_open, sc.gap_extend, buf.rowH, buf.rowF,
                flags, best, stripes, detail::sw16_saturation(sc), overflow);
    ev = pk.launch();
    *over = download<int>(ctx.queue(), overflow, 1)[0] != 0;
  } else {
    pk.set_args(buf.A, buf.B, n, m, buf.table, sc.gap_open, sc.gap_extend, buf.rowH, buf.rowF,
                flags, best, stripes);
    ev = pk.launch();
    *over = false;
  }
  AlignResult r = detail::sw_result(ctx, best, pk.groups(), event_ms(ev), c, s);
  r.barrier = bits == 16 ? "flags16" : "flags";
  r.config.score_bits = bits;
  return r;
}

}  // namespace

AlignResult align_pipeline(Context& ctx, const std::vector<uint8_t>& a,
                           const std::vector<uint8_t>& b, const Scoring& sc, const AlignConfig& c) {
  detail::check_scores(sc, a.size(), b.size());
  if (c.score_bits != 0 && c.score_bits != 16 && c.score_bits != 32)
    throw input_error("align: score bits must be 0 (automatic), 16 or 32, got " +
                      std::to_string(c.score_bits));
  const detail::SwShape s = detail::sw_shape(ctx, c, a.size(), b.size(), false, sc.size());
  if ((b.size() + s.W - 1) / s.W >= INT_MAX / 2) throw input_error("align: too many chunks");
  const bool fits16 = detail::sw16_fits(ctx.info(), s, sc);
  if (c.score_bits == 16 && !fits16)
    throw input_error(
        "align: 16-bit scores need gaps and scores within 8000 and a profile of "
        "2 x alphabet x T x R shorts within local memory (lower --local-size or "
        "--cells, or use --score-bits 32)");
  bool over = false;
  const int bits =
      c.score_bits ? c.score_bits : detail::sw_rule_bits(ctx.info(), c, a.size(), sc.size());
  if (bits == 16 || (bits == 0 && fits16)) {
    AlignResult r16 = run_pipeline(ctx, a, b, sc, c, s, 16, &over);
    if (!over) return r16;
    AlignResult r = run_pipeline(ctx, a, b, sc, c, s, 32, &over);
    r.ms += r16.ms;  // the time of both runs
    r.barrier = "flags16-saturated";
    return r;
  }
  return run_pipeline(ctx, a, b, sc, c, s, 32, &over);
}

}  // namespace lockstep
