// The sequence sets of `lockstep search`: FASTA files (gzip, "-" for standard input) read through
// read_input and parsed by for_each_fasta_record (src/align/fasta.cpp), encoded exactly: every
// letter of the matrix as written, a letter outside it an error naming file, line, record and
// position. Records with no residues are skipped and counted.
#include <sys/stat.h>

#include <array>
#include <cctype>

#include "lockstep/io.hpp"
#include "lockstep/search.hpp"

namespace lockstep {
namespace {

constexpr const char* kIupacDna = "ACGTURYSWKMBDHVN";

// Code of each byte, -1 where the scoring has none.
std::array<int16_t, 256> code_table(const Scoring& s) {
  std::array<int16_t, 256> code;
  code.fill(-1);
  if (s.dna) {  // A C G T, any other IUPAC letter N (code 4)
    for (const char* p = kIupacDna; *p; ++p) code[size_t(*p)] = code[size_t(std::tolower(*p))] = 4;
    for (int i = 0; i < 4; ++i) code[size_t("ACGT"[i])] = code[size_t("acgt"[i])] = int16_t(i);
    return code;
  }
  for (size_t i = 0; i < s.alphabet.size(); ++i) {
    const unsigned char u = static_cast<unsigned char>(s.alphabet[i]);
    code[u] = code[size_t(std::tolower(u))] = int16_t(i);
  }
  return code;
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

SequenceSet read_sequences(const std::string& path, const Scoring& s) {
  struct stat st {};
  if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))  // text + codes
    check_host_memory(path, "reading the sequences", 2.0 * double(st.st_size));
  const std::string text = read_input(path);
  check_host_memory(path, "the sequences (" + std::to_string(text.size()) + " bytes of FASTA)",
                    2.0 * double(text.size()));
  const std::array<int16_t, 256> code = code_table(s);
  SequenceSet set;
  set.residues.reserve(text.size());
  size_t record = 0;
  for_each_fasta_record(path, text, [&](Sequence& q, int header_line) {
    ++record;
    if (q.residues.empty()) {
      ++set.skipped_empty;
      return true;
    }
    std::string name = first_word(q.name);
    const size_t base = set.residues.size();
    set.residues.resize(base + q.residues.size());
    uint8_t* out = set.residues.data() + base;
    for (size_t i = 0; i < q.residues.size(); ++i) {
      const int16_t c = code[static_cast<unsigned char>(q.residues[i])];
      if (c < 0)
        throw input_error(path + ":" + std::to_string(residue_line(path, text, header_line, i)) +
                          ": record " + std::to_string(record) + " ('" + name + "'), residue " +
                          std::to_string(i + 1) + ": " + refusal(s, q.residues[i]));
      out[i] = uint8_t(c);
    }
    set.names.push_back(std::move(name));
    set.offsets.push_back(int64_t(set.residues.size()));
    return true;
  });
  if (set.size() == 0)
    throw input_error(path + (record == 0 ? ": no sequence (empty file)"
                                          : ": no residues in any of its " +
                                                std::to_string(record) + " record(s)"));
  return set;
}

}  // namespace lockstep
