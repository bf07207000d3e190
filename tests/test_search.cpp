// The device database search (lockstep::search, cl/search.cl) against the per-pair CPU reference
// (align_cpu, ranked by score descending then database order): real proteins of the mmseqs2
// example set, DNA with ties, an empty query, a query longer than every subject, several
// database batches, a planted pair whose score passes the 16-bit limit (exact through the 32-bit
// path, its lane partner untouched), and parasail's scores when libparasail is installed.
// Every case uses the same kernel shape (local_size 32, stripe 16): one program per device.
#include <dlfcn.h>

#include <algorithm>
#include <random>

#include "align_support.hpp"
#include "lockstep/io.hpp"
#include "lockstep/search.hpp"
#include "runtime/environment.hpp"
#include "search/search_impl.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

/// The mmseqs2 example data (Debian mmseqs2-examples), or the folder LOCKSTEP_SEARCH_DATA names.
std::string examples() {
  const auto dir = env::value("LOCKSTEP_SEARCH_DATA");
  return dir ? *dir + "/" : "/usr/share/doc/mmseqs2/example-data/";
}

SequenceSet read_fasta(const std::string& path, const Scoring& s, size_t limit) {
  const std::string text = read_input(path);
  SequenceSet set;
  std::string name, res;
  auto flush = [&] {
    if (!name.empty()) set.add(name, s.encode(res));
    name.clear(), res.clear();
  };
  size_t at = 0;
  while (at < text.size() && set.size() < limit) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line[0] == '>') {
      flush();
      name = line.substr(1, line.find(' ') - 1);
    } else {
      for (char c : line)
        if (!std::isspace(static_cast<unsigned char>(c))) res += c;
    }
  }
  if (set.size() < limit) flush();
  return set;
}

std::vector<uint8_t> seq(const SequenceSet& set, size_t i) {
  return std::vector<uint8_t>(set.data(i), set.data(i) + set.length(i));
}

/// align_cpu on every pair, ranked; compares score and both ends of every reported hit.
void check_against_cpu(const SearchResult& got, const SequenceSet& q, const SequenceSet& db,
                       const Scoring& s, int top) {
  REQUIRE(got.hits.size() == q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    std::vector<SearchHit> want;
    for (size_t j = 0; j < db.size(); ++j) {
      AlignResult r;
      if (q.length(i) && db.length(j)) r = align_cpu(seq(q, i), seq(db, j), s);
      want.push_back({int32_t(i), int64_t(j), r.score, r.end_a, r.end_b});
    }
    std::stable_sort(want.begin(), want.end(),
                     [](const SearchHit& x, const SearchHit& y) { return x.score > y.score; });
    want.resize(std::min(want.size(), size_t(top)));
    REQUIRE(got.hits[i].size() == want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      const SearchHit &g = got.hits[i][k], &w = want[k];
      INFO("query " << i << " rank " << k);
      CHECK(g.query == int32_t(i));
      CHECK(g.subject == w.subject);
      CHECK(g.score == w.score);
      CHECK(g.query_end == w.query_end);
      CHECK(g.subject_end == w.subject_end);
    }
  }
}

}  // namespace

TEST_CASE("search: real proteins, every pair's score and ends equal align_cpu") {
  const std::string dir = examples();
  if (!std::filesystem::exists(dir + "DB.fasta.gz")) {
    return test::skip("no mmseqs2 example data (Debian mmseqs2-examples) in " + dir);
  }
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  const SequenceSet q = read_fasta(dir + "QUERY.fasta.gz", s, 5);
  const SequenceSet db = read_fasta(dir + "DB.fasta.gz", s, 300);
  REQUIRE(q.size() == 5);
  REQUIRE(db.size() == 300);
  const SearchResult all = search(ctx, q, db, s, test::search_shape(300));  // every pair, ranked
  CHECK(all.algorithm == "inter");
  CHECK(all.recomputed == 0);
  check_against_cpu(all, q, db, s, 300);
  const SearchResult ten = search(ctx, q, db, s, test::search_shape(10));
  for (size_t i = 0; i < q.size(); ++i)
    for (size_t k = 0; k < 10; ++k) CHECK(ten.hits[i][k].subject == all.hits[i][k].subject);
  MESSAGE("dpx: " << all.dpx << ", " << all.cells << " cells in " << all.ms << " ms");
}

