// Database search (issue 34): every query against every database sequence, Smith-Waterman with
// affine gaps (the Scoring of align.hpp: a gap of length L costs open + (L-1) x extend), the top K
// hits per query, ties broken by database order. Scores are exact: packed 16-bit lanes on the
// device, with saturated pairs recomputed in 32 bits.
//
//   lockstep::Scoring s = lockstep::blosum62(11, 1);
//   lockstep::SequenceSet db = lockstep::read_sequences("DB.fasta.gz", s);
//   lockstep::SequenceSet q = lockstep::read_sequences("QUERY.fasta.gz", s);
//   lockstep::Context ctx;
//   lockstep::SearchResult r = lockstep::search(ctx, q, db, s, {});  // r.hits[query][rank]
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lockstep/align.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep {

/// Encoded sequences of one FASTA file: names (the first word of each header) and the residue
/// codes of Scoring::encode, concatenated, with offsets (size() + 1 of them).
struct SequenceSet {
  std::vector<std::string> names;
  std::vector<uint8_t> residues;
  std::vector<int64_t> offsets{0};
  size_t skipped_empty = 0;  // records with no residues (skipped, counted)
  size_t size() const { return names.size(); }
  int64_t length(size_t i) const { return offsets[i + 1] - offsets[i]; }
  const uint8_t* data(size_t i) const { return residues.data() + offsets[i]; }
  void add(std::string name, const std::vector<uint8_t>& codes);
};

/// Reads every record of a FASTA file (gzip, "-" for stdin) and encodes it with `s`; a letter the
/// scoring does not have throws input_error naming the file, the record and the position.
SequenceSet read_sequences(const std::string& path, const Scoring& s);

struct SearchOptions {
  int top = 10;                // hits per query (>= 1)
  int64_t max_device_mib = 0;  // database bytes on the device per batch (0: automatic)
  std::string algorithm = "auto";  // auto | inter (one subject per work-item) | intra | cpu
  std::function<void(double)> progress;  // called with the fraction done, when set
  int local_size = 0;  // inter: subjects per work-group (0: automatic)
  int stripe = 0;      // inter: query rows held per work-item, even, <= 64 (0: automatic)
};

struct SearchHit {
  int32_t query = 0;      // index into the query set
  int64_t subject = 0;    // index into the database
  int32_t score = 0;
  int64_t query_end = -1, subject_end = -1;  // 0-based, inclusive; -1 when score is 0
};

struct SearchResult {
  std::vector<std::vector<SearchHit>> hits;  // per query, best first (ties: database order)
  double ms = 0;               // device work, reading excluded
  double cells = 0;            // sum over queries of query length x database residues
  size_t recomputed = 0;       // pairs whose 16-bit score saturated, recomputed in 32 bits
  std::string algorithm;       // as resolved
  bool dpx = false;            // inter: the NVIDIA DPX instructions ran (else the portable path)
  double kernel_ms = 0;        // inter: the packed kernels' device time (events)
  double ends_ms = 0;          // the ends of the reported hits (32-bit path), wall time
};

SearchResult search(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                    const Scoring& s, const SearchOptions& o = {});
/// The same on the host (the exact reference: Gotoh per pair, threads over pairs).
SearchResult search_cpu(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                        const SearchOptions& o = {});

}  // namespace lockstep
