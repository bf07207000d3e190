// Search output and prepared databases, on the host (--algorithm cpu, search_cpu): the hits'
// tracebacks on threads against one at a time, BLAST's column keywords and format 7's comment
// lines against blastp's own output (BLAST+ 2.12, when installed), a minus-strand hit's columns
// against blastn's, and `lockstep makedb`: a search of the prepared database (a DNA one on both
// strands too) prints what the FASTA's does, byte for byte; a truncated, corrupt, foreign or
// other-version file is refused in one line naming it; the file is written through a temporary.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "lockstep/search.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {
using lockstep::test::slurp;
using lockstep::test::write;

// Random proteins and mutated copies of pieces of them (substitutions, insertions, deletions):
// hits with gaps, mismatches and starts inside both sequences.
struct Proteins {
  std::string queries, db;
};
Proteins proteins(unsigned seed, int nq, int nd) {
  std::mt19937 rng(seed);
  const std::string aa = "ACDEFGHIKLMNPQRSTVWY";
  auto random = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += aa[rng() % 20];
    return s;
  };
  Proteins p;
  std::vector<std::string> q;
  for (int i = 0; i < nq; ++i) {
    q.push_back(random(60 + int(rng() % 240)));
    p.queries += ">q" + std::to_string(i) + " query " + std::to_string(i) + "\n" + q.back() + "\n";
  }
  for (int i = 0; i < nd; ++i) {
    const std::string& src = q[rng() % q.size()];
    const size_t from = rng() % (src.size() / 2), len = src.size() / 2 + rng() % (src.size() / 2);
    std::string m;
    for (char c : src.substr(from, len)) {
      const unsigned u = rng() % 100;
      if (u < 15)
        m += aa[rng() % 20];
      else if (u < 17)
        m += random(1 + int(rng() % 3)) + c;
      else if (u >= 19)
        m += c;
    }
    p.db += ">s" + std::to_string(i) + "\n" + random(int(rng() % 50)) + m +
            random(int(rng() % 50)) + "\n";
  }
  return p;
}

bool have_blast() {
  std::string out;
  return test::run_shell("command -v blastp && command -v makeblastdb", out) == 0;
}

}  // namespace

TEST_CASE("search output: the hits traced back on threads equal one at a time") {
  test::TempDir d;
  const Scoring s = blosum62(11, 1);
  const Proteins p = proteins(7, 12, 60);
  const SequenceSet q = read_sequences(write(d, "q.fa", p.queries), s);
  const SequenceSet db = read_sequences(write(d, "db.fa", p.db), s);
  SearchOptions o;
  o.top = 8;
  const SearchResult r = search_cpu(q, db, s, o);
  const auto all = align_hits(q, db, s, r, 4);
  REQUIRE(all.size() == r.hits.size());
  int gapped = 0;
  for (size_t i = 0; i < r.hits.size(); ++i)
    for (size_t k = 0; k < r.hits[i].size(); ++k) {
      const HitAlignment one = align_hit(q, db, s, r.hits[i][k]);
      const HitAlignment& h = all[i][k];
      CHECK(h.cigar == one.cigar);
      CHECK(h.qstart == one.qstart);
      CHECK(h.sstart == one.sstart);
      CHECK(h.qend == r.hits[i][k].query_end + 1);
      CHECK(h.send == r.hits[i][k].subject_end + 1);
      CHECK(h.length == h.nident + h.mismatch + h.gaps);
      CHECK(h.pident == one.pident);
      gapped += h.gapopen > 0;
      // the CIGAR from the start rescores to the search's score
      const std::vector<uint8_t> a(q.data(i), q.data(i) + q.length(i));
      const size_t sub = size_t(r.hits[i][k].subject);
      const std::vector<uint8_t> b(db.data(sub), db.data(sub) + db.length(sub));
      if (r.hits[i][k].score > 0)
        CHECK(rescore(a, b, s, h.qstart - 1, h.sstart - 1, h.cigar) == r.hits[i][k].score);
    }
  CHECK(gapped > 5);
}

