// Traceback in bounded memory, after the score S and the end (ea, eb) are known:
//  1. start: an anchored reverse pass from (ea, eb) over the reversed prefixes, two rows of
//     O(m) memory, computing only cells whose value is positive (a path whose score falls to 0
//     is cut) and whose diagonal lies within reach of the end's (drift_bound: farther out, no
//     path can still score S); the first cell (row, then column) holding S is the start. Every
//     cell is the score of a real path and no cell on a path to a cell holding S is left out,
//     so the start is that of the full pass, whatever the bound.
//  2. path: global Gotoh alignment of A[sa..ea] x B[sb..eb] inside a band of diagonals around
//     the corner-to-corner line, the band doubling until the global score equals S, and never
//     wider than the box's drift_bound (which leaves every path scoring S, and so the path
//     chosen, unchanged); memory one byte per band cell (La x band), never La x Lb.
// Both passes run in vector lanes (traceback_start.cpp: the reverse pass over every column of
// the prefix in 16 bits, where the score leaves room; traceback_band.cpp: the band's rows in
// 32 bits), with the values and choices of the scalar passes here, which remain the reference
// (detail::traceback_with) and the reverse pass of scores past 16 bits. Buffers are the
// thread's, reused from hit to hit.
#include <charconv>
#include <chrono>
#include <limits>

#include "lockstep/align.hpp"
#include "traceback_impl.hpp"

