// The alignment kernels of cl/smith_waterman.cl against the CPU reference: score and both ends
// equal on planted DNA and protein pairs whose lengths are no multiples of the tile, a pair with
// no positive score, every barrier strategy (relaunch included) of the tile-diagonal kernel and
// the flag-array pipeline (whose groups read the row published by another group with ordinary
// loads after an acquire of its flag), with more stripes than groups so groups take turns.
#include "align/gpu_common.hpp"
#include "align_support.hpp"
#include "lockstep/align.hpp"
#include "lockstep/tuning.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

AlignConfig small(AlignAlgorithm alg, const char* strategy = "auto", int groups = 0) {
  AlignConfig c;
  c.algorithm = alg;
  c.barrier = parse_barrier_choice(strategy);
  c.local_size = 16;  // small shapes: many tiles and stripes on short pairs
  c.cells = 2;
  c.tile_cols = 48;
  c.groups = groups;
  return c;
}

}  // namespace

using test::check_same;

TEST_CASE("align gpu: tile-diagonal kernel, every barrier strategy, equals the CPU reference") {
  Context& ctx = test::context();
  auto [sa, sb] = test::planted_pair(7, 1001, 777, 300);
  Scoring s = dna_scoring(2, -3, 5, 2);
  auto a = s.encode(sa), b = s.encode(sb);
  const AlignResult want = align_cpu(a, b, s);
  REQUIRE(want.score > 100);
  for (const char* st : {"auto", "relaunch", "lock", "grouped-lock", "lock-free", "tree"}) {
    CAPTURE(st);
    AlignResult got = align(ctx, a, b, s, small(AlignAlgorithm::barrier, st));
    check_same(got, want);
    CHECK(got.groups >= 1);
  }
  // Linear gaps (open = extend) and the tie rule on a repeated motif.
  Scoring lin = dna_scoring(1, -1, 2, 2);
  auto ra = lin.encode("ACGTACGTNNACGTACGT"), rb = lin.encode("TTACGTACGTTTACGTACGTGG");
  for (AlignAlgorithm alg : {AlignAlgorithm::barrier, AlignAlgorithm::pipeline}) {
    check_same(align(ctx, ra, rb, lin, small(alg, "lock")), align_cpu(ra, rb, lin));
    // One residue against a few, and a few against one: smaller than one block or tile.
    check_same(align(ctx, lin.encode("G"), rb, lin, small(alg, "lock")),
               align_cpu(lin.encode("G"), rb, lin));
    check_same(align(ctx, ra, lin.encode("C"), lin, small(alg, "lock")),
               align_cpu(ra, lin.encode("C"), lin));
  }
}

TEST_CASE("align gpu: flag-array pipeline equals the CPU reference (DNA, protein, no score)") {
  Context& ctx = test::context();
  {
    auto [sa, sb] = test::planted_pair(8, 1333, 901, 400);
    Scoring s = dna_scoring(2, -3, 5, 2);
    auto a = s.encode(sa), b = s.encode(sb);
    const AlignResult want = align_cpu(a, b, s);
    for (int groups : {0, 2}) {  // 2 groups: 21 stripes taken in turns
      CAPTURE(groups);
      AlignResult got = align(ctx, a, b, s, small(AlignAlgorithm::pipeline, "auto", groups));
      check_same(got, want);
      if (groups) CHECK(got.groups == 2);
    }
  }
  {
    auto [sa, sb] = test::planted_pair(9, 700, 1111, 250, true);
    Scoring s = blosum62(11, 1);
    auto a = s.encode(sa), b = s.encode(sb);
    check_same(align(ctx, a, b, s, small(AlignAlgorithm::pipeline)), align_cpu(a, b, s));
  }
  {  // scores beyond 16 bits: 200 matches of 1000
    auto [sa, sb] = test::wide_score_pair();
    Scoring s = dna_scoring(1000, -1000, 1000, 100);
    auto a = s.encode(sa), b = s.encode(sb);
    const AlignResult want = align_cpu(a, b, s);
    CHECK(want.score >= 200000);
    check_same(align(ctx, a, b, s, small(AlignAlgorithm::pipeline)), want);
    check_same(align(ctx, a, b, s, small(AlignAlgorithm::barrier, "lock")), want);
  }
  {
    Scoring s = dna_scoring(2, -3, 5, 2);
    auto a = s.encode(std::string(300, 'A')), b = s.encode(std::string(200, 'C'));
    for (AlignAlgorithm alg : {AlignAlgorithm::pipeline, AlignAlgorithm::barrier}) {
      AlignResult got = align(ctx, a, b, s, small(alg));
      CHECK(got.score == 0);
      CHECK(got.end_a == -1);
    }
  }
}

