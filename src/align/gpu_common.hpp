// What the two GPU kernels of cl/smith_waterman.cl share on the host: the resolved shape (work-
// items per group, rows per work-item, columns per tile or chunk), its -D options, the buffers
// both read and write (A padded, B, the table, the row borders), and the result: the reduction
// of the per-group bests with the tie rule and the configuration that ran.
#pragma once
#include <algorithm>
#include <climits>
#include <string>

#include "lockstep/align.hpp"
#include "runtime/defaults.hpp"

namespace lockstep::detail {

struct SwShape {
  int T = 0, R = 0, W = 0;
  int rows() const { return T * R; }
};

/// The rule's shape for A of n rows and B of m columns: the defaults table's "Align" entry
/// (runtime/defaults.cpp, the measurements beside it): the barrier kernel's (its tile m /
/// barrier_cols_per_tile columns within [barrier_tile_min, barrier_tile_max]; protein_short for
/// the short protein pairs that automatic sends to it), else the pipeline's for DNA below or
/// from long_pair_rows rows, or for larger alphabets.
inline defaults::AlignShape sw_rule_shape(const DeviceInfo& info, size_t n, size_t m, bool barrier,
                                          int alphabet) {
  const defaults::Align rule = defaults::lookup<defaults::Align>(info);
  const bool protein_short = alphabet > rule.dna_alphabet && n < rule.protein_short_rows;
  if (barrier && protein_short && rule.protein_short_barrier) return rule.protein_short;
  if (barrier) {
    defaults::AlignShape s = rule.barrier;
    s.tile_cols =
        int(std::clamp<size_t>(m / size_t(rule.barrier_cols_per_tile),
                               size_t(rule.barrier_tile_min), size_t(rule.barrier_tile_max)));
    return s;
  }
  if (alphabet > rule.dna_alphabet)
    return protein_short && !rule.protein_short_barrier ? rule.protein_short : rule.protein;
  return n < rule.long_pair_rows ? rule.dna : rule.dna_long;
}

/// Whether automatic runs a pair of A's n rows on the barrier kernel (short protein pairs where
/// the table says so), else the pipeline.
inline bool sw_rule_barrier(const DeviceInfo& info, size_t n, int alphabet) {
  const defaults::Align rule = defaults::lookup<defaults::Align>(info);
  return rule.protein_short_barrier && alphabet > rule.dna_alphabet && n < rule.protein_short_rows;
}

/// Fills the zeros of `c` by the rule's shape (sw_rule_shape).
inline AlignConfig sw_rule(const DeviceInfo& info, AlignConfig c, size_t n, size_t m, bool barrier,
                           int alphabet = 5) {
  const defaults::AlignShape s = sw_rule_shape(info, n, m, barrier, alphabet);
  if (!c.local_size) c.local_size = s.local_size;
  if (!c.cells) c.cells = s.cells;
  if (!c.tile_cols) c.tile_cols = s.tile_cols;
  return c;
}
/// The pipeline's automatic score width under the rule's shape: its `bits` (32 on a GPU for a
/// DNA pair below long_pair_rows rows: the 16-bit kernel's double stripes would halve its few
/// stripes), else 0 (16 bits where they fit).
inline int sw_rule_bits(const DeviceInfo& info, const AlignConfig& c, size_t n, int alphabet) {
  const bool rule_shape = c.local_size == 0 && c.cells == 0 && c.tile_cols == 0;
  return rule_shape ? sw_rule_shape(info, n, 0, false, alphabet).bits : 0;
}

/// A resolved configuration's shape; throws input_error outside the kernels' limits.
inline SwShape sw_shape(const AlignConfig& c) {
  const SwShape s{c.local_size, c.cells, c.tile_cols};
  if (s.T < 1 || s.T > 1024) throw input_error("align: work-group size must be in [1, 1024]");
  if (s.R < 1 || s.R > 64) throw input_error("align: cells per work-item must be in [1, 64]");
  if (s.W < 1 || s.W > (1 << 24)) throw input_error("align: tile columns must be in [1, 2^24]");
  return s;
}

/// The shape that runs: the tuning database's shape when there is one, else the rule.
inline SwShape sw_shape(const Context& ctx, AlignConfig c, size_t n, size_t m, bool barrier,
                        int alphabet) {
  c.algorithm = barrier ? AlignAlgorithm::barrier : AlignAlgorithm::pipeline;
  return sw_shape(sw_rule(ctx.info(), align_tuned(ctx.info(), c, n, m), n, m, barrier, alphabet));
}

/// The kernels' -D options beside LOCAL_SIZE (= s.T, which PersistentKernel sets).
inline Defines sw_defines(const SwShape& s, const Scoring& sc) {
  Defines d;
  d.set("SW_R", s.R).set("SW_W", s.W).set("SW_ALPHA", sc.size());
  return d;
}

/// The pipeline's options (cl/sw_pipeline.cl, or cl/sw_pipeline16.cl with bits 16):
/// sw_defines, DPX_NV=1 where the device has DPX, and SW_PROF_CHAR=1 (32 bits) when the query
/// profile (alphabet x T x R rows rounded up to 4) fits the group's local memory (the device's,
/// at most 48 KiB: what a GPU group gets statically, and room for a few groups per compute unit)
/// only as bytes (every table score in [-127, 127]). Throws input_error when it fits neither way.
inline size_t sw_local_budget(const DeviceInfo& info) {
  return std::min<size_t>(size_t(info.local_mem_bytes), 48 * 1024);
}
inline size_t sw_profile_entries(const SwShape& s, const Scoring& sc) {
  return size_t(sc.size()) * size_t(s.T) * size_t((s.R + 3) / 4 * 4);
}
inline Defines sw_pipeline_defines(const DeviceInfo& info, const SwShape& s, const Scoring& sc,
                                   int bits = 32) {
  Defines d = sw_defines(s, sc);
  if (info.dpx) d.set("DPX_NV", 1);
  if (bits == 16) return d;
  const size_t entries = sw_profile_entries(s, sc), rest = size_t(s.T) * 28 + 64;
  const size_t local = sw_local_budget(info);
  if (entries * 4 + rest <= local) return d;
  const auto [lo, hi] = std::minmax_element(sc.table.begin(), sc.table.end());
  if (entries + rest <= local && *lo >= -127 && *hi <= 127) return d.set("SW_PROF_CHAR", 1);
  throw input_error("align: the pipeline's profile of " + std::to_string(entries) +
                    " scores does not fit local memory (" + std::to_string(local) +
                    " bytes): lower --local-size or --cells");
}

/// Whether cl/sw_pipeline16.cl may run: gaps and every score within 8000 (so no step leaves a
/// 16-bit lane below: initial values -16384, padding rows -8192) and its profile (2 x alphabet x
/// T x R rows rounded up to 4 shorts) within the local budget.
inline bool sw16_fits(const DeviceInfo& info, const SwShape& s, const Scoring& sc) {
  const auto [lo, hi] = std::minmax_element(sc.table.begin(), sc.table.end());
  if (sc.gap_open > 8000 || sc.gap_extend > 8000 || *lo < -8000 || *hi > 8000) return false;
  return sw_profile_entries(s, sc) * 4 + size_t(s.T) * 28 + 96 <= sw_local_budget(info);
}
/// The 16-bit kernel's overflow threshold on G = H - open: below it, G + the best score of a
/// pair stays inside a 16-bit lane, so every value up to the first one at or above it is exact.
inline int sw16_saturation(const Scoring& sc) {
  return 32767 - std::max(0, *std::max_element(sc.table.begin(), sc.table.end())) - 1;
}

/// A padded with code 0 to `rows` (the padding rows are computed but never reported).
inline std::vector<uint8_t> pad(const std::vector<uint8_t>& a, size_t rows) {
  std::vector<uint8_t> p(a);
  p.resize(rows, 0);
  return p;
}

/// Best of the groups' (score, i, j) triples; fills score/end_a/end_b.
inline void reduce_best(const std::vector<int>& best, AlignResult& r) {
  int s = 0, i = INT_MAX, j = INT_MAX;
  for (size_t k = 0; k + 2 < best.size(); k += 3) {
    const int bs = best[k], bi = best[k + 1], bj = best[k + 2];
    if (bs > s || (bs == s && bs > 0 && (bi < i || (bi == i && bj < j)))) s = bs, i = bi, j = bj;
  }
  r.score = s;
  r.end_a = s > 0 ? i : -1;
  r.end_b = s > 0 ? j : -1;
}

inline std::vector<int> initial_best(int groups) {
  std::vector<int> b(size_t(groups) * 3);
  for (size_t k = 0; k < b.size(); k += 3) b[k] = 0, b[k + 1] = b[k + 2] = INT_MAX;
  return b;
}

/// What both kernels take first: A padded with code 0 to n_pad rows (the padding rows are
/// computed but never reported), B, the substitution table, and H and F of the bottom row of
/// the last block computed above each column (m values each).
struct SwBuffers {
  cl::Buffer A, B, table, rowH, rowF;
  SwBuffers(Context& ctx, const std::vector<uint8_t>& a, size_t n_pad,
            const std::vector<uint8_t>& b, const Scoring& sc)
      : A(upload(ctx.queue(), pad(a, n_pad))),
        B(upload(ctx.queue(), b)),
        table(upload(ctx.queue(), sc.table)),
        rowH(make_buffer(ctx.context(), CL_MEM_READ_WRITE, b.size() * 4)),
        rowF(make_buffer(ctx.context(), CL_MEM_READ_WRITE, b.size() * 4)) {}
};

/// The result of a run: the best of the groups' (score, i, j) triples in `best`, the time, and
/// the configuration that ran (`c` with the resolved shape).
inline AlignResult sw_result(Context& ctx, const cl::Buffer& best, int groups, double ms,
                             const AlignConfig& c, const SwShape& s) {
  AlignResult r;
  reduce_best(download<int>(ctx.queue(), best, size_t(groups) * 3), r);
  r.ms = ms;
  r.config = c;
  r.config.local_size = s.T, r.config.cells = s.R, r.config.tile_cols = s.W;
  r.groups = groups;
  return r;
}

inline void check_scores(const Scoring& s, size_t n, size_t m) {
  // 32-bit scores: the best possible score and the most negative gap run must fit well inside.
  const double top = double(std::max(0, s.max_score())) * double(std::min(n, m));
  const double low = double(s.gap_open) + double(s.gap_extend) * double(std::max(n, m));
  if (top > 1e9 || low > 5e8)
    throw input_error("align: scores of this pair could overflow 32 bits (lower the scores)");
}

}  // namespace lockstep::detail
