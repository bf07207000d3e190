// Scoring schemes of the alignment: DNA from match/mismatch (A C G T, code 4 for N and every
// other IUPAC letter, which never matches), NCBI's BLOSUM45, 50, 62 and 80 built in (the tables
// of NCBI's matrix files, X, B, Z and * included), and any matrix in the NCBI text
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

const char* const kBlosum45 =
    "   A  R  N  D  C  Q  E  G  H  I  L  K  M  F  P  S  T  W  Y  V  B  Z  X  *\n"
    "A  5 -2 -1 -2 -1 -1 -1  0 -2 -1 -1 -1 -1 -2 -1  1  0 -2 -2  0 -1 -1  0 -5\n"
    "R -2  7  0 -1 -3  1  0 -2  0 -3 -2  3 -1 -2 -2 -1 -1 -2 -1 -2 -1  0 -1 -5\n"
    "N -1  0  6  2 -2  0  0  0  1 -2 -3  0 -2 -2 -2  1  0 -4 -2 -3  4  0 -1 -5\n"
    "D -2 -1  2  7 -3  0  2 -1  0 -4 -3  0 -3 -4 -1  0 -1 -4 -2 -3  5  1 -1 -5\n"
    "C -1 -3 -2 -3 12 -3 -3 -3 -3 -3 -2 -3 -2 -2 -4 -1 -1 -5 -3 -1 -2 -3 -2 -5\n"
    "Q -1  1  0  0 -3  6  2 -2  1 -2 -2  1  0 -4 -1  0 -1 -2 -1 -3  0  4 -1 -5\n"
    "E -1  0  0  2 -3  2  6 -2  0 -3 -2  1 -2 -3  0  0 -1 -3 -2 -3  1  4 -1 -5\n"
    "G  0 -2  0 -1 -3 -2 -2  7 -2 -4 -3 -2 -2 -3 -2  0 -2 -2 -3 -3 -1 -2 -1 -5\n"
    "H -2  0  1  0 -3  1  0 -2 10 -3 -2 -1  0 -2 -2 -1 -2 -3  2 -3  0  0 -1 -5\n"
    "I -1 -3 -2 -4 -3 -2 -3 -4 -3  5  2 -3  2  0 -2 -2 -1 -2  0  3 -3 -3 -1 -5\n"
    "L -1 -2 -3 -3 -2 -2 -2 -3 -2  2  5 -3  2  1 -3 -3 -1 -2  0  1 -3 -2 -1 -5\n"
    "K -1  3  0  0 -3  1  1 -2 -1 -3 -3  5 -1 -3 -1 -1 -1 -2 -1 -2  0  1 -1 -5\n"
    "M -1 -1 -2 -3 -2  0 -2 -2  0  2  2 -1  6  0 -2 -2 -1 -2  0  1 -2 -1 -1 -5\n"
    "F -2 -2 -2 -4 -2 -4 -3 -3 -2  0  1 -3  0  8 -3 -2 -1  1  3  0 -3 -3 -1 -5\n"
    "P -1 -2 -2 -1 -4 -1  0 -2 -2 -2 -3 -1 -2 -3  9 -1 -1 -3 -3 -3 -2 -1 -1 -5\n"
    "S  1 -1  1  0 -1  0  0  0 -1 -2 -3 -1 -2 -2 -1  4  2 -4 -2 -1  0  0  0 -5\n"
    "T  0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -1 -1  2  5 -3 -1  0  0 -1  0 -5\n"
    "W -2 -2 -4 -4 -5 -2 -3 -2 -3 -2 -2 -2 -2  1 -3 -4 -3 15  3 -3 -4 -2 -2 -5\n"
    "Y -2 -1 -2 -2 -3 -1 -2 -3  2  0  0 -1  0  3 -3 -2 -1  3  8 -1 -2 -2 -1 -5\n"
    "V  0 -2 -3 -3 -1 -3 -3 -3 -3  3  1 -2  1  0 -3 -1  0 -3 -1  5 -3 -3 -1 -5\n"
    "B -1 -1  4  5 -2  0  1 -1  0 -3 -3  0 -2 -3 -2  0  0 -4 -2 -3  4  2 -1 -5\n"
    "Z -1  0  0  1 -3  4  4 -2  0 -3 -2  1 -1 -3 -1  0 -1 -2 -2 -3  2  4 -1 -5\n"
    "X  0 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1  0  0 -2 -1 -1 -1 -1 -1 -5\n"
    "* -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5  1\n";

