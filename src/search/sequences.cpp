// The sequence sets of `lockstep search`: FASTA files (gzip, "-" for standard input) read through
// read_input and parsed by for_each_fasta_record (src/align/fasta.cpp), encoded exactly: every
// letter of the matrix as written, a letter outside it an error naming file, line, record and
// position. Records with no residues are skipped and counted. Large files are read in blocks: this
// thread inflates, the host's other threads parse whole records of the blocks already read
// (src/search/fasta_parsers.cpp); an error sends the whole text through one parse again, so that
// it names the first bad place exactly as a single pass does. A share of a file for one rank:
// src/search/sequence_share.cpp.
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <new>

#include "lockstep/io.hpp"
#include "lockstep/search.hpp"
#include "search/fasta_parts.hpp"
#include "search/search_impl.hpp"

namespace lockstep {

using detail::code_table;
using detail::FastaParsers;
using detail::FastaPart;
using detail::last_record_start;
using detail::merge_parts;
using detail::parse;

namespace {

constexpr const char* kIupacDna = "ACGTURYSWKMBDHVN";

}  // namespace

namespace detail {

std::array<int16_t, 256> code_table(const Scoring& s) {
  std::array<int16_t, 256> code;
  code.fill(-1);
  if (s.dna) {  // IUPAC letters the alphabet has (A C G T, blastn_scoring's others), else N (4)
    for (const char* p = kIupacDna; *p; ++p) {
      const size_t at = s.alphabet.find(*p);
      code[size_t(*p)] = code[size_t(std::tolower(*p))] = int16_t(at == std::string::npos ? 4 : at);
    }
    return code;
  }
  for (size_t i = 0; i < s.alphabet.size(); ++i) {
    const unsigned char u = static_cast<unsigned char>(s.alphabet[i]);
    code[u] = code[size_t(std::tolower(u))] = int16_t(i);
  }
  for (const char c : {'U', 'O'})  // blastp's stand-ins (U as C, O as X) where the matrix lacks c
    if (code[size_t(c)] < 0 && code[size_t(blast_stand_in(c))] >= 0)
      code[size_t(c)] = code[size_t(c + 32)] = code[size_t(blast_stand_in(c))];
  return code;
}

}  // namespace detail

namespace {

// 1 for the bytes scored through a stand-in letter (blast_stand_in), else 0.
std::array<uint8_t, 256> stand_in_table(const Scoring& s) {
  std::array<uint8_t, 256> t{};
  if (!s.dna)
    for (const char c : {'U', 'O'})
      if (s.alphabet.find(c) == std::string::npos)
        t[size_t(c)] = t[size_t(c + 32)] = s.alphabet.find(blast_stand_in(c)) != std::string::npos;
  return t;
}

std::string refusal(const Scoring& s, char c) {
  const std::string letter = std::isprint(static_cast<unsigned char>(c))
                                 ? std::string("'") + c + "'"
                                 : "byte " + std::to_string(int(static_cast<unsigned char>(c)));
  if (s.dna)
    return letter + " is not an IUPAC nucleotide letter (" + kIupacDna +
           "): a protein sequence? score it with a matrix (--matrix blosum62)";
  return letter + " is not in the matrix (letters " + s.alphabet + ")";
}

// The line of the `pos`-th residue (0-based) of the record whose header is on `header_line`
// (0: a plain file); only for error messages.
int residue_line(const std::string& path, const std::string& text, int header_line, size_t pos) {
  LineReader lines(path, text);
  std::string_view line;
  while (lines.line() < header_line && lines.next(line)) {
  }
  size_t seen = 0;
  while (lines.next(line)) {
    if (!line.empty() && line[0] == ';') continue;
    for (char c : line)
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '*')
        if (seen++ == pos) return lines.line();
  }
  return header_line;
}

std::string first_word(const std::string& header) {
  const size_t b = header.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return header.substr(b, header.find_first_of(" \t", b) - b);
}

}  // namespace

void SequenceSet::add(std::string name, const std::vector<uint8_t>& codes) {
  if (!whole()) throw input_error("a share of a database takes no more sequences");
  if (mapped) {
    residues.assign(mapped, mapped + offsets.back());
    mapped = nullptr;
    mapping.reset();
  }
  names.push_back(std::move(name));
  residues.insert(residues.end(), codes.begin(), codes.end());
  offsets.push_back(int64_t(residues.size()));
}

