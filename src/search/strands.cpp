// DNA searches of both strands, as blastn: the queries' reverse complements searched as further
// queries, each query's two hit lists merged afterwards.
#include <algorithm>

#include "lockstep/search.hpp"

namespace lockstep {
namespace {
// The complement of each code of dna_scoring (ACGTN) and blastn_scoring (ACGTNRYMKWSBDHV): A-T,
// C-G, R-Y, M-K, B-V, D-H; N, W and S their own.
constexpr uint8_t kComplement[] = {3, 2, 1, 0, 4, 6, 5, 8, 7, 9, 10, 14, 13, 12, 11};
}  // namespace

void check_strand(const std::string& strand) {
  if (strand != "both" && strand != "plus" && strand != "minus")
    throw input_error("strand must be both, plus or minus, got '" + strand + "'");
}

SequenceSet strand_queries(const SequenceSet& q, const std::string& strand) {
  check_strand(strand);
  if (strand == "plus") return q;
  SequenceSet out;
  if (strand == "both") out = q;
  for (size_t i = 0; i < q.size(); ++i) {
    std::vector<uint8_t> rc(q.data(i), q.data(i) + q.length(i));
    std::reverse(rc.begin(), rc.end());
    for (uint8_t& c : rc) c = c < sizeof kComplement ? kComplement[c] : c;
    out.add(q.names[i], rc);
  }
  out.skipped_empty = q.skipped_empty, out.stand_ins = q.stand_ins;
  return out;
}

void merge_strands(SearchResult& r, size_t queries, const std::string& strand, int top) {
  check_strand(strand);
  if (strand == "plus") return;
  if (strand == "minus") {
    for (auto& hits : r.hits)
      for (SearchHit& h : hits) h.minus = true;
    return;
  }
  if (r.hits.size() != 2 * queries)
    throw input_error("merge_strands: not a search of both strands");
  for (size_t i = 0; i < queries; ++i) {
    std::vector<SearchHit>& hits = r.hits[i];
    for (SearchHit h : r.hits[queries + i]) {
      h.minus = true;
      hits.push_back(h);
    }
    std::stable_sort(hits.begin(), hits.end(), [](const SearchHit& a, const SearchHit& b) {
      return a.score != b.score ? a.score > b.score : a.subject < b.subject;
    });
    if (hits.size() > size_t(top)) hits.resize(size_t(top));
  }
  r.hits.resize(queries);
}

}  // namespace lockstep
