// `lockstep search` against BLAST+ itself (Debian ncbi-blast+, ncbi-data), run by the tests on
// the same input: NCBI's matrix files cell for cell, the statistics blastp and blastn print, and
// the hits of a small database at both tools' defaults (blastp -comp_based_stats 0, blastn -task
// blastn -dust no): raw score, the tabular columns and the bit score identical, E-values within
// 5%. A case skips where BLAST+, its data or the mmseqs2 example proteins are missing. The
// searches run on the host (--algorithm cpu): the device's scores equal the host's
// (test_search.cpp).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "lockstep/search.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {
using lockstep::test::slurp;

const char* const kNcbiData = "/usr/share/ncbi/data/";
const char* const kMatrices[] = {"BLOSUM45", "BLOSUM50", "BLOSUM62", "BLOSUM80",
                                 "PAM30",    "PAM70",    "PAM250"};

bool have(const std::string& tool) {
  std::string out;
  return test::run_shell("command -v " + tool, out) == 0;
}

std::vector<std::vector<std::string>> rows(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::istringstream cols(line);
    for (std::string c; std::getline(cols, c, '\t');) f.push_back(c);
    out.push_back(f);
  }
  return out;
}

// The numbers after the last "Gapped\nLambda ..." header (or the last "Lambda" header) of a
// BLAST pairwise report: Lambda K H (a alpha sigma).
std::vector<double> gapped_parameters(const std::string& report) {
  size_t at = report.rfind("Lambda");
  if (at == std::string::npos) return {};
  std::istringstream in(report.substr(report.find('\n', at) + 1));
  std::string line;
  std::getline(in, line);
  std::istringstream nums(line);
  std::vector<double> v;
  for (double x; nums >> x;) v.push_back(x);
  return v;
}

// Compares lockstep's tabular hits (with their raw scores from --json) with BLAST's (outfmt 6
// with the raw score as a 13th column) where both report the pair with the same score, and that
// those come in BLAST's order; returns how many matched.
size_t compare_hits(const std::string& tsv, const nlohmann::json& j, const std::string& blast) {
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> best;  // first HSP
  std::map<std::pair<std::string, std::string>, size_t> line;                    // its line
  for (const auto& b : rows(blast)) {
    REQUIRE(b.size() == 13);
    best.emplace(std::pair{b[0], b[1]}, b);
    line.emplace(std::pair{b[0], b[1]}, line.size());
  }
  size_t last = 0;
  const auto mine = rows(tsv);
  REQUIRE(mine.size() == j["hits"].size());
  size_t shared = 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    const auto& m = mine[i];
    REQUIRE(m.size() == 12);
    const auto it = best.find({m[0], m[1]});
    if (it == best.end()) continue;
    const auto& b = it->second;
    const int score = j["hits"][i]["score"].get<int>();
    if (std::to_string(score) != b[12]) continue;  // BLAST's heuristic missed the optimum
    ++shared;
    INFO("hit " << m[0] << " " << m[1] << " score " << score);
    CHECK(line[{m[0], m[1]}] + 1 > last);  // BLAST's order
    last = line[{m[0], m[1]}] + 1;
    CHECK(std::stod(m[2]) == doctest::Approx(std::stod(b[2])).epsilon(1e-9));  // pident
    for (size_t c : {3, 4, 5, 6, 7, 8, 9}) CHECK(m[c] == b[c]);                // length ... send
    CHECK(m[11] == b[11]);  // bit score as printed
    const double e = j["hits"][i]["evalue"].get<double>(), be = std::stod(b[10]);
    if (be > 0)
      CHECK(e == doctest::Approx(be).epsilon(0.05));
    else
      CHECK(e < 1e-180);
  }
  return shared;
}

const char* const kBlastColumns =
    "'6 qseqid sseqid pident length mismatch gapopen qstart qend sstart send evalue bitscore "
    "score'";

}  // namespace

