// Kernels of the conjugate-gradient solvers (src/cg/) beside cl/blas1.cl: the Jacobi
// preconditioner's inverse diagonal, an elementwise product, and pipelined CG's fused vector
// update (Ghysels & Vanroose 2014, Algorithm 2, with M^-1 = diag(dinv) under JACOBI, else I),
// which also reduces the next iteration's three dot products (r,u), (w,u), (r,r) per work-group
// into partial[3 * group + k]: the host reads that one small buffer once per iteration;
// pcg_update_spmv is that update with the SpMV computed inside it (one row per work-item);
// cg1_update is single-reduction CG's update (src/cg/single.cpp; its scalars: pcg_dots).
// Macros: VALUE_TYPE (float|double), LOCAL_SIZE (a power of two), JACOBI (0|1), ROW_UNROLL
// (pcg_update_spmv's row loop: 2 on GPUs, 1 on CPUs).
#include "common.cl"
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif
#ifndef JACOBI
#error "JACOBI undefined!"
#endif
#ifndef ROW_UNROLL
#error "ROW_UNROLL undefined!"
#endif

// dinv[offset + r] = 1 / a(r, offset + r) for the rows of one CSR part whose local row r has
// the column offset + r as its diagonal. A diagonal that is not positive (or not finite) sets
// *bad to 1 + its row (any such row) and leaves dinv = 1 there.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void cg_inverse_diagonal(const int rows, const int offset, __global const int* row_ptr,
                         __global const int* col_idx, __global const T* values,
                         __global T* dinv, __global int* bad) {
  const int r = get_global_id(0);
  if (r >= rows) return;
  T d = 0;
  for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
    if (col_idx[k] == offset + r) d += values[k];
  const int ok = d > 0 && isfinite(d);
  if (!ok) *bad = offset + r + 1;
  dinv[offset + r] = ok ? (T)1 / d : (T)1;
}

// y = d .* x
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void cg_scale(const int n, __global const T* d, __global const T* x, __global T* y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = d[i] * x[i];
}

// Work-item 0 of each group writes the group's three sums to partial[3 * group + k].
static inline void store_sums3(__local T* s, T a, T b, T c, __global T* partial) {
  const int l = get_local_id(0);
  s[l] = a;
  s[LOCAL_SIZE + l] = b;
  s[2 * LOCAL_SIZE + l] = c;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = LOCAL_SIZE / 2; h > 0; h >>= 1) {
    if (l < h) {
      s[l] += s[l + h];
      s[LOCAL_SIZE + l] += s[LOCAL_SIZE + l + h];
      s[2 * LOCAL_SIZE + l] += s[2 * LOCAL_SIZE + l + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) {
    const int g = get_group_id(0);
    partial[3 * g] = s[0];
    partial[3 * g + 1] = s[LOCAL_SIZE];
    partial[3 * g + 2] = s[2 * LOCAL_SIZE];
  }
}

static inline T diag_at(__global const T* dinv, int i) {
#if JACOBI
  return dinv[i];
#else
  return (T)1;
#endif
}

// One single-reduction (Chronopoulos-Gear) CG step, given w = A u of the last step and s = A p
// kept by recurrence: p = u + beta p; s = w + beta s; x += alpha p; r -= alpha s; and, under
// JACOBI, the next SpMV's input u = M^-1 r (else u is r itself). u = M^-1 r of the old r is
// recomputed from dinv. The scalars (r,u), (w,u), (r,r) follow the SpMV (pcg_dots).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void cg1_update(const int n, const T alpha, const T beta, __global const T* w, __global T* s,
                __global T* r, __global T* p, __global T* x, __global const T* dinv,
                __global T* u) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const T di = diag_at(dinv, i);
  T ri = r[i];
  const T pi = di * ri + beta * p[i];
  const T si = w[i] + beta * s[i];
  x[i] += alpha * pi;
  ri -= alpha * si;
  p[i] = pi;
  s[i] = si;
  r[i] = ri;
#if JACOBI
  u[i] = di * ri;
#endif
}

// (r, M^-1 r), (w, M^-1 r), (r, r): one element's terms.
static inline void accumulate3(T* a, T* b, T* c, T ri, T wi, T di) {
  *a += ri * di * ri;
  *b += wi * di * ri;
  *c += ri * ri;
}

