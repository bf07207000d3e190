// Device copy bandwidth probe: dst[i] = src[i] over float4, a grid-stride loop.
// Required macros: LOCAL_SIZE.
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void copy4(const int n4, __global const float4* restrict src, __global float4* restrict dst) {
  for (int i = get_global_id(0); i < n4; i += get_global_size(0)) dst[i] = src[i];
}
