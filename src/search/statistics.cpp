// E-values and bit scores of search hits: the gapped Karlin-Altschul parameters (lambda, K,
// alpha, beta) that NCBI publishes for BLOSUM45, 50, 62 and 80 with the gap costs BLAST supports
// (BLAST's blast_stat.c tables), BLAST's length adjustment, E = K m' n' e^(-lambda S) and the bit
// score (lambda S - ln K) / ln 2. A matrix is recognised by its content, not its name.
// BLAST's gap costs count differently: its "existence a, extension b" costs a + L b for a gap of
// length L, lockstep's open + (L-1) extend; so lockstep's open O, extend E is BLAST's a = O - E,
// b = E (lockstep 11/1 = BLAST -gapopen 10 -gapextend 1; BLAST's default 11/1 = lockstep 12/1).
#include <cmath>

#include "lockstep/search.hpp"

namespace lockstep {
namespace {

struct Row {
  int open, extend;
  double lambda, K, alpha, beta;
};
struct Table {
  const char* name;
  Scoring (*make)(int, int);
  std::vector<Row> rows;
};

// {BLAST's gap existence, extension, lambda, K, alpha, beta} per matrix, from blast_stat.c.
const std::vector<Table>& tables() {
  static const std::vector<Table> t{
      {"BLOSUM45",
       blosum45,
       {{13, 3, 0.207, 0.049, 1.5, -22},
        {12, 3, 0.199, 0.039, 1.8, -34},
        {11, 3, 0.190, 0.031, 2.0, -38},
        {10, 3, 0.179, 0.023, 2.4, -51},
        {16, 2, 0.210, 0.051, 1.5, -24},
        {15, 2, 0.203, 0.041, 1.7, -31},
        {14, 2, 0.195, 0.032, 1.9, -36},
        {13, 2, 0.185, 0.024, 2.2, -45},
        {12, 2, 0.171, 0.016, 2.8, -65},
        {19, 1, 0.205, 0.040, 1.9, -43},
        {18, 1, 0.198, 0.032, 2.0, -43},
        {17, 1, 0.189, 0.024, 2.4, -57},
        {16, 1, 0.176, 0.016, 2.8, -67}}},
      {"BLOSUM50",
       blosum50,
       {{13, 3, 0.212, 0.063, 1.1, -16},
        {12, 3, 0.206, 0.055, 1.2, -18},
        {11, 3, 0.197, 0.042, 1.4, -25},
        {10, 3, 0.186, 0.031, 1.7, -34},
        {9, 3, 0.172, 0.022, 2.1, -48},
        {16, 2, 0.215, 0.066, 1.05, -15},
        {15, 2, 0.210, 0.058, 1.2, -20},
        {14, 2, 0.202, 0.045, 1.4, -27},
        {13, 2, 0.193, 0.035, 1.6, -32},
        {12, 2, 0.181, 0.025, 1.9, -41},
        {19, 1, 0.212, 0.057, 1.2, -21},
        {18, 1, 0.207, 0.050, 1.4, -28},
        {17, 1, 0.198, 0.037, 1.6, -33},
        {16, 1, 0.186, 0.025, 1.9, -42},
        {15, 1, 0.171, 0.015, 2.7, -76}}},
      {"BLOSUM62",
       blosum62,
       {{11, 2, 0.297, 0.082, 1.1, -10},
        {10, 2, 0.291, 0.075, 1.3, -15},
        {9, 2, 0.279, 0.058, 1.5, -19},
        {8, 2, 0.264, 0.045, 1.8, -26},
        {7, 2, 0.239, 0.027, 2.5, -46},
        {6, 2, 0.201, 0.012, 3.3, -58},
        {13, 1, 0.292, 0.071, 1.2, -11},
        {12, 1, 0.283, 0.059, 1.5, -19},
        {11, 1, 0.267, 0.041, 1.9, -30},
        {10, 1, 0.243, 0.024, 2.5, -44},
        {9, 1, 0.206, 0.010, 4.0, -87}}},
      {"BLOSUM80",
       blosum80,
       {{25, 2, 0.342, 0.17, 0.52, -1.6},
        {13, 2, 0.336, 0.15, 0.59, -3},
        {9, 2, 0.319, 0.11, 0.76, -6},
        {8, 2, 0.308, 0.090, 0.89, -9},
        {7, 2, 0.293, 0.070, 1.1, -14},
        {6, 2, 0.268, 0.045, 1.4, -19},
        {11, 1, 0.314, 0.095, 0.90, -9},
        {10, 1, 0.299, 0.071, 1.1, -14},
        {9, 1, 0.279, 0.048, 1.4, -19}}},
  };
  return t;
}

}  // namespace

KarlinAltschul karlin_altschul(const Scoring& s) {
  KarlinAltschul ka;
  if (s.dna) return ka;
  for (const Table& t : tables()) {
    const Scoring m = t.make(0, 0);
    if (m.alphabet != s.alphabet || m.table != s.table) continue;
    for (const Row& r : t.rows)  // BLAST's gap of length L costs open + L x extend
      if (r.open == s.gap_open - s.gap_extend && r.extend == s.gap_extend)
        return {t.name, r.lambda, r.K, r.alpha, r.beta};
    return ka;
  }
  return ka;
}

double bit_score(const KarlinAltschul& ka, int32_t score) {
  return (ka.lambda * score - std::log(ka.K)) / std::log(2.0);
}

int64_t length_adjustment(const KarlinAltschul& ka, int64_t m_in, int64_t n_in, int64_t N_in) {
  const double m = double(m_in), n = double(n_in), N = double(N_in), logK = std::log(ka.K);
  const double alpha_d_lambda = ka.alpha / ka.lambda, beta = ka.beta;
  // ell_max: the largest ell with K (m - ell)(n - N ell) > max(m, n) (quadratic formula).
  const double a = N, mb = m * N + n, c = n * m - std::max(m, n) / ka.K;
  if (c < 0) return 0;
  double ell_min = 0, ell_max = 2 * c / (mb + std::sqrt(mb * mb - 4 * a * c)), ell_next = 0;
  bool converged = false;
  for (int i = 1; i <= 20; ++i) {
    const double ell = ell_next;
    const double ell_bar = alpha_d_lambda * (logK + std::log((m - ell) * (n - N * ell))) + beta;
    if (ell_bar >= ell) {  // ell is at most the fixed point
      ell_min = ell;
      if (ell_bar - ell_min <= 1.0) {
        converged = true;
        break;
      }
      if (ell_min == ell_max) break;
    } else {
      ell_max = ell;
    }
    ell_next = ell_min <= ell_bar && ell_bar <= ell_max ? ell_bar
               : i == 1                                 ? ell_max
                                                        : (ell_min + ell_max) / 2;
  }
  int64_t adjust = int64_t(ell_min);
  if (converged) {  // floor(ell_min) is floor of the fixed point unless ceil(ell_min) still fits
    const double ell = std::ceil(ell_min);
    if (ell <= ell_max &&
        alpha_d_lambda * (logK + std::log((m - ell) * (n - N * ell))) + beta >= ell)
      adjust = int64_t(ell);
  }
  return adjust;
}

double evalue(const KarlinAltschul& ka, int32_t score, int64_t m, int64_t n, int64_t N) {
  const int64_t l = length_adjustment(ka, m, n, N);
  const double me = std::max(1.0, double(m - l)), ne = std::max(1.0, double(n - N * l));
  return ka.K * me * ne * std::exp(-ka.lambda * score);
}

}  // namespace lockstep
