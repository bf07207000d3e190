// Share `part` of `parts` of a FASTA file (database_shares): every name and offset, the codes of
// the share's subjects only, for a rank of a distributed search. The file is read twice on this
// thread, block by block: once for the lengths that place the share, once for its codes.
#include <array>
#include <string>

#include "lockstep/io.hpp"
#include "lockstep/search.hpp"
#include "search/fasta_parts.hpp"
#include "search/search_impl.hpp"

namespace lockstep::detail {

SequenceSet read_sequences_share(const std::string& path, const Scoring& s, size_t parts,
                                 size_t part, size_t block) {
  if (part >= parts)
    throw input_error(path + ": share " + std::to_string(part) + " of " + std::to_string(parts));
  const std::array<int16_t, 256> code = code_table(s);
  // One pass over the file on this thread, block by block, each block cut after its last
  // record's start and parsed, the codes of subjects [from, to) kept.
  const auto pass = [&](size_t from, size_t to) {
    SequenceSet set;
    size_t records = 0;
    const auto piece = [&](const std::string& text) {
      FastaPart p;
      const size_t first = set.size();
      parse(path, text, code, s, p, from > first ? from - first : 0, to > first ? to - first : 0);
      for (size_t j = 0, u = 0; j < p.names.size(); ++j) {
        if (p.names[j].empty()) p.names[j] = std::to_string(records + p.unnamed[u++]);
        set.names.push_back(std::move(p.names[j]));
        set.offsets.push_back(set.offsets.back() + p.lengths[j]);
      }
      set.residues.insert(set.residues.end(), p.residues.begin(), p.residues.end());
      records += p.records, set.skipped_empty += p.skipped_empty, set.stand_ins += p.stand_ins;
      check_host_memory(path, "the share's sequences", 2.0 * double(set.residues.size()));
    };
    std::string carry;
    read_input_blocks(path, block, [&](std::string& b) {
      const size_t old = carry.size();
      carry += b;
      const size_t cut = last_record_start(carry, old > 0 ? old - 1 : 0);
      if (cut == std::string::npos || cut == 0) return;
      piece(carry.substr(0, cut + 1));
      carry.erase(0, cut + 1);
    });
    if (!carry.empty()) piece(carry);
    if (set.size() == 0) throw input_error(path + ": no residues");
    return set;
  };
  try {
    const SequenceSet lengths = pass(0, 0);  // every name and length, no codes
    const std::vector<size_t> b = database_shares(lengths, parts);
    SequenceSet set = pass(b[part], b[part + 1]);
    if (set.offsets != lengths.offsets)
      throw input_error(path + ": the file changed while it was read");
    set.held_begin = b[part], set.held_end = b[part + 1];
    return set;
  } catch (const input_error&) {  // read whole, once: the first bad place named as one read does
    read_sequences_blocks(path, s, block);
    throw;
  }
}

}  // namespace lockstep::detail
