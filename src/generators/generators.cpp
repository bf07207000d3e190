// Matrix generators. Values are uniform in [-1, 1) except the Laplacians (4/-1 and 6/-1), so
// laplace2d/3d are symmetric positive definite (the CG solver's test matrices). R-MAT draws each
// edge from its own counter-based stream, so its edges are drawn and placed in parallel
// (graph/rows.hpp, OpenMP) and the matrix does not depend on the thread count.
#include "lockstep/generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "graph/rows.hpp"
#include "lockstep/error.hpp"

namespace lockstep::gen {
namespace {

struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  double unit() { return double(g() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  int64_t below(int64_t n) { return int64_t(unit() * double(n)); }
  double value() { return 2.0 * unit() - 1.0; }
};

// rmat_edges is compiled for x86-64-v4 (AVX-512), v3 (AVX2) and the baseline, the widest the
// CPU runs picked at load time (GCC's target_clones, an ifunc); its helpers are always inlined
// into each clone. With AVX-512 the 8 interleaved streams are one vector: 3x the baseline.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LOCKSTEP_CPU_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define LOCKSTEP_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define LOCKSTEP_CPU_CLONES
#define LOCKSTEP_ALWAYS_INLINE inline
#endif

// splitmix64's output function (Steele, Lea, Flood 2014): a counter in, 64 mixed bits out.
LOCKSTEP_ALWAYS_INLINE uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void need(bool ok, const std::string& what) {
  if (!ok) throw input_error("generator: " + what);
}

// Appends k distinct random columns of [0, n) to row r (sorted), values uniform.
void random_row(Csr<double>& a, int32_t n, int64_t k, Rng& rng) {
  size_t start = a.col_idx.size();
  if (k * 2 > n) {  // dense-ish: select by a partial shuffle-free scan
    int64_t need_k = k;
    for (int32_t c = 0; c < n && need_k > 0; ++c)
      if (rng.below(n - c) < need_k) a.col_idx.push_back(c), --need_k;
  } else {
    while (int64_t(a.col_idx.size() - start) < k) {
      for (int64_t i = int64_t(a.col_idx.size() - start); i < k; ++i)
        a.col_idx.push_back(int32_t(rng.below(n)));
      std::sort(a.col_idx.begin() + long(start), a.col_idx.end());
      a.col_idx.erase(std::unique(a.col_idx.begin() + long(start), a.col_idx.end()),
                      a.col_idx.end());
    }
  }
  for (size_t i = start; i < a.col_idx.size(); ++i) a.values.push_back(rng.value());
  a.row_ptr.push_back(int32_t(a.col_idx.size()));
}

Csr<double> empty(int32_t rows, int32_t cols, size_t reserve) {
  Csr<double> a;
  a.rows = rows, a.cols = cols;
  a.row_ptr.reserve(size_t(rows) + 1);
  a.col_idx.reserve(reserve);
  a.values.reserve(reserve);
  return a;
}

}  // namespace

Csr<double> laplace2d(int32_t n) {
  need(n >= 1 && int64_t(n) * n < (1ll << 31) / 5, "laplace2d needs 1 <= N and 5*N^2 < 2^31");
  int32_t N = n * n;
  Csr<double> a = empty(N, N, size_t(N) * 5);
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < n; ++j) {
      int32_t r = i * n + j;
      auto put = [&](int32_t c, double v) { a.col_idx.push_back(c), a.values.push_back(v); };
      if (i > 0) put(r - n, -1);
      if (j > 0) put(r - 1, -1);
      put(r, 4);
      if (j + 1 < n) put(r + 1, -1);
      if (i + 1 < n) put(r + n, -1);
      a.row_ptr.push_back(int32_t(a.col_idx.size()));
    }
  return a;
}

Csr<double> laplace3d(int32_t n) {
  need(n >= 1 && int64_t(n) * n * n < (1ll << 31) / 7, "laplace3d needs 1 <= N and 7*N^3 < 2^31");
  int32_t N = n * n * n, nn = n * n;
  Csr<double> a = empty(N, N, size_t(N) * 7);
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < n; ++j)
      for (int32_t k = 0; k < n; ++k) {
        int32_t r = i * nn + j * n + k;
        auto put = [&](int32_t c, double v) { a.col_idx.push_back(c), a.values.push_back(v); };
        if (i > 0) put(r - nn, -1);
        if (j > 0) put(r - n, -1);
        if (k > 0) put(r - 1, -1);
        put(r, 6);
        if (k + 1 < n) put(r + 1, -1);
        if (j + 1 < n) put(r + n, -1);
        if (i + 1 < n) put(r + nn, -1);
        a.row_ptr.push_back(int32_t(a.col_idx.size()));
      }
  return a;
}

