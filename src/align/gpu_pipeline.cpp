// The flag-array pipeline: row stripes of LOCAL_SIZE*SW_R rows, stripe k owned by group k mod G,
// each streaming along all columns of B and waiting, before each chunk of SW_W columns, only on
// the progress flag of the stripe above. No global barrier; launched once through
// PersistentKernel with an in-kernel strategy (clamped), so G never exceeds the co-resident
// groups: a group spinning on the flag of a group that never started would hang.
#include "align/gpu_common.hpp"

namespace lockstep {

AlignResult align_pipeline(Context& ctx, const std::vector<uint8_t>& a,
                           const std::vector<uint8_t>& b, const Scoring& sc, const AlignConfig& c) {
  detail::check_scores(sc, a.size(), b.size());
  const detail::SwShape s = detail::sw_shape(ctx, c, a.size(), b.size(), false);
  const int n = int(a.size()), m = int(b.size());
  const int stripes = (n + s.rows() - 1) / s.rows(), n_pad = stripes * s.rows();
  if ((m + s.W - 1) / s.W >= INT_MAX / 2) throw input_error("align: too many chunks");
  const Defines defs = detail::sw_defines(s, sc);

  PersistentConfig pc;
  pc.strategy = BarrierStrategy::lock;
  pc.groups = std::min(c.groups, stripes);
  pc.max_groups = stripes;  // no group without a stripe
  pc.local_size = s.T;
  pc.clamp = true;  // never more groups than co-resident
  PersistentKernel pk(ctx, "smith_waterman.cl", "sw_pipeline", defs, pc);

  const detail::SwBuffers buf(ctx, a, size_t(n_pad), b, sc);
  cl::Buffer flags = upload(ctx.queue(), std::vector<int>(size_t(stripes), 0));
  cl::Buffer best = upload(ctx.queue(), detail::initial_best(pk.groups()));

  pk.set_args(buf.A, buf.B, n, m, buf.table, sc.gap_open, sc.gap_extend, buf.rowH, buf.rowF, flags,
              best, stripes);
  const cl::Event ev = pk.launch();
  AlignResult r = detail::sw_result(ctx, best, pk.groups(), event_ms(ev), c, s);
  r.strategy = "flags";
  return r;
}

}  // namespace lockstep
