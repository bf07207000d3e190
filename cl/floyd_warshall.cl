// Floyd-Warshall all-pairs shortest paths on an N x N distance matrix D (row-major, N a multiple
// of TILE and of 16*THREAD_TILE, padding rows/columns hold infinity). Optional next-hop matrix P
// (PATHS=1): P[i][j] = the vertex after i on the best i -> j path, updated only when a strictly
// shorter path is found. Kernels:
//   fw_naive  one launch per k, one work-item per element.
//   fw_lead   phase 1: the lead TILE x TILE tile, one work-group, in local memory.
//   fw_panel  phase 2: the tiles of the lead tile row and column.
//   fw_cross  phase 3 inside the generalized algorithm's cross band (rows or columns of the
//             current multi-tile of K tiles): min-plus update of TILE tiles, depth TILE.
//   fw_rest   phase 3 for everything else: a min-plus "GEMM" of depth K*TILE over 16*THREAD_TILE
//             square tiles, 256 work-items each holding THREAD_TILE^2 elements in registers,
//             operands staged in local memory CHUNK columns at a time. K = 1 is classic blocked.
// No work-group returns before a barrier, even uniformly (a tile that needs no update is computed
// and not stored): PoCL 5.0 on a 16-core AVX-512 CPU ran the kernels wrong when some groups of a
// launch returned early (blocked tile 16, n = 31: sum of distances 26441 instead of 88948, the same
// with one thread and every work-group method), and right with this form (issue 13).
// Local memory: every tile kernel takes ONE host-sized `__local T* smem` argument and carves its
// tiles out of it (fw_*_words below; src/apsp/apsp.cpp mirrors them), instead of declaring several
// automatic __local arrays: that is the form every OpenCL implementation handles the same way.
// POISON_LOCAL=1 fills smem with -12345 (and a barrier) first, so a kernel that read local memory
// it had not written would give visibly wrong (too short) distances on any device.
// Integers (INTEGER=1): infinity is 2^30-1 and sums are floored at -2^30, so nothing overflows
// even while a negative cycle drives distances down (the host bounds |weights|*(n-1) < 2^28).
// Required macros: VALUE_TYPE (float|int), INTEGER (0|1), TILE (16|32|64), PATHS (0|1),
// THREAD_TILE (4|8), CHUNK (divides TILE), POISON_LOCAL (0|1).
#include "common.cl"
#ifndef VALUE_TYPE
#error "VALUE_TYPE undefined!"
#endif
#ifndef INTEGER
#error "INTEGER undefined!"
#endif
#ifndef TILE
#error "TILE undefined!"
#endif
#ifndef PATHS
#error "PATHS undefined!"
#endif
#ifndef THREAD_TILE
#error "THREAD_TILE undefined!"
#endif
#ifndef CHUNK
#error "CHUNK undefined!"
#endif
#ifndef POISON_LOCAL
#error "POISON_LOCAL undefined!"
#endif
typedef VALUE_TYPE T;

#if INTEGER
#define PLUS(a, b) max((a) + (b), -(1 << 30))
#define MIN(a, b) min(a, b)
#else
#define PLUS(a, b) ((a) + (b))
#define MIN(a, b) fmin(a, b)
#endif

// Tile kernels: THREADS work-items per TILE x TILE tile, each owning ROWS elements of one column.
#define THREADS (TILE * TILE < 256 ? TILE * TILE : 256)
#define ROWS (TILE * TILE / THREADS)
#define ROW_STEP (THREADS / TILE)
#define TT (TILE * TILE)
#define AT(bi, bj, i, j) (((size_t)(bi) * TILE + (i)) * N + (size_t)(bj) * TILE + (j))

// Fills the first `words` of smem with garbage when POISON_LOCAL=1 (every item of the group).
inline void poison(__local T* smem, const int words) {
#if POISON_LOCAL
  for (int x = get_local_id(0); x < words; x += get_local_size(0)) smem[x] = (T)(-12345);
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
}

__kernel void fw_naive(const int N, const int k, __global T* D, __global int* P) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)N * N) return;
  const int i = id / N, j = id % N;
  const T s = PLUS(D[(size_t)i * N + k], D[(size_t)k * N + j]);
  if (s < D[id]) {
    D[id] = s;
#if PATHS
    P[id] = P[(size_t)i * N + k];
#endif
  }
}

