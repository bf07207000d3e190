// Vector kernels that solvers need beside SpMV (fill, axpby). One work-item per element.
// Required macros: VALUE_TYPE (float|double), WORKGROUP_SIZE.
#include "common.cl"
#ifndef VALUE_TYPE
#error "VALUE_TYPE undefined!"
#endif
#ifndef WORKGROUP_SIZE
#error "WORKGROUP_SIZE undefined!"
#endif
typedef VALUE_TYPE T;

// x[i] = value
__kernel __attribute__((reqd_work_group_size(WORKGROUP_SIZE, 1, 1)))
void fill(const int n, const T value, __global T* x) {
  const int i = get_global_id(0);
  if (i < n) x[i] = value;
}

// y = a*x + b*y
__kernel __attribute__((reqd_work_group_size(WORKGROUP_SIZE, 1, 1)))
void axpby(const int n, const T a, __global const T* x, const T b, __global T* y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + b * y[i];
}