const char* const kBlosum50 =
    "   A  R  N  D  C  Q  E  G  H  I  L  K  M  F  P  S  T  W  Y  V  B  Z  X  *\n"
    "A  5 -2 -1 -2 -1 -1 -1  0 -2 -1 -2 -1 -1 -3 -1  1  0 -3 -2  0 -2 -1 -1 -5\n"
    "R -2  7 -1 -2 -4  1  0 -3  0 -4 -3  3 -2 -3 -3 -1 -1 -3 -1 -3 -1  0 -1 -5\n"
    "N -1 -1  7  2 -2  0  0  0  1 -3 -4  0 -2 -4 -2  1  0 -4 -2 -3  4  0 -1 -5\n"
    "D -2 -2  2  8 -4  0  2 -1 -1 -4 -4 -1 -4 -5 -1  0 -1 -5 -3 -4  5  1 -1 -5\n"
    "C -1 -4 -2 -4 13 -3 -3 -3 -3 -2 -2 -3 -2 -2 -4 -1 -1 -5 -3 -1 -3 -3 -2 -5\n"
    "Q -1  1  0  0 -3  7  2 -2  1 -3 -2  2  0 -4 -1  0 -1 -1 -1 -3  0  4 -1 -5\n"
    "E -1  0  0  2 -3  2  6 -3  0 -4 -3  1 -2 -3 -1 -1 -1 -3 -2 -3  1  5 -1 -5\n"
    "G  0 -3  0 -1 -3 -2 -3  8 -2 -4 -4 -2 -3 -4 -2  0 -2 -3 -3 -4 -1 -2 -2 -5\n"
    "H -2  0  1 -1 -3  1  0 -2 10 -4 -3  0 -1 -1 -2 -1 -2 -3  2 -4  0  0 -1 -5\n"
    "I -1 -4 -3 -4 -2 -3 -4 -4 -4  5  2 -3  2  0 -3 -3 -1 -3 -1  4 -4 -3 -1 -5\n"
    "L -2 -3 -4 -4 -2 -2 -3 -4 -3  2  5 -3  3  1 -4 -3 -1 -2 -1  1 -4 -3 -1 -5\n"
    "K -1  3  0 -1 -3  2  1 -2  0 -3 -3  6 -2 -4 -1  0 -1 -3 -2 -3  0  1 -1 -5\n"
    "M -1 -2 -2 -4 -2  0 -2 -3 -1  2  3 -2  7  0 -3 -2 -1 -1  0  1 -3 -1 -1 -5\n"
    "F -3 -3 -4 -5 -2 -4 -3 -4 -1  0  1 -4  0  8 -4 -3 -2  1  4 -1 -4 -4 -2 -5\n"
    "P -1 -3 -2 -1 -4 -1 -1 -2 -2 -3 -4 -1 -3 -4 10 -1 -1 -4 -3 -3 -2 -1 -2 -5\n"
    "S  1 -1  1  0 -1  0 -1  0 -1 -3 -3  0 -2 -3 -1  5  2 -4 -2 -2  0  0 -1 -5\n"
    "T  0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -2 -1  2  5 -3 -2  0  0 -1  0 -5\n"
    "W -3 -3 -4 -5 -5 -1 -3 -3 -3 -3 -2 -3 -1  1 -4 -4 -3 15  2 -3 -5 -2 -3 -5\n"
    "Y -2 -1 -2 -3 -3 -1 -2 -3  2 -1 -1 -2  0  4 -3 -2 -2  2  8 -1 -3 -2 -1 -5\n"
    "V  0 -3 -3 -4 -1 -3 -3 -4 -4  4  1 -3  1 -1 -3 -2  0 -3 -1  5 -4 -3 -1 -5\n"
    "B -2 -1  4  5 -3  0  1 -1  0 -4 -4  0 -3 -4 -2  0  0 -5 -3 -4  5  2 -1 -5\n"
    "Z -1  0  0  1 -3  4  5 -2  0 -3 -3  1 -1 -4 -1  0 -1 -2 -2 -3  2  5 -1 -5\n"
    "X -1 -1 -1 -1 -2 -1 -1 -2 -1 -1 -1 -1 -1 -2 -2 -1  0 -3 -1 -1 -1 -1 -1 -5\n"
    "* -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5 -5  1\n";