TEST_CASE("search: DNA with ties (equal subjects rank by database order), top-K order" *
          doctest::test_suite("portable")) {
  Context& ctx = test::context();
  const Scoring s = dna_scoring(2, -3, 5, 2);
  std::mt19937 rng(34);
  SequenceSet q, db;
  for (int i = 0; i < 3; ++i) {
    auto [a, b] = test::planted_pair(100 + i, 90 + 37 * i, 160, 60);
    q.add("q" + std::to_string(i), s.encode(a));
    db.add("planted" + std::to_string(i), s.encode(b));
    db.add("copy" + std::to_string(i), s.encode(b));  // a tie with the subject before it
  }
  for (int j = 0; j < 60; ++j)
    db.add("r" + std::to_string(j),
           s.encode(test::random_residues(rng, 20 + (j * 53) % 300, "ACGTN")));
  db.add("copy0-again", seq(db, 0));
  const SearchResult r = search(ctx, q, db, s, test::search_shape(5));
  check_against_cpu(r, q, db, s, 5);
  CHECK(r.hits[0][0].subject == 0);  // the planted subject, then its copies in database order
  CHECK(r.hits[0][1].subject == 1);
  CHECK(r.hits[0][2].subject == int64_t(db.size() - 1));
}

TEST_CASE("search: an empty query, a query longer than every subject, several batches") {
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(7);
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  SequenceSet q, db, few;
  q.add("short", s.encode(test::random_residues(rng, 30, aa)));
  q.add("empty", {});
  q.add("tiny", s.encode(test::random_residues(rng, 9, aa)));
  // About 1.2 MB of subjects: with max_device_mib = 1 they take two batches.
  for (int j = 0; j < 3300; ++j) {
    std::string r = test::random_residues(rng, 40 + (j * 97) % 600, aa);
    if (j % 500 == 7) r.replace(r.size() / 3, 0, std::string(20, 'W'));
    db.add("s" + std::to_string(j), s.encode(r));
    if (j < 80) few.add("s" + std::to_string(j), seq(db, size_t(j)));
  }
  SearchOptions o = test::search_shape(4);
  o.max_device_mib = 1;
  const SearchResult r = search(ctx, q, db, s, o);
  check_against_cpu(r, q, db, s, 4);
  for (const SearchHit& h : r.hits[1]) CHECK(h.score == 0);  // the empty query: ties at 0
  CHECK(r.hits[1][0].subject == 0);
  // A query longer than every subject (at most 639 residues), with a subject's slice inside.
  SequenceSet lq;
  std::string longer = test::random_residues(rng, 900, aa);
  std::string part;
  for (int64_t k = 0; k < few.length(5); ++k) part += s.alphabet[few.data(5)[k]];
  longer.replace(300, part.size(), part);
  lq.add("long", s.encode(longer));
  const SearchResult l = search(ctx, lq, few, s, test::search_shape(6));
  check_against_cpu(l, lq, few, s, 6);
  CHECK(l.hits[0][0].subject == 5);
}

// The batch pipeline (batches.cpp: batch b+1 packed into the other pinned staging buffer while
// batch b's launches run, score buffers alternating across batches): three batches of 1 MiB give
// the hits of one batch, and both those of the CPU reference.
TEST_CASE("search: several overlapped batches give the hits of one batch") {
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(11);
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  SequenceSet q, db;
  for (int k = 0; k < 5; ++k)
    q.add("q" + std::to_string(k), s.encode(test::random_residues(rng, 12 + 5 * k, aa)));
  for (int j = 0; j < 4500; ++j) {
    std::string r = test::random_residues(rng, 40 + (j * 131) % 1000, aa);
    if (j % 700 == 3) r.replace(r.size() / 2, 0, "WWCWWHWW");
    db.add("s" + std::to_string(j), s.encode(r));
  }
  SearchOptions o = test::search_shape(7);
  const SearchResult one = search(ctx, q, db, s, o);
  o.max_device_mib = 1;
  const SearchResult many = search(ctx, q, db, s, o);
  CHECK(one.batches == 1);
  CHECK(many.batches >= 3);
  const SearchResult cpu = search_cpu(q, db, s, o);
  for (const SearchResult* r : {&one, &many}) {
    REQUIRE(r->hits.size() == q.size());
    for (size_t i = 0; i < q.size(); ++i) {
      REQUIRE(r->hits[i].size() == cpu.hits[i].size());
      for (size_t k = 0; k < cpu.hits[i].size(); ++k) {
        INFO("query " << i << " rank " << k);
        CHECK(r->hits[i][k].subject == cpu.hits[i][k].subject);
        CHECK(r->hits[i][k].score == cpu.hits[i][k].score);
        CHECK(r->hits[i][k].query_end == cpu.hits[i][k].query_end);
        CHECK(r->hits[i][k].subject_end == cpu.hits[i][k].subject_end);
      }
    }
  }
}

