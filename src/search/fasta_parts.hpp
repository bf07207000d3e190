// The FASTA parser the search's sequence readers share (src/search/sequences.cpp): the whole-file
// reader parses pieces on the host's threads, the share reader (src/search/sequence_share.cpp)
// pieces of one pass on its thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/search.hpp"

namespace lockstep::detail {

// The records of one piece of FASTA text, encoded; `records` counts every record (empty ones too).
struct FastaPart {
  std::vector<std::string> names;  // "" for an empty header: numbered in merge
  std::vector<size_t> unnamed;     // record (in this part, 1-based) of each "" name, in order
  std::vector<uint8_t> residues;
  std::vector<int64_t> ends;     // end of each sequence in `residues`
  std::vector<int64_t> lengths;  // of each sequence (kept in `residues` or not)
  size_t skipped_empty = 0, records = 0, stand_ins = 0;
};

// Code of each byte, -1 where the scoring has none.
std::array<int16_t, 256> code_table(const Scoring& s);

// The records of `text` (from `path`) into `p`: the codes of the piece's sequences
// [keep_from, keep_to) kept in p.residues, the others' checked; a bad letter throws input_error
// naming file, line, record and position.
void parse(const std::string& path, const std::string& text, const std::array<int16_t, 256>& code,
           const Scoring& s, FastaPart& p, size_t keep_from = 0, size_t keep_to = SIZE_MAX);

// The position of the '\n' of the last "\n>" in `text` at or after `from`, else npos.
size_t last_record_start(const std::string& text, size_t from);

}  // namespace lockstep::detail
