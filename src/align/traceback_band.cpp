// The traceback's banded global pass (step 2 of traceback.cpp), its rows in 32-bit lanes: band
// coordinates (row i, diagonal k = j - i, the band's cells contiguous), so that the diagonal
// and the vertical gap come from the row before at k and k + 1, and the gap along the row is a
// max-plus prefix scan (a gap opened from a cell that itself ends a gap never beats extending
// that gap, since open >= extend). Every value and direction bit equals the scalar pass's
// (traceback.cpp): the same clamps at kNeg, the same order of the comparisons.
#include "traceback_impl.hpp"

namespace lockstep::detail {
namespace {

constexpr int kW = 4;
using v4 = int32_t __attribute__((vector_size(4 * kW)));

inline v4 splat(int32_t x) { return v4{} + x; }
inline v4 vmax(v4 a, v4 b) { return a > b ? a : b; }
// lane k takes lane k - 1 (k - 2), lane 0 (and 1) takes `fill`
inline v4 up1(v4 v, int32_t fill) { return __builtin_shufflevector(v, splat(fill), 4, 0, 1, 2); }
inline v4 up2(v4 v, int32_t fill) { return __builtin_shufflevector(v, splat(fill), 4, 4, 0, 1); }

struct Rows {
  std::vector<int32_t> table, H, F, Hn, Fn;
  std::vector<uint8_t> codes;
};

}  // namespace

LOCKSTEP_LANES_CLONES int32_t band_rows(const uint8_t* a, int64_t la, const uint8_t* b, int64_t lb,
                                        const Scoring& s, int64_t kmin, int64_t band,
                                        uint8_t* dir) {
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
  const v4 vopen = splat(open), vext = splat(ext), neg = splat(kNeg), lane{0, 1, 2, 3};
  const v4 lane_ext{0, ext, 2 * ext, 3 * ext};
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
      const v4 sc{row[code[t]], row[code[t + 1]], row[code[t + 2]], row[code[t + 3]]};
      const v4 tv = lane + int32_t(t), j = tv + int32_t(j0);
      const v4 tx = lane_ext + int32_t(t) * ext;  // t extensions (no 32-bit multiply in SSE2)
      const v4 valid = (j >= 0) & (j <= int32_t(lb)) & (tv < int32_t(band));
      const v4 fo = uh - vopen, fe = uf - vext;
      const v4 f = vmax(fo, fe);
      const v4 sd = diag + sc;
      // the gap along the row: E(t) = max over t' < t of H(t') - open - (t - 1 - t') extend
      const v4 hp = valid ? vmax(vmax(sd, f), neg) : neg;
      v4 z = hp - vopen + tx;
      z = vmax(z, up1(z, carry));
      z = vmax(z, up2(z, carry));
      z = vmax(z, splat(carry));
      const v4 excl = up1(z, carry);
      carry = z[kW - 1];
      const v4 e = vmax(excl - tx + vext, splat(kNeg - ext));
      v4 h = vmax(sd, e);
      const v4 hd = (e > sd) & 1;
      const v4 fd = f > h;
      h = vmax(h, f);
      const v4 hs = valid ? vmax(h, neg) : neg, es = valid ? vmax(e, neg) : neg;
      const v4 fs = valid ? vmax(f, neg) : neg;
      // E opened: H(t - 1) - open >= E(t - 1) - extend, from the stored values of the cell before
      const v4 eo = up1(hs, hleft) - vopen, ee = up1(es, eleft) - vext;
      const v4 bits = (fd ? splat(2) : hd) | ((eo >= ee) & 4) | ((fo >= fe) & 8);
      __builtin_memcpy(Hn + t, &hs, sizeof hs);
      __builtin_memcpy(Fn + t, &fs, sizeof fs);
      hleft = hs[kW - 1];
      eleft = es[kW - 1];
      // every lane (dir has kW bytes to spare): a cell outside A x B is never read back
      const auto bytes = __builtin_convertvector(bits, uint8_t __attribute__((vector_size(kW))));
      __builtin_memcpy(d + t, &bytes, kW);
    }
    std::swap(H, Hn);
    std::swap(F, Fn);
  }
  return H[lb - la - kmin];
}

}  // namespace lockstep::detail
