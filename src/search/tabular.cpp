// The BLAST tabular columns of a search hit (outfmt 6): the hit's pair traced back by
// traceback() (src/align/traceback.cpp, bounded memory) from the score and ends the search found,
// then its CIGAR counted: alignment columns, identical pairs, mismatched pairs, gap openings.
// align_hits spreads the hits over the host's threads (a shared counter: hits differ in cost).
#include <atomic>

#include "lockstep/search.hpp"
#include "runtime/parallel_errors.hpp"
#include "search_impl.hpp"

namespace lockstep {

HitAlignment align_hit(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                       const SearchHit& hit) {
  HitAlignment h;
  if (hit.score <= 0) return h;
  const size_t q = size_t(hit.query), d = size_t(hit.subject);
  // only the prefixes up to the ends take part in the traceback
  const std::vector<uint8_t> a(queries.data(q), queries.data(q) + hit.query_end + 1);
  const std::vector<uint8_t> b(db.data(d), db.data(d) + hit.subject_end + 1);
  AlignResult r;
  r.score = hit.score;
  r.end_a = hit.query_end;
  r.end_b = hit.subject_end;
  traceback(a, b, s, r);
  int64_t i = r.start_a, j = r.start_b;
  for (const CigarRun& run : parse_cigar(r.cigar)) {
    h.length += run.length;
    if (run.op == 'M') {
      for (int64_t k = 0; k < run.length; ++k) {
        const uint8_t x = a[size_t(i + k)], y = b[size_t(j + k)];
        // DNA's N (code 4) matches nothing, not even itself
        const bool same = x == y && !(s.dna && x == 4);
        h.nident += same;
        h.mismatch += !same;
        h.positive += s(x, y) > 0;
      }
      i += run.length, j += run.length;
    } else {
      ++h.gapopen;
      h.gaps += run.length;
      (run.op == 'I' ? i : j) += run.length;
    }
  }
  h.pident = h.length ? 100.0 * double(h.nident) / double(h.length) : 0;
  h.qstart = r.start_a + 1;
  h.qend = r.end_a + 1;
  h.sstart = r.start_b + 1;
  h.send = r.end_b + 1;
  h.cigar = r.cigar;
  return h;
}

std::vector<std::vector<HitAlignment>> align_hits(const SequenceSet& queries, const SequenceSet& db,
                                                  const Scoring& s, const SearchResult& r,
                                                  unsigned threads) {
  std::vector<std::vector<HitAlignment>> out(r.hits.size());
  std::vector<std::pair<size_t, size_t>> all;  // (query, rank)
  for (size_t q = 0; q < r.hits.size(); ++q) {
    out[q].resize(r.hits[q].size());
    for (size_t k = 0; k < r.hits[q].size(); ++k) all.emplace_back(q, k);
  }
  std::atomic<size_t> next{0};
  ParallelErrors errors;  // after the first failure, the remaining hits are skipped
  const unsigned n = threads ? threads : detail::host_threads();
  detail::split_over(n, n, [&](size_t, size_t) {
    for (size_t i; (i = next++) < all.size();)
      errors.run([&] {
        const size_t q = all[i].first, k = all[i].second;
        out[q][k] = align_hit(queries, db, s, r.hits[q][k]);
      });
  });
  errors.rethrow();
  return out;
}

}  // namespace lockstep
