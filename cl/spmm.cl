// CSR SpMM: Y = alpha * A * X + beta * Y for a dense X of k columns (lockstep::spmm,
// src/spmv/spmm.cpp). A team of TEAM work-items (a power of two, within a wave) owns one row of A
// and walks its nonzeros once; each member holds CPL chunks of VEC adjacent columns of the row's
// result (columns (lane + t * TEAM) * VEC .. + VEC - 1), so one pass over A serves every column:
// the matrix is read once instead of k times. Row-major X (COL_MAJOR=0): a team reads each X row
// it needs as TEAM * VEC contiguous values (vloadVEC); column-major X (COL_MAJOR=1, VEC=1): with
// TEAM=1 one work-item per row, whose neighbours read neighbouring X entries of each column
// (what one SpMV per column would read, for all k columns at once).
// Required: VALUE_TYPE, LOCAL_SIZE, TEAM, CPL, VEC, COL_MAJOR. The host guarantees
// CPL * TEAM * VEC >= k and k % VEC == 0.
#include "spmm_common.cl"

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmm_csr(int rows, int k, __global const int* restrict row_ptr,
              __global const int* restrict col, __global const T* restrict val,
              __global const T* restrict X, int ldx, __global T* Y, int ldy, T alpha, T beta) {
  const int lane = (int)(get_local_id(0) & (TEAM - 1));
  const int row = (int)(get_global_id(0) / TEAM);
  if (row >= rows) return;  // no barrier below
  TV acc[CPL];
  for (int t = 0; t < CPL; ++t) acc[t] = (TV)(0);
  const int begin = row_ptr[row], end = row_ptr[row + 1];
  for (int p = begin; p < end; ++p) spmm_accumulate(acc, lane, k, val[p], X, ldx, col[p]);
  spmm_store_row(acc, lane, k, Y, ldy, row, alpha, beta);
}
