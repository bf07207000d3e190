// Halo exchange for distributed SpMV: packs the entries of x that neighbouring ranks need into
// one contiguous send buffer (out[i] = x[index[i]]), which the host then downloads in one copy.
// Required macros: VALUE_TYPE (float|double).
#include "common.cl"

__kernel void halo_pack(const int n, __global const int* index, __global const T* x,
                        __global T* out) {
  const int i = get_global_id(0);
  if (i < n) out[i] = x[index[i]];
}