const char* const kBlosum80 =
    "   A  R  N  D  C  Q  E  G  H  I  L  K  M  F  P  S  T  W  Y  V  B  Z  X  *\n"
    "A  7 -3 -3 -3 -1 -2 -2  0 -3 -3 -3 -1 -2 -4 -1  2  0 -5 -4 -1 -3 -2 -1 -8\n"
    "R -3  9 -1 -3 -6  1 -1 -4  0 -5 -4  3 -3 -5 -3 -2 -2 -5 -4 -4 -2  0 -2 -8\n"
    "N -3 -1  9  2 -5  0 -1 -1  1 -6 -6  0 -4 -6 -4  1  0 -7 -4 -5  5 -1 -2 -8\n"
    "D -3 -3  2 10 -7 -1  2 -3 -2 -7 -7 -2 -6 -6 -3 -1 -2 -8 -6 -6  6  1 -3 -8\n"
    "C -1 -6 -5 -7 13 -5 -7 -6 -7 -2 -3 -6 -3 -4 -6 -2 -2 -5 -5 -2 -6 -7 -4 -8\n"
    "Q -2  1  0 -1 -5  9  3 -4  1 -5 -4  2 -1 -5 -3 -1 -1 -4 -3 -4 -1  5 -2 -8\n"
    "E -2 -1 -1  2 -7  3  8 -4  0 -6 -6  1 -4 -6 -2 -1 -2 -6 -5 -4  1  6 -2 -8\n"
    "G  0 -4 -1 -3 -6 -4 -4  9 -4 -7 -7 -3 -5 -6 -5 -1 -3 -6 -6 -6 -2 -4 -3 -8\n"
    "H -3  0  1 -2 -7  1  0 -4 12 -6 -5 -1 -4 -2 -4 -2 -3 -4  3 -5 -1  0 -2 -8\n"
    "I -3 -5 -6 -7 -2 -5 -6 -7 -6  7  2 -5  2 -1 -5 -4 -2 -5 -3  4 -6 -6 -2 -8\n"
    "L -3 -4 -6 -7 -3 -4 -6 -7 -5  2  6 -4  3  0 -5 -4 -3 -4 -2  1 -7 -5 -2 -8\n"
    "K -1  3  0 -2 -6  2  1 -3 -1 -5 -4  8 -3 -5 -2 -1 -1 -6 -4 -4 -1  1 -2 -8\n"
    "M -2 -3 -4 -6 -3 -1 -4 -5 -4  2  3 -3  9  0 -4 -3 -1 -3 -3  1 -5 -3 -2 -8\n"
    "F -4 -5 -6 -6 -4 -5 -6 -6 -2 -1  0 -5  0 10 -6 -4 -4  0  4 -2 -6 -6 -3 -8\n"
    "P -1 -3 -4 -3 -6 -3 -2 -5 -4 -5 -5 -2 -4 -6 12 -2 -3 -7 -6 -4 -4 -2 -3 -8\n"
    "S  2 -2  1 -1 -2 -1 -1 -1 -2 -4 -4 -1 -3 -4 -2  7  2 -6 -3 -3  0 -1 -1 -8\n"
    "T  0 -2  0 -2 -2 -1 -2 -3 -3 -2 -3 -1 -1 -4 -3  2  8 -5 -3  0 -1 -2 -1 -8\n"
    "W -5 -5 -7 -8 -5 -4 -6 -6 -4 -5 -4 -6 -3  0 -7 -6 -5 16  3 -5 -8 -5 -5 -8\n"
    "Y -4 -4 -4 -6 -5 -3 -5 -6  3 -3 -2 -4 -3  4 -6 -3 -3  3 11 -3 -5 -4 -3 -8\n"
    "V -1 -4 -5 -6 -2 -4 -4 -6 -5  4  1 -4  1 -2 -4 -3  0 -5 -3  7 -6 -4 -2 -8\n"
    "B -3 -2  5  6 -6 -1  1 -2 -1 -6 -7 -1 -5 -6 -4  0 -1 -8 -5 -6  6  0 -3 -8\n"
    "Z -2  0 -1  1 -7  5  6 -4  0 -6 -5  1 -3 -6 -2 -1 -2 -5 -4 -4  0  6 -1 -8\n"
    "X -1 -2 -2 -3 -4 -2 -2 -3 -2 -2 -2 -2 -2 -3 -3 -1 -1 -5 -3 -2 -3 -1 -2 -8\n"
    "* -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8 -8  1\n";

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
Scoring blosum45(int open, int extend) { return parse_ncbi("blosum45", kBlosum45, open, extend); }
Scoring blosum50(int open, int extend) { return parse_ncbi("blosum50", kBlosum50, open, extend); }
Scoring blosum80(int open, int extend) { return parse_ncbi("blosum80", kBlosum80, open, extend); }

namespace {
struct Builtin {
  const char* name;
  Scoring (*make)(int, int);
  int open, extend;  // NCBI's defaults
};
// NCBI BLAST's default gap costs for each matrix (blastp).
constexpr Builtin kBuiltins[] = {{"blosum45", blosum45, 15, 2},
                                 {"blosum50", blosum50, 13, 2},
                                 {"blosum62", blosum62, 11, 1},
                                 {"blosum80", blosum80, 10, 1}};
const Builtin* builtin(const std::string& name) {
  std::string lower = name;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  for (const Builtin& b : kBuiltins)
    if (lower == b.name) return &b;
  return nullptr;
}
}  // namespace

bool is_builtin_matrix(const std::string& name) { return builtin(name) != nullptr; }

Scoring matrix_scoring(const std::string& name, int open, int extend) {
  const Builtin* b = builtin(name);
  if (open < 0) open = b ? b->open : 11;
  if (extend < 0) extend = b ? b->extend : 1;
  return b ? b->make(open, extend) : read_ncbi_matrix(name, open, extend);
}

Scoring read_ncbi_matrix(const std::string& path, int open, int extend) {
  return parse_ncbi(path, read_input(path), open, extend);
}

}  // namespace lockstep
