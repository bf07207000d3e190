// Merge-path CSR SpMV (y = alpha*A*x + beta*y), the tuner's kernel for rows of any length: the
// same work per work-group whatever the row lengths. Required macros: VALUE_TYPE, LOCAL_SIZE,
// MERGE_ITEMS (merge-path steps per work-item).
#include "spmv_common.cl"

#ifndef MERGE_ITEMS
#error "MERGE_ITEMS undefined!"
#endif

// spmv_merge: merge-path SpMV (Merrill & Garland, SC 2016). The path merges the row ends with the
// nonzero indices; group g owns LOCAL_SIZE*MERGE_ITEMS consecutive steps of it (coords: its start
// and end (row, nonzero), found on the host), so every group does the same work whatever the row
// lengths. The group stages its products val*x (coalesced gathers) and its row ends in local
// memory; each item finds its own MERGE_ITEMS steps by a binary search on its diagonal and walks
// them: a step either adds a product or closes a row. Closed rows are written at once, except
// an item's first closed row, which may have begun in an earlier item: a segmented scan of the
// items' carry-outs (the open row and its partial sum) completes it. The group's last carry-out
// (the row open at the tile's end) goes to carry[g], which spmv_merge_fixup adds.
#define TILE (LOCAL_SIZE * MERGE_ITEMS)
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_merge(const int rows, __global const int* restrict coords,
                __global const int* restrict row_ptr, __global const int* restrict col,
                __global const T* restrict val, __global const T* restrict x, __global T* y,
                __global T* carry, const T alpha, const T beta) {
  __local T prod[TILE];
  __local int ends[TILE + 1];
  __local int srow[LOCAL_SIZE];
  __local T sval[LOCAL_SIZE];
  const int lid = get_local_id(0), g = get_group_id(0);
  const int i0 = coords[2 * g], j0 = coords[2 * g + 1];
  const int a_len = coords[2 * g + 2] - i0, b_len = coords[2 * g + 3] - j0;
  // the ends of rows i0 .. i0 + a_len (the last one is open at the tile's end, if it exists)
  // (unrolled: every item has all its loads in flight at once; a_len + b_len <= TILE)
  const int n_ends = min(a_len + 1, rows - i0);
#pragma unroll
  for (int q = 0; q <= MERGE_ITEMS; ++q)
    if (q * LOCAL_SIZE + lid < n_ends)
      ends[q * LOCAL_SIZE + lid] = row_ptr[i0 + 1 + q * LOCAL_SIZE + lid] - j0;
#pragma unroll
  for (int q = 0; q < MERGE_ITEMS; ++q) {
    const int k = q * LOCAL_SIZE + lid;
    if (k < b_len) prod[k] = PRODUCT(j0 + k);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int d = min(lid * MERGE_ITEMS, a_len + b_len), d_end = min(d + MERGE_ITEMS, a_len + b_len);
  int lo = max(0, d - b_len), hi = min(d, a_len);
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (ends[mid] <= d - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  int i = lo, j = d - lo;
  const int first = i;
  bool closed = false;
  T sum = 0, head = 0;
  for (int s = d; s < d_end; ++s) {
    if (i < a_len && ends[i] <= j) {  // close row i
      if (closed) y[i0 + i] = finish(sum, alpha, beta, y, i0 + i);
      else head = sum, closed = true;
      sum = 0;
      ++i;
    } else {
      sum += prod[j++];
    }
  }
  srow[lid] = i0 + i;  // i0 + a_len == rows: nothing open
  sval[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  // inclusive scan of sums within runs of equal rows
  for (int off = 1; off < LOCAL_SIZE; off <<= 1) {
    const int r2 = lid >= off ? srow[lid - off] : -1;
    const T v2 = lid >= off ? sval[lid - off] : (T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (r2 == srow[lid]) sval[lid] += v2;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (closed) {
    const T in = lid > 0 && srow[lid - 1] == i0 + first ? sval[lid - 1] : (T)0;
    y[i0 + first] = finish(head + in, alpha, beta, y, i0 + first);
  }
  if (lid == LOCAL_SIZE - 1) carry[g] = sval[lid];  // the partial sum of row coords[2g + 2]
}

// Adds the groups' carry-outs: y[row] += alpha * (sum of carry[first .. first + count)) for each
// entry of the plan (row, first, count), built on the host (the tiles are fixed by row_ptr).
// The closing item of each row, in a later group, already wrote alpha * (its part) + beta * y.
// The first n_long entries (rows over many tiles) get a whole group each; the others one item.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_merge_fixup(const int n_long, const int n_plan, __global const int* restrict plan,
                      __global const T* restrict carry, __global T* y, const T alpha) {
  __local T part[LOCAL_SIZE];
  const int lid = get_local_id(0), g = get_group_id(0);
  const bool whole = g < n_long;  // barriers stay in control flow uniform per group
  const int e = whole ? g : n_long + (g - n_long) * LOCAL_SIZE + lid;
  const bool valid = e < n_plan;
  const int first = valid ? plan[3 * e + 1] : 0, count = valid ? plan[3 * e + 2] : 0;
  T sum = 0;
  for (int h = whole ? lid : 0; h < count; h += whole ? LOCAL_SIZE : 1) sum += carry[first + h];
  part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = LOCAL_SIZE / 2; s > 0; s >>= 1) {
    if (whole && lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (valid && (!whole || lid == 0)) y[plan[3 * e]] += alpha * (whole ? part[0] : sum);
}