Csr<double> laplace_rows(int dims, int32_t nx, int32_t ny, int32_t nz, int32_t begin, int32_t end) {
  if (dims == 2) nz = 1;
  const int64_t rows = int64_t(nx) * ny * nz;
  need((dims == 2 || dims == 3) && nx >= 1 && ny >= 1 && nz >= 1 && rows < (1ll << 31),
       "laplace_rows needs dims 2 or 3, sides >= 1 and fewer than 2^31 rows");
  need(0 <= begin && begin <= end && end <= rows && int64_t(end - begin) * 7 < (1ll << 31),
       "laplace_rows needs 0 <= begin <= end <= rows and 7 (end - begin) < 2^31");
  const int32_t plane = nx * ny;
  Csr<double> a = empty(end - begin, int32_t(rows), size_t(end - begin) * (dims == 3 ? 7 : 5));
  a.row_ptr.assign(1, 0);
  for (int32_t r = begin; r < end; ++r) {
    const int32_t i = r / plane, j = r % plane / nx, k = r % nx;
    auto put = [&](int32_t c, double v) { a.col_idx.push_back(c), a.values.push_back(v); };
    if (i > 0) put(r - plane, -1);
    if (j > 0) put(r - nx, -1);
    if (k > 0) put(r - 1, -1);
    put(r, dims == 3 ? 6 : 4);
    if (k + 1 < nx) put(r + 1, -1);
    if (j + 1 < ny) put(r + nx, -1);
    if (i + 1 < nz) put(r + plane, -1);
    a.row_ptr.push_back(int32_t(a.col_idx.size()));
  }
  return a;
}

Csr<double> uniform(int32_t n, int32_t k, uint64_t seed) {
  need(n >= 0 && k >= 0 && k <= n && int64_t(n) * k < (1ll << 31),
       "uniform needs 0 <= k <= n and n*k < 2^31");
  Rng rng(seed);
  Csr<double> a = empty(n, n, size_t(n) * size_t(k));
  for (int32_t r = 0; r < n; ++r) random_row(a, n, k, rng);
  return a;
}

Csr<double> powerlaw(int32_t n, double alpha, uint64_t seed) {
  need(n >= 0 && alpha > 1.0, "powerlaw needs n >= 0 and alpha > 1");
  Rng rng(seed);
  std::vector<int64_t> len(static_cast<size_t>(n));
  int64_t total = 0;
  for (auto& l : len) {  // Pareto(x_min = 1, alpha - 1 tail index): P(L > x) = x^-(alpha-1)
    double u = 1.0 - rng.unit();
    l = std::min<int64_t>(n, int64_t(std::pow(u, -1.0 / (alpha - 1.0))));
    total += l;
  }
  need(total < (1ll << 31), "powerlaw: too many entries for 32-bit indices; use a larger alpha");
  Csr<double> a = empty(n, n, size_t(total));
  for (int32_t r = 0; r < n; ++r) random_row(a, n, len[size_t(r)], rng);
  return a;
}

Csr<double> banded(int32_t n, int32_t w, uint64_t seed) {
  need(n >= 0 && w >= 0 && int64_t(n) * (2 * int64_t(w) + 1) < (1ll << 31),
       "banded needs n, w >= 0 and n*(2w+1) < 2^31");
  Rng rng(seed);
  Csr<double> a = empty(n, n, size_t(n) * size_t(2 * w + 1));
  for (int32_t r = 0; r < n; ++r) {
    for (int32_t c = std::max(0, r - w); c <= std::min(n - 1, r + w); ++c)
      a.col_idx.push_back(c), a.values.push_back(rng.value());
    a.row_ptr.push_back(int32_t(a.col_idx.size()));
  }
  return a;
}

Csr<double> dense_rows(int32_t n, int32_t k, uint64_t seed) {
  need(n >= 1 && k >= 0 && k <= n && int64_t(n) * k < (1ll << 31),
       "dense needs 0 <= k <= n and n*k < 2^31");
  return uniform(n, k, seed);
}

Csr<double> hubs(int32_t n, int32_t k, int32_t hubs, int32_t hub_len, uint64_t seed) {
  need(n >= 1 && k >= 0 && k <= n && hubs >= 0 && hubs <= n && hub_len >= 0 && hub_len <= n &&
           int64_t(n) * k + int64_t(hubs) * hub_len < (1ll << 31),
       "hubs needs k, hub_len <= n, hubs <= n and n*k + hubs*hub_len < 2^31");
  Rng rng(seed);
  Csr<double> a = empty(n, n, size_t(n) * size_t(k) + size_t(hubs) * size_t(hub_len));
  int64_t next = 0;  // hub h sits at row (2h + 1) * n / (2 hubs): spread evenly
  for (int32_t r = 0; r < n; ++r) {
    bool hub = next < hubs && r == int32_t((2 * next + 1) * n / (2 * int64_t(hubs)));
    if (hub) ++next;
    random_row(a, n, hub ? hub_len : k, rng);
  }
  return a;
}

