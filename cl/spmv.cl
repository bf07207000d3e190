// CSR SpMV, y = alpha*A*x + beta*y (beta == 0: y is not read), 32-bit indices.
//   spmv_scalar:   one row per work-item (the baseline).
//   spmv_vector:   the seed paper's family: 2^ROWS_PER_WORKGROUP_BITS rows per work-group of
//                  LOCAL_SIZE items, LOCAL_SIZE/2^ROWS items per row, strided partial sums,
//                  then an unrolled tree reduction; with USE_NV_SHUFFLE the part of the tree that
//                  fits in one wave uses warp shuffles (inline PTX) and needs no barrier.
//   spmv_adaptive: CSR-adaptive (Greathouse & Daga): row blocks built at upload; a block of short
//                  rows stages its products in local memory and 2^k items reduce each row; a long
//                  row gets whole work-groups, split into chunks whose partial sums
//                  spmv_adaptive_fixup adds (no floating-point atomics needed); on NVIDIA the
//                  items of a row add their sums through warp shuffles.
// Required macros: VALUE_TYPE; LOCAL_SIZE (a power of two); ROWS_PER_WORKGROUP_BITS (vector);
// WAVE_WIDTH (vector); BLOCK_NNZ (adaptive: local memory values per block).
#include "common.cl"
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif

