// The CPU reference: plain Gotoh local alignment in O(m) memory, rows of A outer, columns of B
// inner, a strictly greater score replacing the best, so ties keep the smallest end in A, then
// in B. Also the algorithm names and the dispatcher align(), with the automatic choice.
#include <chrono>
#include <limits>

#include "align/gpu_common.hpp"
#include "lockstep/align.hpp"

namespace lockstep {

AlignAlgorithm parse_align_algorithm(const std::string& name) {
  if (name == "auto") return AlignAlgorithm::automatic;
  if (name == "cpu") return AlignAlgorithm::cpu;
  if (name == "barrier") return AlignAlgorithm::barrier;
  if (name == "pipeline") return AlignAlgorithm::pipeline;
  if (name == "ssw") return AlignAlgorithm::ssw;
  throw input_error("unknown algorithm '" + name +
                    "' (expected auto, barrier, pipeline, cpu or ssw)");
}

std::string to_string(AlignAlgorithm a) {
  switch (a) {
    case AlignAlgorithm::automatic:
      return "auto";
    case AlignAlgorithm::cpu:
      return "cpu";
    case AlignAlgorithm::barrier:
      return "barrier";
    case AlignAlgorithm::pipeline:
      return "pipeline";
    case AlignAlgorithm::ssw:
      return "ssw";
  }
  return "?";
}

AlignResult align_cpu(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                      const Scoring& s) {
  const auto t0 = std::chrono::steady_clock::now();
  AlignResult r;
  const int32_t neg = std::numeric_limits<int32_t>::min() / 2, open = s.gap_open,
                ext = s.gap_extend;
  const size_t m = b.size();
  std::vector<int32_t> H(m + 1, 0), F(m + 1, neg);  // row i-1 (H[j+1] = H[i-1][j]), F of row i-1
  for (size_t i = 0; i < a.size(); ++i) {
    const int32_t* row = &s.table[size_t(a[i]) * s.alphabet.size()];
    int32_t diag = 0, left = 0, e = neg;  // H[i-1][j-1], H[i][j-1], E[i][j-1]
    for (size_t j = 0; j < m; ++j) {
      e = std::max(e - ext, left - open);
      const int32_t f = std::max(F[j + 1] - ext, H[j + 1] - open);
      const int32_t h = std::max(std::max(diag + row[b[j]], 0), std::max(e, f));
      diag = H[j + 1];
      H[j + 1] = left = h;
      F[j + 1] = f;
      if (h > r.score) r.score = h, r.end_a = int64_t(i), r.end_b = int64_t(j);
    }
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.config.algorithm = AlignAlgorithm::cpu;
  return r;
}

namespace {

AlignResult align_on(Context* ctx, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                     const Scoring& s, AlignConfig config) {
  if (a.empty() || b.empty()) throw input_error("align: empty sequence");
  if (a.size() > (1u << 30) || b.size() > (1u << 30))
    throw input_error("align: sequences longer than 2^30 are not supported");
  AlignAlgorithm alg = config.algorithm;
  if (alg == AlignAlgorithm::automatic) {
    // The pipeline keeps every group busy after a fill of one stripe; the barrier kernel waits
    // at every tile diagonal. Tiny pairs are not worth a device launch.
    // Short protein pairs: the barrier kernel where the defaults table says so.
    alg = !ctx || double(a.size()) * double(b.size()) < 1e6          ? AlignAlgorithm::cpu
          : detail::sw_rule_barrier(ctx->info(), a.size(), s.size()) ? AlignAlgorithm::barrier
                                                                     : AlignAlgorithm::pipeline;
  }
  config.algorithm = alg;
  if ((alg == AlignAlgorithm::barrier || alg == AlignAlgorithm::pipeline) && !ctx)
    throw input_error("align: the " + to_string(alg) + " algorithm needs a device");
  AlignResult r;
  switch (alg) {
    case AlignAlgorithm::barrier:
      r = align_barrier(*ctx, a, b, s, config);
      break;
    case AlignAlgorithm::pipeline:
      r = align_pipeline(*ctx, a, b, s, config);
      break;
    case AlignAlgorithm::ssw:
      r = align_ssw(a, b, s, config.threads);
      break;
    default:
      r = align_cpu(a, b, s);
      break;
  }
  r.config.algorithm = alg;
  r.config.traceback = config.traceback;
  r.config.threads = config.threads;
  if (config.traceback) traceback(a, b, s, r);
  return r;
}

}  // namespace

AlignResult align(Context& ctx, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                  const Scoring& s, AlignConfig config) {
  return align_on(&ctx, a, b, s, config);
}
AlignResult align(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                  AlignConfig config) {
  return align_on(nullptr, a, b, s, config);
}

}  // namespace lockstep