TEST_CASE("search blast: the built-in matrices are NCBI's files, cell for cell") {
  // Henikoff's 1/3-bit BLOSUM80 has A-A 7; NCBI's half-bit one, which its statistics belong to, 5
  CHECK(blosum80(11, 1)(0, 0) == 5);
  const Scoring b62 = blosum62(12, 1);
  const size_t x = b62.alphabet.find('X'), n = b62.alphabet.find('N'), bb = b62.alphabet.find('B');
  REQUIRE(x != std::string::npos);
  CHECK(b62(uint8_t(x), 0) == -1);           // parasail's X-A is 0
  CHECK(b62(uint8_t(bb), uint8_t(n)) == 4);  // NCBI's B-N
  if (!std::filesystem::exists(std::string(kNcbiData) + "BLOSUM62"))
    return test::skip("no NCBI matrix files (Debian ncbi-data) in " + std::string(kNcbiData));
  for (const char* name : kMatrices) {
    INFO(name);
    const Scoring ours = matrix_scoring(name, 12, 1);
    const Scoring file = read_ncbi_matrix(std::string(kNcbiData) + name, 12, 1);
    CHECK(ours.alphabet == file.alphabet);
    CHECK(ours.table == file.table);
  }
}

TEST_CASE("search blast: defaults are blastp's and blastn's, printed in both conventions") {
  // lockstep's open + (L-1) extend = BLAST's a + L b with a = open - extend, b = extend
  const std::map<std::string, std::pair<int, int>> blast = {
      {"blosum45", {14, 2}}, {"blosum50", {13, 2}}, {"blosum62", {11, 1}}, {"blosum80", {10, 1}},
      {"pam30", {9, 1}},     {"pam70", {10, 1}},    {"pam250", {14, 2}}};
  for (const auto& [name, gaps] : blast) {
    INFO(name);
    const Scoring s = matrix_scoring(name);
    CHECK(s.gap_open - s.gap_extend == gaps.first);
    CHECK(s.gap_extend == gaps.second);
    CHECK(karlin_altschul(s));
  }
  test::TempDir d;
  std::ofstream(d.path / "q.fa") << ">q\nACGTACGTTTGACCA\n";
  std::string out;
  REQUIRE(test::run_cli("search " + (d.path / "q.fa").string() + " " + (d.path / "q.fa").string() +
                            " --dna --algorithm cpu",
                        out) == 0);
  auto kv = test::last_line(out);
  CHECK(kv["blast_gapopen"] == "5");  // blastn -task blastn: reward 2, penalty -3, gaps 5/2
  CHECK(kv["blast_gapextend"] == "2");
  CHECK(kv["strand"] == "both");
  CHECK(kv["evalue"] == "10");
  // BLAST's names for the cutoffs; bad values are usage errors naming the option
  const std::string qq = (d.path / "q.fa").string() + " " + (d.path / "q.fa").string();
  REQUIRE(test::run_cli("search " + qq + " --dna --algorithm cpu --max-target-seqs 1", out) == 0);
  CHECK(test::last_line(out)["top"] == "1");
  CHECK(test::run_cli("search " + qq + " --dna --top 2 --max-target-seqs 1", out) == 2);
  CHECK(test::has(out, "--top and --max-target-seqs name the same cutoff"));
  CHECK(test::run_cli("search " + qq + " --dna --evalue 0", out) == 2);
  CHECK(test::has(out, "--evalue: must be > 0"));
  CHECK(test::run_cli("search " + qq + " --dna --strand up", out) == 2);
  CHECK(test::has(out, "--strand: expected both, plus or minus, got 'up'"));
  CHECK(test::run_cli("search " + qq + " --strand plus", out) == 2);
  CHECK(test::has(out, "--strand: only for DNA"));
  REQUIRE(test::run_cli("search --help", out) == 0);
  CHECK(test::has(out, "(BLAST 11/1)"));  // the help wraps its lines
}

