// Vector kernels that solvers need beside SpMV: fill, axpby and a two-pass dot product (each
// work-group reduces its part in local memory; a second launch of one group adds the partials).
// One work-item per element in fill/axpby; dot uses a grid-stride loop.
// Required macros: VALUE_TYPE (float|double), LOCAL_SIZE (a power of two).
#include "common.cl"
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif

// x[i] = value
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void fill(const int n, const T value, __global T* x) {
  const int i = get_global_id(0);
  if (i < n) x[i] = value;
}

// y = a*x + b*y
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void axpby(const int n, const T a, __global const T* x, const T b, __global T* y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + b * y[i];
}

// Reduces the work-group's values in `scratch`; work-item 0 gets the sum.
static inline T group_sum(__local T* scratch, T v) {
  const int l = get_local_id(0);
  scratch[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = LOCAL_SIZE / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return scratch[0];
}

// partial[group] = sum over this group's grid-stride share of x[i]*y[i]
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void dot_partial(const int n, __global const T* x, __global const T* y, __global T* partial) {
  __local T scratch[LOCAL_SIZE];
  T acc = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) acc += x[i] * y[i];
  T s = group_sum(scratch, acc);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = s;
}

// partial[out_index] = sum of partial[0..count)   (one work-group; out_index >= count)
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void sum_partials(const int count, const int out_index, __global T* partial) {
  __local T scratch[LOCAL_SIZE];
  T acc = 0;
  for (int i = get_local_id(0); i < count; i += LOCAL_SIZE) acc += partial[i];
  T s = group_sum(scratch, acc);
  if (get_local_id(0) == 0) partial[out_index] = s;
}
