// Host side of the alignment: FASTA reading (multi-line, lower case, gzip, records, plain text,
// errors with file and line), scoring schemes (DNA, BLOSUM62, NCBI files), the CPU reference on
// hand-checked pairs, the traceback (start, CIGAR that rescores to the score, bounded band) on
// planted pairs, and libssw agreeing with the reference where its 16-bit scores suffice.
#include <zlib.h>

#include <fstream>

#include "align_support.hpp"
#include "lockstep/align.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::vector<uint8_t> dna(const std::string& s) { return dna_scoring(2, -3, 5, 2).encode(s); }

}  // namespace

TEST_CASE("align: FASTA records, plain text, gzip, and errors with file and line") {
  test::TempDir dir;
  const auto fa = dir.path / "x.fa";
  write(fa, ">one first\nACGT\nac gtN\n\n>two\nMKV*\n>three\n\n");
  Sequence s = read_sequence(fa.string());
  CHECK(s.name == "one first");
  CHECK(s.residues == "ACGTACGTN");
  CHECK(read_sequence(fa.string(), 2).residues == "MKV*");
  CHECK_THROWS_WITH_AS(read_sequence(fa.string(), 3), doctest::Contains(":7: empty sequence"),
                       input_error);
  CHECK_THROWS_WITH_AS(read_sequence(fa.string(), 4), doctest::Contains("has 3 record(s)"),
                       input_error);

  const auto txt = dir.path / "plain.txt";
  write(txt, "acgtn\nNNAC\n");
  CHECK(read_sequence(txt.string()).residues == "ACGTNNNAC");

  const auto bad = dir.path / "bad.fa";
  write(bad, ">x\nACGT\nAC1T\n");
  CHECK_THROWS_WITH_AS(read_sequence(bad.string()),
                       doctest::Contains("bad.fa:3: invalid character '1'"), input_error);
  write(bad, "");
  CHECK_THROWS_WITH_AS(read_sequence(bad.string()), doctest::Contains("empty file"), input_error);

  const auto gz = dir.path / "x.fa.gz";
  gzFile f = gzopen(gz.string().c_str(), "wb");
  const std::string text = ">g\nACGTTTGA\nCC\n";
  gzwrite(f, text.data(), unsigned(text.size()));
  gzclose(f);
  CHECK(read_sequence(gz.string()).residues == "ACGTTTGACC");
}

TEST_CASE("align: scoring schemes, N never matches, NCBI matrix files") {
  Scoring d = dna_scoring(2, 3, 5, 2);
  auto c = d.encode("ACGTNRacgtn");
  CHECK(c == std::vector<uint8_t>{0, 1, 2, 3, 4, 4, 0, 1, 2, 3, 4});
  CHECK(d(0, 0) == 2);
  CHECK(d(0, 1) == -3);
  CHECK(d(4, 4) == -3);
  Scoring b = blosum62(11, 1);
  CHECK(b.size() == 25);  // NCBI's file: the 20, B, J, Z, X and *
  CHECK(b(b.encode("W")[0], b.encode("W")[0]) == 11);
  CHECK(b(b.encode("A")[0], b.encode("R")[0]) == -1);
  CHECK(b.encode("J")[0] == b.alphabet.find('J'));
  CHECK(b.encode("U")[0] == b.encode("C")[0]);  // blastp's stand-ins: U as C, O as X
  CHECK(b.encode("o")[0] == b.encode("X")[0]);

  test::TempDir dir;
  const auto m = dir.path / "m.txt";
  write(m, "# tiny\n   A  B\nA  3 -1\nB -1  2\n");
  Scoring t = read_ncbi_matrix(m.string(), 4, 1);
  CHECK(t.alphabet == "AB");
  CHECK(t(1, 1) == 2);
  CHECK(t.encode("abBA") == std::vector<uint8_t>{0, 1, 1, 0});
  CHECK_THROWS_WITH_AS(t.encode("AC"), doctest::Contains("residue 1: 'C' is not in the matrix"),
                       input_error);
  write(m, "   A  B\nA  3 -1\nB -1\n");
  CHECK_THROWS_WITH_AS(read_ncbi_matrix(m.string(), 4, 1), doctest::Contains("m.txt:3:"),
                       input_error);
}

TEST_CASE("align: CPU reference on hand-checked pairs and the tie rule") {
  Scoring s = dna_scoring(2, -3, 5, 2);
  AlignResult r = align_cpu(dna("TTACGTACGTTT"), dna("GGACGTACGGG"), s);
  CHECK(r.score == 14);  // ACGTACG
  CHECK(r.end_a == 8);
  CHECK(r.end_b == 8);
  // ACGT appears twice in B: the smallest end in A, then in B.
  r = align_cpu(dna("ACGT"), dna("CCACGTCCACGT"), s);
  CHECK(r.score == 8);
  CHECK(r.end_a == 3);
  CHECK(r.end_b == 5);
  // A gap of length 2 costs open + extend = 7: ACGTAC + GT|ACGTAC -> 12 + 12 - 7 = 17.
  r = align_cpu(dna("ACGTACGTACGTAC"), dna("ACGTACACGTAC"), s);
  CHECK(r.score == 17);
  // No positive score: N never matches.
  r = align_cpu(dna("NNNN"), dna("NNNN"), s);
  CHECK(r.score == 0);
  CHECK(r.end_a == -1);
}

