// E-values and bit scores of search hits as BLAST+ computes them, from NCBI's parameters
// (ncbi_parameters.cpp, BLAST's blast_stat.c tables). A protein matrix is recognised by its
// content, not its name. Proteins: Spouge's finite-size correction (BLAST_SpougeStoE), as blastp
// computes every E-value; DNA: K m' n' e^(-lambda S) over BLAST's effective search space (the
// length adjustment of BLAST_ComputeLengthAdjustment), as blastn, with the score rounded down to
// even for the reward/penalty pairs where NCBI's table says so. Bit score (lambda S - ln K) / ln 2.
// BLAST's gap costs count differently: its "existence a, extension b" costs a + L b for a gap of
// length L, lockstep's open + (L-1) extend; so lockstep's open O, extend E is BLAST's a = O - E,
// b = E (BLAST's default 11/1 for BLOSUM62 is lockstep's 12/1).
#include <cmath>
#include <numeric>

#include "lockstep/search.hpp"
#include "search/search_impl.hpp"

namespace lockstep {
namespace {

// Whether `s` scores every pair of its letters as `ref` does and has the 20 amino acids.
bool same_matrix(const Scoring& s, const Scoring& ref) {
  for (const char c : std::string("ARNDCQEGHILKMFPSTWYV"))
    if (s.alphabet.find(c) == std::string::npos) return false;
  std::vector<size_t> at(s.alphabet.size());
  for (size_t i = 0; i < at.size(); ++i) {
    at[i] = ref.alphabet.find(s.alphabet[i]);
    if (at[i] == std::string::npos) return false;
  }
  for (size_t i = 0; i < at.size(); ++i)
    for (size_t j = 0; j < at.size(); ++j)
      if (s(uint8_t(i), uint8_t(j)) != ref(uint8_t(at[i]), uint8_t(at[j]))) return false;
  return true;
}

KarlinAltschul from_row(const std::string& name, const detail::StatRow& r) {
  KarlinAltschul ka;
  ka.matrix = name;
  ka.lambda = r.lambda, ka.K = r.K, ka.H = r.H, ka.alpha = r.alpha, ka.beta = r.beta;
  return ka;
}

KarlinAltschul protein(const Scoring& s) {
  const int open = s.gap_open - s.gap_extend, extend = s.gap_extend;  // BLAST's
  for (const detail::ProteinParameters& p : detail::protein_parameters()) {
    if (!same_matrix(s, matrix_scoring(p.matrix, 0, 0))) continue;
    for (size_t i = 1; i < p.rows.size(); ++i) {
      const detail::StatRow& r = p.rows[i];
      if (r.open != open || r.extend != extend) continue;
      KarlinAltschul ka = from_row(p.matrix, r);
      // Blast_GumbelBlkLoadFromTables
      const double G = open + extend, a_un = p.rows[0].alpha, alpha_un = p.rows[0].alpha_v;
      ka.spouge = true;
      ka.a = r.alpha, ka.Alpha = r.alpha_v, ka.Sigma = r.sigma;
      ka.b = 2 * G * (a_un - ka.a);
      ka.Beta = 2 * G * (alpha_un - ka.Alpha);
      ka.Tau = 2 * G * (alpha_un - ka.Sigma);
      return ka;
    }
    return {};
  }
  return {};
}

KarlinAltschul nucleotide(const Scoring& s) {
  const int reward = s(0, 0), penalty = s(0, 1);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (s(uint8_t(i), uint8_t(j)) != (i == j ? reward : penalty)) return {};
  if (reward <= 0 || penalty >= 0) return {};
  const int d = std::gcd(reward, -penalty), open = s.gap_open - s.gap_extend, extend = s.gap_extend;
  for (const detail::NucleotideParameters& p : detail::nucleotide_parameters()) {
    if (p.reward != reward / d || p.penalty != penalty / d) continue;
    for (const detail::StatRow& r : p.rows) {  // s_AdjustGapParametersByGcd: gaps x d, lambda / d
      if (r.open * d != open || r.extend * d != extend) continue;
      KarlinAltschul ka =
          from_row("blastn " + std::to_string(reward) + "/" + std::to_string(penalty), r);
      ka.lambda /= d, ka.alpha /= d;
      ka.round_down = p.reward == 2 || (p.reward == 3 && p.penalty == -4);
      return ka;
    }
    return {};
  }
  return {};
}

}  // namespace

KarlinAltschul karlin_altschul(const Scoring& s) { return s.dna ? nucleotide(s) : protein(s); }

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

double effective_search_space(const KarlinAltschul& ka, int64_t m, int64_t n, int64_t N) {
  const int64_t l = length_adjustment(ka, m, n, N);
  return double(std::max<int64_t>(1, n - N * l)) * double(m - l);  // BLAST_CalcEffLengths
}

double evalue(const KarlinAltschul& ka, int32_t score, int64_t m, int64_t subject, int64_t n,
              int64_t N) {
  if (ka.round_down) score &= ~1;
  if (!ka.spouge) return ka.K * effective_search_space(ka, m, n, N) * std::exp(-ka.lambda * score);
  // BLAST_SpougeStoE (kbp and gbp of one row: no rescaling), symmetric in query and subject
  const double y = score, lambda = ka.lambda, const_val = 0.39894228040143267793994605993438;
  const auto side = [&](double len, double& P) {
    const double l_y = len - (ka.a * y + ka.b);
    const double v = std::max(2.0 * ka.Alpha / lambda, ka.Alpha * y + ka.Beta), sv = std::sqrt(v);
    const double F = l_y / sv;
    P = std::erfc(-F / std::sqrt(2.0)) / 2.0;
    return l_y * P + sv * const_val * std::exp(-0.5 * F * F);
  };
  double P_m = 0, P_n = 0;
  const double p1 = side(double(m), P_m), p2 = side(double(subject), P_n);
  const double c_y = std::max(2.0 * ka.Sigma / lambda, ka.Sigma * y + ka.Tau);
  const double area = p1 * p2 + c_y * P_m * P_n;
  return area * ka.K * std::exp(-lambda * y) * double(n) / double(subject);
}

}  // namespace lockstep
