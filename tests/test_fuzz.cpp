// A deterministic fuzz test of the input readers. Each row of targets() names a reader, valid
// seed inputs and the library call; a fixed-seed mutation loop (byte flips, truncation,
// inserted junk, huge and negative numbers, duplicated, deleted and swapped lines, the empty
// file) feeds a few thousand variants to the library, which must either accept them or throw
// input_error whose message starts with the file name (never another exception, never a
// crash: the sanitizer build in .ci/run runs this too), and about a hundred to the CLI, whose
// exit code must agree with the library (0 or 1, with "lockstep CMD: FILE:" on failure).
// Adding a reader (SNAP, DIMACS, FASTA) is one more row in targets().
#include <fstream>
#include <functional>
#include <random>

#include "lockstep/align.hpp"
#include "lockstep/apsp.hpp"
#include "lockstep/error.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/sort.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

struct FuzzTarget {
  std::string name;                // shown in failures
  std::string extension;           // of the files written (".mtx")
  std::vector<std::string> seeds;  // valid inputs the mutations start from
  // Reads `path` through the library: throws input_error on bad input; returns false when the
  // input is valid but too large to hand to the CLI (its CLI case is then skipped).
  std::function<bool(const std::string& path)> read;
  std::string cli;  // the CLI command that reads one such file ("info"), or empty
};

const std::vector<std::string> kMatrixMarketSeeds = {
    "%%MatrixMarket matrix coordinate real general\n% comment\n3 4 5\n1 1 1.5\n2 3 -2e3\n3 4 7\n"
    "1 4 0.25\n3 1 -1\n",
    "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 4\n1 1\n2 1\n4 2\n3 3\n",
    "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 5\n3 2 -7\n",
    "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n",
    "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n",
    "%%MatrixMarket matrix coordinate real general\r\n\r\n2 2 3\r\n1 1 1\r\n1 1 2\r\n2 2 +3.5\r\n",
    "%%MatrixMarket matrix coordinate real symmetric\n0 0 0\n",
};

const std::vector<std::string> kGraphSeeds = {kMatrixMarketSeeds[1], kMatrixMarketSeeds[2],
                                              kMatrixMarketSeeds[4], kMatrixMarketSeeds[5],
                                              kMatrixMarketSeeds[6]};  // the square ones

const std::vector<std::string> kFastaSeeds = {
    ">one\nACGTNacgtn\nRYKM\n>two desc\nGATTACA\nga ttaca\n;comment\nTT*\n",
    ">x\nAC\n>y\r\nMKVLAAGIW\r\n",
};
const std::vector<std::string> kMatrixSeeds = {
    "# tiny\n   A  C  G  T\nA  2 -3 -3 -3\nC -3  2 -3 -3\nG -3 -3  2 -3\nT -3 -3 -3  2\n",
    "   A  B  *\nA  1 -1 -4\nB -1  1 -4\n* -4 -4  1\n",
    "# Matrix made by hand\n# comment lines\n#\n# more comments\n\n  A\n\nA 7\n\n# end\n",
    "#\n#\n#\n   X  Y\n#\nX  0  0\n#\nY  0  0\n#\n#\n",
};
const std::vector<std::string> kSnapSeeds = {"# Directed graph\n0\t1\n1\t2\n2 0\n5 5\n",
                                             "0 1 2.5\n3 1 -1\n1 1\n"};
const std::vector<std::string> kDimacsSeeds = {
    "c shortest paths\np sp 4 5\na 1 2 7\na 2 3 1\na 3 1 2\na 4 4 1\na 2 3 5\n", "p sp 3 0\n",
    "c\r\np sp 2 1\r\na 2 1 -3\r\n"};

// Dimensions up to this are built into CSR and handed to the CLI; larger valid ones (a size line
// declaring 2^31-1 empty rows) are legitimately memory-bound and stop at the triplets.
constexpr long long kModest = 1 << 16;

