// The FASTA reader of `lockstep align` and `lockstep search`: FASTA (multi-line records, '>'
// headers, ';' comment lines, lower case, N/X and other letters, '*'), gzip through read_input,
// or plain text (no header: the whole file is one sequence). White space inside sequence lines
// is skipped; any other character that is no letter or '*' is refused with file and line.
// for_each_fasta_record is the one parser; read_sequence picks a record and refuses an empty one.
#include <cctype>

#include "lockstep/align.hpp"
#include "lockstep/io.hpp"

namespace lockstep {
namespace {
std::string hex_escape(unsigned char u) {  // 0x7f -> "\x7f"
  const char* digits = "0123456789abcdef";
  return std::string("\\x") + digits[u >> 4] + digits[u & 15];
}
// The upper-case residue of each byte (letters and '*'), 0 for any other byte.
struct ResidueTable {
  char to[256] = {};
  ResidueTable() {
    for (int c = 'A'; c <= 'Z'; ++c) to[c] = to[c + 32] = char(c);
    to[int('*')] = '*';
  }
  char operator[](unsigned char u) const { return to[u]; }
};
const ResidueTable kResidue;
}  // namespace

void for_each_fasta_record(const std::string& path, const std::string& text,
                           const std::function<bool(Sequence&, int header_line)>& each) {
  LineReader lines(path, text);
  Sequence seq;
  std::string_view line;
  int header_line = 0;  // 0: plain text (no header)
  bool plain = false, inside = false;
  while (lines.next(line)) {
    if (!line.empty() && line[0] == '>') {
      if (plain) lines.fail("'>' header after sequence lines without a header");
      if (inside && !each(seq, header_line)) return;
      inside = true;
      header_line = lines.line();
      seq.name = std::string(line.substr(1));
      seq.residues.clear();
      continue;
    }
    if (!line.empty() && line[0] == ';') continue;  // old FASTA comment lines
    if (!inside) {
      bool blank = true;
      for (char c : line) blank &= std::isspace(static_cast<unsigned char>(c)) != 0;
      if (blank) continue;
      plain = inside = true;  // text before any header: a plain sequence file
      header_line = 0;
    }
    // residues upper-cased in place at the end of seq.residues (white space skipped)
    size_t n = seq.residues.size();
    seq.residues.resize(n + line.size());
    char* out = &seq.residues[0];
    for (char c : line) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (const char r = kResidue[u]) {
        out[n++] = r;
      } else if (!std::isspace(u)) {
        seq.residues.resize(n);
        lines.fail(std::string("invalid character '") +
                   (std::isprint(u) ? std::string(1, c) : hex_escape(u)) + "' in a sequence");
      }
    }
    seq.residues.resize(n);
  }
  if (inside) each(seq, header_line);
}

Sequence read_sequence(const std::string& path, int record) {
  if (record < 1)
    throw input_error(path + ": record numbers start at 1, got " + std::to_string(record));
  const std::string text = read_input(path);
  Sequence found;
  int seen = 0, found_line = -1;
  for_each_fasta_record(path, text, [&](Sequence& s, int header_line) {
    if (header_line == 0 && record != 1)
      throw input_error(path + ": plain sequence (no '>' header) has one record only");
    if (++seen < record) return true;
    found = std::move(s);
    found_line = header_line;
    return false;
  });
  if (found_line < 0) {
    if (seen == 0) throw input_error(path + ": no sequence (empty file)");
    throw input_error(path + ": has " + std::to_string(seen) + " record(s), record " +
                      std::to_string(record) + " asked for");
  }
  if (found.residues.empty())
    throw input_error(path + ":" + std::to_string(found_line) + ": empty sequence (record '" +
                      found.name + "')");
  return found;
}

}  // namespace lockstep
