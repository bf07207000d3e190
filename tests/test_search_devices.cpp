// A search over several devices of one host (SearchOptions::devices; the CLI's --devices): the
// test device opened as two and three contexts (on PoCL and on one GPU alike) gives the hits of
// one context, field for field: ties across the shares' boundaries in database order, a
// database of fewer subjects than devices (empty shares), a share that a long subject leaves
// empty, an empty query and a query longer than every subject. The shares themselves, a context
// listed twice, and the CLI's output bytes with --devices I,I against --device I.
#include <random>

#include "align_support.hpp"
#include "lockstep/search.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

void check_same(const SearchResult& got, const SearchResult& want) {
  test::check_same_hits(got, want);
  CHECK(got.cells == want.cells);
  CHECK(got.recomputed == want.recomputed);
}

std::string letters(const SequenceSet& set, size_t i, const Scoring& s) {
  std::string out;
  for (int64_t k = 0; k < set.length(i); ++k) out += s.alphabet[set.data(i)[k]];
  return out;
}

}  // namespace

TEST_CASE("search devices: database_shares cuts contiguous shares of about equal residues" *
          doctest::test_suite("portable")) {
  const Scoring s = blosum62(11, 1);
  SequenceSet db;
  for (int j = 0; j < 10; ++j) db.add("s", s.encode(std::string(10, 'A')));
  CHECK(database_shares(db, 1) == std::vector<size_t>{0, 10});
  CHECK(database_shares(db, 2) == std::vector<size_t>{0, 5, 10});
  CHECK(database_shares(db, 3) == std::vector<size_t>{0, 4, 7, 10});
  SequenceSet two;  // fewer subjects than parts: the last shares are empty
  two.add("a", s.encode("MKV")), two.add("b", s.encode("MKV"));
  CHECK(database_shares(two, 4) == std::vector<size_t>{0, 1, 1, 2, 2});
  SequenceSet longest;  // one long subject first: the share after it is empty
  longest.add("long", s.encode(std::string(1000, 'W')));
  for (int j = 0; j < 3; ++j) longest.add("short", s.encode(std::string(10, 'A')));
  CHECK(database_shares(longest, 3) == std::vector<size_t>{0, 1, 1, 4});
}

TEST_CASE("search devices: two and three contexts give the hits of one, ties and empty shares") {
  Context& ctx = test::context();
  Context second(ctx.device()), third(ctx.device());
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(54);
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  SequenceSet db;
  const std::string planted = test::random_residues(rng, 120, aa);
  for (int j = 0; j < 240; ++j) {
    // Every 16th subject the same planted sequence: equal scores on both sides of every share
    // boundary, ranked by database order.
    db.add("s" + std::to_string(j),
           s.encode(j % 16 == 3 ? planted : test::random_residues(rng, 30 + (j * 37) % 400, aa)));
  }
  SequenceSet q;
  q.add("planted", s.encode(planted.substr(10, 90)));
  q.add("empty", {});
  q.add("random", s.encode(test::random_residues(rng, 70, aa)));
  q.add("longer", s.encode(test::random_residues(rng, 900, aa) + planted));  // > every subject
  for (int top : {1, 12, 300}) {
    CAPTURE(top);
    const SearchResult one = search(ctx, q, db, s, test::search_shape(top));
    SearchOptions o = test::search_shape(top);
    o.devices = {&second};
    check_same(search(ctx, q, db, s, o), one);
    o.devices = {&second, &third};
    check_same(search(ctx, q, db, s, o), one);
  }
  const SearchResult one = search(ctx, q, db, s, test::search_shape(12));
  CHECK(one.hits[0][0].subject == 3);  // the planted copies, in database order
  CHECK(one.hits[0][1].subject == 19);

  // Fewer subjects than devices, and a long subject that leaves the middle share empty.
  SequenceSet two;
  two.add("a", s.encode(letters(db, 3, s)));
  two.add("b", s.encode(letters(db, 5, s)));
  SequenceSet longest;
  longest.add("long", s.encode(test::random_residues(rng, 1500, aa) + planted));
  for (int j = 0; j < 3; ++j) longest.add("short", s.encode(planted.substr(size_t(j) * 20, 40)));
  for (const SequenceSet* small : {&two, &longest}) {
    SearchOptions o = test::search_shape(3);
    o.devices = {&second, &third};
    check_same(search(ctx, q, *small, s, o), search(ctx, q, *small, s, test::search_shape(3)));
  }
}

TEST_CASE("search devices: a context listed twice is refused" * doctest::test_suite("portable")) {
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  SequenceSet q, db;
  q.add("q", s.encode("MKVLAW"));
  db.add("d", s.encode("MKVLAW"));
  SearchOptions o = test::search_shape(1);
  o.devices = {&ctx};
  CHECK_THROWS_WITH_AS(search(ctx, q, db, s, o),
                       doctest::Contains("each device needs a context of its own"), input_error);
}

TEST_CASE("search devices cli: --devices I,I writes the bytes of --device I") {
  const std::string dir = "/usr/share/doc/mmseqs2/example-data/";
  if (!std::filesystem::exists(dir + "DB.fasta.gz"))
    return test::skip("no mmseqs2 example data (Debian mmseqs2-examples) in " + dir);
  test::TempDir d;
  // The first 400 records of the example database and 3 queries (a database of about 100k
  // residues; the E-values count all of it on every device).
  std::string log;
  const std::string db = (d.path / "db.fa").string(), q = (d.path / "q.fa").string();
  REQUIRE(test::run_shell("zcat " + dir + "DB.fasta.gz | awk '/^>/{n++} n<=400' > " + db + " && " +
                              "zcat " + dir + "QUERY.fasta.gz | awk '/^>/{n++} n<=3' > " + q,
                          log) == 0);
  const std::string dev = std::to_string(test::context().info().index);
  const std::string common = "search " + q + " " + db +
                             " --top 25 --evalue 1e300 --outfmt 6 --local-size 32 " +
                             "--stripe 16 --out ";
  const std::string one = (d.path / "one.tsv").string(), two = (d.path / "two.tsv").string();
  REQUIRE(test::run_cli(common + one + " --device " + dev, log) == 0);
  CHECK(test::last_line(log)["devices"] == "1");
  REQUIRE(test::run_cli(common + two + " --devices " + dev + "," + dev, log) == 0);
  CHECK(test::last_line(log)["devices"] == "2");
  const std::string a = test::slurp(one);
  CHECK(std::count(a.begin(), a.end(), '\n') == 75);
  CHECK(test::slurp(two) == a);
  // Bad words: one line, exit 1 (no such device) or 2 (with --device).
  CHECK(test::run_cli(common + two + " --devices " + dev + ",", log) == 1);
  CHECK(test::has(log, "--devices " + dev + ",: an empty item"));
  CHECK(test::run_cli(common + two + " --devices 99", log) == 1);
  CHECK(test::has(log, "--devices 99: '99': device index out of range"));
  CHECK(test::run_cli(common + two + " --devices 0 --device 0", log) == 2);
  CHECK(test::run_cli(common + two + " --devices 0 --algorithm cpu", log) == 2);
  CHECK(test::has(log, "--devices runs on devices, not --algorithm cpu"));
  // all: every GPU, else the default device (PoCL's CPU device): one or more, the same bytes
  REQUIRE(test::run_cli(common + two + " --devices all", log) == 0);
  CHECK(test::slurp(two) == a);
}