const std::vector<FuzzTarget>& targets() {
  static const std::vector<FuzzTarget> all = {
      {"Matrix Market", ".mtx", kMatrixMarketSeeds,
       [](const std::string& path) {
         Triplets t = read_triplets(path);
         if (t.rows > kModest || t.cols > kModest) return false;
         Csr<double> a = to_csr<double>(t);
         Csr<float> b = to_csr<float>(t, Duplicates::min);
         return a.nnz() >= b.nnz();
       },
       "info"},
      {"FASTA", ".fa", kFastaSeeds,
       [](const std::string& path) {
         read_sequence(path, 1);
         Sequence s = read_sequence(path, 2);
         // Every residue the reader gives is a letter (or '*'): BLOSUM62 codes them all; DNA
         // scoring takes IUPAC nucleotide letters only and refuses anything else (a protein).
         const size_t n = s.residues.size();
         if (blosum62(11, 1).encode(s.residues).size() != n) return false;
         const Scoring dna = dna_scoring(2, -3, 5, 2);
         if (s.residues.find_first_not_of("ACGTURYSWKMBDHVN") == std::string::npos)
           return dna.encode(s.residues).size() == n;
         CHECK_THROWS_WITH_AS(dna.encode(s.residues),
                              doctest::Contains("is not an IUPAC nucleotide letter"), input_error);
         return true;
       },
       ""},
      {"NCBI matrix", ".txt", kMatrixSeeds,
       [](const std::string& path) { return read_ncbi_matrix(path, 5, 2).size() > 0; }, ""},
      {"Matrix Market graph", ".mtx", kGraphSeeds,
       [](const std::string& path) {
         Graph g = read_graph(path);
         return g.n <= kModest && g.src.size() == g.dst.size();
       },
       ""},
      {"sort keys u32",
       ".txt",
       {"1\n2\n\n 3 \n4294967295\n", "7\n"},
       [](const std::string& path) { return read_keys<uint32_t>(path, false).size() < (1u << 24); },
       ""},
      {"SNAP edge list", ".txt", kSnapSeeds,
       [](const std::string& path) {
         Graph g = read_graph(path, GraphFormat::snap, true);
         return g.n <= kModest && CsrGraph(g).edges() == g.src.size();
       },
       ""},
      {"DIMACS .gr", ".gr", kDimacsSeeds,
       [](const std::string& path) {
         Graph g = read_graph(path, GraphFormat::dimacs);
         return g.n <= kModest && CsrGraph(g).edges() == g.src.size();
       },
       ""},
  };
  return all;
}

const std::vector<std::string> kJunk = {"-1",
                                        "0",
                                        "-2147483648",
                                        "2147483647",
                                        "2147483648",
                                        "4294967297",
                                        "99999999999999999999999",
                                        "1e308",
                                        "-1e309",
                                        "nan",
                                        "inf",
                                        "-inf",
                                        "0x10",
                                        "+",
                                        "-",
                                        "1.5",
                                        "%",
                                        "%%MatrixMarket",
                                        "\t",
                                        " ",
                                        "\r",
                                        "\n",
                                        "\n\n",
                                        std::string(1, '\0'),
                                        "\xff\xfe",
                                        "1 1 1",
                                        ">",
                                        "@",
                                        "c ",
                                        "p "};

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}
  size_t below(size_t n) { return n ? size_t(rng_() % n) : 0; }

  std::string operator()(std::string s) {
    if (below(64) == 0) return "";
    for (size_t k = 0, n = 1 + below(3); k < n; ++k) once(s);
    return s;
  }

 private:
  void once(std::string& s) {
    auto lines = split(s);
    switch (below(8)) {
      case 0:  // flip a byte
        if (!s.empty()) s[below(s.size())] = char(rng_());
        break;
      case 1:  // truncate
        s.resize(below(s.size() + 1));
        break;
      case 2:  // insert junk
        s.insert(below(s.size() + 1), kJunk[below(kJunk.size())]);
        break;
      case 3:  // replace a number by junk (huge, negative, not a number)
      case 7: {
        std::vector<std::pair<size_t, size_t>> numbers;
        for (size_t i = 0; i < s.size();) {
          size_t j = i;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
          if (j > i) numbers.push_back({i, j - i});
          i = j + 1;
        }
        if (numbers.empty()) break;
        auto [at, len] = numbers[below(numbers.size())];
        s.replace(at, len, kJunk[below(11)]);  // the numeric junk
        break;
      }
      case 4: {  // duplicate a line, half the time one of the first two (banner, size line)
        if (lines.empty()) break;
        size_t i = below(2) ? below(std::min<size_t>(2, lines.size())) : below(lines.size());
        lines.insert(lines.begin() + long(i), lines[i]);
        s = join(lines);
        break;
      }
      case 5:  // delete a line
        if (lines.empty()) break;
        lines.erase(lines.begin() + long(below(lines.size())));
        s = join(lines);
        break;
      case 6:  // swap two lines
        if (lines.size() < 2) break;
        std::swap(lines[below(lines.size())], lines[below(lines.size())]);
        s = join(lines);
        break;
    }
  }
  static std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    size_t b = 0;
    for (size_t i = 0; i <= s.size(); ++i)
      if (i == s.size() || s[i] == '\n') {
        if (i > b || i < s.size()) out.push_back(s.substr(b, i - b));
        b = i + 1;
      }
    return out;
  }
  static std::string join(const std::vector<std::string>& lines) {
    std::string s;
    for (auto& l : lines) s += l + "\n";
    return s;
  }
  std::mt19937_64 rng_;
};