// SPMV_NV_LOADS=1 (NVIDIA, set by the host): x through the read-only path (ld.global.nc: nothing
// writes x during a launch) and the matrix's values and column indices streamed evict-first
// (ld.global.cs: each is read once), so that L2 keeps x for the gathers. H100, 2026-11-24: the
// adaptive kernel on `gen hubs 4194304 4 64 200000` 0.467 -> 0.403 ms, merge on `gen powerlaw
// 1048576 1.8` 0.76 -> 0.59 ms; the same results bit for bit.
#if defined(SPMV_NV_LOADS) && SPMV_NV_LOADS
#ifdef LOCKSTEP_FP64
#define SPMV_LD(cache, p, v) asm("ld.global." cache ".f64 %0, [%1];" : "=d"(v) : "l"(p))
#else
#define SPMV_LD(cache, p, v) asm("ld.global." cache ".f32 %0, [%1];" : "=f"(v) : "l"(p))
#endif
static inline T ld_x(__global const T* p) { T v; SPMV_LD("nc", p, v); return v; }
static inline T ld_val(__global const T* p) { T v; SPMV_LD("cs", p, v); return v; }
static inline int ld_col(__global const int* p) {
  int v;
  asm("ld.global.cs.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
#else
#define ld_x(p) (*(p))
#define ld_val(p) (*(p))
#define ld_col(p) (*(p))
#endif
// val[k] * x[col[k]] through those loads, in the adaptive and merge kernels (the gather-bound
// ones; scalar and vector moved by +-1 %, so they keep plain loads).
#define PRODUCT(k) (ld_val(val + (k)) * ld_x(x + ld_col(col + (k))))

// shfl_down(v, d): lane i gets lane i + d's v within its warp (NVIDIA, inline PTX; every lane of
// the warp must call it). The vector kernel's in-wave reduction and the adaptive kernel's rows.
#if (defined(SPMV_NV_LOADS) && SPMV_NV_LOADS) || defined(USE_NV_SHUFFLE)
#define SPMV_SHUFFLE 1
static inline T shfl_down(T v, int delta) {
#ifdef LOCKSTEP_FP64
  int lo, hi;
  asm volatile("mov.b64 {%0,%1}, %2;" : "=r"(lo), "=r"(hi) : "d"(v));
  asm volatile("shfl.sync.down.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+r"(lo) : "r"(delta));
  asm volatile("shfl.sync.down.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+r"(hi) : "r"(delta));
  asm volatile("mov.b64 %0, {%1,%2};" : "=d"(v) : "r"(lo), "r"(hi));
#else
  asm volatile("shfl.sync.down.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+f"(v) : "r"(delta));
#endif
  return v;
}
#endif

static inline T finish(T sum, T alpha, T beta, __global const T* y, int row) {
  return beta == (T)0 ? alpha * sum : alpha * sum + beta * y[row];
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_scalar(const int rows, __global const int* restrict row_ptr,
                 __global const int* restrict col, __global const T* restrict val,
                 __global const T* restrict x, __global T* y, const T alpha, const T beta) {
  const int row = get_global_id(0);
  if (row >= rows) return;
  T sum = 0;
  const int end = row_ptr[row + 1];
  for (int k = row_ptr[row]; k < end; ++k) sum += val[k] * x[col[k]];
  y[row] = finish(sum, alpha, beta, y, row);
}

#ifdef ROWS_PER_WORKGROUP_BITS
#ifndef WAVE_WIDTH
#error "WAVE_WIDTH undefined!"
#endif
#if (1 << ROWS_PER_WORKGROUP_BITS) > LOCAL_SIZE
#error "2^ROWS_PER_WORKGROUP_BITS must not exceed LOCAL_SIZE"
#endif
#define TPR (LOCAL_SIZE >> ROWS_PER_WORKGROUP_BITS)  // items per row

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_vector(const int rows, __global const int* restrict row_ptr,
                 __global const int* restrict col, __global const T* restrict val,
                 __global const T* restrict x, __global T* y, const T alpha, const T beta) {
  const int lid = get_local_id(0);
  const int lane = lid & (TPR - 1);
  const int row = (get_group_id(0) << ROWS_PER_WORKGROUP_BITS) + (int)((uint)lid / TPR);
  T sum = 0;
  if (row < rows) {
    const int end = row_ptr[row + 1];
    for (int k = row_ptr[row] + lane; k < end; k += TPR) sum += val[k] * x[col[k]];
  }
#if TPR > 1
#if defined(USE_NV_SHUFFLE)
  // Tree levels wider than a wave go through local memory; the rest are warp shuffles.
#if TPR > WAVE_WIDTH
  __local T partial[LOCAL_SIZE];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int s = TPR / 2; s >= WAVE_WIDTH; s >>= 1) {
    if (lane < s) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  sum = partial[lid];
#define SHFL_START (WAVE_WIDTH / 2)
#else
#define SHFL_START (TPR / 2)
#endif
#pragma unroll
  for (int s = SHFL_START; s > 0; s >>= 1) sum += shfl_down(sum, s);
#else
  __local T partial[LOCAL_SIZE];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int s = TPR / 2; s > 0; s >>= 1) {
    if (lane < s) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  sum = partial[lid];
#endif
#endif
  if (lane == 0 && row < rows) y[row] = finish(sum, alpha, beta, y, row);
}
#endif  // ROWS_PER_WORKGROUP_BITS

#ifdef BLOCK_NNZ
// blocks[5*b .. 5*b+4] = row_begin, row_end, nnz_begin, nnz_end, partial slot (-1: not split)
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_adaptive(__global const int* restrict blocks, __global const int* restrict row_ptr,
                   __global const int* restrict col, __global const T* restrict val,
                   __global const T* restrict x, __global T* y, __global T* partials,
                   const T alpha, const T beta) {
  __local T sh[BLOCK_NNZ > LOCAL_SIZE ? BLOCK_NNZ : LOCAL_SIZE];
  const int lid = get_local_id(0);
  __global const int* b = blocks + 5 * get_group_id(0);
  const int rb = b[0], re = b[1], kb = b[2], ke = b[3], slot = b[4];
  // Stream blocks give each of their rows tpr items (a power of two, tpr * rows <= LOCAL_SIZE)
  // that sum the staged products; single-row blocks use the whole group (tpr = LOCAL_SIZE).
  // Barriers stay in control flow that is uniform per group (PoCL miscompiles a return before a barrier).
  const bool stream = re - rb > 1;
  int tpr = LOCAL_SIZE;
  if (stream)
    while (tpr * (re - rb) > LOCAL_SIZE) tpr >>= 1;
  const int lane = lid & (tpr - 1);
  const int r = rb + lid / tpr;
  T sum = 0;
  // Each work-item's loads are all issued before their products are used: a stream block's
  // (BLOCK_NNZ / LOCAL_SIZE) by unrolling, a long row's four at a time into four sums. H100,
  // 2026-11-25, with the shuffles below: `gen rmat 21 16` 0.559 -> 0.537 ms (BENCHMARKS.md).
  if (stream) {
#pragma unroll
    for (int q = 0; q < (BLOCK_NNZ + LOCAL_SIZE - 1) / LOCAL_SIZE; ++q) {
      const int k = kb + q * LOCAL_SIZE + lid;
      if (k < ke) sh[k - kb] = PRODUCT(k);
    }
  } else {
    T s1 = 0, s2 = 0, s3 = 0;
    int k = kb + lid;
    for (; k + 3 * LOCAL_SIZE < ke; k += 4 * LOCAL_SIZE) {
      sum += PRODUCT(k);
      s1 += PRODUCT(k + LOCAL_SIZE);
      s2 += PRODUCT(k + 2 * LOCAL_SIZE);
      s3 += PRODUCT(k + 3 * LOCAL_SIZE);
    }
    for (; k < ke; k += LOCAL_SIZE) sum += PRODUCT(k);
    sum = (sum + s1) + (s2 + s3);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (stream && r < re) {
    const int e = row_ptr[r + 1] - kb;
    for (int k = row_ptr[r] - kb + lane; k < e; k += tpr) sum += sh[k];
  }
  // The tpr items of a row add their sums. (tpr is uniform per group: so are the loops, the
  // shuffles every lane of a warp must meet, and the barriers.)
#ifdef SPMV_SHUFFLE
#define WARP 32
  for (int s = min(tpr, WARP) / 2; s > 0; s >>= 1) sum += shfl_down(sum, s);
  if (tpr > WARP) {  // then the warps' totals through local memory
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid % WARP == 0) sh[lid / WARP] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane == 0)
      for (int w = 1; w < tpr / WARP; ++w) sum += sh[lid / WARP + w];
  }
#else
  barrier(CLK_LOCAL_MEM_FENCE);
  sh[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = tpr / 2; s > 0; s >>= 1) {
    if (lane < s) sh[lid] += sh[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  sum = sh[lid];
#endif
  if (lane == 0 && r < re) {
    if (slot < 0) y[r] = finish(sum, alpha, beta, y, r);
    else partials[slot] = sum;
  }
}

// For every split row: y[row] = alpha * (sum of its chunks' partials) + beta * y[row].
// split[3*i .. 3*i+2] = row, first slot, slot count.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_adaptive_fixup(const int n_split, __global const int* restrict split,
                         __global const T* restrict partials, __global T* y, const T alpha,
                         const T beta) {
  const int i = get_global_id(0);
  if (i >= n_split) return;
  const int row = split[3 * i], first = split[3 * i + 1], count = split[3 * i + 2];
  T sum = 0;
  for (int k = 0; k < count; ++k) sum += partials[first + k];
  y[row] = finish(sum, alpha, beta, y, row);
}
#endif  // BLOCK_NNZ

#ifdef MERGE_ITEMS
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
#endif  // MERGE_ITEMS
