// PLACEHOLDER on branch `search` (the device engine): branch `search-io` owns this file and its
// version wins at merge. align_cpu per pair, the same ranking as the device search.
#include <algorithm>

#include "lockstep/search.hpp"

namespace lockstep {

SearchResult search_cpu(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                        const SearchOptions& o) {
  if (o.top < 1) throw input_error("search: top must be at least 1");
  SearchResult r;
  r.algorithm = "cpu";
  r.hits.resize(queries.size());
  for (size_t q = 0; q < queries.size(); ++q) {
    const std::vector<uint8_t> a(queries.data(q), queries.data(q) + queries.length(q));
    std::vector<SearchHit> all;
    for (size_t i = 0; i < db.size(); ++i) {
      const std::vector<uint8_t> b(db.data(i), db.data(i) + db.length(i));
      AlignResult ar;
      if (!a.empty() && !b.empty()) ar = align_cpu(a, b, s);
      all.push_back({int32_t(q), int64_t(i), ar.score, ar.end_a, ar.end_b});
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const SearchHit& x, const SearchHit& y) { return x.score > y.score; });
    all.resize(std::min(all.size(), size_t(o.top)));
    r.hits[q] = all;
  }
  return r;
}

}  // namespace lockstep
