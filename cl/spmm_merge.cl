// Merge-path CSR SpMM (lockstep::spmm, algorithm merge; src/spmv/spmm.cpp): Y = alpha*A*X + beta*Y
// with the same work per team whatever the row lengths, for power-law rows (a hub row of 10^5
// nonzeros is split over many teams instead of serialising one). The path merges the row ends
// with the nonzero indices (Merrill & Garland, SC 2016; the tiles are DeviceCsr::merge_tiles,
// as in cl/spmv_merge.cl); team t (TEAM work-items, CPL chunks of VEC columns each, as in
// cl/spmm.cl) owns MERGE_ITEMS consecutive steps of it, from (i0, j0) to (i1, j1) = coords[t],
// coords[t + 1]: rows i0 .. i1 - 1 close inside its steps (nonzeros j0 .. row_ptr[i1] - 1), row
// i1 is open at its end (nonzeros max(row_ptr[i1], j0) .. j1 - 1). A row closed by team t gets
// alpha * (team t's part) + beta * Y; the parts of teams before it, whose steps ended with that row
// open, wait in carry[team * k ..] and spmm_merge_fixup adds them in a fixed order: no atomics,
// the same bits every run.
// Required: those of spmm_common.cl and MERGE_ITEMS (path steps per team).
#include "spmm_common.cl"
#ifndef MERGE_ITEMS
#error "spmm_merge.cl needs MERGE_ITEMS"
#endif
#define UNROLL 4

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmm_merge(int rows, int k, int teams, __global const int* restrict coords,
                __global const int* restrict row_ptr, __global const int* restrict col,
                __global const T* restrict val, __global const T* restrict X, int ldx,
                __global T* Y, int ldy, __global T* restrict carry, T alpha, T beta) {
  const int lane = (int)(get_local_id(0) & (TEAM - 1));
  const int team = (int)(get_global_id(0) / TEAM);
  if (team >= teams) return;  // no barrier below
  const int i0 = coords[2 * team], j0 = coords[2 * team + 1];
  const int i1 = coords[2 * team + 2], j1 = coords[2 * team + 3];
  int p = j0;
  for (int i = i0; i <= i1 && i < rows; ++i) {
    const bool closes = i < i1;
    const int end = closes ? row_ptr[i + 1] : j1;
    TV acc[CPL];
    for (int t = 0; t < CPL; ++t) acc[t] = (TV)(0);
    // UNROLL nonzeros at a time: their indices, then their X rows, all in flight at once (a hub
    // row's part is MERGE_ITEMS long); the same order of additions as one at a time
    for (; p + UNROLL <= end; p += UNROLL) {
      int j[UNROLL];
      T v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) j[u] = col[p + u], v[u] = val[p + u];
#pragma unroll
      for (int t = 0; t < CPL; ++t) {
        const int c = SPMM_COL(lane, t);
        if (c < k) {
#pragma unroll
          for (int u = 0; u < UNROLL; ++u) acc[t] += v[u] * LOADV(AT(X, ldx, j[u], c));
        }
      }
    }
    for (; p < end; ++p) spmm_accumulate(acc, lane, k, val[p], X, ldx, col[p]);
    if (closes) {
      spmm_store_row(acc, lane, k, Y, ldy, i, alpha, beta);
    } else {
#pragma unroll
      for (int t = 0; t < CPL; ++t) {
        const int c = SPMM_COL(lane, t);
        if (c < k) STOREV(acc[t], carry + (size_t)team * (size_t)k + (size_t)c);
      }
    }
  }
}

// Adds the teams' carry-outs: Y[row, c] += alpha * (carry[first][c] + ... + carry[first +
// count - 1][c]) for each plan entry (row, first, count) (DeviceCsr::merge_tiles: the first
// n_long entries are rows open at the end of more than 32 teams). A long entry's column gets a
// whole group (a tree over LOCAL_SIZE partial sums); the others one work-item per column, in
// order. The fixed order makes the result deterministic.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmm_merge_fixup(int k, int n_long, int n_plan, __global const int* restrict plan,
                      __global const T* restrict carry, __global T* Y, int ldy, T alpha) {
  __local T part[LOCAL_SIZE];
  const int lid = (int)get_local_id(0), g = (int)get_group_id(0);
  const long long_items = (long)n_long * k;
  const bool whole = g < long_items;  // uniform per group: barriers stay in uniform control flow
  const long item = whole ? g : long_items + (long)(g - long_items) * LOCAL_SIZE + lid;
  const int e = (int)(item / k), c = (int)(item % k);
  const bool valid = e < n_plan;
  const int first = valid ? plan[3 * e + 1] : 0, count = valid ? plan[3 * e + 2] : 0;
  T sum = 0;
  for (int h = whole ? lid : 0; h < count; h += whole ? LOCAL_SIZE : 1)
    sum += carry[(size_t)(first + h) * (size_t)k + (size_t)c];
  part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = LOCAL_SIZE / 2; s > 0; s >>= 1) {
    if (whole && lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (valid && (!whole || lid == 0)) *AT(Y, ldy, plan[3 * e], c) += alpha * (whole ? part[0] : sum);
}