namespace lockstep {
namespace {

using detail::kNeg;
constexpr int64_t kFar = std::numeric_limits<int64_t>::max() / 4;  // no bound

// How far (columns) from a corner's diagonal an alignment of score S of A[a0..a1] x B[b0..b1]
// (inclusive) can stray: each residue of A scores at most its row's best, each of B its
// column's, and a drift of d needs a gap of at least d columns (open + (d - 1) x extend). A
// cell farther out lies on no path that scores S, so leaving it out changes no cell of one.
int64_t drift_bound(const std::vector<uint8_t>& a, int64_t a0, int64_t a1,
                    const std::vector<uint8_t>& b, int64_t b0, int64_t b1, const Scoring& s,
                    int64_t score) {
  const size_t n = s.alphabet.size();
  std::vector<int32_t> row(n, kNeg), col(n, kNeg);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      row[i] = std::max(row[i], s.table[i * n + j]);
      col[j] = std::max(col[j], s.table[i * n + j]);
    }
  int64_t ma = 0, mb = 0;
  for (int64_t i = a0; i <= a1; ++i) ma += row[a[size_t(i)]];
  for (int64_t j = b0; j <= b1; ++j) mb += col[b[size_t(j)]];
  const int64_t spare = std::min(ma, mb) - score - s.gap_open;  // a gap's cost beyond its open
  if (spare < 0) return 0;
  if (s.gap_extend <= 0) return kFar;
  return std::min(kFar, spare / s.gap_extend + 1);
}

// Step 1, the columns within `drift` of the end's diagonal. Returns false when no cell
// reached S.
bool find_start(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                AlignResult& r, int64_t drift) {
  const int64_t ea = r.end_a, eb = r.end_b, m = eb + 1;
  const int32_t open = s.gap_open, ext = s.gap_extend;
  std::vector<int32_t> H(size_t(m) + 1, kNeg), F(size_t(m) + 1, kNeg), Hn(H), Fn(F);
  int64_t lo = 0, hi = 0;  // live columns of the previous row (q), [lo, hi)
  for (int64_t p = 0; p <= ea && lo < hi + (p == 0); ++p) {
    const int32_t* row = &s.table[size_t(a[size_t(ea - p)]) * s.alphabet.size()];
    int32_t e = kNeg, left = kNeg;
    int64_t nlo = -1, nhi = 0;
    // H[q+1] = previous row at column q; diag of column q is H[q] (q-1 of the previous row).
    const int64_t qlo = std::max(lo, p - drift), qhi = std::min(m, p + drift + 1);
    for (int64_t q = qlo; q < qhi; ++q) {
      const int32_t diag = (p == 0 && q == 0) ? 0 : H[size_t(q)];
      e = std::max(e - ext, left - open);
      const int32_t f = std::max(F[size_t(q) + 1] - ext, H[size_t(q) + 1] - open);
      int32_t h = std::max(diag + row[b[size_t(eb - q)]], std::max(e, f));
      if (h == r.score) {
        r.start_a = ea - p;
        r.start_b = eb - q;
        return true;
      }
      const bool dead = h <= 0;
      if (dead) h = kNeg, e = kNeg;
      Hn[size_t(q) + 1] = h;
      Fn[size_t(q) + 1] = dead ? kNeg : f;
      left = h;
      if (!dead) {
        if (nlo < 0) nlo = q;
        nhi = q + 1;
      }
      if (q >= hi && e <= 0 && left <= 0) break;  // nothing from above, the row chain is dead
    }
    for (int64_t q = lo; q <= std::min(m - 1, std::max(hi, nhi)); ++q)  // clear the old row
      H[size_t(q) + 1] = kNeg, F[size_t(q) + 1] = kNeg;
    std::swap(H, Hn);
    std::swap(F, Fn);
    if (nlo < 0) return false;
    lo = nlo;
    hi = nhi;
  }
  return false;
}

// The banded pass's rows, one cell at a time: fills `dir` and returns the global score.
int32_t scalar_rows(const uint8_t* a, int64_t la, const uint8_t* b, int64_t lb, const Scoring& s,
                    int64_t kmin, int64_t kmax, int64_t band, uint8_t* dir) {
  const int32_t open = s.gap_open, ext = s.gap_extend;
  auto gap = [&](int64_t len) {  // score of a leading gap of length len, clamped (no overflow)
    return int32_t(std::max<int64_t>(kNeg, -(open + (len - 1) * int64_t(ext))));
  };
  std::vector<int32_t> H(size_t(lb) + 1, kNeg), F(H);
  H[0] = 0;
  for (int64_t j = 1; j <= std::min(lb, kmax); ++j)
    H[size_t(j)] = gap(j), dir[size_t(j - kmin)] = 1 | 4 * (j == 1);
  for (int64_t i = 1; i <= la; ++i) {
    const int64_t jlo = std::max<int64_t>(0, i + kmin), jhi = std::min(lb, i + kmax);
    const int32_t* row = &s.table[size_t(a[i - 1]) * s.alphabet.size()];
    int32_t diag = jlo > 0 ? H[size_t(jlo - 1)] : kNeg, left = kNeg, e = kNeg;
    if (jlo > 0) H[size_t(jlo - 1)] = kNeg;  // leaves the band
    for (int64_t j = jlo; j <= jhi; ++j) {
      uint8_t d = 0;
      int32_t h, f;
      if (j == 0) {
        f = gap(i);
        h = f, e = kNeg, d = 2 | (i == 1 ? 8 : 0);
      } else {
        const int32_t eo = left - open, ee = e - ext;
        e = std::max(eo, ee), d |= eo >= ee ? 4 : 0;
        const int32_t fo = H[size_t(j)] - open, fe = F[size_t(j)] - ext;
        f = std::max(fo, fe), d |= fo >= fe ? 8 : 0;
        h = diag + row[b[j - 1]];
        if (e > h) h = e, d |= 1;
        if (f > h) h = f, d = uint8_t((d & ~3) | 2);
      }
      diag = H[size_t(j)];
      H[size_t(j)] = left = std::max(h, kNeg);
      F[size_t(j)] = std::max(f, kNeg);
      e = std::max(e, kNeg);
      dir[size_t(i) * size_t(band) + size_t(j - i - kmin)] = d;
    }
  }
  return H[size_t(lb)];
}

// Step 2 with band half-width w, inside `reach` of both corners' diagonals (drift_bound):
// returns the global score and fills the cigar.
int64_t banded_global(const uint8_t* a, int64_t la, const uint8_t* b, int64_t lb, const Scoring& s,
                      int64_t w, int64_t reach, int64_t target, std::string& cigar, size_t& bytes,
                      detail::Passes passes) {
  const int64_t kmin =
      std::max(std::min<int64_t>(0, lb - la) - w, std::max(-reach, lb - la - reach));
  const int64_t kmax =
      std::min(std::max<int64_t>(0, lb - la) + w, std::min(reach, lb - la + reach));
  const int64_t band = kmax - kmin + 1;
  if (double(la + 1) * double(band) > 4e9)
    throw input_error("traceback: the band would need more than 4 GB");
  bytes = size_t(la + 1) * size_t(band);
  // bits 0-1 H from (0 diag, 1 E, 2 F); 2: E opened; 3: F opened (8 bytes to spare: band_rows)
  static thread_local std::vector<uint8_t> dir;
  dir.assign(bytes + 8, 0);
  const int64_t score = passes != detail::Passes::scalar && s.gap_open >= s.gap_extend
                            ? detail::band_rows(a, la, b, lb, s, kmin, band, dir.data(),
                                                passes == detail::Passes::baseline)
                            : scalar_rows(a, la, b, lb, s, kmin, kmax, band, dir.data());
  if (score != target) return score;
  std::string ops;  // reversed
  int64_t i = la, j = lb;
  int state = 0;  // 0 H, 1 E, 2 F
  while (i > 0 || j > 0) {
    const uint8_t d = dir[size_t(i) * size_t(band) + size_t(j - i - kmin)];
    if (state == 0) state = d & 3;
    if (state == 0)
      ops += 'M', --i, --j;
    else if (state == 1)
      ops += 'D', state = (d & 4) ? 0 : 1, --j;
    else
      ops += 'I', state = (d & 8) ? 0 : 2, --i;
  }
  cigar.clear();
  for (size_t k = ops.size(); k > 0;) {
    size_t run = 1;
    const char op = ops[--k];
    while (k > 0 && ops[k - 1] == op) --k, ++run;
    cigar += std::to_string(run) + op;
  }
  return score;
}

}  // namespace

