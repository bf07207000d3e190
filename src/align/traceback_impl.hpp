// The traceback's pieces shared between its files (traceback.cpp, traceback_start.cpp,
// traceback_band.cpp).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "lockstep/align.hpp"

// The vector passes are built twice on x86-64 (GCC and Clang): for AVX2 (wider lanes, and the
// 32-bit max that the baseline, SSE2, lacks) and for the baseline, the host's CPU choosing at
// run time (__builtin_cpu_supports); elsewhere the baseline's portable vector code alone.
namespace lockstep::detail {

/// Minus infinity of the traceback's 32-bit passes: far below every score, and a few gaps or
/// substitutions added to it stay inside 32 bits.
constexpr int32_t kNeg = std::numeric_limits<int32_t>::min() / 4;

/// The traceback's passes: one cell at a time (32 bits: the reference the vector passes are
/// tested against, the same start and CIGAR), vector lanes (16 and 8 of them where AVX2 runs),
/// or the baseline's vector lanes (8 and 4, as without AVX2).
enum class Passes { scalar, lanes, baseline };
/// traceback() with those passes.
void traceback_with(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                    AlignResult& r, Passes passes);
/// The banded global pass's rows (band coordinates: row i, cell t at column i + kmin + t) in
/// 32-bit lanes (8 where AVX2 runs, else or with `baseline` 4), with gap_open >= gap_extend:
/// fills the direction bytes of rows 0..la (`band` each, and 8 bytes to spare after them) as
/// the scalar pass does and returns the global score of A[0..la) x B[0..lb).
int32_t band_rows(const uint8_t* a, int64_t la, const uint8_t* b, int64_t lb, const Scoring& s,
                  int64_t kmin, int64_t band, uint8_t* dir, bool baseline = false);

/// Step 1 of the traceback, the scalar pass over the live cells near the end's diagonal (32-bit
/// values: any score).
bool scalar_start(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                  AlignResult& r);
/// Whether the striped reverse pass's 16-bit lanes hold every value of a traceback of `score`.
bool striped_start_fits(const Scoring& s, int32_t score);
/// Step 1 of the traceback in 16-bit lanes over the first `columns` columns of the reversed
/// prefix of B: sets r.start_a and r.start_b to the first cell (row, then column) holding
/// r.score; false when no cell reached it. 16 lanes where AVX2 runs, else (or with `baseline`)
/// 8.
bool striped_start(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Scoring& s,
                   AlignResult& r, int64_t columns, bool baseline = false);

}  // namespace lockstep::detail