TEST_CASE("search: a planted pair past the 16-bit limit is exact, its lane partner too") {
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(11);
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  // 3000 W (11 each) inside random protein: a self score above 32767.
  const std::string big = test::random_residues(rng, 200, aa) + std::string(3000, 'W') +
                          test::random_residues(rng, 150, aa);
  SequenceSet q, db;
  q.add("big", s.encode(big));
  q.add("partner", s.encode(big.substr(0, 180) + test::random_residues(rng, 2500, aa)));
  for (int j = 0; j < 20; ++j)
    db.add("r" + std::to_string(j), s.encode(test::random_residues(rng, 100 + 31 * j, aa)));
  db.add("planted", s.encode(big));
  db.add("half", s.encode(big.substr(0, 1800)));
  const SearchResult r = search(ctx, q, db, s, test::search_shape(3));
  CHECK(r.recomputed >= 1);
  CHECK(r.hits[0][0].subject == 20);
  CHECK(r.hits[0][0].score > 32767);
  check_against_cpu(r, q, db, s, 3);
}

TEST_CASE("search: scores equal parasail's sw_striped_profile_sat (when libparasail is there)") {
  const std::string dir = examples();
  void* lib = dlopen("libparasail.so.8", RTLD_NOW);
  if (!lib) lib = dlopen("libparasail.so", RTLD_NOW);
  if (!lib || !std::filesystem::exists(dir + "DB.fasta.gz")) {
    return test::skip("no libparasail (Debian libparasail8) or no mmseqs2 example data");
  }
  using create_t = void* (*)(const char*, int, const void*);
  using align_t = void* (*)(const void*, const char*, int, int, int);
  using score_t = int (*)(void*);
  using free_t = void (*)(void*);
  auto create = reinterpret_cast<create_t>(dlsym(lib, "parasail_profile_create_sat"));
  auto sw = reinterpret_cast<align_t>(dlsym(lib, "parasail_sw_striped_profile_sat"));
  auto score = reinterpret_cast<score_t>(dlsym(lib, "parasail_result_get_score"));
  auto rfree = reinterpret_cast<free_t>(dlsym(lib, "parasail_result_free"));
  auto pfree = reinterpret_cast<free_t>(dlsym(lib, "parasail_profile_free"));
  using lookup_t = const void* (*)(const char*);
  auto lookup = reinterpret_cast<lookup_t>(dlsym(lib, "parasail_matrix_lookup"));
  REQUIRE((create && sw && score && rfree && pfree && lookup));
  // NCBI's BLOSUM62 (lockstep's; parasail's own differs in X, B, Z and J) where installed
  using from_file_t = const void* (*)(const char*);
  auto from_file = reinterpret_cast<from_file_t>(dlsym(lib, "parasail_matrix_from_file"));
  const char* ncbi = "/usr/share/ncbi/data/BLOSUM62";
  const void* blosum =
      from_file && std::filesystem::exists(ncbi) ? from_file(ncbi) : lookup("blosum62");
  REQUIRE(blosum);
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  const SequenceSet q = read_fasta(dir + "QUERY.fasta.gz", s, 3);
  const SequenceSet db = read_fasta(dir + "DB.fasta.gz", s, 200);
  const SearchResult r = search(ctx, q, db, s, test::search_shape(20));
  auto letters = [&](const SequenceSet& set, size_t i) {
    std::string t;
    for (int64_t k = 0; k < set.length(i); ++k) t += s.alphabet[set.data(i)[k]];
    return t;
  };
  for (size_t i = 0; i < q.size(); ++i) {
    const std::string qa = letters(q, i);
    void* prof = create(qa.c_str(), int(qa.size()), blosum);
    for (const SearchHit& h : r.hits[i]) {
      const std::string sb = letters(db, size_t(h.subject));
      void* res = sw(prof, sb.c_str(), int(sb.size()), 11, 1);
      CHECK(score(res) == h.score);
      rfree(res);
    }
    pfree(prof);
  }
  dlclose(lib);
}

