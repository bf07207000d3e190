// What the device search's pieces share (src/search/device.cpp drives, pack.cpp lays out the
// database and the query profiles, batches.cpp streams the batches, exact.cpp runs the 32-bit
// pairs, TopK below keeps the best hits, devices.cpp splits a search over several devices).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "lockstep/search.hpp"
#include "runtime/defaults.hpp"

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
/// Share `part` of `parts` (database_shares) of a FASTA file: every name and offset, the codes
/// of the share's subjects only; the file read twice on this thread, `block` bytes at a time.
SequenceSet read_sequences_share(const std::string& path, const Scoring& s, size_t parts,
                                 size_t part, size_t block);

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

/// search_ends' shape (work-items per pair, query rows per work-item; the defaults table's), set
/// beside the inter kernel's so that both kernels share one program.
inline int ends_local(const DeviceInfo& d) {
  return defaults::lookup<defaults::Search>(d).ends_local;
}
inline int ends_rows(const DeviceInfo& d) {
  return defaults::lookup<defaults::Search>(d).ends_rows;
}

/// SearchOptions::algorithm split at its first '+': the algorithm ("auto", "inter", ...) and
/// inter's kernel features ("prof2+skew"; "" when it names none).
struct AlgorithmWords {
  std::string base, features;
};
AlgorithmWords algorithm_words(const SearchOptions& o);

/// The inter kernel's shape: work-items a group, query rows a work-item and the kernel's features
/// (cl/search.cl), from the options, else the defaults table's "Search" entry: on a GPU with no
/// shape given, a database of at least skew_residues residues takes skew_stripe rows and the skew
/// feature. Throws input_error outside the kernel's limits or for an unknown feature.
struct SearchShape {
  int local = 0, stripe = 0;
  bool prof2 = false, skew = false;
};
SearchShape search_shape(const DeviceInfo& di, const SearchOptions& o, double residues);

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

/// The search's one ranking: a higher score first, equal scores in database order.
inline bool ranks_before(int32_t score, int64_t subject, int32_t other_score,
                         int64_t other_subject) {
  return score != other_score ? score > other_score : subject < other_subject;
}
/// What the ranking reads of a hit: the device keepers' (score, subject) pairs, or a SearchHit.
using ScoredSubject = std::pair<int32_t, int64_t>;
inline int32_t rank_score(const ScoredSubject& h) { return h.first; }
inline int64_t rank_subject(const ScoredSubject& h) { return h.second; }
inline int32_t rank_score(const SearchHit& h) { return h.score; }
inline int64_t rank_subject(const SearchHit& h) { return h.subject; }

/// The search's one top-K: the best `top` of the hits added, by ranks_before. Hits are
/// collected unsorted and cut back to the best `top` (nth_element) whenever 2 top + 64 are held;
/// once `top` are held, a hit below the worst kept is refused at once. top_hits (cpu.cpp) and
/// the device search's keepers (one per query) both use it.
template <typename Hit>
class TopKOf {
 public:
  explicit TopKOf(size_t top) : top_(top) {}
  void add(const Hit& h) {
    if (top_ == 0 || (full_ && better(floor_, h))) return;
    c_.push_back(h);
    if (c_.size() >= 2 * top_ + 64) shrink();
  }
  void add(int32_t score, int64_t subject) {
    static_assert(std::is_same_v<Hit, ScoredSubject>, "add(score, subject) is the pairs' form");
    add(Hit{score, subject});
  }
  /// Best first.
  std::vector<Hit> take() {
    std::sort(c_.begin(), c_.end(), better);
    if (c_.size() > top_) c_.resize(top_);
    return std::move(c_);
  }

 private:
  static bool better(const Hit& x, const Hit& y) {
    return ranks_before(rank_score(x), rank_subject(x), rank_score(y), rank_subject(y));
  }
  void shrink() {
    if (c_.size() > top_) {
      std::nth_element(c_.begin(), c_.begin() + std::ptrdiff_t(top_ - 1), c_.end(), better);
      c_.resize(top_);
    }
    if (c_.size() == top_) {
      full_ = true;
      floor_ = *std::max_element(c_.begin(), c_.end(), better);  // the worst kept
    }
  }
  size_t top_;
  bool full_ = false;
  Hit floor_{};  // the worst kept hit once full
  std::vector<Hit> c_;
};
using TopK = TopKOf<ScoredSubject>;

/// The packed kernel (program `defines`, `local` lanes) over the subjects `order` (longest
/// first) against every query pair, batch after batch with the host's packing and ranking
/// overlapped (batches.cpp): the best hits into `keep`, the saturated pairs appended to `jobs`,
/// kernel_ms and recomputed added to `r`.
void run_inter(Context& ctx, int local, const Defines& defines, const SequenceSet& db,
               const std::vector<int64_t>& order, const QueryPairs& qp, const Scoring& s,
               const SearchOptions& o, std::vector<TopK>& keep, std::vector<ExactJob>& jobs,
               SearchResult& r);

/// The device search of db's subjects [begin, end) (search_share with its checks made): the
/// kernel's shape chosen for the whole db, hits named by their index in db.
SearchResult search_range(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                          const Scoring& s, const SearchOptions& o, size_t begin, size_t end);
/// search over ctx and o.devices (devices.cpp): a thread per device, its share of the database,
/// the hits merged.
SearchResult search_devices(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                            const Scoring& s, const SearchOptions& o);

}  // namespace lockstep::detail
