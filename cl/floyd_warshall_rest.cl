// Floyd-Warshall's bulk: fw_rest, a register-blocked min-plus "GEMM" of depth `depth` (K*TILE)
// C = min(C, D[:, s0:s0+depth] (x) D[s0:s0+depth, :]) over BM x BN tiles (BM = 16 TM, BN = 16 TN),
// 256 work-items each holding a TM x TN micro-tile of C in registers, operands staged in two local
// buffers CHUNK values of k at a time. Modes:
//   0 (the bulk): the tiles outside tile rows [r_lo, r_hi) and tile columns [c_lo, c_hi)
//     (the host passes the band's tiles, and, when the next multi-tile's phases run beside this
//     launch on a second queue, also the tiles that touch the next band);
//   3 (the cross): the tiles of tile rows [r_lo, r_hi) (every column), then those of tile
//     columns [c_lo, c_hi) outside those rows: the next band's tiles, before its phases start;
//   1 (the band, after its diagonal block was closed), one launch: the first ceil(depth / BM) x
//     N / BN groups take the tiles of the band rows (from row s0), the others those of the band
//     columns (from column s0); the result goes to scratch S (rows band: depth x N, then columns
//     band: N x depth), since B (rows) or A (columns) is the band itself, read by other groups;
//     elements of the diagonal block keep their value. fw_unband copies S back into D. Band tiles
//     may reach past N (depth not a multiple of BM): their loads are clamped and those elements
//     never stored.
// In modes 0 and 3 no element of the band rows or columns [s0, s0+depth) is stored (final).
// Work-item (tx, ty) of 16 x 16 owns rows 64h + 4ty + [0, 4) (h < TM/4) and columns 64h' + 4tx +
// [0, 4) (h' < TN/4): each k reads its operands with TM/4 + TN/4 16-byte local loads (A: two
// addresses per warp, a broadcast; B: 16 consecutive 4-vectors, no bank conflict) for TM*TN
// updates. A is staged k-major (transposed: consecutive items store consecutive rows, no bank
// conflict), B row-major. Double buffering: a chunk's global loads are issued before the current
// chunk's updates, its local stores after them; one barrier per chunk separates the two uses of a
// buffer. Required macros (besides cl/floyd_warshall_common.cl's): TM, TN (4|8|16, TM*TN <= 64),
// CHUNK (divides TILE; CHUNK*BM and CHUNK*BN multiples of 4).
#include "floyd_warshall_common.cl"
#ifndef TM
#error "TM undefined!"
#endif
#ifndef TN
#error "TN undefined!"
#endif
#ifndef CHUNK
#error "CHUNK undefined!"
#endif
#ifndef KU
#define KU CHUNK  // unroll factor of the k loop inside a chunk
#endif
#define BM (16 * TM)              // rows of one tile
#define BN (16 * TN)              // columns of one tile
#define MH (TM / 4)               // 4-row groups per work-item, 64 apart
#define NH (TN / 4)               // 4-column groups per work-item, 64 apart
#define APAD (BM + 4)             // k-major A rows, padded, 16-byte aligned
#define CA4 (CHUNK * BM / 4)      // 4-vectors of A per chunk
#define CB4 (CHUNK * BN / 4)      // 4-vectors of B per chunk
#define LA ((CA4 + 255) / 256)
#define LB ((CB4 + 255) / 256)
#define BUF (CHUNK * (APAD + BN + PATHS * APAD))  // words of one of the two stage buffers
// Integers without paths: every operand of a launch is a stored distance (>= -2^30, <= 2^30 - 1),
// fixed while it runs, so a + b cannot overflow; the floor at -2^30 moves from each sum to the
// store (max(min(c, a_k + b_k), f) = min over k of max(...): the same results), and an update is
// an add and a min (ptxas may fuse them on sm_90) instead of add, max, min. H100 n = 8192:
// i32 79.5 -> 47.0 ms (with the 8 x 8 micro-tile the rule now gives it).
#if INTEGER && !PATHS
#define BULK_PLUS(a, b) ((a) + (b))
#define FLOOR(v) max(v, (T4)(-(1 << 30)))
#else
#define BULK_PLUS(a, b) PLUS(a, b)
#define FLOOR(v) (v)
#endif

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void fw_rest(const int N, const int s0, const int depth, const int mode, const int r_lo,
             const int r_hi, const int c_lo, const int c_hi, __global T* D, __global int* P,
             __global T* S, __global int* SP, __local T4* smem4) {
  const int ntr = N / BM, ntc = N / BN, s1 = s0 + depth;
  const int band_rows = ((depth + BM - 1) / BM) * ntc;  // mode 1: the row band's groups first
  const bool row_band = mode == 1 && (int)get_group_id(0) < band_rows;
  const bool col_band = mode == 1 && !row_band;
  const int g = get_group_id(0) - (col_band ? band_rows : 0);
  int ri, ci;  // tile row and column (modes 0, 3)
  if (mode == 0) {
    const int w = ntc - (c_hi - c_lo);
    ri = g / w, ci = g % w;
    ri += ri >= r_lo ? r_hi - r_lo : 0;
    ci += ci >= c_lo ? c_hi - c_lo : 0;
  } else {
    const int rr = r_hi - r_lo, x = g - rr * ntc;
    ri = x < 0 ? r_lo + g / ntc : x / max(c_hi - c_lo, 1);
    ri += x >= 0 && ri >= r_lo ? rr : 0;
    ci = x < 0 ? g % ntc : c_lo + x % max(c_hi - c_lo, 1);
  }
  const int bt = (depth + BN - 1) / BN;  // band tiles across the depth (the column band)
  const int r0 = row_band ? s0 + (g / ntc) * BM : col_band ? (g / bt) * BM : ri * BM;
  const int c0 = row_band ? (g % ntc) * BN : col_band ? s0 + (g % bt) * BN : ci * BN;
  __local T* smem = (__local T*)smem4;
  poison(smem, 2 * BUF);
  const int l = get_local_id(0), tx = l % 16, ty = l / 16;
  T c[TM][TN];
  int cn[PATHS ? TM : 1][PATHS ? TN : 1];
#pragma unroll
  for (int x = 0; x < TM; ++x) {
    const size_t row = min(r0 + 64 * (x / 4) + 4 * ty + x % 4, N - 1);
#pragma unroll
    for (int h = 0; h < NH; ++h) {
      const size_t at = row * N + min(c0 + 64 * h + 4 * tx, N - 4);
      const T4 v = *(__global const T4*)(D + at);
      c[x][4 * h] = v.x, c[x][4 * h + 1] = v.y, c[x][4 * h + 2] = v.z, c[x][4 * h + 3] = v.w;
#if PATHS
      const int4 w = *(__global const int4*)(P + at);
      cn[x][4 * h] = w.x, cn[x][4 * h + 1] = w.y, cn[x][4 * h + 2] = w.z, cn[x][4 * h + 3] = w.w;
#endif
    }
  }
  // Staging: A 4-vector v = l + 256 e of a chunk at k0 is A(row = v % BM, k0 + 4 (v / BM) + [0, 4));
  // B 4-vector v is B(k0 + v / (BN / 4), c0 + 4 (v % (BN / 4)) + [0, 4)).
  T4 ra[LA], rb[LB];
  int4 rn[LA];  // next hops of A (PATHS)
  const int chunks = depth / CHUNK;
#define LOAD_CHUNK(k0)                                                                      \
  for (int e = 0; e < LA; ++e) {                                                            \
    const int v = l + 256 * e;                                                              \
    if (CA4 % 256 == 0 || v < CA4) {                                                        \
      const size_t at = (size_t)min(r0 + v % BM, N - 1) * N + (k0) + 4 * (v / BM);          \
      ra[e] = *(__global const T4*)(D + at);                                                \
      if (PATHS) rn[e] = *(__global const int4*)(P + at);                                   \
    }                                                                                       \
  }                                                                                         \
  for (int e = 0; e < LB; ++e) {                                                            \
    const int v = l + 256 * e;                                                              \
    if (CB4 % 256 == 0 || v < CB4)                                                          \
      rb[e] = *(__global const T4*)(D + (size_t)((k0) + v / (BN / 4)) * N +                 \
                                    min(c0 + 4 * (v % (BN / 4)), N - 4));                   \
  }
#define STORE_CHUNK(buf)                                                                    \
  for (int e = 0; e < LA; ++e) {                                                            \
    const int v = l + 256 * e;                                                              \
    if (CA4 % 256 == 0 || v < CA4) {                                                        \
      __local T* as = smem + (buf) * BUF;                                                   \
      const int row = v % BM, kk = 4 * (v / BM);                                            \
      as[kk * APAD + row] = ra[e].x, as[(kk + 1) * APAD + row] = ra[e].y;                   \
      as[(kk + 2) * APAD + row] = ra[e].z, as[(kk + 3) * APAD + row] = ra[e].w;             \
      if (PATHS) {                                                                          \
        __local int* an = (__local int*)(as + CHUNK * (APAD + BN));                         \
        an[kk * APAD + row] = rn[e].x, an[(kk + 1) * APAD + row] = rn[e].y;                 \
        an[(kk + 2) * APAD + row] = rn[e].z, an[(kk + 3) * APAD + row] = rn[e].w;           \
      }                                                                                     \
    }                                                                                       \
  }                                                                                         \
  for (int e = 0; e < LB; ++e) {                                                            \
    const int v = l + 256 * e;                                                              \
    if (CB4 % 256 == 0 || v < CB4) ((__local T4*)(smem + (buf) * BUF + CHUNK * APAD))[v] = rb[e]; \
  }
#pragma unroll
  LOAD_CHUNK(s0)
#pragma unroll
  STORE_CHUNK(0)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int ch = 0; ch < chunks; ++ch) {
    const bool more = ch + 1 < chunks;
    if (more) {
#pragma unroll
      LOAD_CHUNK(s0 + (ch + 1) * CHUNK)
    }
    __local const T* as = smem + (ch & 1) * BUF;
    __local const T* bs = as + CHUNK * APAD;
#if PATHS
    __local const int* ans = (__local const int*)(bs + CHUNK * BN);
#endif
#pragma unroll KU
    for (int kk = 0; kk < CHUNK; ++kk) {
      T av[TM], bv[TN];
#pragma unroll
      for (int h = 0; h < MH; ++h) {
        const T4 a = *(__local const T4*)(as + kk * APAD + 64 * h + 4 * ty);
        av[4 * h] = a.x, av[4 * h + 1] = a.y, av[4 * h + 2] = a.z, av[4 * h + 3] = a.w;
      }
#pragma unroll
      for (int h = 0; h < NH; ++h) {
        const T4 b = *(__local const T4*)(bs + kk * BN + 64 * h + 4 * tx);
        bv[4 * h] = b.x, bv[4 * h + 1] = b.y, bv[4 * h + 2] = b.z, bv[4 * h + 3] = b.w;
      }
#pragma unroll
      for (int x = 0; x < TM; ++x) {
#if PATHS
        const int an = ans[kk * APAD + 64 * (x / 4) + 4 * ty + x % 4];
#endif
#pragma unroll
        for (int y = 0; y < TN; ++y) {
          const T s = BULK_PLUS(av[x], bv[y]);
          RELAX(c[x][y], cn[x][y], s, an);
        }
      }
    }
    if (more) {
#pragma unroll
      STORE_CHUNK((ch + 1) & 1)
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // unconditional: every item reaches it every chunk
  }
#undef LOAD_CHUNK
#undef STORE_CHUNK
  // Band rows and columns are whole 4-vectors (s0 and depth are multiples of TILE >= 16).
  const bool to_d = mode == 0 || mode == 3;
#pragma unroll
  for (int x = 0; x < TM; ++x) {
    const int row = r0 + 64 * (x / 4) + 4 * ty + x % 4;
    const bool row_in = row >= s0 && row < s1;
    if (to_d ? row_in : row_band ? row >= s1 : row >= N) continue;
#pragma unroll
    for (int h = 0; h < NH; ++h) {
      const int col = c0 + 64 * h + 4 * tx;
      const bool col_in = col >= s0 && col < s1;
      if (to_d ? col_in : col_band ? col >= s1 : col >= N) continue;
      const size_t at = (size_t)row * N + col;
      T4 v = FLOOR(((T4)(c[x][4 * h], c[x][4 * h + 1], c[x][4 * h + 2], c[x][4 * h + 3])));
#if PATHS
      int4 w = (int4)(cn[x][4 * h], cn[x][4 * h + 1], cn[x][4 * h + 2], cn[x][4 * h + 3]);
#endif
      if (to_d) {
        *(__global T4*)(D + at) = v;
#if PATHS
        *(__global int4*)(P + at) = w;
#endif
      } else {
        if (row_in && col_in) {  // the diagonal block: already closed, copied back unchanged
          v = *(__global const T4*)(D + at);
#if PATHS
          w = *(__global const int4*)(P + at);
#endif
        }
        const size_t to = row_band ? (size_t)(row - s0) * N + col
                                   : (size_t)depth * N + (size_t)row * depth + (col - s0);
        *(__global T4*)(S + to) = v;
#if PATHS
        *(__global int4*)(SP + to) = w;
#endif
      }
    }
  }
}
