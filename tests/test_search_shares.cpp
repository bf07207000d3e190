// A share of a database (one rank's in a distributed search): open_database and read_sequences
// with parts > 1 give every name and offset of the whole read but the codes of the share's
// subjects only (held_residues() and the storage are the share's). A prepared database's share
// reads and checks only its own blocks (a corrupt byte in another share's block goes unread, one
// in its own is refused naming the file); a FASTA's share names a bad letter as the whole read.
#include <algorithm>
#include <cstring>
#include <random>

#include "lockstep/search.hpp"
#include "search/search_impl.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

// `part` is share k of `parts` of `whole`: all names and offsets, that share's codes.
void check_share(const SequenceSet& part, const SequenceSet& whole, size_t parts, size_t k) {
  const std::vector<size_t> b = database_shares(whole, parts);
  CHECK(part.names == whole.names);
  CHECK(part.offsets == whole.offsets);
  CHECK(part.held_begin == b[k]);
  CHECK(std::min(part.held_end, part.size()) == b[k + 1]);
  CHECK(part.held_residues() == size_t(whole.offsets[b[k + 1]] - whole.offsets[b[k]]));
  CHECK(part.residue_count() == whole.residue_count());
  for (size_t i = b[k]; i < b[k + 1]; ++i)
    REQUIRE(std::equal(part.data(i), part.data(i) + part.length(i), whole.data(i)));
}

}  // namespace

TEST_CASE("search db: a prepared database's share reads and checks only its own blocks") {
  test::TempDir d;
  const Scoring dna = dna_scoring(2, -3, 5, 2), s62 = blosum62(11, 1);
  std::mt19937 rng(5);
  SequenceSet db;  // 4 subjects of 5 M residues, in 4 MiB blocks: the names in block 4
  for (int j = 0; j < 4; ++j) {
    std::vector<uint8_t> c(5000000);
    for (uint8_t& x : c) x = uint8_t(rng() % 4);  // A C G T
    db.add("s" + std::to_string(j), c);
  }
  const std::string path = (d.path / "db.lsdb").string();
  write_database(path, db, dna);
  const SequenceSet whole62 = open_database(path, s62);
  for (size_t k = 0; k < 4; ++k) {
    const SequenceSet mapped = open_database(path, dna, 4, k);
    check_share(mapped, db, 4, k);
    CHECK(mapped.residues.empty());  // in the map, of which only the share's pages are read
    const SequenceSet other = open_database(path, s62, 4, k);  // other codes: the share copied
    check_share(other, whole62, 4, k);
    CHECK(other.residues.size() == 5000000);
  }
  // one byte of subject 2's codes, in block 3, which shares 0 and 1 (blocks 0 to 2, and 4 for
  // the names) do not read
  std::string bytes = test::slurp(path);
  uint64_t residues_at = 0;
  std::memcpy(&residues_at, bytes.data() + 64, 8);
  bytes[residues_at + 12900000] ^= 1;
  const std::string bad = test::write(d, "bad.lsdb", bytes);
  const std::string corrupt = bad + ": corrupt lockstep database (its content's checksum differs)";
  CHECK(open_database(bad, dna, 4, 0).held_residues() == 5000000);
  CHECK(open_database(bad, dna, 4, 1).held_residues() == 5000000);
  CHECK(test::input_error_message([&] { open_database(bad, dna, 4, 2); }) == corrupt);
  CHECK(test::input_error_message([&] { open_database(bad, dna); }) == corrupt);
  CHECK(test::input_error_message([&] { open_database(path, dna, 3, 3); }) ==
        path + ": share 3 of 3");
}

TEST_CASE("search db: a FASTA share holds its subjects' codes only, names errors as one read") {
  test::TempDir d;
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(7);
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  std::string text = "; a comment\n";
  for (int r = 0; r < 400; ++r) {
    text += r % 53 == 7 ? std::string(">\n") : ">r" + std::to_string(r) + " x\n";
    if (r % 41 == 5) continue;  // a record with no residues
    const int len = 1 + int(rng() % 300);
    for (int k = 0; k < len; ++k) text += aa[rng() % 20], text += k % 60 == 59 ? "\n" : "";
    text += "\n";
  }
  const std::string fa = test::write(d, "db.fa", text);
  const SequenceSet whole = read_sequences(fa, s);
  for (size_t parts : {2, 3, 7})
    for (size_t k = 0; k < parts; ++k) {
      CAPTURE(parts);
      CAPTURE(k);
      const SequenceSet share = detail::read_sequences_share(fa, s, parts, k, 4096);
      check_share(share, whole, parts, k);
      CHECK(share.residues.size() == share.held_residues());
      CHECK(share.skipped_empty == whole.skipped_empty);
    }
  const SequenceSet last = read_database(fa, s, 2, 1);
  check_share(last, whole, 2, 1);
  CHECK(last.residues.size() < whole.residues.size() * 3 / 4);
  CHECK(test::has(test::input_error_message([&] { search_cpu(whole, last, s, SearchOptions{}); }),
                  "search: the database set holds one share's codes only"));
  // a bad letter in the last record: the whole read's message, file, line, record and residue
  const std::string bf = test::write(d, "bad.fa", text + ">bad\nACD@K\n");
  const std::string want = test::input_error_message([&] { read_sequences(bf, s); });
  INFO(want);
  CHECK(test::has(want, bf + ":"));
  CHECK(test::input_error_message([&] { detail::read_sequences_share(bf, s, 2, 1, 4096); }) ==
        want);
}