// The kernel's features (SearchOptions::algorithm inter+F, cl/search.cl SEARCH_PROF2 /
// SEARCH_SKEW): every pair's score and ends equal align_cpu's, a saturated pair included. Three
// programs of the test shape: prof2 alone, skew alone (a large database's default on a GPU), and
// prof2+skew (the skewed columns read the paired profile too); unknown or misplaced features
// and the deprecated SearchOptions::variant.
TEST_CASE("search: inter+prof2, inter+skew and inter+prof2+skew are exact, saturation included") {
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(35);
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  SequenceSet q, db;
  const std::string big = test::random_residues(rng, 60, aa) + std::string(3000, 'W');
  for (int len : {1, 17, 150, 333})
    q.add("q" + std::to_string(len), s.encode(test::random_residues(rng, len, aa)));
  q.add("big", s.encode(big));  // five queries: the last pair has one lane
  for (int j = 0; j < 90; ++j) {
    std::string r = test::random_residues(rng, 1 + (j * 67) % 400, aa);
    if (j % 9 == 4 && r.size() > 40) r.replace(10, 25, "WWCWWHWWKKWWCWWHWWKKWWCWW");
    db.add("s" + std::to_string(j), s.encode(r));
  }
  db.add("planted", s.encode(big));
  for (const std::string a : {"inter+prof2", "inter+skew", "inter+prof2+skew"}) {
    INFO("algorithm " << a);
    SearchOptions o = test::search_shape(int(db.size()));
    o.algorithm = a;
    const SearchResult r = search(ctx, q, db, s, o);
    CHECK(r.algorithm == a);
    CHECK(r.recomputed >= 1);
    check_against_cpu(r, q, db, s, int(db.size()));
  }
  SearchOptions bad = test::search_shape(3);
  bad.algorithm = "inter+wide";
  CHECK_THROWS_WITH_AS(search(ctx, q, db, s, bad),
                       doctest::Contains("unknown kernel feature 'wide'"), input_error);
  bad.algorithm = "intra+skew";
  CHECK_THROWS_WITH_AS(search(ctx, q, db, s, bad),
                       doctest::Contains("only inter takes kernel features"), input_error);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  bad.algorithm = "auto", bad.variant = "wide";  // the deprecated field is still read
  CHECK_THROWS_WITH_AS(search(ctx, q, db, s, bad),
                       doctest::Contains("unknown kernel feature 'wide'"), input_error);
#pragma GCC diagnostic pop
}

TEST_CASE(
    "search: short last stripes (a quarter, a half, a whole stripe) are exact, every feature set") {
  // Stripe 16: a pair whose longer query leaves 1-4 rows in its last stripe runs it with 4 rows,
  // 5-8 with 8, 9-16 with 16 (cl/search.cl SEARCH_TAILS); stripes of no multiple of 8 run whole.
  using detail::last_stripe_rows;
  CHECK(last_stripe_rows(1, 16) == 4);
  CHECK(last_stripe_rows(4, 16) == 4);
  CHECK(last_stripe_rows(5, 16) == 8);
  CHECK(last_stripe_rows(16, 16) == 16);
  CHECK(last_stripe_rows(33, 16) == 4);
  CHECK(last_stripe_rows(41, 16) == 16);
  CHECK(last_stripe_rows(37, 32) == 8);
  CHECK(last_stripe_rows(1, 6) == 6);
  Context& ctx = test::context();
  const Scoring s = blosum62(11, 1);
  std::mt19937 rng(36);
  const std::string aa = "ARNDCQEGHILKMFPSTWYV";
  SequenceSet q, db;
  // each length twice (a pair of equal lengths): the first and the last row count of each
  // class, in the first, second and third stripe
  for (int len : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 20, 21, 24, 25, 32, 33, 36, 40, 48})
    for (int k = 0; k < 2; ++k)
      q.add("q" + std::to_string(len), s.encode(test::random_residues(rng, len, aa)));
  for (int j = 0; j < 40; ++j)
    db.add("s" + std::to_string(j), s.encode(test::random_residues(rng, 1 + (j * 29) % 90, aa)));
  for (const char* a : {"inter", "inter+prof2", "inter+skew", "inter+prof2+skew"}) {
    INFO("algorithm " << a);
    SearchOptions o = test::search_shape(int(db.size()));
    o.algorithm = a;
    check_against_cpu(search(ctx, q, db, s, o), q, db, s, int(db.size()));
  }
}

// The one top-K (search_impl.hpp's TopKOf): top_hits and the device keepers give the first `top`
// of a full sort by (score descending, subject ascending), through many cut-backs, and nothing
// for top 0. Host only.
TEST_CASE("search: top_hits and the device keeper are one top-K, equal to a full sort") {
  std::mt19937 rng(7);
  std::vector<SearchHit> all;
  for (int64_t i = 0; i < 5000; ++i) {
    SearchHit h;
    h.subject = (i * 7919) % 5000;  // unsorted subjects
    h.score = int32_t(rng() % 40);  // many ties
    all.push_back(h);
  }
  std::vector<SearchHit> sorted = all;
  std::sort(sorted.begin(), sorted.end(), [](const SearchHit& a, const SearchHit& b) {
    return a.score != b.score ? a.score > b.score : a.subject < b.subject;
  });
  for (int top : {0, 1, 7, 100, 6000}) {
    CAPTURE(top);
    const std::vector<SearchHit> got = top_hits(all, top);
    REQUIRE(got.size() == std::min<size_t>(all.size(), size_t(top)));
    detail::TopK keep{size_t(top)};
    for (const SearchHit& h : all) keep.add(h.score, h.subject);
    const auto kept = keep.take();
    REQUIRE(kept.size() == got.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].subject == sorted[i].subject);
      CHECK(got[i].score == sorted[i].score);
      CHECK(kept[i] == std::make_pair(sorted[i].score, sorted[i].subject));
    }
  }
}
