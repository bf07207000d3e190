// Test pairs for the alignment and search tests: random DNA or protein with a planted similar
// region (a slice of A, mutated by substitutions and short indels, placed inside B), fixed seeds;
// and the comparisons of two alignments or two searches.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lockstep/align.hpp"
#include "lockstep/search.hpp"

namespace lockstep::test {

/// A device alignment's score and both ends equal the reference's.
inline void check_same(const AlignResult& got, const AlignResult& want) {
  CHECK(got.score == want.score);
  CHECK(got.end_a == want.end_a);
  CHECK(got.end_b == want.end_b);
}

/// The search tests' options: top K, a small shape (32 x 16) that builds one program per device.
inline SearchOptions search_shape(int top) {
  SearchOptions o;
  o.top = top;
  o.local_size = 32;
  o.stripe = 16;
  return o;
}

/// Two searches' hits equal, query by query and rank by rank (a split search against one device).
inline void check_same_hits(const SearchResult& got, const SearchResult& want) {
  REQUIRE(got.hits.size() == want.hits.size());
  for (size_t q = 0; q < want.hits.size(); ++q) {
    REQUIRE(got.hits[q].size() == want.hits[q].size());
    for (size_t k = 0; k < want.hits[q].size(); ++k) {
      const SearchHit &g = got.hits[q][k], &w = want.hits[q][k];
      INFO("query " << q << " rank " << k);
      CHECK(g.query == w.query);
      CHECK(g.subject == w.subject);
      CHECK(g.score == w.score);
      CHECK(g.query_end == w.query_end);
      CHECK(g.subject_end == w.subject_end);
    }
  }
}

inline std::string random_residues(std::mt19937& rng, size_t n, const std::string& letters) {
  std::string s(n, ' ');
  for (auto& c : s) c = letters[rng() % letters.size()];
  return s;
}

/// A (n residues) and B (m residues) sharing a mutated copy of A[n/4 .. n/4 + region).
inline std::pair<std::string, std::string> planted_pair(unsigned seed, size_t n, size_t m,
                                                        size_t region, bool protein = false) {
  std::mt19937 rng(seed);
  const std::string letters = protein ? "ARNDCQEGHILKMFPSTWYV" : "ACGT";
  std::string a = random_residues(rng, n, letters), b = random_residues(rng, m, letters);
  region = std::min({region, n / 2, m / 2});
  std::string copy;
  for (size_t i = n / 4; i < n / 4 + region; ++i) {
    const unsigned r = rng() % 100;
    if (r < 8)
      copy += letters[rng() % letters.size()];  // substitution
    else if (r < 10)
      continue;  // deletion
    else if (r < 12)
      copy += std::string(1, a[i]) + letters[rng() % letters.size()];  // insertion
    else
      copy += a[i];
  }
  const size_t at = m / 3;
  b.replace(at, std::min(copy.size(), m - at), copy.substr(0, m - at));
  return {a, b};
}

/// A DNA pair whose best score passes 16 bits with 1000 a match: B holds 200 residues of A.
inline std::pair<std::string, std::string> wide_score_pair() {
  auto [sa, sb] = planted_pair(10, 300, 400, 10);
  sb.replace(100, 200, sa.substr(70, 200));
  return {sa, sb};
}

/// Exact ties, each copy of a 150-residue region of A between runs of N (which never match):
/// in_row, the region twice in B (equal scores in one row at two columns: the smaller end in B,
/// below 300, wins); else twice in A (one column, two rows: the smaller end in A, below 300).
struct TiePair {
  std::string a, b;
  bool in_row;
};
inline std::vector<TiePair> tie_pairs() {
  const std::string ns(12, 'N');
  auto place = [&](std::string& s, size_t at, const std::string& region) {
    s.replace(at - ns.size(), region.size() + 2 * ns.size(), ns + region + ns);
  };
  std::vector<TiePair> out;
  {
    auto [sa, sb] = planted_pair(11, 901, 1200, 10);
    const std::string region = sa.substr(300, 150);
    place(sa, 300, region);
    place(sb, 100, region);
    place(sb, 700, region);
    out.push_back({sa, sb, true});
  }
  {
    auto [sa, sb] = planted_pair(12, 1001, 700, 10);
    const std::string region = sa.substr(100, 150);
    place(sa, 100, region);
    place(sa, 600, region);
    place(sb, 200, region);
    out.push_back({sa, sb, false});
  }
  return out;
}

}  // namespace lockstep::test
