// The host half of search: read_sequences (records, skipped empty ones, errors naming
// file, line, record and position), encode_exact, the CPU reference's top-K and ties, the hit
// traceback's columns, and the statistics against blastp (BLAST+ 2.12, -comp_based_stats 0): its
// search space for 57- and 361-residue queries against 2,000 proteins of 959,906 residues.
#include <algorithm>
#include <fstream>
#include <random>

#include "lockstep/search.hpp"
#include "search/search_impl.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {
using lockstep::test::write;
}  // namespace

// BLOSUM62 without its J: a matrix with a letter that FASTA allows but the matrix lacks.
Scoring without_j() {
  const Scoring b = blosum62(11, 1);
  Scoring s = b;
  const size_t j = b.alphabet.find('J');
  s.alphabet.erase(j, 1);
  s.table.clear();
  for (size_t r = 0; r < b.alphabet.size(); ++r)
    for (size_t c = 0; c < b.alphabet.size(); ++c)
      if (r != j && c != j) s.table.push_back(b(uint8_t(r), uint8_t(c)));
  return s;
}

TEST_CASE("search: read_sequences keeps first words, skips empty records, names bad letters") {
  test::TempDir d;
  const Scoring s = without_j();
  const SequenceSet set =
      read_sequences(write(d, "a.fa", ">one first\nmkv\nLAW\n>empty\n\n>two\nXBZ*\n"), s);
  REQUIRE(set.size() == 2);
  CHECK(set.names == std::vector<std::string>{"one", "two"});
  CHECK(set.skipped_empty == 1);
  CHECK(set.length(0) == 6);
  CHECK(set.offsets == std::vector<int64_t>{0, 6, 10});
  CHECK(s(set.data(1)[0], set.data(1)[0]) == -1);  // X-X exactly as the table says
  const std::string bad = write(d, "bad.fa", ">a\nMKV\n>b x\nMK\nVLA\nWJ\n");
  CHECK_THROWS_WITH_AS(
      read_sequences(bad, s),
      doctest::Contains(
          (bad + ":6: record 2 ('b'), residue 7: 'J' is not in the matrix (letters ARND").c_str()),
      input_error);
  CHECK_THROWS_WITH_AS(encode_exact(s, "MK1"), doctest::Contains("residue 3: '1'"), input_error);
  // U and O, which NCBI's matrices lack, as blastp scores them: U as C, O as X; counted
  CHECK(encode_exact(s, "UO") == encode_exact(s, "CX"));
  const SequenceSet so = read_sequences(write(d, "u.fa", ">\nMKU\n>x y\nOo\n>\nA\n"), s);
  CHECK(so.stand_ins == 3);
  CHECK(so.names == std::vector<std::string>{"1", "x", "3"});  // an empty header: its number
  const Scoring dna = dna_scoring(2, -3, 5, 2);
  CHECK(encode_exact(dna, "acgtRYn") == std::vector<uint8_t>{0, 1, 2, 3, 4, 4, 4});
  CHECK_THROWS_WITH_AS(encode_exact(dna, "ACGE"), doctest::Contains("not an IUPAC"), input_error);
}

// The parallel reader (blocks of 64 KiB inflated on one thread, their records parsed on others)
// gives what one pass gives: the same names, codes, offsets and skipped records, plain and gzip;
// an error in a late block names the same file, line, record and residue.
TEST_CASE("search: read_sequences in blocks equals one pass, and names the same error") {
  test::TempDir d;
  const Scoring s = without_j();
  std::mt19937 rng(3);
  const std::string aa = "ARNDCQEGHILKMFPSTWYVXBZ*arndc";
  std::string text = "; a comment\n\n";
  for (int r = 0; r < 3000; ++r) {
    text += r % 501 == 7
                ? std::string(">\n")  // no name: its record number, 1-based
                : ">r" + std::to_string(r) + " description " + std::to_string(r % 7) + "\n";
    if (r % 97 == 5) continue;  // a record with no residues
    const int len = 1 + int(rng() % 400);
    for (int k = 0; k < len; ++k) text += aa[rng() % aa.size()], text += k % 60 == 59 ? "\n" : "";
    text += r % 11 == 3 ? "\r\n" : "\n";
  }
  REQUIRE(text.size() > 4 * 65536);
  const std::string plain = write(d, "db.fa", text), gz = (d.path / "db.fa.gz").string();
  std::string log;
  REQUIRE(test::run_shell("gzip -c " + plain + " > " + gz, log) == 0);
  const SequenceSet one = detail::read_sequences_blocks(plain, s, size_t(1) << 30);
  CHECK(one.size() == 3000 - 31);
  CHECK(one.skipped_empty == 31);
  CHECK(std::count(one.names.begin(), one.names.end(), "2513") == 1);  // record 2513's ">"
  for (const std::string& path : {plain, gz}) {
    const SequenceSet many = detail::read_sequences_blocks(path, s, 65536);
    CHECK(many.names == one.names);
    CHECK(many.offsets == one.offsets);
    CHECK(many.residues == one.residues);
    CHECK(many.skipped_empty == one.skipped_empty);
  }
  // a letter outside the matrix near the end: the same message from blocks as from one pass
  const size_t at = text.rfind(">r2990");
  REQUIRE(at != std::string::npos);
  std::string bad = text;
  bad.insert(bad.find('\n', at) + 1, "J");
  const std::string badpath = write(d, "bad.fa", bad);
  std::string whole, blocks;
  try {
    detail::read_sequences_blocks(badpath, s, size_t(1) << 30);
  } catch (const input_error& e) {
    whole = e.what();
  }
  try {
    detail::read_sequences_blocks(badpath, s, 65536);
  } catch (const input_error& e) {
    blocks = e.what();
  }
  CHECK(doctest::String(whole.c_str()) == doctest::Contains("record 2991 ('r2990'), residue 1"));
  CHECK(blocks == whole);
}

