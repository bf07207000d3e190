// The exact reference of lockstep::search: Gotoh local alignment with affine gaps for every
// (query, subject) pair in 32-bit scores, query rows outer and subject columns inner, a strictly
// greater score replacing the best (so a pair's end is the smallest in the query, then in the
// subject, as align_cpu), OpenMP threads over the pairs of a block of queries, and the top K per
// query by score, ties by database order. Also the checks every search shares.
#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>

#include "lockstep/search.hpp"
#include "runtime/parallel_errors.hpp"
#include "search/search_impl.hpp"

namespace lockstep {
namespace {

SearchHit align_pair(const uint8_t* a, int64_t n, const uint8_t* b, int64_t m, const Scoring& s,
                     std::vector<int32_t>& H, std::vector<int32_t>& F) {
  const int32_t neg = std::numeric_limits<int32_t>::min() / 2, open = s.gap_open,
                ext = s.gap_extend;
  H.assign(size_t(m) + 1, 0);
  F.assign(size_t(m) + 1, neg);
  SearchHit h;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t* row = &s.table[size_t(a[i]) * s.alphabet.size()];
    int32_t diag = 0, left = 0, e = neg;
    for (int64_t j = 0; j < m; ++j) {
      e = std::max(e - ext, left - open);
      const int32_t f = std::max(F[size_t(j) + 1] - ext, H[size_t(j) + 1] - open);
      const int32_t v = std::max(std::max(diag + row[b[j]], 0), std::max(e, f));
      diag = H[size_t(j) + 1];
      H[size_t(j) + 1] = left = v;
      F[size_t(j) + 1] = f;
      if (v > h.score) h.score = v, h.query_end = i, h.subject_end = j;
    }
  }
  return h;
}

}  // namespace

detail::AlgorithmWords detail::algorithm_words(const SearchOptions& o) {
  const size_t plus = o.algorithm.find('+');
  AlgorithmWords w{o.algorithm.substr(0, plus), ""};
  if (plus != std::string::npos) return w.features = o.algorithm.substr(plus + 1), w;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  w.features = o.variant;  // one release: the features' old field
#pragma GCC diagnostic pop
  return w;
}

void check_search(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                  const SearchOptions& o) {
  if (o.top < 1) throw input_error("search: top must be >= 1, got " + std::to_string(o.top));
  if (db.size() == 0) throw input_error("search: the database has no sequences");
  const std::string base = detail::algorithm_words(o).base;
  if (base != "auto" && base != "inter" && base != "intra" && base != "cpu")
    throw input_error("search: unknown algorithm '" + o.algorithm +
                      "' (expected auto, inter, intra or cpu; " + search_features_text() + ")");
  if (base != "inter" && o.algorithm.find('+') != std::string::npos)
    throw input_error("search: algorithm '" + o.algorithm +
                      "': only inter takes kernel features (" + search_features_text() + ")");
  const size_t letters = s.alphabet.size();
  for (const SequenceSet* set : {&queries, &db}) {
    if (set->offsets.size() != set->size() + 1 ||
        int64_t(set->residue_count()) != set->offsets.back())
      throw input_error("search: a sequence set's offsets do not match its residues");
    uint8_t top = 0;  // the largest code (a reduction the compiler vectorizes)
    const uint8_t* c = set->codes();
    for (size_t i = 0, n = set->held_residues(); i < n; ++i) top = std::max(top, c[i]);
    if (set->held_residues() && top >= letters)
      throw input_error("search: residue code " + std::to_string(int(top)) + " outside the " +
                        std::to_string(letters) + " letters of the scoring");
  }
}

std::vector<SearchHit> top_hits(std::vector<SearchHit> all, int top) {
  detail::TopKOf<SearchHit> keep(size_t(std::max(top, 0)));
  for (const SearchHit& h : all) keep.add(h);
  return keep.take();
}

SearchResult search_cpu(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                        const SearchOptions& o) {
  check_search(queries, db, s, o);
  if (!db.whole())
    throw input_error(
        "search: the database set holds one share's codes only (a rank's, for "
        "mpi::search)");
  const auto t0 = std::chrono::steady_clock::now();
  SearchResult r;
  r.algorithm = "cpu";
  r.hits.resize(queries.size());
  // Queries in blocks of about 2^22 pairs, one parallel loop over each block's pairs (so many
  // short queries against a small database do not pay a thread team per query).
  const int64_t subjects = int64_t(db.size());
  const size_t block = size_t(std::max<int64_t>(1, (int64_t(1) << 22) / subjects));
  std::vector<SearchHit> all(std::min(block, queries.size()) * db.size());
  for (size_t q0 = 0; q0 < queries.size(); q0 += block) {
    const size_t q1 = std::min(queries.size(), q0 + block);
    const int64_t pairs = int64_t(q1 - q0) * subjects;
    ParallelErrors errors;  // (an allocation of H or F that fails: reported, not an abort)
#pragma omp parallel
    {
      std::vector<int32_t> H, F;
#pragma omp for schedule(dynamic, 16)
      for (int64_t p = 0; p < pairs; ++p)
        errors.run([&] {
          const size_t q = q0 + size_t(p / subjects), d = size_t(p % subjects);
          SearchHit h =
              align_pair(queries.data(q), queries.length(q), db.data(d), db.length(d), s, H, F);
          h.query = int32_t(q);
          h.subject = int64_t(d);
          all[size_t(p)] = h;
        });
    }
    errors.rethrow();
    for (size_t q = q0; q < q1; ++q) {
      const auto first = all.begin() + std::ptrdiff_t((q - q0) * db.size());
      r.hits[q] = top_hits(std::vector<SearchHit>(first, first + subjects), o.top);
      r.cells += double(queries.length(q)) * double(db.residue_count());
    }
    if (o.progress) o.progress(double(q1) / double(queries.size()));
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace lockstep
