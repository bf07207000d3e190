// Database search: every query against every database sequence, Smith-Waterman with
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
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/align.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep {

/// Encoded sequences of one FASTA file: names (the first word of each header; an empty header:
/// its record number, 1-based) and the residue codes of encode_exact, concatenated, with offsets
/// (size() + 1 of them).
/// A prepared database (open_database) leaves its codes in the file's memory map: `residues`
/// is then empty and codes() points into the map, which `mapping` keeps alive.
struct SequenceSet {
  std::vector<std::string> names;
  std::vector<uint8_t> residues;
  std::vector<int64_t> offsets{0};
  size_t skipped_empty = 0;             // records with no residues (skipped, counted)
  size_t stand_ins = 0;                 // residues scored as blastp's stand-in (U as C, O as X)
  std::shared_ptr<const void> mapping;  // a prepared database's map, when the codes are there
  const uint8_t* mapped = nullptr;      // its codes (held_residues() of them)
  /// A share of a database (open_database with parts > 1) has every name and offset but the
  /// codes of subjects [held_begin, held_end) only: data(i) is valid for those alone.
  size_t held_begin = 0, held_end = SIZE_MAX;
  size_t size() const { return names.size(); }
  int64_t length(size_t i) const { return offsets[i + 1] - offsets[i]; }
  bool whole() const { return held_begin == 0 && held_end >= size(); }
  /// The codes held, concatenated (held_residues() of them; every code unless a share).
  const uint8_t* codes() const { return mapped ? mapped : residues.data(); }
  size_t held_residues() const {
    return size_t(offsets[std::min(held_end, size())] - offsets[held_begin]);
  }
  size_t residue_count() const {
    return mapped || !whole() ? size_t(offsets.back()) : residues.size();
  }
  const uint8_t* data(size_t i) const { return codes() + (offsets[i] - offsets[held_begin]); }
  /// Appends a sequence (a mapped set's codes are first copied into `residues`).
  void add(std::string name, const std::vector<uint8_t>& codes);
};

/// Reads every record of a FASTA file (gzip, "-" for stdin) and encodes it with encode_exact;
/// a letter the scoring does not have throws input_error "PATH:LINE: record N ('name'), residue
/// P: ..." (N and P 1-based). Records with no residues are skipped and counted (skipped_empty);
/// a file with no residues at all, or more than the host memory allows (host_memory_bytes,
/// LOCKSTEP_HOST_MEMORY_MIB), throws input_error. With parts > 1 (a file; "-" is read whole): share
/// `part` of database_shares(set, parts): every name and offset but the share's codes only
/// (held_begin, held_end), the file read twice on one thread.
SequenceSet read_sequences(const std::string& path, const Scoring& s, size_t parts = 1,
                           size_t part = 0);
/// A prepared database (`lockstep makedb`): `db` (encoded with `s`) written through OutputFile
/// (a temporary renamed into place) as a versioned, checksummed file that open_database maps
/// instead of parsing.
void write_database(const std::string& path, const SequenceSet& db, const Scoring& s);
/// Whether `path` is a prepared database: it starts with its magic bytes, whatever its name.
bool is_database(const std::string& path);
/// The set written by write_database, its codes mapped to `s`'s when it was made for another
/// scoring. A truncated or corrupt file, another format version, or a letter `s` does not have
/// throws input_error "PATH: ...".
/// With parts > 1: share `part` of database_shares(set, parts) only, the other shares' codes
/// neither read nor checked (every name and offset is; a corrupt byte of the share is refused).
SequenceSet open_database(const std::string& path, const Scoring& s, size_t parts = 1,
                          size_t part = 0);
/// open_database for a prepared database, else read_sequences (FASTA); parts and part as theirs.
SequenceSet read_database(const std::string& path, const Scoring& s, size_t parts = 1,
                          size_t part = 0);
/// The codes of search: every letter of the matrix scored exactly as written (either case; X, B,
/// J, Z and * included), U and O, where the matrix lacks them, as blastp scores them (U as C, O
/// as X: blast_stand_in), any other letter outside it refused: input_error "residue P: '1' is
/// not in the matrix (letters ...)" (P 1-based). DNA: the IUPAC letters the alphabet has (A C G T;
/// blastn_scoring: all), every other IUPAC letter N.
std::vector<uint8_t> encode_exact(const Scoring& s, const std::string& residues);

/// The devices of a search over several (`--devices`), parsed with select_device's words: "all"
/// gives every GPU (none: select_device's default device, e.g. PoCL's CPU device); a comma list
/// one device per item ("0,0": device 0 twice, for two contexts of one device). Throws
/// input_error naming `--devices SPEC` when an item is empty or matches nothing.
std::vector<cl::Device> select_devices(const std::string& spec);

// The deprecated fields below: GCC warns wherever a copy or destructor of these structs is
// synthesized unless the warning is off where they are declared.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
struct SearchOptions {
  int top = 10;                // hits per query (>= 1)
  int64_t max_device_mib = 0;  // database bytes on the device per batch (0: automatic)
  // auto | inter (one subject per work-item) | intra | cpu. inter may name the kernel's features
  // (cl/search.cl) after '+': inter+prof2 (two profile rows per load), inter+skew (two columns
  // as a wavefront), inter+prof2+skew; plain inter takes neither unless the defaults table picks
  // skew (local_size and stripe 0, a GPU, a database of at least 10^8 residues)
  std::string algorithm = "auto";
  std::function<void(double)> progress;  // called with the fraction done, when set
  int local_size = 0;                    // inter: subjects per work-group (0: automatic)
  int stripe = 0;  // inter: query rows held per work-item, even, <= 64 (0: automatic)
  // The features as their own field (read when algorithm names none).
  [[deprecated("name the features in algorithm: \"inter+skew\"")]] std::string variant;
  // More devices beside the search's `ctx`, each a context of its own (two contexts of one device
  // are two queues on it): the database is cut into contiguous shares of about equal residues
  // (database_shares), ctx searching the first and devices[k] share k + 1, each on its own host
  // thread, and the hits merged into the same top K (ties by database order): the same hits, ends
  // and order as ctx alone. Empty: ctx alone, on the calling thread. Not used by the cpu
  // algorithm.
  std::vector<Context*> devices;
};

struct SearchHit {
  int32_t query = 0;    // index into the query set
  int64_t subject = 0;  // index into the database
  int32_t score = 0;
  int64_t query_end = -1, subject_end = -1;  // 0-based, inclusive; -1 when score is 0
  bool minus = false;  // DNA: a hit of the query's reverse complement (query_end counted on it)
};

struct SearchResult {
  std::vector<std::vector<SearchHit>> hits;  // per query, best first (ties: database order)
  double ms = 0;                             // device work, reading excluded
  double cells = 0;                          // sum over queries of query length x database residues
  size_t recomputed = 0;  // pairs whose 16-bit score saturated, recomputed in 32 bits
  std::string algorithm;  // as resolved, inter with its features ("inter+skew"; "inter": none)
  bool dpx = false;       // inter: the NVIDIA DPX instructions ran (else the portable path)
  double kernel_ms = 0;   // inter: the packed kernels' device time (events)
  size_t batches = 0;     // inter: database batches streamed through the device
  int local_size = 0, stripe = 0;  // inter: the kernel's shape as resolved
  [[deprecated("the features are in algorithm")]] std::string variant;  // "plain", "prof2", ...
  double ends_ms = 0;   // the ends of the reported hits (32-bit path), wall time
  double start_ms = 0;  // inter: from the start to the first launch (shape, profiles, order,
                        // layout, the first batch packed), wall time
};
#pragma GCC diagnostic pop

/// The inter kernel's features: the words after "inter+" in SearchOptions::algorithm (several
/// joined by '+'), each with what it does; search_features_text(): "inter+prof2, inter+skew".
struct SearchFeature {
  std::string name, what;
};
const std::vector<SearchFeature>& search_features();
std::string search_features_text();

/// The queries of one search are too long together for the device's profiles (2^31 words: about
/// 67 M query residues): an input_error that callers tell apart by type to name the query file.
class queries_too_long : public input_error {
 public:
  using input_error::input_error;
};

SearchResult search(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                    const Scoring& s, const SearchOptions& o = {});
/// The search of db's subjects [begin, end) alone (a share of a search split over devices or MPI
/// ranks): hits name subjects by their index in `db`, and the kernel's shape is chosen for the
/// whole `db`, as one device searching all of it would. o.devices is not used.
SearchResult search_share(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                          const Scoring& s, const SearchOptions& o, size_t begin, size_t end);
/// `parts` contiguous shares of `db` of about equal residues: parts + 1 subject indices, the first
/// 0 and the last db.size() (a share may be empty: fewer subjects than parts, one long subject).
std::vector<size_t> database_shares(const SequenceSet& db, size_t parts);
/// The hits of another share merged into `hits` (both per query, best first): each query's best
/// `top` of both, by score, ties by database order, as one search of the whole database.
void merge_hits(std::vector<std::vector<SearchHit>>& hits,
                const std::vector<std::vector<SearchHit>>& more, int top);
/// The same on the host (the exact reference: Gotoh per pair, threads over pairs).
SearchResult search_cpu(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                        const SearchOptions& o = {});

/// DNA strands (blastn's -strand): the query set a search of `strand` ("both", "plus", "minus")
/// runs: the queries, their reverse complements (IUPAC letters complemented: R-Y, N stays N),
/// or both, the plus strands first.
/// Another strand throws input_error.
SequenceSet strand_queries(const SequenceSet& queries, const std::string& strand);
/// The hits of a search of strand_queries(queries, strand), one list per query of `queries`: the
/// two strands' lists merged best first (ties: database order, plus first), the best `top` kept,
/// minus-strand hits marked `minus`. Their `query` stays the index searched (for "both", the
/// reverse complement's: queries + i), so that the searched set aligns them.
void merge_strands(SearchResult& r, size_t queries, const std::string& strand, int top);

/// The checks every search makes (top >= 1, a database with sequences, codes inside the
/// scoring's alphabet, consistent offsets); throws input_error.
void check_search(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                  const SearchOptions& o);
/// The best `top` of one query's hits: score descending, ties by subject index (database order).
std::vector<SearchHit> top_hits(std::vector<SearchHit> all, int top);

/// The gapped Karlin-Altschul parameters NCBI publishes for a scoring (BLAST's blast_stat.c
/// tables): proteins BLOSUM45, 50, 62, 80 and PAM30, 70, 250 (found by the matrix's content: a
/// file holding BLOSUM62 is BLOSUM62) with Spouge's finite-size parameters, DNA the blastn
/// reward/penalty pairs, each with the gap costs NCBI lists. `matrix` is empty when the scoring
/// has none (another matrix, gap costs outside the table): then E-value and bit score are not
/// available.
struct KarlinAltschul {
  std::string matrix;  // "BLOSUM62", "blastn 2/-3", ...; empty: no published parameters
  double lambda = 0, K = 0, H = 0, alpha = 0, beta = 0;
  bool spouge = false;  // proteins: BLAST_SpougeStoE's Gumbel parameters below
  double a = 0, b = 0, Alpha = 0, Beta = 0, Sigma = 0, Tau = 0;
  bool round_down = false;  // blastn 2/-3 and others: E-values of the score rounded down to even
  explicit operator bool() const { return !matrix.empty(); }
};
KarlinAltschul karlin_altschul(const Scoring& s);
/// Bit score (lambda S - ln K) / ln 2.
double bit_score(const KarlinAltschul& ka, int32_t score);
/// BLAST's length adjustment (BLAST_ComputeLengthAdjustment: the fixed point of
/// l = alpha/lambda (ln K + ln((m - l)(n - N l))) + beta, rounded down) for a query of m
/// residues against a database of n residues in N sequences.
int64_t length_adjustment(const KarlinAltschul& ka, int64_t m, int64_t n, int64_t N);
/// BLAST's effective search space (m - l)(n - N l), as blastp/blastn print it.
double effective_search_space(const KarlinAltschul& ka, int64_t m, int64_t n, int64_t N);
/// The E-value BLAST+ reports for a hit of `score` between a query of m residues and a subject
/// of `subject` residues in a database of n residues in N sequences: Spouge's finite-size
/// correction where ka.spouge (BLAST_SpougeStoE, blastp), else K e^(-lambda S) times the
/// effective search space (blastn).
double evalue(const KarlinAltschul& ka, int32_t score, int64_t m, int64_t subject, int64_t n,
              int64_t N);

/// The BLAST tabular columns of one hit (outfmt 6), from a traceback of its pair: percent
/// identity, alignment columns, mismatches, gap openings, and 1-based inclusive ranges.
struct HitAlignment {
  double pident = 0;
  int64_t length = 0, mismatch = 0, gapopen = 0;
  int64_t nident = 0, positive = 0, gaps = 0;  // identical pairs, pairs scoring > 0, gap columns
  int64_t qstart = 0, qend = 0, sstart = 0, send = 0;  // 1-based; 0 when score is 0
  std::string cigar;                                   // M pair, I query only, D subject only
};
HitAlignment align_hit(const SequenceSet& queries, const SequenceSet& db, const Scoring& s,
                       const SearchHit& hit);
/// align_hit of every hit of `r` (as r.hits: per query, best first), on `threads` host threads
/// (0: the search's, at most 16), each taking the next hit as it finishes one.
std::vector<std::vector<HitAlignment>> align_hits(const SequenceSet& queries, const SequenceSet& db,
                                                  const Scoring& s, const SearchResult& r,
                                                  unsigned threads = 0);

}  // namespace lockstep
