// The shared part of the CSR SpMM kernels (cl/spmm.cl: a team per row; cl/spmm_merge.cl:
// merge-path, an equal share of rows + nonzeros per team): the column chunk type TV (VEC adjacent
// columns), its loads and stores, and AT(M, ld, r, c), an entry of a dense block in either layout.
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

#endif  // LOCKSTEP_SPMM_COMMON_CL
