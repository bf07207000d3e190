// lockstep::mpi::search at every rank count CTest runs (2, 3, 4): rank 0's hits equal the
// one-device search's, field for field (every rank runs that search itself on its device), on a
// database with ties across every share boundary, one of fewer subjects than ranks (every rank
// but rank 0 with an empty share), one whose long first subject leaves a middle share empty, an
// empty query and a query longer than every subject. Also the failure agreement: an option one rank
// refuses ends every rank with the same collective_error.
#include <random>

#include "align_support.hpp"
#include "lockstep/search.hpp"
#include "mpi_support.hpp"

namespace lockstep {
namespace {

// (`mine`: this rank's share of db, else db whole)
void check_distributed(const SequenceSet& q, const SequenceSet& db, const Scoring& s, int top,
                       const SequenceSet* mine = nullptr) {
  Context& ctx = test::rank_context();
  const SearchResult one = search(ctx, q, db, s, test::search_shape(top));
  const SearchResult r =
      mpi::search(test::world(), ctx, q, mine ? *mine : db, s, test::search_shape(top));
  CHECK(r.cells == one.cells);
  CHECK(r.recomputed == one.recomputed);
  REQUIRE(r.hits.size() == q.size());
  if (test::world_rank() != 0) {
    for (const auto& h : r.hits) CHECK(h.empty());
    return;
  }
  test::check_same_hits(r, one);
}

}  // namespace

TEST_CASE("distributed search: the one-device hits, ties, empty shares, a long query") {
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(54);  // the same on every rank
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  const std::string planted = test::random_residues(rng, 120, aa);
  SequenceSet db;
  for (int j = 0; j < 150; ++j)  // every 10th subject the planted one: ties across shares
    db.add("s" + std::to_string(j),
           s.encode(j % 10 == 4 ? planted : test::random_residues(rng, 30 + (j * 37) % 300, aa)));
  SequenceSet q;
  q.add("planted", s.encode(planted.substr(5, 100)));
  q.add("empty", {});
  q.add("longer", s.encode(test::random_residues(rng, 700, aa) + planted));  // > every subject
  for (int top : {1, 9, 200}) {
    CAPTURE(top);
    check_distributed(q, db, s, top);
  }
  SequenceSet one;  // fewer subjects than ranks
  one.add("only", s.encode(planted));
  check_distributed(q, one, s, 3);
  SequenceSet longest;  // a long first subject: at 3 and 4 ranks a middle share is empty
  longest.add("long", s.encode(test::random_residues(rng, 2000, aa)));
  for (int j = 0; j < 3; ++j) longest.add("short", s.encode(planted.substr(size_t(j) * 20, 40)));
  if (test::world_size() >= 3) {
    const std::vector<size_t> b = database_shares(longest, size_t(test::world_size()));
    CHECK(b[1] == b[2]);
  }
  check_distributed(q, longest, s, 4);
}

TEST_CASE("distributed search: each rank holding only its share of a prepared database or FASTA") {
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(9);  // the same on every rank
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  const std::string planted = test::random_residues(rng, 120, aa);
  std::string fasta;
  for (int j = 0; j < 120; ++j)
    fasta += ">s" + std::to_string(j) + "\n" +
             (j % 9 == 2 ? planted : test::random_residues(rng, 20 + (j * 53) % 400, aa)) + "\n";
  SequenceSet q;
  q.add("planted", s.encode(planted.substr(7, 90)));
  q.add("other", s.encode(test::random_residues(rng, 150, aa)));
  test::TempDir d;  // each rank its own files
  const std::string fa = test::write(d, "db.fa", fasta), lsdb = (d.path / "db.lsdb").string();
  const SequenceSet db = read_sequences(fa, s);
  write_database(lsdb, db, s);
  const size_t ranks = size_t(test::world_size()), me = size_t(test::world_rank());
  const std::vector<size_t> b = database_shares(db, ranks);
  const size_t share = size_t(db.offsets[b[me + 1]] - db.offsets[b[me]]);
  for (const std::string& path : {lsdb, fa}) {
    CAPTURE(path);
    const SequenceSet mine = read_database(path, s, ranks, me);
    CHECK(mine.held_residues() == share);  // the other shares' codes neither read nor kept
    CHECK((mine.mapped ? size_t(0) : mine.residues.size()) == (path == lsdb ? 0 : share));
    check_distributed(q, db, s, 5, &mine);
  }
}

TEST_CASE("distributed search: a refusal on one rank ends every rank with one error") {
  Context& ctx = test::rank_context();
  const Scoring s = blosum62(11, 1);
  SequenceSet q, db;
  q.add("q", s.encode("MKVLAW"));
  db.add("d", s.encode("MKVLAW"));
  SearchOptions o = test::search_shape(1);
  if (test::world_rank() == 1) o.top = 0;  // refused by check_search on rank 1 alone
  try {
    mpi::search(test::world(), ctx, q, db, s, o);
    FAIL("no error");
  } catch (const mpi::collective_error& e) {
    CHECK(e.exit_code() == 1);
    CHECK(std::string(e.what()).find("rank 1: search: top must be >= 1") != std::string::npos);
  }
}

}  // namespace lockstep
