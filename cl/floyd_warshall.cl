// Floyd-Warshall all-pairs shortest paths on an N x N distance matrix D (row-major, N a multiple
// of TILE and of fw_rest's tile, padding rows/columns hold infinity): the tile phases. Optional
// next-hop matrix P (PATHS=1): P[i][j] = the vertex after i on the best i -> j path, updated only
// when a strictly shorter path is found. Kernels:
//   fw_naive  one launch per k, one work-item per element.
//   fw_lead   phase 1: the lead TILE x TILE tile, one work-group, in local memory.
//   fw_panel  phase 2: the tiles of the lead tile row and column.
//   fw_cross  phase 3 inside the diagonal block of the generalized algorithm's multi-tile of K
//             tiles (which phases 1, 2 and fw_cross close, one tile of k at a time).
//   fw_diag   that whole diagonal block in one work-group, one launch (K x TILE <= 128).
//   fw_unband copies the band pass's scratch back into D.
// The bulk (phase 3 outside the band, and the band pass) is fw_rest in cl/floyd_warshall_rest.cl;
// cl/floyd_warshall_common.cl says why no group returns early and how local memory is carved.
// Required macros: VALUE_TYPE (float|int), INTEGER (0|1), TILE (16|32|64), PATHS (0|1),
// POISON_LOCAL (0|1), LOCAL_SIZE (tile kernels), DIAG_UNROLL (fw_diag: 8 on GPUs, 1 on CPUs).
#include "floyd_warshall_common.cl"
#ifndef TILE
#error "TILE undefined!"
#endif

// Tile kernels: LOCAL_SIZE work-items per TILE x TILE tile, each owning ROWS elements of one
// column (the host derives LOCAL_SIZE = min(TILE * TILE, 256)); fw_naive and fw_unband run 256.
#define ROWS (TILE * TILE / LOCAL_SIZE)
#define ROW_STEP (LOCAL_SIZE / TILE)
#define TT (TILE * TILE)
#define AT(bi, bj, i, j) (((size_t)(bi) * TILE + (i)) * N + (size_t)(bj) * TILE + (j))

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
static inline void load_tile(const int N, const int bi, const int bj, __global const T* D,
                      __global const int* P, __local T* t, __local int* tn) {
  const int l = get_local_id(0), j = l % TILE;
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    t[i * TILE + j] = D[AT(bi, bj, i, j)];
#if PATHS
    tn[i * TILE + j] = P[AT(bi, bj, i, j)];
#endif
  }
}
static inline void store_tile(const int N, const int bi, const int bj, __global T* D, __global int* P,
                       __local const T* t, __local const int* tn) {
  const int l = get_local_id(0), j = l % TILE;
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    D[AT(bi, bj, i, j)] = t[i * TILE + j];
#if PATHS
    P[AT(bi, bj, i, j)] = tn[i * TILE + j];
#endif
  }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
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

// Groups [0, count - 1): the row tiles (kb, j), groups [count - 1, 2 count - 2): the column
// tiles (i, kb), for i, j in [first, first + count) other than kb (which that range holds).
// Blocked: the whole row and column (first 0, count nb); generalized: those inside the
// multi-tile's diagonal block.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void fw_panel(const int N, const int kb, const int first, const int count, __global T* D,
              __global int* P, __local T* smem) {
  const int g = get_group_id(0);
  const bool is_row = g < count - 1;
  const int o = first + (is_row ? g : g - (count - 1)), other = o + (o >= kb);  // skips kb
  const int bi = is_row ? kb : other, bj = is_row ? other : kb;
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
  store_tile(N, bi, bj, D, P, t, tn);
}

// Phase 3 inside the diagonal block of the multi-tile of sk tiles starting at tile sb, outside
// row and column kb: (sk - 1)^2 groups; C = min(C, A (x) B) with A = (bi, kb), B = (kb, bj).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void fw_cross(const int N, const int kb, const int sb, const int sk, __global T* D,
              __global int* P, __local T* smem) {
  __local T* a = smem;                              // TT
  __local T* b = smem + TT;                         // TT
  __local int* an = (__local int*)(smem + 2 * TT);  // TT when PATHS
  const int g = get_group_id(0), oi = sb + g / (sk - 1), oj = sb + g % (sk - 1);
  const int bi = oi + (oi >= kb), bj = oj + (oj >= kb);  // skip row and column kb
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
      RELAX(c[e], cn[e], s, an[i * TILE + k]);
    }
  }
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    D[AT(bi, bj, i, j)] = c[e];
#if PATHS
    P[AT(bi, bj, i, j)] = cn[e];
#endif
  }
}

