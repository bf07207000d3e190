// cl/sw_pipeline_skew.cl (AlignConfig::variant "skew": row k of a stripe at column s - k at step
// s) against the CPU reference: score and both ends equal on DNA and protein pairs in one shape
// of 8 work-items x 3 rows (rows no multiple of 4; 24-row stripes, n no multiple of them), with
// B shorter than a stripe's skew (m < 24, where no step has every row active), one row, exact
// ties in a row and in a column, no positive score, scores beyond 16 bits, and two groups taking
// turns over many stripes (each reads the row another group published, with ordinary loads
// after an acquire of its flag). Two program builds: the shape for DNA and for BLOSUM62.
#include "align_support.hpp"
#include "lockstep/align.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

AlignConfig skew(int groups = 0) {
  AlignConfig c;
  c.algorithm = AlignAlgorithm::pipeline;
  c.variant = "skew";
  c.local_size = 8;
  c.cells = 3;
  c.tile_cols = 16;
  c.groups = groups;
  return c;
}

void check_same(const AlignResult& got, const AlignResult& want) {
  test::check_same(got, want);
  CHECK(got.barrier == "flags-skew");
  CHECK(got.config.score_bits == 32);
}

}  // namespace

TEST_CASE("align gpu: skew pipeline equals the CPU reference (DNA, protein, short B, no score)") {
  Context& ctx = test::context();
  Scoring dna = dna_scoring(2, -3, 5, 2);
  {
    auto [sa, sb] = test::planted_pair(8, 1333, 901, 400);
    auto a = dna.encode(sa), b = dna.encode(sb);
    const AlignResult want = align_cpu(a, b, dna);
    REQUIRE(want.score > 100);
    for (int groups : {0, 2}) {  // 2 groups: 56 stripes taken in turns
      CAPTURE(groups);
      const AlignResult got = align(ctx, a, b, dna, skew(groups));
      check_same(got, want);
      if (groups) CHECK(got.groups == 2);
    }
  }
  // B shorter than a stripe's 24 rows, a single row, a single column, n = 24 + 1.
  for (auto [n, m] : {std::pair<size_t, size_t>{200, 17}, {1, 50}, {64, 1}, {25, 23}}) {
    CAPTURE(n);
    CAPTURE(m);
    auto [sa, sb] = test::planted_pair(15, n, m, 40);
    auto a = dna.encode(sa), b = dna.encode(sb);
    check_same(align(ctx, a, b, dna, skew(2)), align_cpu(a, b, dna));
  }
  {  // scores beyond 16 bits: 200 matches of 1000
    auto [sa, sb] = test::wide_score_pair();
    Scoring s = dna_scoring(1000, -1000, 1000, 100);
    auto a = s.encode(sa), b = s.encode(sb);
    const AlignResult want = align_cpu(a, b, s);
    CHECK(want.score >= 200000);
    check_same(align(ctx, a, b, s, skew()), want);
  }
  {  // no positive score
    auto a = dna.encode(std::string(300, 'A')), b = dna.encode(std::string(200, 'C'));
    const AlignResult got = align(ctx, a, b, dna, skew());
    CHECK(got.score == 0);
    CHECK(got.end_a == -1);
    CHECK(got.end_b == -1);
  }
  {
    auto [sa, sb] = test::planted_pair(9, 700, 1111, 250, true);
    Scoring s = blosum62(11, 1);
    auto a = s.encode(sa), b = s.encode(sb);
    check_same(align(ctx, a, b, s, skew(2)), align_cpu(a, b, s));
  }
}

// Ties: the kernel's per-step filter must pass every cell that equals the best to its exact
// per-row pass, whose rows sit at different columns in one step.
TEST_CASE("align gpu: skew pipeline, exact ties in a row and in a column") {
  Context& ctx = test::context();
  Scoring dna = dna_scoring(2, -3, 5, 2);
  for (const test::TiePair& t : test::tie_pairs()) {  // in a row, then in a column
    CAPTURE(t.in_row);
    auto a = dna.encode(t.a), b = dna.encode(t.b);
    const AlignResult want = align_cpu(a, b, dna);
    REQUIRE(want.score >= 280);
    CHECK((t.in_row ? want.end_b : want.end_a) < 300);
    check_same(align(ctx, a, b, dna, skew(2)), want);
  }
}

// No device program: the variant's name and its combinations are checked before any build.
TEST_CASE("align: an unknown pipeline variant, and skew with 16 bits or another algorithm, throw") {
  Context& ctx = test::context();
  Scoring dna = dna_scoring(2, -3, 5, 2);
  auto a = dna.encode("ACGTACGTAC"), b = dna.encode("ACGTTACG");
  AlignConfig c = skew();
  c.variant = "bogus";
  CHECK_THROWS_WITH_AS(align(ctx, a, b, dna, c),
                       "align: unknown pipeline variant 'bogus' (expected plain or skew)",
                       input_error);
  c.variant = "skew";
  c.score_bits = 16;
  CHECK_THROWS_AS(align(ctx, a, b, dna, c), input_error);
  c.score_bits = 0;
  c.algorithm = AlignAlgorithm::barrier;
  CHECK_THROWS_AS(align(ctx, a, b, dna, c), input_error);
  c.algorithm = AlignAlgorithm::cpu;
  CHECK_THROWS_AS(align(a, b, dna, c), input_error);
  c.variant = "plain";
  CHECK(align(a, b, dna, c).score == align_cpu(a, b, dna).score);
}
