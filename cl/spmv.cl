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
//   (spmv_merge: cl/spmv_merge.cl.)
// Required macros: VALUE_TYPE; LOCAL_SIZE (a power of two); ROWS_PER_WORKGROUP_BITS (vector);
// WAVE_WIDTH (vector); BLOCK_NNZ (adaptive: local memory values per block).
#include "spmv_common.cl"

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
  // (BLOCK_NNZ / LOCAL_SIZE) by unrolling, a long row's four at a time into four sums. On the H100,
  // with the shuffles below: `gen rmat 21 16` 0.559 -> 0.537 ms (BENCHMARKS.md).
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
