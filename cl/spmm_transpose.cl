// The layout changes of column-major SpMM (lockstep::spmm with SpmmConfig::transpose): X, stored
// column-major (k vectors of n values), is copied row-major into a scratch block, the row-major
// kernel runs on it (a team reads each X row it needs as contiguous values, where column-major
// reads one strided value per column), and its row-major result is copied back into Y with alpha
// and beta. A work-group moves TILE_ROWS rows x k columns through local memory, so both the
// column-major side (TILE_ROWS contiguous values per column) and the row-major side (the block's
// TILE_ROWS * k values are contiguous) are read and written in whole lines. The tile's rows are
// padded to k + 1 values against bank conflicts. Required: VALUE_TYPE, LOCAL_SIZE, TILE_ROWS, and
// TILE_K >= k (the padded row length of the local tile minus one).
#include "common.cl"
#if !defined(LOCAL_SIZE) || !defined(TILE_ROWS) || !defined(TILE_K)
#error "spmm_transpose.cl needs LOCAL_SIZE, TILE_ROWS and TILE_K"
#endif
#define PAD (TILE_K + 1)

// R[i * k + c] = C[c * ld + i] for rows i < n of C (column-major, leading dimension ld).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmm_cols_to_rows(int n, int k, __global const T* restrict C, int ld, __global T* restrict R) {
  __local T tile[TILE_ROWS * PAD];
  const int i0 = (int)get_group_id(0) * TILE_ROWS;
  const int rows = min(TILE_ROWS, n - i0);
  for (int e = (int)get_local_id(0); e < rows * k; e += LOCAL_SIZE) {
    const int c = e / rows, r = e - c * rows;
    tile[r * PAD + c] = C[(size_t)c * (size_t)ld + (size_t)(i0 + r)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global T* out = R + (size_t)i0 * (size_t)k;
  for (int e = (int)get_local_id(0); e < rows * k; e += LOCAL_SIZE) {
    const int r = e / k, c = e - r * k;
    out[e] = tile[r * PAD + c];
  }
}

// C[c * ld + i] = alpha * R[i * k + c] + beta * C[c * ld + i] for rows i < n; C is not read when
// beta is 0 (it may hold anything, NaN included).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmm_rows_to_cols(int n, int k, __global const T* restrict R, __global T* restrict C, int ld,
                       T alpha, T beta) {
  __local T tile[TILE_ROWS * PAD];
  const int i0 = (int)get_group_id(0) * TILE_ROWS;
  const int rows = min(TILE_ROWS, n - i0);
  __global const T* in = R + (size_t)i0 * (size_t)k;
  for (int e = (int)get_local_id(0); e < rows * k; e += LOCAL_SIZE) {
    const int r = e / k, c = e - r * k;
    tile[r * PAD + c] = in[e];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = (int)get_local_id(0); e < rows * k; e += LOCAL_SIZE) {
    const int c = e / rows, r = e - c * rows;
    __global T* y = C + (size_t)c * (size_t)ld + (size_t)(i0 + r);
    T v = alpha * tile[r * PAD + c];
    if (beta != (T)(0)) v += beta * *y;
    *y = v;
  }
}
