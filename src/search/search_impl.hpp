// What the device search's pieces share (src/search/device.cpp drives, pack.cpp lays out the
// database and the query profiles, batches.cpp streams the batches, exact.cpp runs the 32-bit
// pairs, TopK below keeps the best hits).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "lockstep/search.hpp"

namespace lockstep::detail {

constexpr int kSwCodes = 32;  // profile columns per row (cl/search.cl SW_CODES)
constexpr int kPadCode = 31;  // code of padding residues
constexpr int32_t kPadScore = -16384;

/// The host threads a search uses: the hardware's, at most 16.
inline unsigned host_threads() {
  return std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
}
/// fn(begin, end) over [0, n) in `threads` contiguous parts at once, the caller taking the first.
template <typename F>
void split_over(size_t n, unsigned threads, F fn) {
  threads = std::max(1u, threads);
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(fn, n * t / threads, n * (t + 1) / threads);
  fn(size_t(0), n / threads);
  for (auto& th : pool) th.join();
}

/// One row of NCBI's statistics (blast_stat.c): BLAST's gap existence and extension (a + L b).
struct StatRow {
  int open, extend;
  double lambda, K, H, alpha, beta, C = 0, alpha_v = 0, sigma = 0;
};
struct ProteinParameters {
  const char* matrix;         // NCBI's name, as matrix_scoring knows it
  std::vector<StatRow> rows;  // rows[0]: ungapped (Spouge's a_un, Alpha_un)
};
struct NucleotideParameters {
  int reward, penalty;
  std::vector<StatRow> rows;
};
const std::vector<ProteinParameters>& protein_parameters();        // ncbi_parameters.cpp
const std::vector<NucleotideParameters>& nucleotide_parameters();  // ncbi_parameters.cpp

/// read_sequences with blocks of `block` bytes (read_sequences: 8 MiB), for the tests.
SequenceSet read_sequences_blocks(const std::string& path, const Scoring& s, size_t block);

/// Whether the packed 16-bit kernel represents this scoring: at most 31 codes, table entries and
/// gap costs small enough that no lane wraps before the saturation limit is seen.
bool packed_fits(const Scoring& s);
/// A best score above this limit may have wrapped: the pair is recomputed in 32 bits.
int32_t packed_limit(const Scoring& s);

/// Database subjects of one batch in chunks of `local` subjects (lanes), each chunk padded to
/// its longest subject (a multiple of 4) and interleaved four codes per word.
struct PackedBatch {
  std::vector<int64_t> subjects;  // database index of each slot (chunk * local + lane), -1: pad
  std::vector<int32_t> chunks;    // 4 per chunk: word offset, padded length, boundary offset, slot
  int64_t words = 0;              // packed words of the batch
  int64_t boundary_columns = 0;   // sum over chunks of padded length x local
  int64_t residues = 0;           // real residues of the batch
};
/// `order`: database indices, longest first; lays out order[begin, end).
PackedBatch layout_batch(const SequenceSet& db, const std::vector<int64_t>& order, size_t begin,
                         size_t end, int local);
/// Writes the batch's `words` words (pinned host memory on the device path) on `threads` threads.
void fill_batch(const SequenceSet& db, const PackedBatch& p, int local, uint32_t* words,
                unsigned threads);

/// Queries paired for the two 16-bit lanes (similar lengths side by side), with the profiles.
struct QueryPairs {
  std::vector<int32_t> a, b;      // query index of lane 0 and lane 1 (-1: none)
  std::vector<uint32_t> profile;  // per pair: [row][kSwCodes]
  std::vector<int32_t> info;      // per pair: profile word offset, stripes, last stripe's rows, 0
};
/// The rows the kernel runs in the last stripe of a pair of ROWS rows (cl/search.cl
/// SEARCH_TAILS): with `stripe` a multiple of 8, a quarter or a half of it when the pair's rows
/// end there, else the whole stripe.
inline int last_stripe_rows(int64_t rows, int stripe) {
  const int64_t left = rows - (std::max<int64_t>(rows, 1) - 1) / stripe * stripe;
  if (stripe % 8 != 0) return stripe;
  return left <= stripe / 4 ? stripe / 4 : left <= stripe / 2 ? stripe / 2 : stripe;
}
/// `row_pairs`: the profile as [row / 2][kSwCodes][2] (the kernel's SEARCH_PROF2).
QueryPairs pair_queries(const SequenceSet& queries, const Scoring& s, int stripe,
                        bool row_pairs = false);

/// search_ends' shape (work-items per pair, query rows per work-item), set beside the inter
/// kernel's so that both kernels share one program.
inline int ends_local(bool gpu) { return gpu ? 64 : 16; }
inline int ends_rows(bool gpu) { return gpu ? 8 : 4; }

/// One pair for the exact path.
struct ExactJob {
  int32_t query = 0;
  int64_t subject = 0;
  int32_t score = 0;
  int64_t end_q = -1, end_s = -1;
};
/// Score and ends of every job in 32 bits: pairs up to 2^26 cells one per work-group, all at once
/// (search_ends), larger ones through align() (the device's intra-sequence pipeline on GPUs).
void run_exact(Context& ctx, const Defines& defines, const SequenceSet& queries,
               const SequenceSet& db, const Scoring& s, std::vector<ExactJob>& jobs);

/// The search's one ranking: a higher score first, equal scores in database order (TopK here,
/// top_hits in cpu.cpp).
inline bool ranks_before(int32_t score, int64_t subject, int32_t other_score,
                         int64_t other_subject) {
  return score != other_score ? score > other_score : subject < other_subject;
}

/// The best `top` subjects of one query by (score descending, subject ascending).
class TopK {
 public:
  explicit TopK(size_t top) : top_(top) {}
  void add(int32_t score, int64_t subject) {
    if (full_ && better(floor_, {score, subject})) return;
    c_.push_back({score, subject});
    if (c_.size() >= 2 * top_ + 64) shrink();
  }
  /// Best first.
  std::vector<std::pair<int32_t, int64_t>> take();

 private:
  using Hit = std::pair<int32_t, int64_t>;
  static bool better(const Hit& x, const Hit& y) {
    return ranks_before(x.first, x.second, y.first, y.second);
  }
  void shrink();
  size_t top_;
  bool full_ = false;
  Hit floor_{0, 0};  // the worst kept hit once full
  std::vector<Hit> c_;
};

/// The packed kernel (program `defines`, `local` lanes) over the subjects `order` (longest
/// first) against every query pair, batch after batch with the host's packing and ranking
/// overlapped (batches.cpp): the best hits into `keep`, the saturated pairs appended to `jobs`,
/// kernel_ms and recomputed added to `r`.
void run_inter(Context& ctx, int local, const Defines& defines, const SequenceSet& db,
               const std::vector<int64_t>& order, const QueryPairs& qp, const Scoring& s,
               const SearchOptions& o, std::vector<TopK>& keep, std::vector<ExactJob>& jobs,
               SearchResult& r);

}  // namespace lockstep::detail