TEST_CASE("search output: --outfmt keywords and format 7 print what blastp prints") {
  if (!have_blast()) return test::skip("no blastp/makeblastdb (Debian ncbi-blast+)");
  test::TempDir d;
  // a 6,000-residue self hit (a bit score above 9999: BLAST prints it whole) and a gapped
  // homolog
  std::mt19937 rng(3);
  const std::string aa = "ACDEFGHIKLMNPQRSTVWY";
  std::string big, one;
  for (int i = 0; i < 6000; ++i) big += aa[rng() % 20];
  for (int i = 0; i < 300; ++i) one += aa[rng() % 20];
  std::string two = one;
  for (size_t i = 0; i < two.size(); i += 7) two[i] = aa[rng() % 20];
  two = two.substr(0, 100) + "GGGG" + two.substr(100, 150) + two.substr(260);
  const std::string q = write(d, "q.fa", ">qbig\n" + big + "\n>q1\n" + one + "\n");
  const std::string db = write(d, "db.fa", ">big\n" + big + "\n>s2\n" + two + "\n");
  // every column, evalue too (Spouge's finite-size E-values, as BLAST 2.12's)
  const std::string fields =
      "qseqid sseqid pident length mismatch gapopen qstart qend sstart send evalue bitscore "
      "score nident positive gaps ppos qseq sseq qlen slen qcovhsp";
  std::string blast, log;
  // the best hit of each query; lockstep's --gap-open 12 is BLAST's -gapopen 11 (a gap of
  // length L costs 11 + L there)
  REQUIRE(test::run_shell("(cd " + d.path.string() + " && makeblastdb -in db.fa -dbtype prot " +
                              "-out db >/dev/null && blastp -query q.fa -db db -seg no " +
                              "-comp_based_stats 0 -max_target_seqs 1 -max_hsps 1 -outfmt '7 " +
                              fields + "' 2>/dev/null)",
                          blast) == 0);
  const std::string out = (d.path / "hits.m7").string();
  REQUIRE(test::run_cli("search " + q + " " + db + " --top 1 --algorithm cpu --gap-open 12 " +
                            "--outfmt '7 " + fields + "' --out " + out,
                        log) == 0);
  const std::string got = slurp(out);
  // BLAST's first line names its version, and its Database line the BLAST database's name
  auto body = [](const std::string& text) {
    std::string kept, line;
    std::istringstream in(text);
    while (std::getline(in, line))
      if (line.rfind("# BLASTP", 0) != 0 && line.rfind("# Database:", 0) != 0) kept += line + "\n";
    return kept;
  };
  CHECK(body(got) == body(blast));
  const size_t at = got.find("\nqbig\tbig\t");
  REQUIRE(at != std::string::npos);
  std::istringstream cells(got.substr(at + 1, got.find('\n', at + 1) - at - 1));
  std::vector<std::string> col;
  for (std::string c; std::getline(cells, c, '\t');) col.push_back(c);
  REQUIRE(col.size() == 22);
  const std::string bits = col[11];
  CHECK(bits.find_first_not_of("0123456789") == std::string::npos);
  CHECK(std::stol(bits) > 9999);
  CHECK(test::has(got, "# Database: " + db + "\n"));
  CHECK(test::has(got, "# BLASTP lockstep-search\n# Query: qbig\n"));
  // format 6 is the lines alone; the default columns are BLAST's twelve
  REQUIRE(test::run_cli(
              "search " + q + " " + db + " --top 1 --algorithm cpu --gap-open 12 " + "--outfmt 6",
              log) == 0);
  CHECK(test::has(log, "qbig\tbig\t100.000\t6000\t0\t0\t1\t6000\t1\t6000\t0.0\t" + bits + "\n"));
  CHECK(!test::has(log, "# "));
  // an unknown keyword is a usage error naming it
  CHECK(test::run_cli("search " + q + " " + db + " --algorithm cpu --outfmt '6 qseqid frobs'",
                      log) == 2);
  CHECK(test::has(log, "--outfmt: unknown column keyword 'frobs'"));
  CHECK(test::run_cli("search " + q + " " + db + " --algorithm cpu --outfmt 5", log) == 2);
  CHECK(test::has(log, "--outfmt: expected 6"));
}