// The generalized algorithm's whole diagonal block (depth <= DIAG rows: K x TILE as the rule sets
// it) in one launch of one work-group, instead of K rounds of fw_lead, fw_panel and fw_cross (on the
// H100 a launch in that serial chain cost ~9 us, 12 per multi-tile of K = 4). Each of the 256
// work-items holds a DM x DM micro-tile of the block in registers (a 16 x 16 grid of them); per k
// the holders of row k and of column k stage them in local memory, in one of two buffers by the
// parity of k, so one barrier per k orders the stores before the reads and the next k's stores
// after them. Row and column k do not change in step k (d[k][k] >= 0), as fw_lead assumes.
// Micro-tile elements beyond depth are neither loaded nor stored (the last multi-tile may be short).
// DIAG_UNROLL: DM on GPUs (every loop over the micro-tile unrolled, so d[][] stays in registers),
// 1 on CPUs (PoCL's LLVM took minutes on the unrolled body, and its binary crashed).
#ifndef DIAG_UNROLL
#error "DIAG_UNROLL undefined!"
#endif
#define DIAG 128
#define DM (DIAG / 16)
#if LOCAL_SIZE == 256
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void fw_diag(const int N, const int s0, const int depth, __global T* D, __global int* P,
             __local T* smem) {
  poison(smem, (4 + 2 * PATHS) * DIAG);
  __local T* row = smem;                                // [2][DIAG]
  __local T* col = smem + 2 * DIAG;                     // [2][DIAG]
  __local int* colp = (__local int*)(smem + 4 * DIAG);  // [2][DIAG] when PATHS
  const int l = get_local_id(0), r0 = (l / 16) * DM, c0 = (l % 16) * DM;
  T d[DM][DM];
  int p[DM][DM];
  #pragma unroll DIAG_UNROLL
  for (int a = 0; a < DM; ++a)
    #pragma unroll DIAG_UNROLL
    for (int b = 0; b < DM; ++b) {
      // Outside depth: the address is clamped to the block's first element (the load may be
      // executed unconditionally) and the value replaced.
      const bool in = r0 + a < depth && c0 + b < depth;
      const size_t at = (size_t)(s0 + (in ? r0 + a : 0)) * N + s0 + (in ? c0 + b : 0);
      d[a][b] = in ? D[at] : (T)0;
      p[a][b] = PATHS && in ? P[at] : 0;
    }
  for (int k = 0; k < depth; ++k) {
    const int buf = (k & 1) * DIAG;
    if (k / DM == r0 / DM)  // my micro-tiles hold row k: stage it (unrolled: d stays in registers)
      #pragma unroll DIAG_UNROLL
      for (int a = 0; a < DM; ++a)
        if (a == k % DM)
          #pragma unroll DIAG_UNROLL
          for (int b = 0; b < DM; ++b) row[buf + c0 + b] = d[a][b];
    if (k / DM == c0 / DM)  // ... column k
      #pragma unroll DIAG_UNROLL
      for (int b = 0; b < DM; ++b)
        if (b == k % DM)
          #pragma unroll DIAG_UNROLL
          for (int a = 0; a < DM; ++a) {
            col[buf + r0 + a] = d[a][b];
#if PATHS
            colp[buf + r0 + a] = p[a][b];
#endif
          }
    barrier(CLK_LOCAL_MEM_FENCE);
    T rk[DM];
    #pragma unroll DIAG_UNROLL
    for (int b = 0; b < DM; ++b) rk[b] = row[buf + c0 + b];
    #pragma unroll DIAG_UNROLL
    for (int a = 0; a < DM; ++a) {
      const T ck = col[buf + r0 + a];
#if PATHS
      const int pk = colp[buf + r0 + a];
#endif
      #pragma unroll DIAG_UNROLL
      for (int b = 0; b < DM; ++b) {
        const T s = PLUS(ck, rk[b]);
        RELAX(d[a][b], p[a][b], s, pk);
      }
    }
  }
  #pragma unroll DIAG_UNROLL
  for (int a = 0; a < DM; ++a)
    #pragma unroll DIAG_UNROLL
    for (int b = 0; b < DM; ++b)
      if (r0 + a < depth && c0 + b < depth) {
        const size_t at = (size_t)(s0 + r0 + a) * N + s0 + c0 + b;
        D[at] = d[a][b];
#if PATHS
        P[at] = p[a][b];
#endif
      }
}
#endif

// Copies the band pass's scratch back into D (and P), each element once: item e < depth N copies
// the rows part, D[s0 + e / N][e % N] = S[e]; the other depth (N - depth) items copy the columns
// part outside the band rows (those are in the rows part), D[i][s0 + c] = S[depth N + i depth + c].
__kernel void fw_unband(const int N, const int s0, const int depth, __global T* D, __global int* P,
                        __global const T* S, __global const int* SP) {
  const size_t e = get_global_id(0), part = (size_t)depth * N;  // exactly depth (2N - depth) items
  size_t at = (size_t)s0 * N + e, from = e;
  if (e >= part) {
    const size_t r = (e - part) / depth, c = (e - part) % depth;
    const size_t i = r < (size_t)s0 ? r : r + depth;  // skip the band rows
    at = i * N + s0 + c, from = part + i * depth + c;
  }
  D[at] = S[from];
#if PATHS
  P[at] = SP[from];
#endif
}
