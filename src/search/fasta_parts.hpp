// The FASTA parser the search's sequence readers share (src/search/sequences.cpp): the whole-file
// reader parses pieces on the host's threads, the share reader (src/search/sequence_share.cpp)
// pieces of one pass on its thread.
#pragma once

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
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

// Parsers on the host's threads (src/search/fasta_parsers.cpp): pieces in file order, each parsed
// into its FastaPart as it comes; a piece that fails is marked, and the caller parses the whole
// text again on one thread, which names the first bad place exactly.
class FastaParsers {
 public:
  FastaParsers(const std::string& path, const Scoring& s);
  ~FastaParsers();
  FastaParsers(const FastaParsers&) = delete;
  FastaParsers& operator=(const FastaParsers&) = delete;
  void add(std::string&& piece);
  void finish();  // waits for every piece added
  bool failed() const;
  std::deque<std::string>& pieces() { return pieces_; }
  std::deque<FastaPart>& parts() { return parts_; }

 private:
  void work();
  const std::string& path_;
  const Scoring& s_;
  const std::array<int16_t, 256> code_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::string> pieces_;
  std::deque<FastaPart> parts_;
  std::deque<char> failed_;
  std::deque<size_t> todo_;
  bool closed_ = false;
  std::vector<std::thread> pool_;
};

// The parts, in order, as one set's residues (returned), names, offsets and skipped count, each
// part released once copied. On one thread this was two thirds of the reading thread's work, and
// nearly all of it the page faults of the fresh residues (200 M residues on a 2-core host: 100
// of 115 ms): the pages are populated, and the parts copied, on the host's threads.
std::vector<uint8_t> merge_parts(std::deque<FastaPart>& parts, std::vector<std::string>& names,
                                 std::vector<int64_t>& offsets, size_t& skipped_empty,
                                 size_t& stand_ins);

}  // namespace lockstep::detail