// Loads tile (bi, bj) into t (and its next hops into tn).
inline void load_tile(const int N, const int bi, const int bj, __global const T* D,
                      __global const int* P, __local T* t, __local int* tn) {
  const int l = get_local_id(0), j = l % TILE;
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    t[i * TILE + j] = D[AT(bi, bj, i, j)];
#if PATHS
    tn[i * TILE + j] = P[AT(bi, bj, i, j)];
#endif
  }
}
inline void store_tile(const int N, const int bi, const int bj, __global T* D, __global int* P,
                       __local const T* t, __local const int* tn) {
  const int l = get_local_id(0), j = l % TILE;
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    D[AT(bi, bj, i, j)] = t[i * TILE + j];
#if PATHS
    P[AT(bi, bj, i, j)] = tn[i * TILE + j];
#endif
  }
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void fw_lead(const int N, const int kb, __global T* D, __global int* P, __local T* smem) {
  poison(smem, (1 + PATHS) * TT);
  __local T* t = smem;                              // TT
  __local int* tn = (__local int*)(smem + TT);      // TT when PATHS
  load_tile(N, kb, kb, D, P, t, tn);
  const int l = get_local_id(0), j = l % TILE;
  for (int k = 0; k < TILE; ++k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
      const T s = PLUS(t[i * TILE + k], t[k * TILE + j]);
      if (s < t[i * TILE + j]) {
        t[i * TILE + j] = s;
#if PATHS
        tn[i * TILE + j] = tn[i * TILE + k];
#endif
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  store_tile(N, kb, kb, D, P, t, tn);
}

// Groups [0, nb): row tiles (kb, g); groups [nb, 2nb): column tiles (g - nb, kb).
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void fw_panel(const int N, const int kb, const int nb, __global T* D, __global int* P,
              __local T* smem) {
  const int g = get_group_id(0);
  const bool is_row = g < nb;
  const int bi = is_row ? kb : g - nb, bj = is_row ? g : kb;
  const bool skip = bi == kb && bj == kb;  // the lead tile: computed, never stored
  poison(smem, (2 + PATHS) * TT);
  __local T* lead = smem;                              // TT
  __local T* t = smem + TT;                            // TT
  __local int* tn = (__local int*)(smem + 2 * TT);     // TT when PATHS
  load_tile(N, bi, bj, D, P, t, tn);
  const int l = get_local_id(0), j = l % TILE;
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP)
    lead[i * TILE + j] = D[AT(kb, kb, i, j)];
  for (int k = 0; k < TILE; ++k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
      const T s = is_row ? PLUS(lead[i * TILE + k], t[k * TILE + j])
                         : PLUS(t[i * TILE + k], lead[k * TILE + j]);
      if (s < t[i * TILE + j]) {
        t[i * TILE + j] = s;
#if PATHS
        tn[i * TILE + j] = is_row ? P[AT(kb, kb, i, k)] : tn[i * TILE + k];
#endif
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!skip) store_tile(N, bi, bj, D, P, t, tn);
}

// The cross band of the multi-tile of sk tiles starting at tile sb: groups [0, sk*nb) are the
// tiles (sb + g / nb, g % nb); the rest are (i, sb + g' % sk) for the nb - sk tile rows i outside.
// Each gets C = min(C, A (x) B) with A = (bi, kb), B = (kb, bj); lead row/column tiles skip.
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void fw_cross(const int N, const int kb, const int sb, const int sk, const int nb, __global T* D,
              __global int* P, __local T* smem) {
  __local T* a = smem;                              // TT
  __local T* b = smem + TT;                         // TT
  __local int* an = (__local int*)(smem + 2 * TT);  // TT when PATHS
  int g = get_group_id(0), bi, bj;
  if (g < sk * nb) {
    bi = sb + g / nb;
    bj = g % nb;
  } else {
    g -= sk * nb;
    bj = sb + g % sk;
    bi = g / sk;
    if (bi >= sb) bi += sk;
  }
  const bool skip = bi == kb || bj == kb;  // lead row/column tiles: computed, never stored
  poison(smem, (2 + PATHS) * TT);
  load_tile(N, bi, kb, D, P, a, an);
  const int l = get_local_id(0), j = l % TILE;
  T c[ROWS];
  int cn[ROWS];
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    b[i * TILE + j] = D[AT(kb, bj, i, j)];
    c[e] = D[AT(bi, bj, i, j)];
#if PATHS
    cn[e] = P[AT(bi, bj, i, j)];
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < TILE; ++k) {
    const T bk = b[k * TILE + j];
    for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
      const T s = PLUS(a[i * TILE + k], bk);
#if PATHS
      if (s < c[e]) {
        c[e] = s;
        cn[e] = an[i * TILE + k];
      }
#else
      c[e] = MIN(c[e], s);
#endif
    }
  }
  if (!skip)
    for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    D[AT(bi, bj, i, j)] = c[e];
#if PATHS
    P[AT(bi, bj, i, j)] = cn[e];
#endif
  }
}

