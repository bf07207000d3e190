// PLACEHOLDER on branch `search` (the device engine): branch `search-io` owns this file and its
// version wins at merge. Only what the device search and its tests need.
#include "lockstep/search.hpp"

namespace lockstep {

void SequenceSet::add(std::string name, const std::vector<uint8_t>& codes) {
  names.push_back(std::move(name));
  residues.insert(residues.end(), codes.begin(), codes.end());
  offsets.push_back(int64_t(residues.size()));
}

}  // namespace lockstep
