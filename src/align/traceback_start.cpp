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
#include <type_traits>

#include "traceback_impl.hpp"

namespace lockstep::detail {
namespace {

constexpr int16_t kDead = -16384;  // below every live value; stays inside 16 bits after a gap

// Lanes<16>'s functions are always inlined into the AVX2 function: their ABI never shows.
#pragma GCC diagnostic ignored "-Wpsabi"
typedef int16_t v8 __attribute__((vector_size(16)));
typedef int16_t v16x __attribute__((vector_size(32)));
// Lane k takes lane k - step (1, 2, 4 or 8), the first `step` lanes take f's.
__attribute__((always_inline)) inline v8 shift_lanes(v8 x, int step, v8 f) {
  if (step == 1) return __builtin_shufflevector(x, f, 8, 0, 1, 2, 3, 4, 5, 6);
  if (step == 2) return __builtin_shufflevector(x, f, 8, 8, 0, 1, 2, 3, 4, 5);
  return __builtin_shufflevector(x, f, 8, 8, 8, 8, 0, 1, 2, 3);
}
__attribute__((always_inline)) inline v16x shift_lanes(v16x x, int step, v16x f) {
  if (step == 1)
    return __builtin_shufflevector(x, f, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
  if (step == 2)
    return __builtin_shufflevector(x, f, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
  if (step == 4)
    return __builtin_shufflevector(x, f, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
  return __builtin_shufflevector(x, f, 16, 16, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7);
}

// L lanes of 16 bits: 8 for the baseline (SSE2, NEON), 16 where AVX2 runs.
template <int L>
struct Lanes {
  using v = std::conditional_t<L == 8, v8, v16x>;
  // the buffers are plain int16_t arrays: loads and stores of unaligned vectors
  __attribute__((always_inline)) static v ld(const int16_t* p) {
    v x;
    std::memcpy(&x, p, sizeof x);
    return x;
  }
  __attribute__((always_inline)) static void st(int16_t* p, v x) { std::memcpy(p, &x, sizeof x); }
  __attribute__((always_inline)) static v splat(int16_t x) { return v{} + x; }
  __attribute__((always_inline)) static v vmax(v a, v b) { return a > b ? a : b; }
  // Lane k takes lane k - step (1, 2, 4 or 8), the first `step` lanes take `fill`.
  __attribute__((always_inline)) static v shift(v x, int step, int16_t fill) {
    return shift_lanes(x, step, splat(fill));
  }
  __attribute__((always_inline)) static bool any(v mask) {
    int64_t w[L / 4];
    std::memcpy(w, &mask, sizeof w);
    int64_t o = 0;
    for (int64_t x : w) o |= x;
    return o != 0;
  }
};

template <int L>
__attribute__((always_inline)) inline bool striped(const std::vector<uint8_t>& a,
                                                   const std::vector<uint8_t>& b, const Scoring& s,
                                                   AlignResult& r, int64_t columns) {
  using X = Lanes<L>;
  using v16 = typename X::v;
  static thread_local std::vector<int16_t> profile, Hv, Hnv, Fv;
  const int64_t ea = r.end_a, eb = r.end_b, m = std::min(columns, eb + 1);
  const size_t n = s.alphabet.size(), seg = size_t((m + L - 1) / L);
  profile.resize(n * seg * L);
  for (size_t c = 0; c < n; ++c) {
    const int32_t* row = &s.table[c * n];
    int16_t* p = &profile[c * seg * L];
    for (size_t t = 0; t < seg; ++t)
      for (int k = 0; k < L; ++k) {
        const int64_t q = int64_t(t) + k * int64_t(seg);
        p[t * L + size_t(k)] = q < m ? int16_t(row[b[size_t(eb - q)]]) : kDead;
      }
  }
  Hv.assign(seg * L, kDead);
  Hnv.resize(seg * L);
  Fv.assign(seg * L, kDead);
  int16_t *H = Hv.data(), *Hn = Hnv.data(), *F = Fv.data();
  const v16 open = X::splat(int16_t(s.gap_open)), ext = X::splat(int16_t(s.gap_extend)),
            dead = X::splat(kDead), zero = X::splat(0), target = X::splat(int16_t(r.score));
  int16_t across[L];  // a gap's extension over `step` lanes of seg columns, capped
  for (int step = 1; step < L; step *= 2)
    across[step] = int16_t(std::min<int64_t>(16000, int64_t(step) * int64_t(seg) * s.gap_extend));
  for (int64_t p = 0; p <= ea; ++p) {
    const int16_t* P = &profile[size_t(a[size_t(ea - p)]) * seg * L];
    v16 diag = X::shift(X::ld(H + (seg - 1) * L), 1, p == 0 ? 0 : kDead), e = dead, best = dead;
    for (size_t t = 0; t < seg; ++t) {
      const v16 f = X::ld(F + t * L);
      v16 h = X::vmax(X::vmax(diag + X::ld(P + t * L), f), e);
      h = h > zero ? h : dead;
      diag = X::ld(H + t * L);
      X::st(Hn + t * L, h);
      best = X::vmax(best, h);
      const v16 ho = h - open;
      X::st(F + t * L, X::vmax(X::vmax(f - ext, ho), dead));
      e = X::vmax(X::vmax(e - ext, ho), dead);
    }
    // The gap along the row into each lane's first column: from the lane before, which carries
    // in turn the gap of the lanes before it, seg columns of extension each (a max-plus scan).
    v16 carry = X::shift(e, 1, kDead);
    for (int step = 1; step < L; step *= 2)
      carry = X::vmax(X::vmax(carry, X::shift(carry, step, kDead) - X::splat(across[step])), dead);
    // ... then along the lane, as far as it raises a cell (farther, the row's own gap from that
    // cell dominates it)
    for (size_t t = 0; t < seg; ++t) {
      const v16 h = X::ld(Hn + t * L);
      const v16 up = carry > X::vmax(h - open, zero);
      if (!X::any(up)) break;
      const v16 nh = X::vmax(h, up ? carry : dead);
      X::st(Hn + t * L, nh);
      best = X::vmax(best, nh);
      X::st(F + t * L, X::vmax(X::ld(F + t * L), nh - open));
      carry = X::vmax(carry - ext, dead);
    }
    if (X::any(best >= target)) {
      int64_t q0 = m;
      for (size_t t = 0; t < seg; ++t)
        for (int k = 0; k < L; ++k)
          if (Hn[t * L + size_t(k)] == r.score) q0 = std::min(q0, int64_t(t) + k * int64_t(seg));
      r.start_a = ea - p;
      r.start_b = eb - q0;
      return true;
    }
    if (!X::any(best > zero)) return false;
    std::swap(H, Hn);
  }
  return false;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) bool striped_avx2(const std::vector<uint8_t>& a,
                                                  const std::vector<uint8_t>& b, const Scoring& s,
                                                  AlignResult& r, int64_t columns) {
  return striped<16>(a, b, s, r, columns);
}
#endif

}  // namespace

bool striped_start_fits(const Scoring& s, int32_t score) {
  int32_t lo = 0, hi = 0;
  for (int32_t v : s.table) lo = std::min(lo, v), hi = std::max(hi, v);
  return score > 0 && int64_t(score) + hi < 32000 && lo > -8000 && s.gap_open >= 0 &&
         s.gap_extend >= 0 && s.gap_open < 8000 && s.gap_extend < 8000;
}

bool striped_start(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                   AlignResult& r, int64_t columns, bool baseline) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (!baseline && __builtin_cpu_supports("avx2")) return striped_avx2(a, b, s, r, columns);
#endif
  (void)baseline;
  return striped<8>(a, b, s, r, columns);
}

}  // namespace lockstep::detail
