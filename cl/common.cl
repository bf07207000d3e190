// Shared by every lockstep kernel: fp64 enablement for double builds (the host sets
// LOCKSTEP_FP64=1 with VALUE_TYPE=double) and the check that a value type was given.
#ifdef LOCKSTEP_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
