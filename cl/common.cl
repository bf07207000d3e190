// Shared by the kernels over values (blas1, cg, spmv, halo, Floyd-Warshall): the value type T
// (VALUE_TYPE, which every one of them needs) and fp64 enablement for double builds (the host
// sets LOCKSTEP_FP64=1 with VALUE_TYPE=double).
#ifndef VALUE_TYPE
#error "VALUE_TYPE undefined!"
#endif
#ifdef LOCKSTEP_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef VALUE_TYPE T;
