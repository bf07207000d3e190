// Scoring schemes of the alignment: DNA from match/mismatch (A C G T, code 4 for N and every
// other IUPAC letter, which never matches), BLOSUM62 built in, and any matrix in the NCBI text
// format. Gap penalties are positive numbers: a gap of length L scores -(open + (L-1) * extend).
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "lockstep/align.hpp"
#include "lockstep/io.hpp"

namespace lockstep {
namespace {

void check_gaps(int open, int extend) {
  if (open < 0 || extend < 0 || open > 1000000 || extend > 1000000)
    throw input_error("gap penalties must be in [0, 1000000], got open " + std::to_string(open) +
                      " extend " + std::to_string(extend));
}

const char* const kBlosum62 =
    "   A  R  N  D  C  Q  E  G  H  I  L  K  M  F  P  S  T  W  Y  V  B  Z  X  *\n"
    "A  4 -1 -2 -2  0 -1 -1  0 -2 -1 -1 -1 -1 -2 -1  1  0 -3 -2  0 -2 -1  0 -4\n"
    "R -1  5  0 -2 -3  1  0 -2  0 -3 -2  2 -1 -3 -2 -1 -1 -3 -2 -3 -1  0 -1 -4\n"
    "N -2  0  6  1 -3  0  0  0  1 -3 -3  0 -2 -3 -2  1  0 -4 -2 -3  3  0 -1 -4\n"
    "D -2 -2  1  6 -3  0  2 -1 -1 -3 -4 -1 -3 -3 -1  0 -1 -4 -3 -3  4  1 -1 -4\n"
    "C  0 -3 -3 -3  9 -3 -4 -3 -3 -1 -1 -3 -1 -2 -3 -1 -1 -2 -2 -1 -3 -3 -2 -4\n"
    "Q -1  1  0  0 -3  5  2 -2  0 -3 -2  1  0 -3 -1  0 -1 -2 -1 -2  0  3 -1 -4\n"
    "E -1  0  0  2 -4  2  5 -2  0 -3 -3  1 -2 -3 -1  0 -1 -3 -2 -2  1  4 -1 -4\n"
    "G  0 -2  0 -1 -3 -2 -2  6 -2 -4 -4 -2 -3 -3 -2  0 -2 -2 -3 -3 -1 -2 -1 -4\n"
    "H -2  0  1 -1 -3  0  0 -2  8 -3 -3 -1 -2 -1 -2 -1 -2 -2  2 -3  0  0 -1 -4\n"
    "I -1 -3 -3 -3 -1 -3 -3 -4 -3  4  2 -3  1  0 -3 -2 -1 -3 -1  3 -3 -3 -1 -4\n"
    "L -1 -2 -3 -4 -1 -2 -3 -4 -3  2  4 -2  2  0 -3 -2 -1 -2 -1  1 -4 -3 -1 -4\n"
    "K -1  2  0 -1 -3  1  1 -2 -1 -3 -2  5 -1 -3 -1  0 -1 -3 -2 -2  0  1 -1 -4\n"
    "M -1 -1 -2 -3 -1  0 -2 -3 -2  1  2 -1  5  0 -2 -1 -1 -1 -1  1 -3 -1 -1 -4\n"
    "F -2 -3 -3 -3 -2 -3 -3 -3 -1  0  0 -3  0  6 -4 -2 -2  1  3 -1 -3 -3 -1 -4\n"
    "P -1 -2 -2 -1 -3 -1 -1 -2 -2 -3 -3 -1 -2 -4  7 -1 -1 -4 -3 -2 -2 -1 -2 -4\n"
    "S  1 -1  1  0 -1  0  0  0 -1 -2 -2  0 -1 -2 -1  4  1 -3 -2 -2  0  0  0 -4\n"
    "T  0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -2 -1  1  5 -2 -2  0 -1 -1  0 -4\n"
    "W -3 -3 -4 -4 -2 -2 -3 -2 -2 -3 -2 -3 -1  1 -4 -3 -2 11  2 -3 -4 -3 -2 -4\n"
    "Y -2 -2 -2 -3 -2 -1 -2 -3  2 -1 -1 -2 -1  3 -3 -2 -2  2  7 -1 -3 -2 -1 -4\n"
    "V  0 -3 -3 -3 -1 -2 -2 -3 -3  3  1 -2  1 -1 -2 -2  0 -3 -1  4 -3 -2 -1 -4\n"
    "B -2 -1  3  4 -3  0  1 -1  0 -3 -4  0 -3 -3 -2  0 -1 -4 -3 -3  4  1 -1 -4\n"
    "Z -1  0  0  1 -3  3  4 -2  0 -3 -3  1 -1 -3 -1  0 -1 -3 -2 -2  1  4 -1 -4\n"
    "X  0 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -2  0  0 -2 -1 -1 -1 -1 -1 -4\n"
    "* -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4  1\n";

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

Scoring blosum62(int open, int extend) { return parse_ncbi("blosum62", kBlosum62, open, extend); }

Scoring read_ncbi_matrix(const std::string& path, int open, int extend) {
  return parse_ncbi(path, read_input(path), open, extend);
}

}  // namespace lockstep