TEST_CASE("search blast: NCBI's statistics as blastp and blastn print them") {
  if (!have("blastp") || !have("blastn")) return test::skip("no BLAST+ (Debian ncbi-blast+)");
  test::TempDir d;
  const std::string a = (d.path / "a.fa").string(), n = (d.path / "n.fa").string();
  std::ofstream(a) << ">a\nMKVLAWGHEEKLPQRSTVWYDDEFGHIKLMNPQRSTVWYACDE\n";
  std::ofstream(n) << ">n\nACGTACGTTAACGTACGTACGTAAACCCGGGTTTGACTGACCA\n";
  for (const char* name : kMatrices) {
    INFO(name);
    std::string report;
    REQUIRE(test::run_shell("blastp -query " + a + " -subject " + a + " -matrix " + name +
                                " -comp_based_stats 0 -seg no",
                            report) == 0);
    const std::vector<double> v = gapped_parameters(report);
    REQUIRE(v.size() == 6);  // Lambda K H a alpha sigma
    const KarlinAltschul ka = karlin_altschul(matrix_scoring(name));
    REQUIRE(ka);
    CHECK(ka.lambda == doctest::Approx(v[0]).epsilon(0.002));
    CHECK(ka.K == doctest::Approx(v[1]).epsilon(0.01));
    CHECK(ka.H == doctest::Approx(v[2]).epsilon(0.01));
    CHECK(ka.a == doctest::Approx(v[3]).epsilon(0.01));
    CHECK(ka.Alpha == doctest::Approx(v[4]).epsilon(0.01));
    CHECK(ka.Sigma == doctest::Approx(v[5]).epsilon(0.01));
  }
  std::string report;
  REQUIRE(test::run_shell("blastn -task blastn -dust no -query " + n + " -subject " + n, report) ==
          0);
  const std::vector<double> v = gapped_parameters(report);
  REQUIRE(v.size() == 3);
  const KarlinAltschul ka = karlin_altschul(blastn_scoring(2, -3, 7, 2));
  REQUIRE(ka);
  CHECK(ka.lambda == doctest::Approx(v[0]).epsilon(0.002));
  CHECK(ka.K == doctest::Approx(v[1]).epsilon(0.01));
  CHECK(ka.H == doctest::Approx(v[2]).epsilon(0.01));
  const size_t space = report.find("Effective search space used: ");
  REQUIRE(space != std::string::npos);
  CHECK(effective_search_space(ka, 43, 43, 1) == std::stod(report.substr(space + 29)));
}

TEST_CASE("search blast: a protein database at both tools' defaults, as blastp reports it") {
  const std::string ex = "/usr/share/doc/mmseqs2/example-data/";
  if (!have("blastp") || !have("makeblastdb")) return test::skip("no BLAST+ (ncbi-blast+)");
  if (!std::filesystem::exists(ex + "DB.fasta.gz"))
    return test::skip("no mmseqs2 example data (Debian mmseqs2-examples) in " + ex);
  test::TempDir d;
  const std::string dir = d.path.string(), db = dir + "/db.fa", q = dir + "/q.fa";
  std::string out;
  REQUIRE(test::run_shell("zcat " + ex + "DB.fasta.gz | awk '/^>/{n++} n<=300' > " + db +
                              " && zcat " + ex + "QUERY.fasta.gz | awk '/^>/{n++} n<=4' > " + q +
                              " && makeblastdb -in " + db + " -dbtype prot -out " + dir + "/db",
                          out) == 0);
  REQUIRE(test::run_shell("blastp -query " + q + " -db " + dir +
                              "/db -comp_based_stats 0 -outfmt " + kBlastColumns + " > " + dir +
                              "/blast.tsv",
                          out) == 0);
  REQUIRE(test::run_cli("search " + q + " " + db + " --algorithm cpu --outfmt 6 --out " + dir +
                            "/l.tsv --json " + dir + "/l.json",
                        out) == 0);
  const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/l.json"));
  const size_t shared = compare_hits(slurp(dir + "/l.tsv"), j, slurp(dir + "/blast.tsv"));
  MESSAGE(shared << " of " << j["hits"].size() << " hits shared with blastp");
  CHECK(shared >= j["hits"].size() / 2);
  CHECK(shared >= 10);
}

