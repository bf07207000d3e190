// Scoring schemes of the alignment: DNA from match/mismatch (A C G T, code 4 for N and every
// other IUPAC letter, which never matches), NCBI's BLOSUM45, 50, 62, 80 and PAM30, 70, 250 built
// in (NCBI's matrix files verbatim, ncbi_matrices.cpp: B, J, Z, X and * included), and any matrix
// in the NCBI text format. Gap penalties are positive numbers: a gap of length L scores
// -(open + (L-1) * extend); BLAST's pair a/b (a + L b) is open = a + b, extend = b.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "lockstep/align.hpp"
#include "lockstep/io.hpp"

namespace lockstep {
namespace detail {
const char* ncbi_matrix_text(const std::string& name);  // ncbi_matrices.cpp
}  // namespace detail
namespace {

void check_gaps(int open, int extend) {
  if (open < 0 || extend < 0 || open > 1000000 || extend > 1000000)
    throw input_error("gap penalties must be in [0, 1000000], got open " + std::to_string(open) +
                      " extend " + std::to_string(extend));
}

// Parses the NCBI format from `text` (path names the source in errors).
Scoring parse_ncbi(const std::string& path, const std::string& text, int open, int extend) {
  check_gaps(open, extend);
  LineReader lines(path, text);
  Scoring s;
  std::string_view line;
  size_t rows = 0;
  while (lines.next(line)) {
    std::string l(line);
    const size_t first = l.find_first_not_of(" \t");
    if (first == std::string::npos || l[first] == '#') continue;
    if (s.alphabet.empty()) {  // the header: one letter per column
      for (char c : l)
        if (!std::isspace(static_cast<unsigned char>(c))) {
          if (!std::isalpha(static_cast<unsigned char>(c)) && c != '*')
            lines.fail(std::string("header: '") + c + "' is not a residue letter");
          const char u = char(std::toupper(static_cast<unsigned char>(c)));
          if (s.alphabet.find(u) != std::string::npos)
            lines.fail(std::string("header: letter '") + u + "' twice");
          s.alphabet += u;
        }
      if (s.alphabet.size() > 64) lines.fail("more than 64 letters");
      s.table.assign(s.alphabet.size() * s.alphabet.size(), 0);
      continue;
    }
    if (rows == s.alphabet.size()) lines.fail("more rows than header letters");
    const char u = char(std::toupper(static_cast<unsigned char>(l[first])));
    if (u != s.alphabet[rows])
      lines.fail(std::string("row '") + l[first] + "' where '" + s.alphabet[rows] +
                 "' was expected");
    const char* p = l.c_str() + first + 1;
    for (size_t col = 0; col < s.alphabet.size(); ++col) {
      char* end = nullptr;
      const long v = std::strtol(p, &end, 10);
      if (end == p)
        lines.fail("row '" + std::string(1, u) + "': expected " +
                   std::to_string(s.alphabet.size()) + " integers");
      if (v < -1000 || v > 1000)
        lines.fail("score " + std::to_string(v) + " outside [-1000, 1000]");
      s.table[rows * s.alphabet.size() + col] = int32_t(v);
      p = end;
    }
    while (*p == ' ' || *p == '\t') ++p;
    if (*p) lines.fail("row '" + std::string(1, u) + "': extra text '" + std::string(p) + "'");
    ++rows;
  }
  if (s.alphabet.empty()) throw input_error(path + ": no matrix header");
  if (rows != s.alphabet.size())
    throw input_error(path + ": " + std::to_string(rows) + " rows for " +
                      std::to_string(s.alphabet.size()) + " letters");
  s.gap_open = open;
  s.gap_extend = extend;
  return s;
}

}  // namespace

int32_t Scoring::max_score() const { return *std::max_element(table.begin(), table.end()); }

std::vector<uint8_t> Scoring::encode(const std::string& residues) const {
  // not a letter; a letter outside the alphabet; under DNA, a letter that is no nucleotide
  constexpr uint8_t kBad = 255, kUnknown = 254, kNotDna = 253;
  constexpr const char* kIupacDna = "ACGTURYSWKMBDHVN";
  uint8_t code[256];
  const size_t x = alphabet.find('X'), star = alphabet.find('*');
  const uint8_t other = dna                         ? uint8_t(4)
                        : x != std::string::npos    ? uint8_t(x)
                        : star != std::string::npos ? uint8_t(star)
                                                    : kUnknown;
  for (int c = 0; c < 256; ++c) code[c] = kBad;
  for (int c = 'A'; c <= 'Z'; ++c) code[c] = code[c + 32] = other;
  code['*'] = other;
  if (dna) {  // only IUPAC nucleotide letters are N (J, E, Q, '*': a protein scored as DNA)
    for (int c = 'A'; c <= 'Z'; ++c) code[c] = code[c + 32] = kNotDna;
    code['*'] = kNotDna;
    for (const char* p = kIupacDna; *p; ++p) code[int(*p)] = code[*p + 32] = other;
  }
  for (size_t i = 0; i < alphabet.size(); ++i) {
    const unsigned char u = static_cast<unsigned char>(alphabet[i]);
    code[u] = code[std::tolower(u)] = uint8_t(i);
  }
  for (const char c : {'U', 'O'})  // blastp's stand-ins where the matrix lacks the letter
    if (!dna && alphabet.find(c) == std::string::npos &&
        alphabet.find(blast_stand_in(c)) != std::string::npos)
      code[int(c)] = code[c + 32] = uint8_t(alphabet.find(blast_stand_in(c)));
  std::vector<uint8_t> out(residues.size());
  for (size_t i = 0; i < residues.size(); ++i) {
    out[i] = code[static_cast<unsigned char>(residues[i])];
    if (out[i] == kBad)
      throw input_error("residue " + std::to_string(i) + ": '" + residues[i] + "' is not a letter");
    if (out[i] == kNotDna)
      throw input_error("residue " + std::to_string(i) + ": '" + residues[i] +
                        "' is not an IUPAC nucleotide letter (" + kIupacDna +
                        "): a protein sequence? score it with a matrix (--matrix blosum62)");
    if (out[i] == kUnknown)
      throw input_error("residue " + std::to_string(i) + ": '" + residues[i] +
                        "' is not in the matrix, which has neither X nor * for other letters");
  }
  return out;
}

Scoring dna_scoring(int match, int mismatch, int open, int extend) {
  check_gaps(open, extend);
  if (match < 1 || match > 1000) throw input_error("match score must be in [1, 1000]");
  if (mismatch < -1000 || mismatch > 1000) throw input_error("mismatch must be in [-1000, 1000]");
  Scoring s;
  s.alphabet = "ACGTN";
  s.dna = true;
  s.table.assign(25, -std::abs(mismatch));
  for (int i = 0; i < 4; ++i) s.table[size_t(i * 5 + i)] = match;
  s.gap_open = open;
  s.gap_extend = extend;
  return s;
}

namespace {
struct Builtin {
  const char* name;  // NCBI's
  int open, extend;  // blastp's default gap costs (BLAST_MATRIX_BEST in blast_stat.c), lockstep's
                     // convention: BLAST's a/b is open a + b, extend b
};
constexpr Builtin kBuiltins[] = {{"BLOSUM45", 16, 2}, {"BLOSUM50", 15, 2}, {"BLOSUM62", 12, 1},
                                 {"BLOSUM80", 11, 1}, {"PAM30", 10, 1},    {"PAM70", 11, 1},
                                 {"PAM250", 16, 2}};
const Builtin* builtin(const std::string& name) {
  std::string upper = name;
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  for (const Builtin& b : kBuiltins)
    if (upper == b.name) return &b;
  return nullptr;
}
Scoring make_builtin(const Builtin& b, int open, int extend) {
  std::string lower = b.name;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  return parse_ncbi(lower, detail::ncbi_matrix_text(b.name), open, extend);
}
}  // namespace

Scoring blastn_scoring(int reward, int penalty, int open, int extend) {
  const Scoring base = dna_scoring(reward, penalty, open, extend);
  Scoring s = base;
  // Every IUPAC letter its own code after A C G T N, scored as BlastScoreBlkNuclMatrixCreate
  // scores it: two letters that share no base score the penalty; else, with d the degeneracy of
  // the one later in BLAST's order (A C G T R Y M K W S B D H V N), ((d - 1) penalty + reward) / d
  // rounded half away from zero (2/-3: N against anything -2, R against A or R -1).
  s.alphabet = "ACGTNRYMKWSBDHV";
  const char* const order = "ACGTRYMKWSBDHVN";
  const int bits[] = {1, 2, 4, 8, 5, 10, 3, 12, 9, 6, 14, 13, 11, 7, 15};  // A=1 C=2 G=4 T=8
  const int n = int(s.alphabet.size()), pen = -std::abs(penalty);
  s.table.assign(size_t(n * n), 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int a = int(std::string(order).find(s.alphabet[size_t(i)]));
      const int b = int(std::string(order).find(s.alphabet[size_t(j)]));
      const int later = bits[std::max(a, b)], degeneracy = __builtin_popcount(unsigned(later));
      const double x = double((degeneracy - 1) * pen + reward) / degeneracy;
      s.table[size_t(i * n + j)] =
          (bits[a] & bits[b]) ? int32_t(x >= 0 ? x + 0.5 : x - 0.5) : int32_t(pen);
    }
  return s;
}

Scoring blosum62(int open, int extend) { return matrix_scoring("BLOSUM62", open, extend); }
Scoring blosum45(int open, int extend) { return matrix_scoring("BLOSUM45", open, extend); }
Scoring blosum50(int open, int extend) { return matrix_scoring("BLOSUM50", open, extend); }
Scoring blosum80(int open, int extend) { return matrix_scoring("BLOSUM80", open, extend); }

void default_gaps(const std::string& matrix, int& open, int& extend) {
  const Builtin* b = builtin(matrix);
  if (open < 0) open = b ? b->open : 12;
  if (extend < 0) extend = b ? b->extend : 1;
}

char blast_stand_in(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'U':
      return 'C';
    case 'O':
      return 'X';
    default:
      return 0;
  }
}

bool is_builtin_matrix(const std::string& name) { return builtin(name) != nullptr; }

Scoring matrix_scoring(const std::string& name, int open, int extend) {
  default_gaps(name, open, extend);
  const Builtin* b = builtin(name);
  return b ? make_builtin(*b, open, extend) : read_ncbi_matrix(name, open, extend);
}

Scoring read_ncbi_matrix(const std::string& path, int open, int extend) {
  return parse_ncbi(path, read_input(path), open, extend);
}

}  // namespace lockstep