// The start of the iteration (and after a residual replacement): m = M^-1 w and the partial
// sums of (r, M^-1 r), (w, M^-1 r), (r, r). Grid-stride.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void pcg_dots(const int n, __global const T* r, __global const T* w, __global const T* dinv,
              __global T* m, __global T* partial) {
  __local T s[3 * LOCAL_SIZE];
  T a = 0, b = 0, c = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    const T di = diag_at(dinv, i), ri = r[i], wi = w[i];
#if JACOBI
    m[i] = di * wi;
#endif
    accumulate3(&a, &b, &c, ri, wi, di);
  }
  store_sums3(s, a, b, c, partial);
}

// One pipelined-CG step on element i, given nv_i = (A m)_i and w_i (u = M^-1 r, q = M^-1 s,
// m = M^-1 w are not stored but recomputed from dinv, except m, the next SpMV's input, under
// JACOBI, which the caller stores with the new w):
//   z = nv + beta z; s = w + beta s; p = u + beta p; x += alpha p; r -= alpha s; w -= alpha z
// The new w_i is returned; the next iteration's terms from the new r and w go into a, b, c.
static inline T pcg_element(const int i, const T alpha, const T beta, const T nv, T wi,
                            const T di, __global T* z, __global T* s, __global T* r,
                            __global T* p, __global T* x, T* a, T* b, T* c) {
  const T zi = nv + beta * z[i];
  const T si = wi + beta * s[i];
  T ri = r[i];
  const T pi = di * ri + beta * p[i];
  x[i] += alpha * pi;
  ri -= alpha * si;
  wi -= alpha * zi;
  z[i] = zi;
  s[i] = si;
  p[i] = pi;
  r[i] = ri;
  accumulate3(a, b, c, ri, wi, di);
  return wi;
}

// pcg_element on the elements first .. n-1 (grid-stride), then the group's partial sums
// (distributed CG updates the rows other ranks read first, then the rest, in two launches).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void pcg_update(const int first, const int n, const T alpha, const T beta, __global const T* nv,
                __global T* z, __global T* w, __global T* s, __global T* r, __global T* p,
                __global T* x, __global const T* dinv, __global T* m, __global T* partial) {
  __local T sums[3 * LOCAL_SIZE];
  T a = 0, b = 0, c = 0;
  for (int i = first + get_global_id(0); i < n; i += get_global_size(0)) {
    const T di = diag_at(dinv, i);
    const T wi = pcg_element(i, alpha, beta, nv[i], w[i], di, z, s, r, p, x, &a, &b, &c);
    w[i] = wi;
#if JACOBI
    m[i] = di * wi;
#endif
  }
  store_sums3(sums, a, b, c, partial);
}

// pcg_update with the SpMV nv = A m folded in (short rows: what spmv_scalar does, one row per
// work-item, grid-stride) on the rows first .. n-1, whose matrix rows are row_ptr/col/val's rows
// 0 .. n-1-first (one device: the whole matrix, first = 0; distributed: the boundary part, then
// the interior part, their columns local indices, halo columns included, so g_in holds the
// halo): nv never goes through memory and the SpMV is not a launch of its own. The gathers read g_in (m under JACOBI, else w), so the new w (and m) go to the
// other buffer of a pair, w_out (m_out): a work-item must not overwrite what another still
// gathers. Every pointer is restrict (the read-only g_in and w_in may be one buffer) and on GPUs
// the loop is unrolled twice, so two rows' loads are in flight before their stores (H100, laplace3d
// 256, ms per iteration: plain 1.28, restrict alone 1.63, restrict + unroll 2 / 4 1.24 / 1.23).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void pcg_update_spmv(const int first, const int n, const T alpha, const T beta,
                     __global const int* restrict row_ptr,
                     __global const int* restrict col, __global const T* restrict val,
                     __global const T* restrict g_in, __global const T* restrict w_in,
                     __global T* restrict w_out, __global T* restrict z, __global T* restrict s,
                     __global T* restrict r, __global T* restrict p, __global T* restrict x,
                     __global const T* restrict dinv, __global T* restrict m_out,
                     __global T* restrict partial) {
  __local T sums[3 * LOCAL_SIZE];
  T a = 0, b = 0, c = 0;
  #pragma unroll ROW_UNROLL
  for (int i = first + get_global_id(0); i < n; i += get_global_size(0)) {
    T nv = 0;
    const int end = row_ptr[i - first + 1];
    for (int k = row_ptr[i - first]; k < end; ++k) nv += val[k] * g_in[col[k]];
    const T di = diag_at(dinv, i);
    const T wi = pcg_element(i, alpha, beta, nv, w_in[i], di, z, s, r, p, x, &a, &b, &c);
    w_out[i] = wi;
#if JACOBI
    m_out[i] = di * wi;
#endif
  }
  store_sums3(sums, a, b, c, partial);
}