namespace {

std::string reverse_complement(std::string s) {
  std::reverse(s.begin(), s.end());
  for (char& c : s) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'T' ? 'A' : c;
  return s;
}

}  // namespace

TEST_CASE("search blast: a DNA database on both strands, as blastn -task blastn reports it") {
  if (!have("blastn") || !have("makeblastdb")) return test::skip("no BLAST+ (ncbi-blast+)");
  std::mt19937 rng(11);  // 60,000 seeded random bases (std::mt19937 is the same everywhere)
  std::string g(60000, 'A');
  for (char& c : g) c = "ACGT"[rng() % 4];
  test::TempDir d;
  const std::string dir = d.path.string(), db = dir + "/db.fa", q = dir + "/q.fa";
  {
    std::ofstream out(db);
    for (size_t i = 0; i < 200; ++i) out << ">s" << i << "\n" << g.substr(i * 300, 300) << "\n";
    // queries: pieces of subjects with a substitution every 23 bases and a deletion, two of them
    // reverse-complemented (hits on the minus strand), one with an N
    std::ofstream qs(q);
    for (size_t k = 0; k < 4; ++k) {
      std::string piece = g.substr(k * 3000 + 50, 220);
      for (size_t i = 11; i < piece.size(); i += 23) piece[i] = piece[i] == 'A' ? 'C' : 'A';
      piece.erase(120, 3);
      if (k == 3) piece[60] = 'N';
      qs << ">q" << k << "\n" << (k % 2 ? reverse_complement(piece) : piece) << "\n";
    }
  }
  std::string out;
  REQUIRE(test::run_shell("makeblastdb -in " + db + " -dbtype nucl -out " + dir + "/db", out) == 0);
  REQUIRE(test::run_shell("blastn -task blastn -dust no -query " + q + " -db " + dir +
                              "/db -outfmt " + kBlastColumns + " > " + dir + "/blast.tsv",
                          out) == 0);
  REQUIRE(test::run_cli("search " + q + " " + db + " --dna --algorithm cpu --outfmt 6 --out " +
                            dir + "/l.tsv --json " + dir + "/l.json",
                        out) == 0);
  const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/l.json"));
  const size_t shared = compare_hits(slurp(dir + "/l.tsv"), j, slurp(dir + "/blast.tsv"));
  MESSAGE(shared << " of " << j["hits"].size() << " hits shared with blastn");
  size_t minus = 0;
  for (const auto& h : j["hits"]) minus += h["strand"] == "minus";
  CHECK(minus >= 2);
  CHECK(shared >= 4);
}

