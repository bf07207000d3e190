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
  const detail::SwShape s = detail::sw_shape(ctx, c, a.size(), b.size(), true);
  const int n = int(a.size()), m = int(b.size());
  const int tiles_r = (n + s.rows() - 1) / s.rows(), tiles_c = (m + s.W - 1) / s.W;
  const int n_pad = tiles_r * s.rows(), longest = std::min(tiles_r, tiles_c);
  const Defines defs = detail::sw_defines(s, sc);

  PersistentConfig pc;
  pc.strategy = c.strategy;
  pc.groups = c.groups;
  pc.max_groups = longest;  // more groups would only idle and slow the barrier
  pc.local_size = s.T;
  pc.clamp = true;
  PersistentKernel pk(ctx, "smith_waterman.cl", "sw_barrier", defs, pc);

  auto& q = ctx.queue();
  cl::Buffer A = upload(q, detail::pad(a, size_t(n_pad))), B = upload(q, b);
  cl::Buffer table = upload(q, sc.table);
  cl::Buffer rowH = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(m) * 4);
  cl::Buffer rowF = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(m) * 4);
  cl::Buffer colH = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(n_pad) * 12);
  cl::Buffer colE = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(n_pad) * 4);
  cl::Buffer best = upload(q, detail::initial_best(pk.groups()));

  const auto ev = pk.run_phases(tiles_r + tiles_c - 1, [&](int begin, int end) {
    pk.set_args(A, B, n, m, table, sc.gap_open, sc.gap_extend, rowH, rowF, colH, colE, n_pad, best,
                 tiles_r, tiles_c, begin, end);
  });
  AlignResult r;
  detail::reduce_best(download<int>(q, best, size_t(pk.groups()) * 3), r);
  r.ms = event_ms(ev.first, ev.second);
  r.config = c;
  r.config.local_size = s.T, r.config.cells = s.R, r.config.tile_cols = s.W;
  r.config.strategy = pk.strategy();
  r.strategy = to_string(pk.strategy());
  r.groups = pk.groups();
  return r;
}

}  // namespace lockstep