Csr<double> blocks3d(int32_t n, int32_t b, uint64_t seed) {
  need(n >= 1 && b >= 1 && int64_t(n) * n * n * b * b * 7 < (1ll << 31),
       "blocks3d needs n, b >= 1 and 7*n^3*b^2 < 2^31");
  Rng rng(seed);
  const int32_t nn = n * n, N = nn * n;
  Csr<double> a = empty(N * b, N * b, size_t(N) * size_t(7 * b * b));
  for (int32_t r = 0; r < N; ++r) {
    const int32_t i = r / nn, j = r / n % n, k = r % n;
    const int32_t nb[7] = {
        i > 0 ? r - nn : -1,    j > 0 ? r - n : -1,     k > 0 ? r - 1 : -1,     r,
        k + 1 < n ? r + 1 : -1, j + 1 < n ? r + n : -1, i + 1 < n ? r + nn : -1};
    for (int32_t p = 0; p < b; ++p) {
      for (int32_t c : nb)
        for (int32_t q = 0; c >= 0 && q < b; ++q)
          a.col_idx.push_back(c * b + q),
              a.values.push_back(c == r && p == q ? 14.0 * b : rng.value());
      a.row_ptr.push_back(int32_t(a.col_idx.size()));
    }
  }
  return a;
}

namespace {

// W edges from k on: edge k's level b reads half b % 2 of output 16k + b/2 + 1 of the stream.
// The W streams interleaved (their multiplies overlap; 1.4x a single edge's chain on one core).
template <int W>
LOCKSTEP_ALWAYS_INLINE void rmat_batch(int32_t scale, uint64_t seed, int64_t k, int32_t* from,
                                       int32_t* to) {
  // Quadrant thresholds on 32-bit uniforms: A = 0.57, A+B = 0.76, A+B+C = 0.95.
  constexpr uint32_t kA = uint32_t(0.57 * 4294967296.0), kAB = uint32_t(0.76 * 4294967296.0),
                     kABC = uint32_t(0.95 * 4294967296.0);
  constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ull;
  uint32_t i[W] = {}, j[W] = {};
  for (int32_t b = 0; b < scale; b += 2) {
    for (int w = 0; w < W; ++w) {
      const uint64_t bits =
          splitmix64(seed + (uint64_t(k + w) * 16 + uint64_t(b / 2) + 1) * kGamma);
      for (int h = 0; h < 2 && b + h < scale; ++h) {
        const uint32_t u = uint32_t(bits >> (32 * h));  // A | B | C | D: qi = C or D, qj = B or D
        i[w] |= uint32_t(u >= kAB) << (b + h);
        j[w] |= uint32_t((u >= kA) ^ (u >= kAB) ^ (u >= kABC)) << (b + h);
      }
    }
  }
  for (int w = 0; w < W; ++w) from[w] = int32_t(i[w]), to[w] = int32_t(j[w]);
}

}  // namespace

LOCKSTEP_CPU_CLONES void rmat_edges(int32_t scale, uint64_t seed, int64_t begin, int64_t end,
                                    int32_t* from, int32_t* to) {
  int64_t k = begin;
  for (; k + 8 <= end; k += 8) rmat_batch<8>(scale, seed, k, from + (k - begin), to + (k - begin));
  for (; k < end; ++k) rmat_batch<1>(scale, seed, k, from + (k - begin), to + (k - begin));
}

Csr<double> rmat(int32_t scale, int32_t edgefactor, uint64_t seed) {
  need(scale >= 0 && scale <= 26 && edgefactor >= 1 &&
           (int64_t(edgefactor) << (scale + 1)) < (1ll << 31),
       "rmat needs 0 <= scale <= 26, edgefactor >= 1 and 2*edgefactor*2^scale < 2^31");
  Csr<double> a;
  a.rows = a.cols = int32_t(1) << scale;
  std::vector<int32_t> counts;
  detail::build_rows(
      a.rows, int64_t(edgefactor) << scale, true, true,
      [&](int64_t b, int64_t e, int32_t* from, int32_t* to) {
        rmat_edges(scale, seed, b, e, from, to);
      },
      a.row_ptr, a.col_idx, &counts);
  a.values.assign(counts.begin(), counts.end());
  return a;
}

}  // namespace lockstep::gen