// Block edges at a record's start (the block before ends with its line break, the next one
// starts with '>' or with "\n>"), and records longer than a block: the same set as one pass.
TEST_CASE("search: read_sequences in blocks, at record edges and across long records") {
  test::TempDir d;
  const Scoring s = blosum62(11, 1);
  const size_t block = 65536;
  for (size_t shift = 0; shift < 4; ++shift) {
    // ">a\n" + residues + "\n": the next record's '>' lands at block - 2 + shift
    std::string text = ">a\n" + std::string(block - 2 + shift - 4, 'M') + "\n";
    text += ">b long\n";
    for (int k = 0; k < 5; ++k) text += std::string(40000, 'W') + "\n";  // 3 blocks long
    text += ">c\nKV\n>d\n" + std::string(70000, 'A') + "\r\n>e\nQ";
    const std::string path = write(d, "edge" + std::to_string(shift) + ".fa", text);
    const SequenceSet one = detail::read_sequences_blocks(path, s, size_t(1) << 30);
    const SequenceSet many = detail::read_sequences_blocks(path, s, block);
    REQUIRE(one.size() == 5);
    CHECK(one.length(0) == int64_t(block - 6 + shift));
    CHECK(one.length(1) == 200000);
    CHECK(many.names == one.names);
    CHECK(many.offsets == one.offsets);
    CHECK(many.residues == one.residues);
  }
}

TEST_CASE("search: the CPU reference, top K with ties by database order, the hit's columns") {
  const Scoring s = blosum62(11, 1);
  SequenceSet q, db;
  q.add("q", encode_exact(s, "MKVLAW"));
  for (const char* r : {"GGGG", "AAMKVLAWAA", "MKVLAW", "MKVAW"}) db.add(r, encode_exact(s, r));
  SearchOptions o;
  o.top = 3;
  const SearchResult r = search_cpu(q, db, s, o);
  REQUIRE(r.hits.size() == 1);
  REQUIRE(r.hits[0].size() == 3);
  CHECK(r.hits[0][0].subject == 1);  // 33 twice: database order
  CHECK(r.hits[0][1].subject == 2);
  CHECK(r.hits[0][0].score == 33);
  CHECK(r.hits[0][0].query_end == 5);
  CHECK(r.hits[0][0].subject_end == 7);
  CHECK(r.cells == 6.0 * 25);
  const HitAlignment h = align_hit(q, db, s, r.hits[0][0]);
  CHECK(h.pident == 100.0);
  CHECK(h.length == 6);
  CHECK(h.sstart == 3);
  CHECK(h.send == 8);
  std::vector<double> done;  // the progress callback
  SequenceSet two = q;
  two.add("q2", encode_exact(s, "WW"));
  o.progress = [&](double f) { done.push_back(f); };
  CHECK(search_cpu(two, db, s, o).hits[1][0].score == 11);  // one W in each subject
  REQUIRE(!done.empty());  // per block of queries: increasing, ending at 1
  CHECK(std::is_sorted(done.begin(), done.end()));
  CHECK(done.back() == 1.0);
  o.top = 0;
  CHECK_THROWS_WITH_AS(search_cpu(q, db, s, o), doctest::Contains("top must be >= 1"), input_error);
  CHECK_THROWS_WITH_AS(search_cpu(q, SequenceSet{}, s, {}), doctest::Contains("no sequences"),
                       input_error);
}

TEST_CASE("search statistics: NCBI's parameters by content and BLAST's length adjustment") {
  // lockstep's 12/1 is BLAST's existence 11, extension 1
  const KarlinAltschul ka = karlin_altschul(blosum62(12, 1));
  REQUIRE(ka);
  CHECK(ka.matrix == "BLOSUM62");
  CHECK(ka.lambda == 0.267);
  CHECK(ka.K == 0.041);
  CHECK(karlin_altschul(blosum62(11, 1)).lambda == 0.243);
  CHECK(karlin_altschul(blosum45(15, 2)).matrix == "BLOSUM45");
  CHECK(karlin_altschul(blosum80(10, 1)).K == 0.048);
  CHECK(!karlin_altschul(blosum62(30, 1)));
  CHECK(!karlin_altschul(dna_scoring(2, -3, 5, 2)));  // BLAST's 3/2: not in NCBI's table
  CHECK(karlin_altschul(dna_scoring(2, -3, 7, 2)).lambda == 0.625);  // blastn's 5/2
  // blastp's effective search spaces (57 and 361 residues against 959,906 in 2,000 sequences)
  CHECK(length_adjustment(ka, 57, 959906, 2000) == 30);
  CHECK(length_adjustment(ka, 361, 959906, 2000) == 83);
  CHECK(effective_search_space(ka, 57, 959906, 2000) == 27.0 * (959906 - 60000));
  CHECK(bit_score(ka, 1067) == doctest::Approx(415.6).epsilon(0.001));  // blastp prints 415
  // a matrix file with BLOSUM62's content is BLOSUM62
  test::TempDir d;
  const Scoring b = blosum62(12, 1);
  std::string text = "  ";
  for (char c : b.alphabet) text += std::string(" ") + c;
  for (int i = 0; i < b.size(); ++i) {
    text += std::string("\n") + b.alphabet[size_t(i)];
    for (int j = 0; j < b.size(); ++j) text += " " + std::to_string(b(uint8_t(i), uint8_t(j)));
  }
  CHECK(karlin_altschul(read_ncbi_matrix(write(d, "m.txt", text + "\n"), 12, 1)).matrix ==
        "BLOSUM62");
}
