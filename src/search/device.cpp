// PLACEHOLDER (branch search-io): lockstep::search() runs the host reference until the device
// kernels land. The `search` branch's src/search/device.cpp (packed 16-bit kernels, batches of
// the database, the exact 32-bit fallback) replaces this whole file at the merge.
#include "lockstep/search.hpp"

namespace lockstep {

SearchResult search(Context&, const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                    const SearchOptions& o) {
  return search_cpu(queries, db, s, o);  // PLACEHOLDER: the device search replaces this
}

}  // namespace lockstep
