// The traceback's vector passes (src/align/traceback_start.cpp: the reverse pass in 16-bit
// lanes; traceback_band.cpp: the banded pass's rows in 32-bit lanes) against the scalar passes
// they replace: the same start (the first cell holding the score, row then column, from the end)
// and the same CIGAR, on the search hits of real proteins (the mmseqs2 example data), on pairs
// full of ties (two-letter and DNA sequences, where many starts and paths score the same), and
// the scalar reverse pass kept where the score leaves 16 bits. Every CIGAR rescores.
#include <filesystem>
#include <random>

#include "align/traceback_impl.hpp"
#include "lockstep/search.hpp"
#include "runtime/environment.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

// The scalar start and the striped one side by side, then the whole traceback against the
// scalar passes alone: the same start and CIGAR, which rescores to the score.
void check_pair(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                int32_t score, int64_t ea, int64_t eb) {
  AlignResult want, got;
  want.score = got.score = score;
  want.end_a = got.end_a = ea;
  want.end_b = got.end_b = eb;
  REQUIRE(detail::scalar_start(a, b, s, want));
  REQUIRE(detail::striped_start_fits(s, score));
  REQUIRE(detail::striped_start(a, b, s, got, eb + 1));
  CHECK(got.start_a == want.start_a);
  CHECK(got.start_b == want.start_b);
  AlignResult eight = got;  // the baseline's 8 lanes (16 where AVX2 runs)
  eight.start_a = eight.start_b = -1;
  REQUIRE(detail::striped_start(a, b, s, eight, eb + 1, true));
  CHECK(eight.start_a == want.start_a);
  CHECK(eight.start_b == want.start_b);
  detail::traceback_with(a, b, s, want, detail::Passes::scalar);
  traceback(a, b, s, got);
  CHECK(got.start_a == want.start_a);
  CHECK(got.start_b == want.start_b);
  CHECK(got.cigar == want.cigar);
  detail::traceback_with(a, b, s, eight, detail::Passes::baseline);
  CHECK(eight.start_a == want.start_a);
  CHECK(eight.start_b == want.start_b);
  CHECK(eight.cigar == want.cigar);
  CHECK(rescore(a, b, s, got.start_a, got.start_b, got.cigar) == score);
}

SequenceSet head(const SequenceSet& all, size_t n) {
  SequenceSet out;
  for (size_t i = 0; i < std::min(n, all.size()); ++i)
    out.add(all.names[i], std::vector<uint8_t>(all.data(i), all.data(i) + all.length(i)));
  return out;
}

}  // namespace

TEST_CASE("traceback: the vector passes give the scalar ones' start and CIGAR, real proteins") {
  const auto env_dir = env::value("LOCKSTEP_SEARCH_DATA");
  const std::string dir = env_dir ? *env_dir + "/" : "/usr/share/doc/mmseqs2/example-data/";
  if (!std::filesystem::exists(dir + "DB.fasta.gz"))
    return test::skip("no mmseqs2 example data (Debian mmseqs2-examples) in " + dir);
  const Scoring s = blosum62(11, 1);
  const SequenceSet q = head(read_sequences(dir + "QUERY.fasta.gz", s), 6);
  const SequenceSet db = head(read_sequences(dir + "DB.fasta.gz", s), 300);
  SearchOptions o;
  o.top = 25;
  const SearchResult r = search_cpu(q, db, s, o);
  size_t checked = 0;
  for (const auto& hits : r.hits)
    for (const SearchHit& h : hits) {
      if (h.score <= 0) continue;
      CAPTURE(h.query);
      CAPTURE(h.subject);
      const std::vector<uint8_t> a(q.data(size_t(h.query)),
                                   q.data(size_t(h.query)) + h.query_end + 1);
      const std::vector<uint8_t> b(db.data(size_t(h.subject)),
                                   db.data(size_t(h.subject)) + h.subject_end + 1);
      check_pair(a, b, s, h.score, h.query_end, h.subject_end);
      ++checked;
    }
  CHECK(checked == 6 * 25);
}

TEST_CASE("traceback: the vector passes break ties as the scalar ones, and 16 bits' edge") {
  std::mt19937 rng(5);
  const Scoring protein = blosum62(11, 1), dna = dna_scoring(2, -3, 5, 2);
  for (int round = 0; round < 300; ++round) {
    const bool is_dna = round % 2;
    const Scoring& s = is_dna ? dna : protein;
    // two letters (or DNA with N): repeats, so that many paths and starts share the best score
    const std::string letters = is_dna ? "ACGTN" : (round % 4 == 0 ? "AS" : "KRT");
    auto random = [&](int n) {
      std::string x;
      for (int i = 0; i < n; ++i) x += letters[rng() % letters.size()];
      return x;
    };
    const auto a = s.encode(random(1 + int(rng() % 300))),
               b = s.encode(random(1 + int(rng() % 300)));
    const AlignResult best = align_cpu(a, b, s);
    if (best.score <= 0) continue;
    CAPTURE(round);
    check_pair(a, b, s, best.score, best.end_a, best.end_b);
  }
  // a score of 0 for a leading pair (BLOSUM62 T/A): two starts score the same, the later one kept
  const auto a = protein.encode("TWWWW"), b = protein.encode("AWWWW");
  check_pair(a, b, protein, 44, 4, 4);
  AlignResult r;
  r.score = 44, r.end_a = 4, r.end_b = 4;
  traceback(a, b, protein, r);
  CHECK(r.start_a == 1);
  CHECK(r.cigar == "4M");
  // past 16 bits: the scalar pass (a self hit of 3,000 W scores 33,000)
  const std::vector<uint8_t> w = protein.encode(std::string(3000, 'W'));
  CHECK_FALSE(detail::striped_start_fits(protein, 33000));
  CHECK(detail::striped_start_fits(protein, 30000));
  r = AlignResult{};
  r.score = 33000, r.end_a = r.end_b = 2999;
  traceback(w, w, protein, r);
  CHECK(r.start_a == 0);
  CHECK(r.start_b == 0);
  CHECK(r.cigar == "3000M");
}
