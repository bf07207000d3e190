// The traceback's reverse pass (step 1 of traceback.cpp) in 16-bit lanes: Farrar's striped
// layout over the columns (the reversed prefix of B, a profile of it per residue of the
// alphabet), one row per residue of the reversed prefix of A; the gap along the row carried
// across the lanes by a max-plus scan, then along each lane as far as it raises a cell. Cells
// hold the same values as the scalar pass wherever those are positive (a value at or below 0
// is dead in both, and a dead value never revives: a gap only falls), the row's cells are all
// computed, and the first cell holding S (row, then column) is the start: the same cell as the
// scalar pass's. Portable code (GCC/Clang vector extensions); the buffers are the thread's,
// reused from hit to hit.
#include <cstring>

#include "traceback_impl.hpp"

namespace lockstep::detail {
namespace {

constexpr int kLanes = 8;
using v16 = int16_t __attribute__((vector_size(2 * kLanes)));
constexpr int16_t kDead = -16384;  // below every live value; stays inside 16 bits after a gap

inline v16 splat(int16_t x) { return v16{} + x; }
inline v16 vmax(v16 a, v16 b) { return a > b ? a : b; }
// Lane k takes lane k - 1, lane 0 takes `first` (the striped layout's step to the next column).
inline v16 shift_in(v16 v, int16_t first) {
  return __builtin_shufflevector(v, splat(first), 8, 0, 1, 2, 3, 4, 5, 6);
}
// Lanes move up by `k` (1, 2 or 4), the first k lanes dead.
inline v16 shift_by(v16 v, int k) {
  const v16 d = splat(kDead);
  if (k == 1) return __builtin_shufflevector(v, d, 8, 0, 1, 2, 3, 4, 5, 6);
  if (k == 2) return __builtin_shufflevector(v, d, 8, 8, 0, 1, 2, 3, 4, 5);
  return __builtin_shufflevector(v, d, 8, 8, 8, 8, 0, 1, 2, 3);
}
inline bool any(v16 mask) {
  int64_t w[2];
  std::memcpy(w, &mask, sizeof w);
  return (w[0] | w[1]) != 0;
}

struct Buffers {
  std::vector<v16> profile, H, Hn, F;
};

}  // namespace

bool striped_start_fits(const Scoring& s, int32_t score) {
  int32_t lo = 0, hi = 0;
  for (int32_t v : s.table) lo = std::min(lo, v), hi = std::max(hi, v);
  return score > 0 && int64_t(score) + hi < 32000 && lo > -8000 && s.gap_open >= 0 &&
         s.gap_extend >= 0 && s.gap_open < 8000 && s.gap_extend < 8000;
}

LOCKSTEP_LANES_CLONES bool striped_start(const std::vector<uint8_t>& a,
                                         const std::vector<uint8_t>& b, const Scoring& s,
                                         AlignResult& r, int64_t columns) {
  static thread_local Buffers buf;
  const int64_t ea = r.end_a, eb = r.end_b, m = std::min(columns, eb + 1);
  const size_t n = s.alphabet.size(), seg = size_t((m + kLanes - 1) / kLanes);
  buf.profile.resize(n * seg);
  for (size_t c = 0; c < n; ++c) {
    const int32_t* row = &s.table[c * n];
    v16* p = &buf.profile[c * seg];
    for (size_t t = 0; t < seg; ++t)
      for (int k = 0; k < kLanes; ++k) {
        const int64_t q = int64_t(t) + k * int64_t(seg);
        p[t][k] = q < m ? int16_t(row[b[size_t(eb - q)]]) : kDead;
      }
  }
  buf.H.assign(seg, splat(kDead));
  buf.Hn.resize(seg);
  buf.F.assign(seg, splat(kDead));
  v16 *H = buf.H.data(), *Hn = buf.Hn.data(), *F = buf.F.data();
  const v16 open = splat(int16_t(s.gap_open)), ext = splat(int16_t(s.gap_extend)),
            dead = splat(kDead), zero = splat(0), target = splat(int16_t(r.score));
  int16_t across[kLanes];  // a gap's extension over `step` lanes of seg columns, capped
  for (int step = 1; step < kLanes; step *= 2)
    across[step] = int16_t(std::min<int64_t>(16000, int64_t(step) * int64_t(seg) * s.gap_extend));
  for (int64_t p = 0; p <= ea; ++p) {
    const v16* P = &buf.profile[size_t(a[size_t(ea - p)]) * seg];
    v16 diag = shift_in(H[seg - 1], p == 0 ? 0 : kDead), e = dead, best = dead;
    for (size_t t = 0; t < seg; ++t) {
      v16 h = vmax(vmax(diag + P[t], F[t]), e);
      h = h > zero ? h : dead;
      diag = H[t];
      Hn[t] = h;
      best = vmax(best, h);
      const v16 ho = h - open;
      F[t] = vmax(vmax(F[t] - ext, ho), dead);
      e = vmax(vmax(e - ext, ho), dead);
    }
    // The gap along the row into each lane's first column: from the lane before, which carries
    // in turn the gap of the lanes before it, seg columns of extension each (a max-plus scan).
    v16 carry = shift_in(e, kDead);
    for (int step = 1; step < kLanes; step *= 2) {
      carry = vmax(carry, shift_by(carry, step) - splat(across[step]));
      carry = vmax(carry, dead);
    }
    // ... then along the lane, as far as it raises a cell (farther, the row's own gap from that
    // cell dominates it)
    for (size_t t = 0; t < seg; ++t) {
      const v16 h = Hn[t];
      const v16 up = (carry > zero) & (carry > h - open);
      if (!any(up)) break;
      const v16 nh = vmax(h, up ? carry : dead);
      Hn[t] = nh;
      best = vmax(best, nh);
      F[t] = vmax(F[t], nh - open);
      carry = vmax(carry - ext, dead);
    }
    if (any(best >= target)) {
      int64_t q0 = m;
      for (size_t t = 0; t < seg; ++t)
        for (int k = 0; k < kLanes; ++k)
          if (Hn[t][k] == r.score) q0 = std::min(q0, int64_t(t) + k * int64_t(seg));
      r.start_a = ea - p;
      r.start_b = eb - q0;
      return true;
    }
    if (!any(best > zero)) return false;
    std::swap(H, Hn);
  }
  return false;
}

}  // namespace lockstep::detail
