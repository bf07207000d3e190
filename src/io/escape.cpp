// printable(): text from an input (a FASTA header, a path, a matrix's bytes) made safe to print
// and to put in JSON (see io.hpp).
#include <algorithm>
#include <cstdio>

#include "lockstep/io.hpp"

namespace lockstep {
namespace {

/// The length of the valid UTF-8 sequence at s[i] (1 for ASCII), 0 when there is none.
size_t utf8_length(std::string_view s, size_t i) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = at(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  if (i + n > s.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = utf8_length(s, i);
    // control bytes (an escape sequence would drive the terminal), DEL, C1 controls (U+0080 to
    // U+009F), the byte order mark U+FEFF (which shows as nothing) and bytes that are no UTF-8
    const bool control = c < 0x20 || c == 0x7F ||
                         (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) ||
                         (n == 3 && s.compare(i, 3, "\xef\xbb\xbf") == 0);
    if (n == 0 || control) {
      for (size_t k = 0; k < std::max<size_t>(n, 1); ++k) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[i + k]));
        out += buf;
      }
      i += std::max<size_t>(n, 1);
      continue;
    }
    out.append(s.data() + i, n);
    i += n;
  }
  return out;
}

}  // namespace lockstep
