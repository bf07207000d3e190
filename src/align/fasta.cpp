// The sequence reader of `lockstep align`: FASTA (multi-line records, '>' headers, ';' comment
// lines, lower case, N/X and other letters, '*'), gzip through read_input, or plain text (no
// header: the whole file is one sequence). White space inside sequence lines is skipped; any
// other character that is no letter or '*' is refused with file and line, as is an empty record.
#include <cctype>

#include "lockstep/align.hpp"
#include "lockstep/io.hpp"

namespace lockstep {
namespace {
std::string hex_escape(unsigned char u) {  // 0x7f -> "\x7f"
  const char* digits = "0123456789abcdef";
  return std::string("\\x") + digits[u >> 4] + digits[u & 15];
}
}  // namespace

Sequence read_sequence(const std::string& path, int record) {
  if (record < 1)
    throw input_error(path + ": record numbers start at 1, got " + std::to_string(record));
  const std::string text = read_input(path);
  LineReader lines(path, text);
  Sequence seq;
  std::string_view line;
  int seen = 0, header_line = 0;
  bool plain = false, inside = false;
  auto finish = [&]() {
    if (seq.residues.empty())
      throw input_error(path + ":" + std::to_string(header_line) + ": empty sequence" +
                        (plain ? std::string() : " (record '" + seq.name + "')"));
  };
  while (lines.next(line)) {
    if (!line.empty() && line[0] == '>') {
      if (inside) {
        finish();
        return seq;
      }
      if (plain) lines.fail("'>' header after sequence lines without a header");
      if (++seen == record) {
        inside = true;
        header_line = lines.line();
        seq.name = std::string(line.substr(1));
      }
      continue;
    }
    if (!line.empty() && line[0] == ';') continue;  // old FASTA comment lines
    if (seen == 0) {
      bool blank = true;
      for (char c : line) blank &= std::isspace(static_cast<unsigned char>(c)) != 0;
      if (blank) continue;
      if (!plain) {  // text before any header: a plain sequence file
        plain = inside = true;
        header_line = lines.line();
        if (record != 1) lines.fail("plain sequence (no '>' header) has one record only");
      }
    }
    if (!inside) continue;
    for (char c : line) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (std::isalpha(u) || c == '*')
        seq.residues += char(std::toupper(u));
      else if (!std::isspace(u))
        lines.fail(std::string("invalid character '") +
                   (std::isprint(u) ? std::string(1, c) : hex_escape(u)) +
                   "' in a sequence");
    }
  }
  if (!inside) {
    if (seen == 0) throw input_error(path + ": no sequence (empty file)");
    throw input_error(path + ": has " + std::to_string(seen) + " record(s), record " +
                      std::to_string(record) + " asked for");
  }
  finish();
  return seq;
}

}  // namespace lockstep