// cl/sw_pipeline.cl in the shapes its host code chooses between: an int profile with rows per
// work-item no multiple of 4 (3: the profile's vector loads padded), a byte profile (BLOSUM62 on
// 64 x 16 rows is 24 KiB as bytes, too large as ints for the 48 KiB budget), exact ties in one
// row (the smallest end in B wins) and in one column (the smallest end in A wins), which the
// kernel's per-column best check must pass to its exact per-row pass. On PoCL this is the
// portable path of cl/dpx.cl; on an NVIDIA GPU of compute capability 9.0, the DPX one.
TEST_CASE(
    "align gpu: pipeline profiles (int, bytes), rows no multiple of 4, ties in a row and a "
    "column") {
  Context& ctx = test::context();
  Scoring dna = dna_scoring(2, -3, 5, 2);
  AlignConfig c3 = small(AlignAlgorithm::pipeline);
  c3.cells = 3;
  {
    const Defines d = detail::sw_pipeline_defines(ctx.info(), {16, 3, 48}, dna);
    CHECK(d.values().count("SW_PROF_CHAR") == 0);
    CHECK(d.values().count("DPX_NV") == (ctx.info().dpx ? 1u : 0u));
  }
  // Ties in a row and in a column: the 32-bit and the 16-bit pipeline agree with the reference.
  for (const test::TiePair& t : test::tie_pairs()) {
    CAPTURE(t.in_row);
    auto a = dna.encode(t.a), b = dna.encode(t.b);
    const AlignResult want = align_cpu(a, b, dna);
    REQUIRE(want.score >= 280);
    CHECK((t.in_row ? want.end_b : want.end_a) < 300);
    for (int bits : {32, 16}) {
      CAPTURE(bits);
      c3.score_bits = bits;
      check_same(align(ctx, a, b, dna, c3), want);
    }
  }
  {  // BLOSUM62 on 64 x 16 rows: the byte profile
    Scoring s = blosum62(11, 1);
    CHECK(detail::sw_pipeline_defines(ctx.info(), {64, 16, 64}, s).values().count("SW_PROF_CHAR"));
    CHECK_THROWS_AS(detail::sw_pipeline_defines(ctx.info(), {1024, 64, 64}, s), input_error);
    auto [sa, sb] = test::planted_pair(13, 1500, 1300, 300, true);
    auto a = s.encode(sa), b = s.encode(sb);
    AlignConfig c = small(AlignAlgorithm::pipeline);
    c.local_size = 64, c.cells = 16, c.tile_cols = 64;
    AlignResult got = align(ctx, a, b, s, c);
    check_same(got, align_cpu(a, b, s));
    CHECK(got.config.score_bits == 32);  // 2 x 24 x 1024 shorts: no room for the 16-bit profile
  }
}

