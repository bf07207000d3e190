// The BLAST tabular columns of a search hit (outfmt 6): the hit's pair traced back by
// traceback() (src/align/traceback.cpp, bounded memory) from the score and ends the search found,
// then its CIGAR counted: alignment columns, identical pairs, mismatched pairs, gap openings.
#include "lockstep/search.hpp"

namespace lockstep {

HitAlignment align_hit(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                       const SearchHit& hit) {
  HitAlignment h;
  if (hit.score <= 0) return h;
  const size_t q = size_t(hit.query), d = size_t(hit.subject);
  const std::vector<uint8_t> a(queries.data(q), queries.data(q) + queries.length(q));
  const std::vector<uint8_t> b(db.data(d), db.data(d) + db.length(d));
  AlignResult r;
  r.score = hit.score;
  r.end_a = hit.query_end;
  r.end_b = hit.subject_end;
  traceback(a, b, s, r);
  int64_t i = r.start_a, j = r.start_b, identical = 0;
  for (const CigarRun& run : parse_cigar(r.cigar)) {
    h.length += run.length;
    if (run.op == 'M') {
      for (int64_t k = 0; k < run.length; ++k) {
        const uint8_t x = a[size_t(i + k)], y = b[size_t(j + k)];
        // DNA's N (code 4) matches nothing, not even itself
        const bool same = x == y && !(s.dna && x == 4);
        identical += same;
        h.mismatch += !same;
      }
      i += run.length, j += run.length;
    } else {
      ++h.gapopen;
      (run.op == 'I' ? i : j) += run.length;
    }
  }
  h.pident = h.length ? 100.0 * double(identical) / double(h.length) : 0;
  h.qstart = r.start_a + 1;
  h.qend = r.end_a + 1;
  h.sstart = r.start_b + 1;
  h.send = r.end_b + 1;
  h.cigar = r.cigar;
  return h;
}

}  // namespace lockstep