TEST_CASE("makedb: a search of the prepared database prints the FASTA's, byte for byte") {
  test::TempDir d;
  const Proteins p = proteins(11, 6, 80);
  const std::string q = write(d, "q.fa", p.queries), fa = write(d, "db.fa", p.db);
  const std::string lsdb = (d.path / "db.lsdb").string();
  std::string log;
  REQUIRE(test::run_cli("makedb " + fa + " " + lsdb, log) == 0);
  CHECK(test::last_line(log)["sequences"] == "80");
  CHECK(test::count_files(d.path, "tmp") == 0);  // no temporary left beside it
  // (format 7's "# Database:" line names the file given)
  for (const std::string args : {" --top 5", " --top 3 --outfmt '6 std qlen slen'"}) {
    const std::string a = (d.path / "a.tsv").string(), b = (d.path / "b.tsv").string();
    REQUIRE(test::run_cli("search " + q + " " + fa + " --algorithm cpu --out " + a + args, log) ==
            0);
    REQUIRE(test::run_cli("search " + q + " " + lsdb + " --algorithm cpu --out " + b + args, log) ==
            0);
    CHECK(slurp(a) == slurp(b));
    CHECK(test::last_line(log)["subjects"] == "80");
  }
  // the queries may be a prepared database too
  const std::string qdb = (d.path / "q.lsdb").string(), a = (d.path / "a.tsv").string();
  REQUIRE(test::run_cli("makedb " + q + " " + qdb, log) == 0);
  REQUIRE(test::run_cli("search " + qdb + " " + lsdb + " --algorithm cpu --top 5 --out " + a,
                        log) == 0);
  REQUIRE(test::run_cli("search " + q + " " + fa + " --algorithm cpu --top 5", log) == 0);
  CHECK(test::has(log, slurp(a)));
  // made for BLOSUM62, searched with a matrix of other letters: mapped, or refused by record
  const Scoring s62 = blosum62(11, 1), dna = dna_scoring(2, -3, 5, 2);
  auto codes = [](const SequenceSet& set) {
    return std::vector<uint8_t>(set.codes(), set.codes() + set.residue_count());
  };
  const SequenceSet mapped = open_database(lsdb, s62);  // the codes stay in the file's map
  CHECK(mapped.residues.empty());
  CHECK(codes(mapped) == codes(read_sequences(fa, s62)));
  const Scoring m45 = blosum45(15, 2);
  CHECK(codes(open_database(lsdb, m45)) == codes(read_sequences(fa, m45)));
  CHECK_THROWS_WITH_AS(open_database(lsdb, dna),
                       doctest::Contains((lsdb + ": record 1, residue").c_str()), input_error);
  // made for DNA, opened with BLOSUM62: A C G T N are its letters too, mapped to its codes
  const std::string dfa = write(d, "d.fa", ">d1\nACGTNNACGT\n>d2\nTTGCA\n");
  const std::string dsdb = (d.path / "d.lsdb").string();
  REQUIRE(test::run_cli("makedb --dna " + dfa + " " + dsdb, log) == 0);
  CHECK(test::last_line(log)["alphabet"] == "dna");
  CHECK(codes(open_database(dsdb, s62)) == codes(read_sequences(dfa, s62)));
  CHECK(codes(open_database(dsdb, dna)) == codes(read_sequences(dfa, dna)));
  // the Python path and the library take either form
  CHECK(read_database(lsdb, s62).names == read_database(fa, s62).names);
}

TEST_CASE("search output: a minus-strand hit's columns as blastn prints them") {
  std::string out;
  if (test::run_shell("command -v blastn", out) != 0) return test::skip("no blastn (ncbi-blast+)");
  test::TempDir d;
  std::mt19937 rng(9);
  std::string g(400, 'A');
  for (char& c : g) c = "ACGT"[rng() % 4];
  // the query: a reverse-complemented piece of the subject with substitutions and a deletion
  std::string piece = g.substr(90, 200);
  for (size_t i = 13; i < piece.size(); i += 29) piece[i] = piece[i] == 'A' ? 'G' : 'A';
  piece.erase(100, 2);
  std::reverse(piece.begin(), piece.end());
  for (char& c : piece) c = c == 'A' ? 'T' : c == 'T' ? 'A' : c == 'C' ? 'G' : 'C';
  const std::string q = write(d, "q.fa", ">q\n" + piece + "\n");
  const std::string s = write(d, "s.fa", ">s\n" + g + "\n");
  const std::string fields = "qseqid sseqid qstart qend sstart send length score qseq sseq";
  REQUIRE(test::run_shell("blastn -task blastn -dust no -max_hsps 1 -query " + q + " -subject " +
                              s + " -outfmt '6 " + fields + "'",
                          out) == 0);
  const std::string blast = out.substr(0, out.find('\n') + 1);
  REQUIRE(test::has(blast, "q\ts\t1\t198\t290\t91\t"));  // the minus strand
  REQUIRE(test::run_cli("search " + q + " " + s + " --dna --top 1 --algorithm cpu --outfmt '6 " +
                            fields + "'",
                        out) == 0);
  CHECK(test::has(out, blast));
}

