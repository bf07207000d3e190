// Elementwise kernels of the Python package's device arrays (lockstep.Array): arithmetic and
// comparisons of two arrays or of an array and a scalar, casts, and the per-group partial sums
// of sum and dot (added on the host, or on the device by ew_sum_final). One work-item per
// element, 64-bit lengths. One build per element type holds every kernel, casts included.
// Required macros: ELEM_TYPE (uchar for bool, int, uint, long, ulong, float or double),
// SUM_TYPE (what sums accumulate in: long, ulong, float or double), LOCAL_SIZE (a power of two);
// ELEM_FLOAT (1 for float and double: division is offered). LOCKSTEP_FP64 enables cl_khr_fp64
// (and the cast to double).
#ifdef LOCKSTEP_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif
typedef ELEM_TYPE E;

// ew_cast_<dtype>: out[i] = a[i] converted as NumPy's astype (C's conversion: floats to
// integers truncate), to bool x != 0; one kernel per target dtype in every build
#define EW_CAST(NAME, U, EXPR)                                                             \
  __kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void ew_cast_##NAME( \
      const long n, __global const E* a, __global U* out) {                              \
    const long i = get_global_id(0);                                                     \
    if (i < n) out[i] = EXPR;                                                            \
  }
EW_CAST(bool, uchar, a[i] != 0)
EW_CAST(int32, int, (int)a[i])
EW_CAST(uint32, uint, (uint)a[i])
EW_CAST(int64, long, (long)a[i])
EW_CAST(uint64, ulong, (ulong)a[i])
EW_CAST(float32, float, (float)a[i])
#ifdef LOCKSTEP_FP64
EW_CAST(float64, double, (double)a[i])
#endif

// op: 0 x + y, 1 x - y, 2 x * y, 3 x / y (floats only)
static inline E ew_apply(const int op, const E x, const E y) {
  switch (op) {
    case 0:
      return x + y;
    case 1:
      return x - y;
    case 2:
      return x * y;
#if ELEM_FLOAT
    case 3:
      return x / y;
#endif
    default:
      return 0;
  }
}

// op: 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >= (NaN compares unequal, as in NumPy)
static inline uchar ew_test(const int op, const E x, const E y) {
  switch (op) {
    case 0:
      return x == y;
    case 1:
      return x != y;
    case 2:
      return x < y;
    case 3:
      return x <= y;
    case 4:
      return x > y;
    default:
      return x >= y;
  }
}

// mode 0: x = a[i], y = b[i]; 1: x = a[i], y = s; 2: x = s, y = a[i]; a 0-d array b (a value
// on the device): 3: x = a[i], y = b[0]; 4: x = b[0], y = a[i]
#define EW_OPERANDS                                         \
  const long i = get_global_id(0);                          \
  if (i >= n) return;                                       \
  const E x = mode == 2 ? s : mode == 4 ? b[0] : a[i];      \
  const E y = mode == 0 ? b[i] : mode == 1 ? s : mode == 3 ? b[0] : a[i];

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void ew_binary(const long n, const int op, const int mode, __global const E* a,
               __global const E* b, const E s, __global E* out) {
  EW_OPERANDS
  out[i] = ew_apply(op, x, y);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void ew_compare(const long n, const int op, const int mode, __global const E* a,
                __global const E* b, const E s, __global uchar* out) {
  EW_OPERANDS
  out[i] = ew_test(op, x, y);
}

// Reduces the group's values in `scratch`; work-item 0 gets the sum.
static inline SUM_TYPE ew_group_sum(__local SUM_TYPE* scratch, const SUM_TYPE v) {
  const int l = get_local_id(0);
  scratch[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = LOCAL_SIZE / 2; h > 0; h >>= 1) {
    if (l < h) scratch[l] += scratch[l + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return scratch[0];
}

// partial[group] = the sum over the group's grid-stride share of a[i] (products 0) or of
// a[i] * b[i] (products 1), in SUM_TYPE
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void ew_sum(const long n, const int products, __global const E* a, __global const E* b,
            __global SUM_TYPE* partial) {
  __local SUM_TYPE scratch[LOCAL_SIZE];
  SUM_TYPE acc = 0;
  for (long i = get_global_id(0); i < n; i += get_global_size(0))
    acc += products ? (SUM_TYPE)a[i] * (SUM_TYPE)b[i] : (SUM_TYPE)a[i];
  const SUM_TYPE total = ew_group_sum(scratch, acc);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = total;
}

// out[0] = the sum of partial[0..count) as E (one work-group): a sum kept on the device
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void ew_sum_final(const int count, __global const SUM_TYPE* partial, __global E* out) {
  __local SUM_TYPE scratch[LOCAL_SIZE];
  SUM_TYPE acc = 0;
  for (int i = get_local_id(0); i < count; i += LOCAL_SIZE) acc += partial[i];
  const SUM_TYPE total = ew_group_sum(scratch, acc);
  if (get_local_id(0) == 0) out[0] = (E)total;
}