// cl/sw_pipeline16.cl: exact where every score fits 16 bits; a planted pair whose best score
// (40,000) leaves them is detected and run again in 32 bits, still exact; and the 16-bit
// kernel's upper stripe (lane 0) and lower stripe (lane 1) both reach the end (three double
// stripes of 2 x 16 x 2 rows on 100-odd rows; a pair of one row).
TEST_CASE("align gpu: 16-bit pipeline, exact, and a saturated pair run again in 32 bits" *
          doctest::test_suite("portable")) {
  Context& ctx = test::context();
  Scoring s = dna_scoring(100, -100, 150, 50);
  AlignConfig c = small(AlignAlgorithm::pipeline);
  for (size_t region : {300, 400}) {
    CAPTURE(region);
    auto [sa, sb] = test::planted_pair(14, 901, 800, 10);
    sb.replace(300, region, sa.substr(200, region));
    auto a = s.encode(sa), b = s.encode(sb);
    const AlignResult want = align_cpu(a, b, s);
    REQUIRE(want.score >= int(region) * 100);
    const AlignResult got = align(ctx, a, b, s, c);
    check_same(got, want);
    CHECK(got.barrier == (want.score < 32000 ? "flags16" : "flags16-saturated"));
    CHECK(got.config.score_bits == (want.score < 32000 ? 16 : 32));
  }
  Scoring dna = dna_scoring(2, -3, 5, 2);
  c.score_bits = 16;
  for (auto [n, m] : {std::pair<size_t, size_t>{130, 97}, {1, 50}, {64, 1}}) {
    CAPTURE(n);
    auto [sa, sb] = test::planted_pair(15, n, m, 40);
    auto a = dna.encode(sa), b = dna.encode(sb);
    const AlignResult got = align(ctx, a, b, dna, c);
    check_same(got, align_cpu(a, b, dna));
    CHECK(got.barrier == "flags16");
  }
  CHECK_THROWS_AS(align(ctx, s.encode("ACGT"), s.encode("ACGT"), dna_scoring(2, -3, 9000, 1), c),
                  input_error);
}

TEST_CASE("align gpu: a 20 kbp slice pair of the two genomes, with traceback") {
  auto dir = test::source_dir().parent_path() / "shared" / "genomes";
  if (!std::filesystem::exists(dir / "MG1655-K12.fasta.gz"))
    dir = test::source_dir() / ".carry" / "genomes";  // the GPU machine (tools/gpu/prepare.sh)
  if (!std::filesystem::exists(dir / "MG1655-K12.fasta.gz")) {
    return test::skip("no genomes in ../shared/genomes or .carry/genomes");
  }
  Context& ctx = test::context();
  Scoring s = dna_scoring(2, -3, 5, 2);
  const std::string ga = read_sequence((dir / "MG1655-K12.fasta.gz").string()).residues;
  const std::string gb = read_sequence((dir / "O395.fasta.gz").string()).residues;
  // A slice of E. coli against a slice that contains a mutated copy of part of it plus Vibrio.
  std::string sa = ga.substr(100000, 6001), sb = gb.substr(200000, 4003);
  sb.replace(1000, 2000, sa.substr(2500, 2000));
  sb[1500] = sb[1500] == 'A' ? 'C' : 'A';
  auto a = s.encode(sa), b = s.encode(sb);
  AlignConfig c = small(AlignAlgorithm::pipeline);  // the shape built above: no new compile
  c.traceback = true;
  AlignResult got = align(ctx, a, b, s, c);
  const AlignResult want = align_cpu(a, b, s);
  check_same(got, want);
  CHECK(got.score >= 3900);
  CHECK(rescore(a, b, s, got.start_a, got.start_b, got.cigar) == got.score);
}

TEST_CASE("align gpu: tune stores the fastest shape, and the automatic shape uses it") {
  Context& ctx = test::context();
  test::TempDir dir;
  const std::string db = (dir.path / "tuning.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", db);

  const AlignConfig shape = small(AlignAlgorithm::pipeline);
  tuning::Options o;
  o.candidates = {
      {{"local_size", shape.local_size}, {"cells", shape.cells}, {"tile_cols", shape.tile_cols}}};
  const tuning::Outcome t =
      tuning::tune(ctx, *align_family(ctx, AlignAlgorithm::pipeline, 900, 700, 1), o);
  AlignConfig automatic;
  automatic.algorithm = AlignAlgorithm::pipeline;
  AlignConfig c = align_tuned(ctx.info(), automatic, 1000, 800);

  REQUIRE(t.candidates.size() == 1);
  CHECK(t.best.verified);
  CHECK(t.best.metrics.at("score").get<int>() > 0);
  CHECK(t.stored);
  CHECK(c.local_size == 16);
  CHECK(c.cells == 2);
  CHECK(c.tile_cols == 48);
  automatic.algorithm = AlignAlgorithm::barrier;  // no barrier entry: the rule stays
  CHECK(align_tuned(ctx.info(), automatic, 1000, 800).local_size == 0);
}