std::string escaped(const std::string& s) {
  std::string out;
  for (unsigned char c : s.substr(0, 400)) {
    if (c == '\n')
      out += "\\n";
    else if (c >= 32 && c < 127 && c != '\\')
      out += char(c);
    else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    }
  }
  return s.size() > 400 ? out + "..." : out;
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

enum class Verdict { valid, too_big, invalid };

}  // namespace

TEST_CASE("fuzz: mutated inputs give input_error naming the file, and the CLI agrees (exit 0/1)") {
  constexpr int kLibraryCases = 2500, kCliCases = 100;
  test::TempDir dir;

  for (const FuzzTarget& target : targets()) {
    CAPTURE(target.name);
    Mutator mutate(20261123);
    int counts[3] = {0, 0, 0}, failures = 0, cli_runs = 0;
    const std::string path = (dir.path / ("case" + target.extension)).string();
    for (int k = 0; k < kLibraryCases; ++k) {
      const std::string& seed = target.seeds[size_t(k) % target.seeds.size()];
      const std::string text = k < int(target.seeds.size()) ? seed : mutate(seed);
      write(path, text);
      Verdict v = Verdict::invalid;
      std::string problem;
      try {
        v = target.read(path) ? Verdict::valid : Verdict::too_big;
      } catch (const input_error& e) {
        if (std::string(e.what()).rfind(path + ":", 0) != 0)
          problem = std::string("input_error not starting with the file name: ") + e.what();
      } catch (const std::exception& e) {
        problem = std::string("not an input_error: ") + e.what();
      }
      if (k < int(target.seeds.size()) && v != Verdict::valid)
        problem += " (a seed input must be valid)";
      ++counts[int(v)];
      if (!problem.empty() && ++failures <= 5)
        FAIL_CHECK("case " << k << ": " << problem << "\ninput: \"" << escaped(text) << "\"");

      // Every (kLibraryCases / kCliCases)-th case also goes through the CLI.
      if (target.cli.empty() || k % (kLibraryCases / kCliCases) != 0 || v == Verdict::too_big)
        continue;
      const std::string cli_path =
          (dir.path / ("cli" + std::to_string(k) + target.extension)).string();
      write(cli_path, text);
      std::string out;
      const int rc = test::run_cli(target.cli + " " + cli_path, out);
      ++cli_runs;
      const bool shaped = rc == 0 || out.find("lockstep " + target.cli + ": " + cli_path + ":") !=
                                         std::string::npos;
      if ((rc != (v == Verdict::valid ? 0 : 1) || !shaped) && ++failures <= 5)
        FAIL_CHECK("CLI case " << k << ": exit " << rc
                               << " (library: " << (v == Verdict::valid ? "valid" : "invalid")
                               << ")\noutput: " << out << "\ninput: \"" << escaped(text) << "\"");
    }
    MESSAGE(target.name << ": " << counts[0] << " valid, " << counts[1] << " valid but large, "
                        << counts[2] << " rejected, " << cli_runs << " through the CLI");
    CHECK(failures == 0);
    // The mutations must exercise both outcomes, or this test proves little.
    CHECK(counts[int(Verdict::valid)] > kLibraryCases / 20);
    CHECK(counts[int(Verdict::invalid)] > kLibraryCases / 2);
    if (!target.cli.empty()) CHECK(cli_runs >= kCliCases / 2);
  }
}

TEST_CASE(
    "fuzz findings stay fixed: size lines that overflowed (UBSan) or reserved memory they lied "
    "about") {
  test::TempDir dir;
  const std::string path = (dir.path / "big.mtx").string();
  const std::vector<std::string> inputs = {
      "%%MatrixMarket matrix array real general\n4294967297 4294967298\n1\n",
      "%%MatrixMarket matrix array real symmetric\n2147483647 2147483647\n1\n",
      "%%MatrixMarket matrix coordinate real symmetric\n2 2 9223372036854775807\n1 1 1\n",
      "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 2147483647\n1 1 1\n"};
  for (const std::string& text : inputs) {
    CAPTURE(text);
    write(path, text);

    CHECK_THROWS_WITH_AS(read_triplets(path), doctest::Contains((path + ":").c_str()), input_error);
  }
}