TEST_CASE("align: traceback finds the start, and its CIGAR rescores to the score") {
  for (unsigned seed : {1u, 2u, 3u}) {
    const bool protein = seed == 3;
    auto [sa, sb] = test::planted_pair(seed, 3000 + seed * 77, 2500 + seed * 31, 900, protein);
    Scoring s = protein ? blosum62(11, 1) : dna_scoring(2, -3, 5, 2);
    auto a = s.encode(sa), b = s.encode(sb);
    AlignResult r = align_cpu(a, b, s);
    traceback(a, b, s, r);
    CAPTURE(seed);
    REQUIRE(r.start_a >= 0);
    CHECK(r.start_a <= r.end_a);
    CHECK(rescore(a, b, s, r.start_a, r.start_b, r.cigar) == r.score);
    // The aligned region, realigned alone, gives the same score (the start is a true start).
    std::vector<uint8_t> ra(a.begin() + r.start_a, a.begin() + r.end_a + 1);
    std::vector<uint8_t> rb(b.begin() + r.start_b, b.begin() + r.end_b + 1);
    CHECK(align_cpu(ra, rb, s).score == r.score);
    CHECK(r.traceback_bytes < size_t(r.end_a - r.start_a + 2) * 1024);
    const std::string view = alignment_view(sa, sb, r.start_a, r.start_b, r.cigar);
    CHECK(view.find('|') != std::string::npos);
  }
  Scoring s = dna_scoring(2, -3, 5, 2);
  AlignResult r = align_cpu(dna("ACGTACGTACGTAC"), dna("ACGTACACGTAC"), s);
  traceback(dna("ACGTACGTACGTAC"), dna("ACGTACACGTAC"), s, r);
  CHECK(r.cigar == "6M2I6M");
  CHECK(r.start_a == 0);
}

TEST_CASE("align: libssw agrees with the reference where 16 bits suffice") {
  if (!have_ssw()) return test::skip("built without libssw");
  for (unsigned seed : {11u, 12u}) {
    const bool protein = seed == 12;
    auto [sa, sb] = test::planted_pair(seed, 2000, 1700, 600, protein);
    Scoring s = protein ? blosum62(11, 1) : dna_scoring(2, -3, 5, 2);
    auto a = s.encode(sa), b = s.encode(sb);
    AlignResult want = align_cpu(a, b, s), got = align_ssw(a, b, s, 1);
    CAPTURE(seed);
    CHECK(got.score == want.score);
    CHECK(got.end_a == want.end_a);
    CHECK(got.end_b == want.end_b);
  }
}

TEST_CASE("align CLI: key=value line, traceback, JSON, and exit codes") {
  test::TempDir dir;
  auto [sa, sb] = test::planted_pair(21, 900, 700, 300);
  write(dir.path / "a.fa", ">a\n" + sa.substr(0, 450) + "\n" + sa.substr(450) + "\n");
  write(dir.path / "b.txt", sb + "\n");
  const std::string a = (dir.path / "a.fa").string(), b = (dir.path / "b.txt").string();
  Scoring s = dna_scoring(2, -3, 5, 2);
  const AlignResult want = align_cpu(s.encode(sa), s.encode(sb), s);
  std::string out;

  REQUIRE(test::run_cli("align " + a + " " + b + " --algorithm cpu --traceback --json " +
                            (dir.path / "r.json").string(),
                        out) == 0);
  const std::string last = out.substr(out.rfind("score="));
  CHECK(last.rfind("score=" + std::to_string(want.score) + " end_a=" + std::to_string(want.end_a) +
                       " end_b=" + std::to_string(want.end_b) + " start_a=",
                   0) == 0);
  CHECK(last.find(" cigar=") != std::string::npos);
  CHECK(last.find(" gcups=") != std::string::npos);
  CHECK(std::filesystem::exists(dir.path / "r.json"));
  // The device pipeline through the CLI (the test shape of test_align_gpu.cpp: no new build).
  REQUIRE(test::run_cli("align " + a + " " + b +
                            " --algorithm pipeline --local-size 16 --cells 2 " + "--tile-cols 48",
                        out) == 0);
  CHECK(out.find("score=" + std::to_string(want.score) + " end_a=" + std::to_string(want.end_a) +
                 " end_b=" + std::to_string(want.end_b) + " cells=") != std::string::npos);

  CHECK(test::run_cli("align " + a + " " + (dir.path / "none.fa").string() + " --algorithm cpu",
                      out) == 1);
  write(dir.path / "bad.fa", ">x\nAC%T\n");
  CHECK(test::run_cli("align " + a + " " + (dir.path / "bad.fa").string() + " --algorithm cpu",
                      out) == 1);
  CHECK(out.find("bad.fa:2: invalid character '%'") != std::string::npos);
  CHECK(test::run_cli("align " + a + " " + b + " --gap-open -1", out) == 2);
  CHECK(test::run_cli("align " + a + " " + b + " --algorithm fast", out) == 2);
  CHECK(test::run_cli("align " + a + " " + b + " --matrix blosum62 --match 3", out) == 2);
  CHECK(test::run_cli("align " + a, out) == 2);
}

TEST_CASE("align: parse_cigar gives the runs and refuses malformed strings") {
  const std::vector<CigarRun> runs = parse_cigar("12M3I5D1M");

  REQUIRE(runs.size() == 4);
  CHECK((runs[0].length == 12 && runs[0].op == 'M'));
  CHECK((runs[1].length == 3 && runs[1].op == 'I'));
  CHECK((runs[2].length == 5 && runs[2].op == 'D'));
  CHECK(parse_cigar("").empty());
  for (const char* bad : {"M", "12", "3X", "-3M", "99999999999999999999M", "3M4"})
    CHECK_THROWS_AS(parse_cigar(bad), input_error);
}
