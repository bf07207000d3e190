// Internal: CSR rows built in parallel (OpenMP) from an edge list that is drawn block by block
// rather than stored (a generator's stream, a Graph's arrays, a transpose): entries counted per
// key of rows, scattered as (row, column) pairs into buckets of rows, each bucket finished in
// cache (graph/row_buckets.hpp). Rows are sorted, so the result does not depend on the thread
// count or the order of placement.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace lockstep::detail {

/// Writes edges begin .. end-1 as from[i] -> to[i], i < end - begin. Called from OpenMP threads,
/// twice per block (counting, then scattering): it must give the same edges both times and must
/// not throw; every vertex must lie in [0, n) (check the edges before).
using DrawEdges = std::function<void(int64_t begin, int64_t end, int32_t* from, int32_t* to)>;

/// The rows over n vertices of the m edges `draw` yields, each edge also as to -> from with
/// `both`; every row sorted. With `unique`, an entry repeated in a row is kept once, and
/// `counts` (when given) receives how many times each kept entry occurred. Memory: one 8-byte
/// (row, column) staging pair per drawn entry besides the result (the peak: 8 bytes per drawn
/// entry and 4, or 8 with counts, per kept one). Throws
/// input_error when the entries would not fit 32-bit offsets ((both ? 2 : 1) * m < 2^31).
void build_rows(int32_t n, int64_t m, bool both, bool unique, const DrawEdges& draw,
                std::vector<int32_t>& offsets, std::vector<int32_t>& adj,
                std::vector<int32_t>* counts = nullptr);

/// Sorts every row of (offsets, adj) in parallel.
void sort_rows(const std::vector<int32_t>& offsets, std::vector<int32_t>& adj);

/// Rows split into ranges [b[i], b[i+1]) of about `per` rows plus entries each (whole rows), so
/// that a dynamic loop over them is balanced even where a few rows hold most entries (R-MAT's
/// hubs sit at the lowest ids). per <= 0: a size from the thread count.
std::vector<int32_t> row_chunks(const std::vector<int32_t>& offsets, int64_t per = 0);

}  // namespace lockstep::detail
