// What the CSR SpMV kernels share (cl/spmv.cl: scalar, vector, adaptive; cl/spmv_merge.cl):
// the value type, the NVIDIA load paths, PRODUCT(k), the warp shuffle and the alpha/beta finish.
// Required macros: VALUE_TYPE, LOCAL_SIZE (a power of two).
#include "common.cl"
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif

// SPMV_NV_LOADS=1 (NVIDIA, set by the host): x through the read-only path (ld.global.nc: nothing
// writes x during a launch) and the matrix's values and column indices streamed evict-first
// (ld.global.cs: each is read once), so that L2 keeps x for the gathers. On the H100 the
// adaptive kernel on `gen hubs 4194304 4 64 200000` 0.467 -> 0.403 ms, merge on `gen powerlaw
// 1048576 1.8` 0.76 -> 0.59 ms; the same results bit for bit.
#if defined(SPMV_NV_LOADS) && SPMV_NV_LOADS
#ifdef LOCKSTEP_FP64
#define SPMV_LD(cache, p, v) asm("ld.global." cache ".f64 %0, [%1];" : "=d"(v) : "l"(p))
#else
#define SPMV_LD(cache, p, v) asm("ld.global." cache ".f32 %0, [%1];" : "=f"(v) : "l"(p))
#endif
static inline T ld_x(__global const T* p) { T v; SPMV_LD("nc", p, v); return v; }
static inline T ld_val(__global const T* p) { T v; SPMV_LD("cs", p, v); return v; }
static inline int ld_col(__global const int* p) {
  int v;
  asm("ld.global.cs.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
#else
#define ld_x(p) (*(p))
#define ld_val(p) (*(p))
#define ld_col(p) (*(p))
#endif
// val[k] * x[col[k]] through those loads, in the adaptive and merge kernels (the gather-bound
// ones; scalar and vector moved by +-1 %, so they keep plain loads).
#define PRODUCT(k) (ld_val(val + (k)) * ld_x(x + ld_col(col + (k))))

// shfl_down(v, d): lane i gets lane i + d's v within its warp (NVIDIA, inline PTX; every lane of
// the warp must call it). The vector kernel's in-wave reduction and the adaptive kernel's rows.
#if (defined(SPMV_NV_LOADS) && SPMV_NV_LOADS) || defined(USE_NV_SHUFFLE)
#define SPMV_SHUFFLE 1
static inline T shfl_down(T v, int delta) {
#ifdef LOCKSTEP_FP64
  int lo, hi;
  asm volatile("mov.b64 {%0,%1}, %2;" : "=r"(lo), "=r"(hi) : "d"(v));
  asm volatile("shfl.sync.down.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+r"(lo) : "r"(delta));
  asm volatile("shfl.sync.down.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+r"(hi) : "r"(delta));
  asm volatile("mov.b64 %0, {%1,%2};" : "=d"(v) : "r"(lo), "r"(hi));
#else
  asm volatile("shfl.sync.down.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+f"(v) : "r"(delta));
#endif
  return v;
}
#endif

static inline T finish(T sum, T alpha, T beta, __global const T* y, int row) {
  return beta == (T)0 ? alpha * sum : alpha * sum + beta * y[row];
}
