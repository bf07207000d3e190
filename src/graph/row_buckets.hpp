// Internal: the cache-friendly half of a CSR build. The entries, as (row, column)
// pairs, are first scattered into buckets of consecutive rows (a few thousand buckets, each
// about one L2 of entries, boundaries on keys = row >> shift); then each bucket is finished by
// one thread in its own scratch: its rows counted, its columns placed, each row sorted (radix
// for long rows) and stripped of repeats, every write landing in cache-resident memory instead
// of anywhere among 2^S rows. graph/rows.cpp (one-GPU) and mpi/bfs_graph.cpp (a rank's rows)
// both build this way; rows are sorted, so the result is independent of the scatter's order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lockstep::detail {

/// Bucket b: rows [first + row[b], first + row[b+1]) and their entries at pairs [at[b], at[b+1])
/// of a staging array of (row, column) int32 pairs, in any order. key_bucket[k]: the bucket of
/// the rows with (row - first) >> shift == k.
struct RowBuckets {
  int32_t first = 0;
  int shift = 0;
  std::vector<int32_t> row;
  std::vector<int64_t> at;
  std::vector<int32_t> key_bucket;
  int32_t bucket_of(int32_t r) const { return key_bucket[size_t(uint32_t(r - first) >> shift)]; }
  int32_t count() const { return int32_t(row.size()) - 1; }
};

/// The key shift for `rows` rows: at most 2^16 keys (a lookup table that stays in L2).
int key_shift(int32_t rows);

/// Buckets over rows [first, first + rows) from the entries of each key (key_entries[k], keys
/// of 2^shift rows), consecutive keys gathered until a bucket holds about `target` entries
/// (target <= 0: from the total, a few thousand buckets, at least 2^15 entries each).
RowBuckets make_buckets(int32_t first, int32_t rows, int shift,
                        const std::vector<int64_t>& key_entries, int64_t target = 0);

/// Appends the (row, column) int32 pairs a[0 .. na) and then b[0 .. nb) (rows of the buckets)
/// to their buckets' slices of the staging `pairs` at the cursors `fill` (one a bucket, from
/// buckets.at; advanced past them), in parallel: per-thread counts, then per-thread cursors.
void append_pairs(const RowBuckets& buckets, const int32_t* a, int64_t na, const int32_t* b,
                  int64_t nb, std::vector<int64_t>& fill, int32_t* pairs);

/// Finishes the rows from the filled staging `pairs` (2 * buckets.at.back() int32, overwritten):
/// offsets (rows + 1, from 0) and adj of the sorted rows, repeats kept once with `unique` and
/// then, when `counts` is given, each kept entry's multiplicity in it. Columns lie in [0, n).
template <typename Offset>
void finish_rows(const RowBuckets& buckets, int32_t* pairs, int32_t n, bool unique,
                 std::vector<Offset>& offsets, std::vector<int32_t>& adj,
                 std::vector<int32_t>* counts = nullptr);

/// Sorts [b, e) of values in [0, n): std::sort for short rows, else an LSD radix sort.
void sort_row(int32_t* b, int32_t* e, int32_t n, std::vector<int32_t>& scratch);

}  // namespace lockstep::detail
