// Shared by the kernels over values (blas1, cg, spmv, halo, Floyd-Warshall) and barrier_bench:
// fp64 enablement for double builds (the host sets LOCKSTEP_FP64=1 with VALUE_TYPE=double).
// Each kernel over values checks VALUE_TYPE itself (barrier_bench has none).
#ifdef LOCKSTEP_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