TEST_CASE("search blast: IUPAC letters as blastn scores them") {
  if (!have("blastn")) return test::skip("no BLAST+ (ncbi-blast+)");
  std::mt19937 rng(5);
  std::string base(72, 'A');
  for (char& c : base) c = "ACGT"[rng() % 4];
  test::TempDir d;
  const std::string dir = d.path.string(), q = dir + "/q.fa", s = dir + "/s.fa";
  const std::string letters = "NRYMKWSBDHVACGT";
  {
    std::ofstream qs(q), ss(s);
    for (size_t k = 0; k < 5; ++k) {  // three ambiguous sites, 18 bases apart
      std::string a = base, b = base;
      for (size_t site = 0; site < 3; ++site) {
        a[18 + 18 * site] = letters[(k * 3 + site) % letters.size()];
        b[18 + 18 * site] = letters[(k * 7 + site * 5 + 2) % letters.size()];
      }
      qs << ">q" << k << "\n" << a << "\n";
      ss << ">s" << k << "\n" << b << "\n";
    }
  }
  std::string out, log;
  REQUIRE(test::run_shell("blastn -task blastn -dust no -strand plus -query " + q + " -subject " +
                              s + " -outfmt '6 qseqid sseqid score'",
                          out) == 0);
  std::map<std::pair<std::string, std::string>, int> blast;  // the best HSP of each pair
  for (const auto& r : rows(out))
    if (r.size() == 3) {
      int& best = blast[{r[0], r[1]}];
      best = std::max(best, std::stoi(r[2]));
    }
  REQUIRE(blast.size() == 25);
  REQUIRE(test::run_cli("search " + q + " " + s +
                            " --dna --strand plus --evalue 1e9 --algorithm cpu --json " + dir +
                            "/l.json --out " + dir + "/l.tsv",
                        log) == 0);
  const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/l.json"));
  REQUIRE(j["hits"].size() == 25);
  for (const auto& h : j["hits"]) {
    INFO(h["query"] << " " << h["subject"]);
    CHECK(blast[{h["query"], h["subject"]}] == h["score"].get<int>());
  }
}

TEST_CASE("search blast: U, O and J as blastp scores them, with one note") {
  if (!have("blastp")) return test::skip("no BLAST+ (ncbi-blast+)");
  test::TempDir d;
  const std::string dir = d.path.string(), q = dir + "/q.fa", s = dir + "/s.fa";
  const std::string base = "MKVLAxGHWERTYKLPCDEFGHIKLMNPQRSTVWY";
  std::ofstream qs(q), ss(s);
  for (const char c : std::string("UCOJX")) {
    std::string r = base;
    r[5] = c;
    qs << ">q" << c << "\n" << r << "\n";
    ss << ">s" << c << "\n" << r << "\n";
  }
  qs.close(), ss.close();
  std::string out, log;
  REQUIRE(test::run_shell("blastp -query " + q + " -subject " + s +
                              " -comp_based_stats 0 -seg no -outfmt '6 qseqid sseqid score'",
                          out) == 0);
  std::map<std::pair<std::string, std::string>, std::string> blast;
  for (const auto& r : rows(out))
    if (r.size() == 3) blast[{r[0], r[1]}] = r[2];
  REQUIRE(blast.size() == 25);
  REQUIRE(test::run_cli("search " + q + " " + s + " --algorithm cpu --json " + dir +
                            "/l.json --out " + dir + "/l.tsv",
                        log) == 0);
  CHECK(test::has(log, "residue(s) U or O"));
  const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/l.json"));
  REQUIRE(j["hits"].size() == 25);
  for (const auto& h : j["hits"]) {
    INFO(h["query"] << " " << h["subject"]);
    CHECK(blast[{h["query"], h["subject"]}] == std::to_string(h["score"].get<int>()));
  }
}

TEST_CASE("search blast: bit scores print as BLAST's, names stay apart") {
  test::TempDir d;
  const std::string dir = d.path.string(), q = dir + "/q.fa";
  std::string big;
  for (int i = 0; i < 1500; ++i) big += "WC";  // 3000 residues, 20 per pair: 30000
  std::ofstream(q) << ">big\n" << big << "\n>\nMKV\n>dup\nMKVL\n>dup\nMKVLA\n";
  std::string out;
  REQUIRE(test::run_cli("search " + q + " " + q +
                            " --algorithm cpu --outfmt 6 --top 1 --evalue 1e6 --out " + dir +
                            "/l.tsv",
                        out) == 0);
  CHECK(test::has(out, "sequences 3 and 4 are both named 'dup'"));
  const auto r = rows(slurp(dir + "/l.tsv"));
  REQUIRE(r.size() == 4);
  CHECK(r[0][11] == "11560");  // (0.267 x 30000 - ln 0.041) / ln 2 = 11560.6, no exponent
  CHECK(r[1][0] == "2");       // the record with an empty header: its number
}