bool detail::scalar_start(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                          const Scoring& s, AlignResult& r) {
  return find_start(a, b, s, r, drift_bound(a, 0, r.end_a, b, 0, r.end_b, s, r.score));
}

void detail::traceback_with(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                            const Scoring& s, AlignResult& r, Passes passes) {
  const auto t0 = std::chrono::steady_clock::now();
  r.cigar.clear();
  r.start_a = r.start_b = -1;
  if (r.score <= 0) return;
  const int64_t drift = drift_bound(a, 0, r.end_a, b, 0, r.end_b, s, r.score);
  if (passes != Passes::scalar && striped_start_fits(s, r.score))  // no column past the drift
    striped_start(a, b, s, r, std::min(kFar, r.end_a + 1 + drift), passes == Passes::baseline);
  else
    find_start(a, b, s, r, drift);
  if (r.start_a < 0) throw std::logic_error("traceback: the reverse pass did not reach the score");
  const int64_t la = r.end_a - r.start_a + 1, lb = r.end_b - r.start_b + 1;
  const int64_t reach = drift_bound(a, r.start_a, r.end_a, b, r.start_b, r.end_b, s, r.score);
  for (int64_t w = 32;; w *= 2) {
    const int64_t g = banded_global(&a[size_t(r.start_a)], la, &b[size_t(r.start_b)], lb, s, w,
                                    reach, r.score, r.cigar, r.traceback_bytes, passes);
    if (g == r.score) break;
    if (w > la + lb)
      throw std::logic_error("traceback: the global score never reached the local one");
  }
  r.traceback_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void traceback(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
               AlignResult& r) {
  detail::traceback_with(a, b, s, r, detail::Passes::lanes);
}

std::vector<CigarRun> parse_cigar(const std::string& cigar) {
  std::vector<CigarRun> runs;
  const char *p = cigar.data(), *end = p + cigar.size();
  while (p < end) {
    CigarRun r{0, 0};
    auto [q, ec] = std::from_chars(p, end, r.length);
    if (ec != std::errc() || q == end || r.length < 0 || (*q != 'M' && *q != 'I' && *q != 'D'))
      throw input_error("cigar: malformed '" + cigar + "'");
    r.op = *q;
    runs.push_back(r);
    p = q + 1;
  }
  return runs;
}

int64_t rescore(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                int64_t i, int64_t j, const std::string& cigar) {
  int64_t score = 0;
  for (const auto [run, op] : parse_cigar(cigar)) {
    if (op == 'M') {
      if (i + run > int64_t(a.size()) || j + run > int64_t(b.size()))
        throw input_error("cigar runs off");
      for (int64_t k = 0; k < run; ++k) score += s(a[size_t(i + k)], b[size_t(j + k)]);
      i += run, j += run;
    } else if (op == 'I' || op == 'D') {
      score -= s.gap_open + (run - 1) * s.gap_extend;
      (op == 'I' ? i : j) += run;
      if (i > int64_t(a.size()) || j > int64_t(b.size())) throw input_error("cigar runs off");
    }
  }
  return score;
}

}  // namespace lockstep
