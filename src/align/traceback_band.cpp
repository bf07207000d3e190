// The traceback's banded global pass (step 2 of traceback.cpp), its rows in 32-bit lanes: band
// coordinates (row i, diagonal k = j - i, the band's cells contiguous), so that the diagonal
// and the vertical gap come from the row before at k and k + 1, and the gap along the row is a
// max-plus prefix scan (a gap opened from a cell that itself ends a gap never beats extending
// that gap, since open >= extend). Every value and direction bit equals the scalar pass's
// (traceback.cpp): the same clamps at kNeg, the same order of the comparisons.
#include <type_traits>

#include "traceback_impl.hpp"

namespace lockstep::detail {
namespace {

// Lanes<W>'s functions are always inlined into the AVX2 function: their ABI never shows.
#pragma GCC diagnostic ignored "-Wpsabi"
typedef int32_t i4 __attribute__((vector_size(16)));
typedef int32_t i8 __attribute__((vector_size(32)));
// lane k takes lane k - step, the first `step` lanes take f's (the prefix scan's steps)
__attribute__((always_inline)) inline i4 up(i4 v, int step, i4 f) {
  if (step == 1) return __builtin_shufflevector(v, f, 4, 0, 1, 2);
  return __builtin_shufflevector(v, f, 4, 4, 0, 1);
}
__attribute__((always_inline)) inline i8 up(i8 v, int step, i8 f) {
  if (step == 1) return __builtin_shufflevector(v, f, 8, 0, 1, 2, 3, 4, 5, 6);
  if (step == 2) return __builtin_shufflevector(v, f, 8, 8, 0, 1, 2, 3, 4, 5);
  return __builtin_shufflevector(v, f, 8, 8, 8, 8, 0, 1, 2, 3);
}

// the W direction bytes of W lanes
__attribute__((always_inline)) inline void store_bytes(uint8_t* d, i4 v) {
  typedef uint8_t b4 __attribute__((vector_size(4)));
  const b4 x = __builtin_convertvector(v, b4);
  __builtin_memcpy(d, &x, sizeof x);
}
__attribute__((always_inline)) inline void store_bytes(uint8_t* d, i8 v) {
  typedef uint8_t b8 __attribute__((vector_size(8)));
  const b8 x = __builtin_convertvector(v, b8);
  __builtin_memcpy(d, &x, sizeof x);
}
template <class V>
__attribute__((always_inline)) inline V splat(int32_t x) {
  return V{} + x;
}
template <class V>
__attribute__((always_inline)) inline V vmax(V x, V y) {
  return x > y ? x : y;
}

struct Rows {
  std::vector<int32_t> table, H, F, Hn, Fn;
  std::vector<uint8_t> codes;
};

// W lanes of 32 bits: 4 on the baseline, 8 where AVX2 runs.
template <int W>
__attribute__((always_inline)) inline int32_t rows(const uint8_t* a, int64_t la, const uint8_t* b,
                                                   int64_t lb, const Scoring& s, int64_t kmin,
                                                   int64_t band, uint8_t* dir) {
  using v4 = std::conditional_t<W == 4, i4, i8>;
  constexpr int kW = W;
  static thread_local Rows buf;
  const int32_t open = s.gap_open, ext = s.gap_extend;
  const size_t n = s.alphabet.size(), width = size_t((band + kW - 1) / kW * kW) + kW;
  // b's codes by band position u = i - 1 + t (row i's cell t pairs a[i - 1] with b[u + kmin]),
  // code n (scoring kNeg) outside b; the table with that column added
  const size_t span = size_t(la) + width;
  buf.codes.resize(span);
  for (size_t u = 0; u < span; ++u) {
    const int64_t j = int64_t(u) + kmin;
    buf.codes[u] = j >= 0 && j < lb ? b[j] : uint8_t(n);
  }
  buf.table.resize(n * (n + 1));
  for (size_t c = 0; c < n; ++c) {
    for (size_t x = 0; x < n; ++x) buf.table[c * (n + 1) + x] = s.table[c * n + x];
    buf.table[c * (n + 1) + n] = kNeg;
  }
  buf.H.assign(width + kW, kNeg);
  buf.F.assign(width + kW, kNeg);
  buf.Hn.assign(width + kW, kNeg);
  buf.Fn.assign(width + kW, kNeg);
  int32_t *H = buf.H.data(), *F = buf.F.data(), *Hn = buf.Hn.data(), *Fn = buf.Fn.data();
  // row 0: H(0, j) = a leading gap of j, E opened at j = 1
  for (int64_t t = 0; t < band; ++t) {
    const int64_t j = t + kmin;
    if (j == 0) H[t] = 0;
    if (j >= 1 && j <= lb) {
      H[t] = int32_t(std::max<int64_t>(kNeg, -(open + (j - 1) * int64_t(ext))));
      dir[t] = uint8_t(1 | 4 * (j == 1));
    }
  }
  const v4 vopen = splat<v4>(open), vext = splat<v4>(ext), neg = splat<v4>(kNeg);
  v4 lane, lane_ext;
  for (int k = 0; k < kW; ++k) lane[k] = k, lane_ext[k] = k * ext;
  for (int64_t i = 1; i <= la; ++i) {
    const int32_t* row = &buf.table[size_t(a[i - 1]) * (n + 1)];
    const uint8_t* code = &buf.codes[size_t(i - 1)];
    uint8_t* d = dir + size_t(i) * size_t(band);
    const int64_t j0 = i + kmin;                              // column of cell 0
    int32_t carry = std::numeric_limits<int32_t>::min() / 2;  // max of z over earlier cells
    int32_t hleft = kNeg, eleft = kNeg;                       // the cell before, stored values
    for (int64_t t = 0; t < band; t += kW) {
      v4 diag, uh, uf;
      __builtin_memcpy(&diag, H + t, sizeof diag);
      __builtin_memcpy(&uh, H + t + 1, sizeof uh);
      __builtin_memcpy(&uf, F + t + 1, sizeof uf);
      v4 sc;
      for (int k = 0; k < kW; ++k) sc[k] = row[code[t + k]];
      const v4 tv = lane + int32_t(t), j = tv + int32_t(j0);
      const v4 tx = lane_ext + int32_t(t) * ext;  // t extensions (no 32-bit multiply in SSE2)
      const v4 valid = (j >= 0) & (j <= int32_t(lb)) & (tv < int32_t(band));
      const v4 fo = uh - vopen, fe = uf - vext;
      const v4 f = vmax(fo, fe);
      const v4 sd = diag + sc;
      // the gap along the row: E(t) = max over t' < t of H(t') - open - (t - 1 - t') extend
      const v4 hp = valid ? vmax(vmax(sd, f), neg) : neg;
      v4 z = hp - vopen + tx;
      for (int step = 1; step < kW; step *= 2) z = vmax(z, up(z, step, splat<v4>(carry)));
      z = vmax(z, splat<v4>(carry));
      const v4 excl = up(z, 1, splat<v4>(carry));
      carry = z[kW - 1];
      const v4 e = vmax(excl - tx + vext, splat<v4>(kNeg - ext));
      v4 h = vmax(sd, e);
      const v4 hd = (e > sd) & 1;
      const v4 fd = f > h;
      h = vmax(h, f);
      const v4 hs = valid ? vmax(h, neg) : neg, es = valid ? vmax(e, neg) : neg;
      const v4 fs = valid ? vmax(f, neg) : neg;
      // E opened: H(t - 1) - open >= E(t - 1) - extend, from the stored values of the cell before
      const v4 eo = up(hs, 1, splat<v4>(hleft)) - vopen, ee = up(es, 1, splat<v4>(eleft)) - vext;
      const v4 bits = (fd ? splat<v4>(2) : hd) | ((eo >= ee) & 4) | ((fo >= fe) & 8);
      __builtin_memcpy(Hn + t, &hs, sizeof hs);
      __builtin_memcpy(Fn + t, &fs, sizeof fs);
      hleft = hs[kW - 1];
      eleft = es[kW - 1];
      // every lane (dir has kW bytes to spare): a cell outside A x B is never read back
      store_bytes(d + t, bits);
    }
    std::swap(H, Hn);
    std::swap(F, Fn);
  }
  return H[lb - la - kmin];
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) int32_t rows_avx2(const uint8_t* a, int64_t la, const uint8_t* b,
                                                  int64_t lb, const Scoring& s, int64_t kmin,
                                                  int64_t band, uint8_t* dir) {
  return rows<8>(a, la, b, lb, s, kmin, band, dir);
}
#endif

}  // namespace

int32_t band_rows(const uint8_t* a, int64_t la, const uint8_t* b, int64_t lb, const Scoring& s,
                  int64_t kmin, int64_t band, uint8_t* dir, bool baseline) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (!baseline && __builtin_cpu_supports("avx2"))
    return rows_avx2(a, la, b, lb, s, kmin, band, dir);
#endif
  (void)baseline;
  return rows<4>(a, la, b, lb, s, kmin, band, dir);
}

}  // namespace lockstep::detail
