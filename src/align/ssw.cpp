// libssw (Zhao et al. 2013, SSE2 striped Smith-Waterman, 16-bit scores) as a comparison
// algorithm: the same scoring (its int8 matrix, its gap convention -(open + (L-1) * extend)),
// A as its read and B as its reference. threads > 1 splits B into that many independent slices
// aligned in parallel against all of A: a throughput figure (cells per second over n x m), whose
// best score ignores alignments crossing slice borders.
#include <chrono>
#include <thread>

#include "lockstep/align.hpp"

#ifdef LOCKSTEP_HAVE_SSW
extern "C" {
#include <ssw.h>
}
#endif

namespace lockstep {

bool have_ssw() {
#ifdef LOCKSTEP_HAVE_SSW
  return true;
#else
  return false;
#endif
}

AlignResult align_ssw(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                      const Scoring& s, int threads) {
#ifndef LOCKSTEP_HAVE_SSW
  (void)a, (void)b, (void)s, (void)threads;
  throw input_error("align: this build has no libssw (install libssw-dev and rebuild)");
#else
  for (int32_t v : s.table)
    if (v < -128 || v > 127) throw input_error("libssw: substitution scores must fit int8");
  if (s.gap_open > 255 || s.gap_extend > 255)
    throw input_error("libssw: gap penalties must be < 256");
  const int k = std::max(1, threads);
  std::vector<int8_t> mat(s.table.begin(), s.table.end());
  std::vector<int8_t> read(a.begin(), a.end()), ref(b.begin(), b.end());
  struct Part {
    int score = 0;
    int64_t ea = -1, eb = -1;
  };
  std::vector<Part> parts(static_cast<size_t>(k));
  const auto t0 = std::chrono::steady_clock::now();
  auto work = [&](int t) {
    const size_t lo = b.size() * size_t(t) / size_t(k), hi = b.size() * size_t(t + 1) / size_t(k);
    if (hi <= lo) return;
    s_profile* prof = ssw_init(read.data(), int32_t(read.size()), mat.data(), s.size(), 1);
    s_align* r = ssw_align(prof, ref.data() + lo, int32_t(hi - lo), uint8_t(s.gap_open),
                           uint8_t(s.gap_extend), 0, 0, 0, 15);
    if (r && r->score1 > 0)
      parts[size_t(t)] = {int(r->score1), int64_t(r->read_end1), int64_t(lo) + r->ref_end1};
    if (r) align_destroy(r);
    init_destroy(prof);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < k; ++t) pool.emplace_back(work, t);
  for (auto& th : pool) th.join();
  AlignResult out;
  for (const Part& p : parts)
    if (p.score > out.score) out.score = p.score, out.end_a = p.ea, out.end_b = p.eb;
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out.config.algorithm = AlignAlgorithm::ssw;
  out.config.threads = k;
  return out;
#endif
}

}  // namespace lockstep
