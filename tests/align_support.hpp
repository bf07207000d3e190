// Test pairs for the alignment tests: random DNA or protein with a planted similar region (a
// slice of A, mutated by substitutions and short indels, placed inside B), fixed seeds.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "lockstep/align.hpp"

namespace lockstep::test {

/// A device alignment's score and both ends equal the reference's.
inline void check_same(const AlignResult& got, const AlignResult& want) {
  CHECK(got.score == want.score);
  CHECK(got.end_a == want.end_a);
  CHECK(got.end_b == want.end_b);
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

}  // namespace lockstep::test