std::vector<uint8_t> encode_exact(const Scoring& s, const std::string& residues) {
  const std::array<int16_t, 256> code = code_table(s);
  std::vector<uint8_t> out(residues.size());
  for (size_t i = 0; i < residues.size(); ++i) {
    const int16_t c = code[static_cast<unsigned char>(residues[i])];
    if (c < 0)
      throw input_error("residue " + std::to_string(i + 1) + ": " + refusal(s, residues[i]));
    out[i] = uint8_t(c);
  }
  return out;
}

namespace detail {

void parse(const std::string& path, const std::string& text, const std::array<int16_t, 256>& code,
           const Scoring& s, FastaPart& p, size_t keep_from, size_t keep_to) {
  const std::array<uint8_t, 256> stand_in = stand_in_table(s);
  std::vector<uint8_t> scratch;
  if (keep_from == 0 && keep_to == SIZE_MAX) p.residues.reserve(text.size());
  for_each_fasta_record(path, text, [&](Sequence& q, int header_line) {
    if (header_line == 0)  // a plain sequence file: no id to report its hits by
      throw input_error(path + ":" + std::to_string(residue_line(path, text, 0, 0)) +
                        ": sequence text before any '>' header line (search reads FASTA: "
                        "each record starts with a '>' line that holds its id)");
    ++p.records;
    if (q.residues.empty()) {
      ++p.skipped_empty;
      return true;
    }
    std::string name = printable(first_word(q.name));  // (a terminal escape, or no UTF-8)
    if (name.empty()) p.unnamed.push_back(p.records);
    const bool keep = p.names.size() >= keep_from && p.names.size() < keep_to;
    std::vector<uint8_t>& to = keep ? p.residues : scratch;
    const size_t base = keep ? p.residues.size() : 0;
    to.resize(base + q.residues.size());
    uint8_t* out = to.data() + base;
    size_t stand_ins = 0;
    for (size_t i = 0; i < q.residues.size(); ++i) {
      const unsigned char byte = static_cast<unsigned char>(q.residues[i]);
      const int16_t c = code[byte];
      if (c < 0)
        throw input_error(path + ":" + std::to_string(residue_line(path, text, header_line, i)) +
                          ": record " + std::to_string(p.records) + " ('" + name + "'), residue " +
                          std::to_string(i + 1) + ": " + refusal(s, q.residues[i]));
      out[i] = uint8_t(c);
      stand_ins += stand_in[byte];
    }
    p.stand_ins += stand_ins;
    p.names.push_back(std::move(name));
    p.ends.push_back(int64_t(p.residues.size()));
    p.lengths.push_back(int64_t(q.residues.size()));
    return true;
  });
}

}  // namespace detail

namespace {

// Whether `text` (the start of a file) is FASTA whose pieces may be parsed apart: its first line
// that is neither blank nor a ';' comment is a '>' header. 1 yes, 0 no (a plain sequence file),
// -1 not known yet (no such line so far).
int fasta_mode(const std::string& text) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    if (nl == std::string::npos) return -1;  // the line may go on in the next block
    const std::string_view line(text.data() + at, nl - at);
    at = nl + 1;
    if (!line.empty() && line[0] == ';') continue;
    bool blank = true;
    for (char c : line) blank &= std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!blank) return line[0] == '>' ? 1 : 0;
  }
  return -1;
}

}  // namespace

namespace detail {

size_t last_record_start(const std::string& text, size_t from) {
  for (size_t i = text.size(); i-- > from + 1;)
    if (text[i] == '>' && text[i - 1] == '\n') return i - 1;
  return std::string::npos;
}

}  // namespace detail

namespace {

// The check of every byte as it is read: in a line that is no '>' header and no ';' comment,
// each byte is a letter, '*' or white space (what for_each_fasta_record accepts), across block
// boundaries. False at the first other byte.
class Scan {
 public:
  Scan() {
    for (int c = 0; c < 256; ++c) allowed_[c] = std::isalpha(c) || c == '*' || std::isspace(c);
  }
  bool ok(const std::string& b) {
    for (const char c : b) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (u == '\n') {
        start_ = true, skip_ = false;
        continue;
      }
      if (start_) {
        start_ = false;
        if (u == '>' || u == ';') {
          skip_ = true;
          continue;
        }
      }
      if (skip_) continue;
      if (!allowed_[u]) return false;
    }
    return true;
  }