TEST_CASE("makedb: a DNA database keeps its IUPAC letters; both strands print the FASTA's") {
  test::TempDir d;
  std::mt19937 rng(4);
  std::string g(900, 'A');
  for (char& c : g) c = "ACGT"[rng() % 4];
  for (size_t i = 17; i < g.size(); i += 41) g[i] = "RYKMSWBDHVN"[rng() % 11];
  std::string db;
  for (size_t i = 0; i < 3; ++i)
    db += ">s" + std::to_string(i) + "\n" + g.substr(i * 300, 300) + "\n";
  std::string plus = g.substr(40, 150), minus = g.substr(420, 160);
  std::reverse(minus.begin(), minus.end());
  const std::string from = "ACGTRYKMSWBDHVN", to = "TGCAYRMKSWVHDBN";
  for (char& c : minus) c = to[from.find(c)];
  const std::string q = write(d, "q.fa", ">p\n" + plus + "\n>m\n" + minus + "\n");
  const std::string fa = write(d, "db.fa", db), lsdb = (d.path / "db.lsdb").string();
  std::string log;
  REQUIRE(test::run_cli("makedb --dna " + fa + " " + lsdb, log) == 0);
  for (const std::string opts : {"", " --outfmt '7 std score qseq sseq'", " --strand minus"}) {
    INFO(opts);
    const std::string a = (d.path / "a.tsv").string(), b = (d.path / "b.tsv").string();
    REQUIRE(test::run_cli(
                "search " + q + " " + fa + " --dna --algorithm cpu" + opts + " --out " + a, log) ==
            0);
    REQUIRE(
        test::run_cli("search " + q + " " + lsdb + " --dna --algorithm cpu" + opts + " --out " + b,
                      log) == 0);
    const std::string want = slurp(a), got = slurp(b);
    if (opts.find("outfmt") == std::string::npos) CHECK(test::has(want, "\tminus\n"));
    // format 7's Database line names the file searched
    auto body = [](const std::string& text) {
      std::string kept, line;
      std::istringstream in(text);
      while (std::getline(in, line))
        if (line.rfind("# Database:", 0) != 0) kept += line + "\n";
      return kept;
    };
    CHECK(body(got) == body(want));
  }
}

TEST_CASE("makedb: truncated, corrupt, foreign and other-version files are refused") {
  test::TempDir d;
  const Proteins p = proteins(5, 2, 30);
  const std::string q = write(d, "q.fa", p.queries), fa = write(d, "db.fa", p.db);
  const std::string lsdb = (d.path / "db.lsdb").string();
  std::string log;
  REQUIRE(test::run_cli("makedb " + fa + " " + lsdb, log) == 0);
  const std::string good = slurp(lsdb);
  auto refused = [&](const std::string& name, const std::string& bytes, const std::string& why) {
    const std::string path = write(d, name, bytes), out = (d.path / "never.tsv").string();
    CHECK(test::run_cli("search " + q + " " + path + " --algorithm cpu --out " + out, log) == 1);
    CHECK(test::has(log, why.empty() ? path : path + ": " + why));
    CHECK(!std::filesystem::exists(out));
  };
  refused("short.lsdb", good.substr(0, good.size() - 10), "truncated or extended");
  refused("header.lsdb", good.substr(0, 40), "truncated lockstep database");
  std::string bad = good;
  bad[bad.size() - 3] ^= 1;  // a block hash's byte
  refused("bad.lsdb", bad, "corrupt lockstep database (its content's checksum differs)");
  bad = good;
  bad[good.rfind("s4") + 1] ^= 1;  // a name's byte
  refused("name.lsdb", bad, "corrupt lockstep database (its content's checksum differs)");
  bad = good;
  bad[20] ^= 1;  // the sequence count
  refused("count.lsdb", bad, "corrupt lockstep database (its header's checksum differs)");
  bad = good;
  bad[8] = 1;  // the format version (1: one checksum of the whole content, no block hashes)
  refused("v1.lsdb", bad, "lockstep database format version 1, this lockstep reads version 2");
  // no magic: read as FASTA, whose reader refuses it
  refused("foreign.lsdb",
          std::string("\x7f"
                      "ELF\x02\x01\x01",
                      7) +
              std::string(64, '\0'),
          "");
  // makedb writes through a temporary: a failed run leaves the old file as it was
  CHECK(test::run_cli("makedb " + write(d, "empty.fa", "") + " " + lsdb, log) == 1);
  CHECK(slurp(lsdb) == good);
  CHECK(test::run_cli("makedb " + fa + " " + fa, log) == 2);
  CHECK(test::has(log, "same file"));
}
