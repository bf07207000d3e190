// Smith-Waterman local alignment of one long pair: scoring schemes (DNA
// match/mismatch with N never matching, BLOSUM62, NCBI matrix files), a FASTA reader, the plain
// Gotoh CPU reference, two GPU kernels (tiles by anti-diagonals with a global barrier or one
// launch per diagonal; a flag-array pipeline of row stripes), libssw for comparison, and a
// traceback in bounded memory. Gaps: a gap of length L scores -(open + (L-1) * extend).
// Ties: the best cell with the smallest end in A, then the smallest end in B (0-based).
//
//   lockstep::Scoring s = lockstep::dna_scoring(2, -3, 5, 2);
//   auto a = s.encode(lockstep::read_sequence("A.fa").residues);
//   auto b = s.encode(lockstep::read_sequence("B.fa").residues);
//   lockstep::Context ctx;
//   lockstep::AlignResult r = lockstep::align(ctx, a, b, s, {});  // r.score, r.end_a, r.end_b
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/persistent.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep {
namespace tuning {
class Family;
}

/// A substitution table over a small alphabet plus affine gap penalties (both >= 0).
struct Scoring {
  std::string alphabet;        // letters in code order; DNA: "ACGTN" (N = any other letter)
  bool dna = false;            // DNA: code 4 never matches, even itself
  std::vector<int32_t> table;  // size() x size(), row = code in A, column = code in B
  int32_t gap_open = 0, gap_extend = 0;
  int size() const { return int(alphabet.size()); }
  int32_t operator()(uint8_t a, uint8_t b) const { return table[size_t(a) * alphabet.size() + b]; }
  int32_t max_score() const;
  /// Codes of the residues (either case); letters outside the alphabet become DNA's N (code 4;
  /// DNA refuses letters outside the IUPAC nucleotide codes ACGTURYSWKMBDHVN, and '*') or the
  /// matrix's X (else its '*'; a matrix with neither refuses them); a character that is no
  /// letter (nor '*') throws input_error.
  std::vector<uint8_t> encode(const std::string& residues) const;
};
/// DNA: A C G T match scores `match`, any other pair (N included) -|mismatch|.
Scoring dna_scoring(int match, int mismatch, int gap_open, int gap_extend);
/// DNA scored as blastn scores it (BlastScoreBlkNuclMatrixCreate): alphabet ACGTN then the other
/// IUPAC letters RYMKWSBDHV, each its own code; A C G T as dna_scoring, an ambiguous letter by its
/// degeneracy (2/-3: N against anything -2, R against A or R -1, R against C -3).
Scoring blastn_scoring(int match, int mismatch, int gap_open, int gap_extend);
/// NCBI's matrices, as NCBI's files (B, J, Z, X and * included); blosum62(-1, -1): blastp's gaps.
Scoring blosum62(int gap_open, int gap_extend);
Scoring blosum45(int gap_open, int gap_extend);
Scoring blosum50(int gap_open, int gap_extend);
Scoring blosum80(int gap_open, int gap_extend);
/// True for the names of the built-in matrices, NCBI's: blosum45, blosum50, blosum62, blosum80,
/// pam30, pam70, pam250 (any case).
bool is_builtin_matrix(const std::string& name);
/// blastp's default gap costs for `matrix` where open or extend is negative, in lockstep's
/// convention (BLAST's a/b is open a + b, extend b): BLOSUM45 16/2, BLOSUM50 15/2, BLOSUM62 12/1,
/// BLOSUM80 11/1, PAM30 10/1, PAM70 11/1, PAM250 16/2; a file 12/1.
void default_gaps(const std::string& matrix, int& open, int& extend);
/// A built-in matrix by name, else the NCBI-format file `name`. A negative gap penalty takes
/// default_gaps'.
Scoring matrix_scoring(const std::string& name, int gap_open = -1, int gap_extend = -1);
/// The letter blastp scores in place of `c` (either case) when a protein matrix lacks it: U
/// (selenocysteine) as C, O (pyrrolysine) as X; 0 for any other letter.
char blast_stand_in(char c);
/// A matrix in the NCBI text format (# comments, a header of letters, one row per letter).
Scoring read_ncbi_matrix(const std::string& path, int gap_open, int gap_extend);

struct Sequence {
  std::string name, residues;  // residues: upper case, no white space
};
/// Record `record` (1-based) of a FASTA file (multi-line, gzip through read_input), or the whole
/// file as one sequence when it has no '>' header. Throws input_error "PATH:LINE: ..." for an
/// empty record or a character that is no residue.
Sequence read_sequence(const std::string& path, int record = 1);
/// Every record of the FASTA text `text` (read from `path`, which errors name), in order:
/// each(record, header_line) with the name (the whole header after '>') and the residues (upper
/// case; empty for a record with no residues); plain text without a header is one record named
/// "". `each` returns false to stop. A character that is no residue throws "PATH:LINE: ...".
void for_each_fasta_record(const std::string& path, const std::string& text,
                           const std::function<bool(Sequence&, int header_line)>& each);

enum class AlignAlgorithm { automatic, cpu, barrier, pipeline, ssw };
AlignAlgorithm parse_align_algorithm(const std::string& name);  // throws input_error
std::string to_string(AlignAlgorithm a);

struct AlignConfig {
  AlignAlgorithm algorithm = AlignAlgorithm::automatic;
  BarrierChoice barrier;  // barrier: the global barrier (auto, relaunch, lock, ...)
  int local_size = 0;     // work-items per group (0: automatic)
  int cells = 0;          // rows per work-item (0: automatic)
  int tile_cols = 0;      // columns per tile (barrier) or per published chunk (pipeline)
  int groups = 0;         // 0: as many as co-resident (and useful)
  int threads = 0;        // cpu/ssw: host threads (0: one)
  // pipeline: 16 (packed 16-bit lanes, cl/sw_pipeline16.cl; a pair whose scores leave 16 bits
  // is detected and run again in 32 bits), 32, or 0 (16 where the scores, gaps and profile
  // allow it, else 32)
  int score_bits = 0;
  bool traceback = false;
};

struct AlignResult {
  int32_t score = 0;
  int64_t end_a = -1, end_b = -1;      // -1 when no cell scores above 0
  int64_t start_a = -1, start_b = -1;  // with traceback
  std::string cigar;                   // with traceback: M (pair), I (A only), D (B only)
  double ms = 0, traceback_ms = 0;
  size_t traceback_bytes = 0;  // peak memory of the traceback's banded recomputation
  AlignConfig config;          // as resolved
  std::string barrier;         // barrier strategy used (gpu), else ""
  int groups = 0;
};

/// Best local score and its ends, on the context's device (automatic: the device for large
/// pairs, the CPU for tiny ones).
AlignResult align(Context& ctx, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                  const Scoring& s, AlignConfig config);
/// The same without a device: cpu and ssw only (automatic means cpu; barrier or pipeline throw
/// input_error).
AlignResult align(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                  AlignConfig config);

// The pieces (align() dispatches to them).
AlignResult align_cpu(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                      const Scoring& s);
AlignResult align_barrier(Context& ctx, const std::vector<uint8_t>& a,
                          const std::vector<uint8_t>& b, const Scoring& s, const AlignConfig& c);
AlignResult align_pipeline(Context& ctx, const std::vector<uint8_t>& a,
                           const std::vector<uint8_t>& b, const Scoring& s, const AlignConfig& c);
/// libssw (16-bit scores; threads > 1: that many independent slices of B aligned in parallel,
/// best of them reported, for throughput only). Throws input_error when libssw is missing.
AlignResult align_ssw(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                      const Scoring& s, int threads);
bool have_ssw();

/// The automatic shapes: fills the zero shape values of `c` (for c.algorithm) from the tuning
/// database's entry of the nearest size class ("align", "<algorithm>/e<log10 cells>"), if any.
AlignConfig align_tuned(const DeviceInfo& device, AlignConfig c, size_t n, size_t m);
/// The shapes of `alg` (pipeline or barrier) as a tuning family (tuning.hpp) on a planted random
/// DNA pair of n x m: parameters local_size, cells and tile_cols, fastest of `repeat` runs each,
/// every candidate's score and ends checked against the reference.
std::unique_ptr<tuning::Family> align_family(Context& ctx, AlignAlgorithm alg, size_t n, size_t m,
                                             int repeat = 2);

/// Fills start_a, start_b and cigar of `r` (score and ends set) in O(n + m + band) memory.
void traceback(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
               AlignResult& r);
/// The runs of a CIGAR string ("12M3I5M" -> {12,'M'}, {3,'I'}, {5,'M'}); throws input_error for a
/// malformed string, a run that does not fit 63 bits, or an operation other than M, I, D.
struct CigarRun {
  int64_t length;
  char op;
};
std::vector<CigarRun> parse_cigar(const std::string& cigar);
/// Score of a CIGAR (M/I/D) placed at (start_a, start_b); throws input_error if it runs off.
int64_t rescore(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                int64_t start_a, int64_t start_b, const std::string& cigar);
/// The three-line view (A, match marks, B), wrapped at `width` columns.
std::string alignment_view(const std::string& a, const std::string& b, int64_t start_a,
                           int64_t start_b, const std::string& cigar, int width = 60);

}  // namespace lockstep
