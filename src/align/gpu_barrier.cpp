// The seed paper's design on the device: tiles of the DP matrix (LOCAL_SIZE*SW_R rows x SW_W
// columns) by anti-diagonals of tiles, one phase per diagonal, through PersistentKernel (one
// persistent launch with a global barrier between diagonals, or one launch per diagonal under
// relaunch). The groups are no more than the longest diagonal (PersistentConfig::max_groups) and,
// with an in-kernel barrier, no more than are co-resident.
#include "align/gpu_common.hpp"

namespace lockstep {

AlignResult align_barrier(Context& ctx, const std::vector<uint8_t>& a,
                          const std::vector<uint8_t>& b, const Scoring& sc, const AlignConfig& c) {
  detail::check_scores(sc, a.size(), b.size());
  const detail::SwShape s = detail::sw_shape(ctx, c, a.size(), b.size(), true, sc.size());
  const int n = int(a.size()), m = int(b.size());
  const int tiles_r = (n + s.rows() - 1) / s.rows(), tiles_c = (m + s.W - 1) / s.W;
  const int n_pad = tiles_r * s.rows(), longest = std::min(tiles_r, tiles_c);
  const Defines defs = detail::sw_defines(s, sc);

  PersistentConfig pc;
  pc.barrier = c.barrier;
  pc.groups = c.groups;
  pc.max_groups = longest;  // more groups would only idle and slow the barrier
  pc.local_size = s.T;
  pc.clamp = true;
  PersistentKernel pk(ctx, "smith_waterman.cl", "sw_barrier", defs, pc);

  const detail::SwBuffers buf(ctx, a, size_t(n_pad), b, sc);
  cl::Buffer colH = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(n_pad) * 12);
  cl::Buffer colE = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(n_pad) * 4);
  cl::Buffer best = upload(ctx.queue(), detail::initial_best(pk.groups()));

  const auto ev = pk.run_phases(tiles_r + tiles_c - 1, [&](int begin, int end) {
    pk.set_args(buf.A, buf.B, n, m, buf.table, sc.gap_open, sc.gap_extend, buf.rowH, buf.rowF, colH,
                colE, n_pad, best, tiles_r, tiles_c, begin, end);
  });
  AlignResult r = detail::sw_result(ctx, best, pk.groups(), event_ms(ev.first, ev.second), c, s);
  r.config.barrier = pk.barrier();
  r.barrier = to_string(pk.barrier());
  return r;
}

}  // namespace lockstep