#define BIG (16 * THREAD_TILE)
#define APAD (BIG + 1)
#define LOADS (CHUNK * BIG / 256)  // values of A (and of B) each work-item stages per chunk
// C = min(C, D[:, s0:s0+depth] (x) D[s0:s0+depth, :]) on every BIG x BIG tile, except the
// elements whose row or column lies in [s0, s0+depth) (the cross band, already final). The next
// chunk of A and B is loaded into registers while the current one is used from local memory.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void fw_rest(const int N, const int s0, const int depth, __global T* D, __global int* P,
             __local T* smem) {
  const int nt = N / BIG, g = get_group_id(0);
  const int r0 = (g / nt) * BIG, c0 = (g % nt) * BIG;
  const int s1 = s0 + depth;
  // No early return for tiles inside the band: the store below skips every band element.
  poison(smem, CHUNK * (APAD + BIG + PATHS * APAD));
  __local T* as = smem;                                               // CHUNK * APAD
  __local T* bs = smem + CHUNK * APAD;                                // CHUNK * BIG
  __local int* ans = (__local int*)(smem + CHUNK * (APAD + BIG));     // CHUNK * APAD when PATHS
  const int l = get_local_id(0), tx = l % 16, ty = l / 16;
  T c[THREAD_TILE][THREAD_TILE];
  int cn[PATHS ? THREAD_TILE : 1][THREAD_TILE];
#pragma unroll
  for (int x = 0; x < THREAD_TILE; ++x)
#pragma unroll
    for (int y = 0; y < THREAD_TILE; ++y) {
      const size_t at = (size_t)(r0 + ty + 16 * x) * N + c0 + tx + 16 * y;
      c[x][y] = D[at];
#if PATHS
      cn[x][y] = P[at];
#endif
    }
  // Staging: item l moves A(row, kk) with idx = l + 256 e, kk = idx % CHUNK, row = idx / CHUNK,
  // and B(bk, col) with bk = idx / BIG, col = idx % BIG. Iteration k0 loads chunk k0 into
  // registers, then computes chunk k0 - CHUNK from local memory while those loads are in flight.
  T ra[LOADS], rb[LOADS];
  int rn[PATHS ? LOADS : 1];
  for (int k0 = s0;; k0 += CHUNK) {
    if (k0 < s1) {
#pragma unroll
      for (int e = 0; e < LOADS; ++e) {
        const int idx = l + 256 * e;
        const size_t at = (size_t)(r0 + idx / CHUNK) * N + k0 + idx % CHUNK;
        ra[e] = D[at];
#if PATHS
        rn[e] = P[at];
#endif
        rb[e] = D[(size_t)(k0 + idx / BIG) * N + c0 + idx % BIG];
      }
    }
    if (k0 > s0) {
#pragma unroll
      for (int kk = 0; kk < CHUNK; ++kk) {
        T av[THREAD_TILE], bv[THREAD_TILE];
#pragma unroll
        for (int x = 0; x < THREAD_TILE; ++x) av[x] = as[kk * APAD + ty + 16 * x];
#pragma unroll
        for (int y = 0; y < THREAD_TILE; ++y) bv[y] = bs[kk * BIG + tx + 16 * y];
#pragma unroll
        for (int x = 0; x < THREAD_TILE; ++x) {
#if PATHS
          const int an = ans[kk * APAD + ty + 16 * x];
#endif
#pragma unroll
          for (int y = 0; y < THREAD_TILE; ++y) {
            const T s = PLUS(av[x], bv[y]);
#if PATHS
            if (s < c[x][y]) {
              c[x][y] = s;
              cn[x][y] = an;
            }
#else
            c[x][y] = MIN(c[x][y], s);
#endif
          }
        }
      }
    }
    if (k0 >= s1) break;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int e = 0; e < LOADS; ++e) {
      const int idx = l + 256 * e;
      as[(idx % CHUNK) * APAD + idx / CHUNK] = ra[e];
#if PATHS
      ans[(idx % CHUNK) * APAD + idx / CHUNK] = rn[e];
#endif
      bs[idx] = rb[e];  // (idx / BIG) * BIG + idx % BIG
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#pragma unroll
  for (int x = 0; x < THREAD_TILE; ++x) {
    const int row = r0 + ty + 16 * x;
    if (row >= s0 && row < s1) continue;
#pragma unroll
    for (int y = 0; y < THREAD_TILE; ++y) {
      const int col = c0 + tx + 16 * y;
      if (col >= s0 && col < s1) continue;
      const size_t at = (size_t)row * N + col;
      D[at] = c[x][y];
#if PATHS
      P[at] = cn[x][y];
#endif
    }
  }
}