 private:
  bool start_ = true, skip_ = false;
  bool allowed_[256];
};

}  // namespace

SequenceSet read_sequences(const std::string& path, const Scoring& s, size_t parts, size_t part) {
  try {
    if (parts > 1 && path != "-")  // (standard input is read once: whole)
      return detail::read_sequences_share(path, s, parts, part, size_t(8) << 20);
    return detail::read_sequences_blocks(path, s, size_t(8) << 20);
  } catch (const std::bad_alloc&) {  // (`ulimit -v` below what the size checks plan for)
    throw input_error(path + ": out of host memory while reading its sequences");
  }
}

namespace detail {

SequenceSet read_sequences_blocks(const std::string& path, const Scoring& s, size_t block) {
  struct stat st {};
  const bool regular = path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  // This thread reads and inflates the file block by block; each block, cut after its last
  // record's start, goes to the parsers while the next one is read. The host memory is checked
  // as the text grows (a gzip bomb stops at the limit), every byte of the first block's sequence
  // lines is checked as it comes (a file of NUL bytes stops there), and a parser's error stops
  // the reading: then one pass over the text read so far names the first bad place.
  FastaParsers parsers(path, s);
  std::string carry;
  int mode = -1;
  size_t bytes = 0;
  Scan scan;
  struct Stop {};
  if (regular && 2.0 * double(st.st_size) <= double(host_memory_bytes()))
    carry.reserve(size_t(st.st_size) + 1);  // (its size: one long record grows no copies)
  try {
    read_input_blocks(path, block, [&](std::string& b) {
      bytes += b.size();
      check_host_memory(path, "the sequences (" + std::to_string(bytes) + " bytes of FASTA so far)",
                        2.0 * double(bytes));
      // the first block's bytes here, at once (a file of NUL bytes stops there); the parsers
      // check the rest on every thread (a serial pass over every byte cost the reading thread
      // ~1 s of a 500 MB file)
      const bool bad = bytes == b.size() && !scan.ok(b);
      if (!bad && regular && bytes == b.size())  // a file's size, once its start is valid FASTA
        check_host_memory(path, "reading the sequences", 2.0 * double(st.st_size));
      const size_t old = carry.size();
      carry += b;
      if (bad || parsers.failed()) throw Stop{};
      if (mode < 0) mode = fasta_mode(carry);
      if (mode == 0) throw Stop{};  // a plain sequence file: refused (parse says why)
      if (mode != 1) return;        // not known yet: one piece
      // the last record start, looked for in the new bytes only (the old ones had none)
      const size_t cut = last_record_start(carry, old > 0 ? old - 1 : 0);
      if (cut == std::string::npos || cut == 0) return;
      parsers.add(carry.substr(0, cut + 1));  // (carry keeps its storage for what comes)
      carry.erase(0, cut + 1);
    });
  } catch (const Stop&) {
    parsers.finish();
    std::string text;
    for (std::string& p : parsers.pieces()) text += p, std::string().swap(p);
    if (text.empty())
      text.swap(carry);
    else
      text += carry, std::string().swap(carry);
    FastaPart part;
    parse(path, text, code_table(s), s, part);            // throws: the first bad place, named
    throw input_error(path + ": invalid sequence data");  // (not reached)
  }
  if (!carry.empty()) parsers.add(std::move(carry));
  parsers.finish();
  std::deque<FastaPart>& parts = parsers.parts();
  if (parsers.failed()) {  // the first error in file order, named as one pass names it
    std::string text;
    text.reserve(bytes);
    for (std::string& p : parsers.pieces()) text += p, std::string().swap(p);
    parts.assign(1, FastaPart());
    parse(path, text, code_table(s), s, parts[0]);
  }
  parsers.pieces().clear();
  SequenceSet set;
  set.residues = merge_parts(parts, set.names, set.offsets, set.skipped_empty, set.stand_ins);
  size_t records = 0;
  for (const FastaPart& p : parts) records += p.records;
  if (set.size() == 0)
    throw input_error(path + (records == 0 ? ": no sequence (empty file)"
                                           : ": no residues in any of its " +
                                                 std::to_string(records) + " record(s)"));
  return set;
}

}  // namespace detail

}  // namespace lockstep
