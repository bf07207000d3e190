// The shared part of the CSR SpMM kernels (cl/spmm.cl: a team per row; cl/spmm_merge.cl:
// merge-path, an equal share of rows + nonzeros per team): the column chunk type TV (VEC adjacent
// columns), its loads and stores, AT(M, ld, r, c), an entry of a dense block in either layout, and
// the per-nonzero accumulate and the alpha/beta store both kernels run on a team member's chunks.
// Required: VALUE_TYPE, LOCAL_SIZE, TEAM, CPL, VEC, COL_MAJOR.
#ifndef LOCKSTEP_SPMM_COMMON_CL
#define LOCKSTEP_SPMM_COMMON_CL
#include "common.cl"
#if !defined(LOCAL_SIZE) || !defined(TEAM) || !defined(CPL) || !defined(VEC) || !defined(COL_MAJOR)
#error "spmm kernels need LOCAL_SIZE, TEAM, CPL, VEC and COL_MAJOR"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VEC == 1
typedef T TV;
#define LOADV(p) (*(p))
#define STOREV(v, p) (*(p) = (v))
#else
typedef CAT(VALUE_TYPE, VEC) TV;
#define LOADV(p) CAT(vload, VEC)(0, p)
#define STOREV(v, p) CAT(vstore, VEC)(v, 0, p)
#endif

#if COL_MAJOR
#define AT(M, ld, r, c) ((M) + (size_t)(c) * (size_t)(ld) + (size_t)(r))
#else
#define AT(M, ld, r, c) ((M) + (size_t)(r) * (size_t)(ld) + (size_t)(c))
#endif

// The first column of chunk t of a team member: its CPL chunks are columns
// (lane + t * TEAM) * VEC .. + VEC - 1, t = 0 .. CPL - 1; those from k on are not there.
#define SPMM_COL(lane, t) (((lane) + (t) * TEAM) * VEC)

// One nonzero (j, v) of a row: acc[t] += v * X[j, chunk t] for the member's chunks below k.
static inline void spmm_accumulate(TV* acc, int lane, int k, T v, __global const T* X, int ldx,
                                   int j) {
#pragma unroll
  for (int t = 0; t < CPL; ++t) {
    const int c = SPMM_COL(lane, t);
    if (c < k) acc[t] += v * LOADV(AT(X, ldx, j, c));
  }
}

// Y[row, chunk t] = alpha * acc[t] + beta * Y[row, chunk t] for the member's chunks below k; Y is
// not read when beta is 0 (it may hold anything, NaN included).
static inline void spmm_store_row(const TV* acc, int lane, int k, __global T* Y, int ldy, int row,
                                  T alpha, T beta) {
#pragma unroll
  for (int t = 0; t < CPL; ++t) {
    const int c = SPMM_COL(lane, t);
    if (c >= k) continue;
    __global T* y = AT(Y, ldy, row, c);
    TV r = alpha * acc[t];
    if (beta != (T)(0)) r += beta * LOADV(y);
    STOREV(r, y);
  }
}

#endif  // LOCKSTEP_SPMM_COMMON_CL
