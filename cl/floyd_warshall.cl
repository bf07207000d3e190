// Floyd-Warshall all-pairs shortest paths on an N x N distance matrix D (row-major, N a multiple
// of TILE and of 16*THREAD_TILE, padding rows/columns hold infinity). Optional next-hop matrix P
// (PATHS=1): P[i][j] = the vertex after i on the best i -> j path, updated only when a strictly
// shorter path is found. Kernels:
//   fw_naive  one launch per k, one work-item per element.
//   fw_lead   phase 1: the lead TILE x TILE tile, one work-group, in local memory.
//   fw_panel  phase 2: the tiles of the lead tile row and column.
//   fw_cross  phase 3 inside the diagonal block of the generalized algorithm's multi-tile of K
//             tiles (which phases 1, 2 and fw_cross close, one tile of k at a time).
//   fw_unband copies the band pass's scratch back into D.
//   fw_rest   a min-plus "GEMM" of depth K*TILE over 16*THREAD_TILE square tiles, 256 work-items
//             each holding THREAD_TILE^2 elements in registers, operands staged in two local
//             buffers CHUNK values of k at a time: phase 3 for everything outside the band of
//             the multi-tile's rows and columns (mode 0), and, when K > 1, phase 2 for that band
//             once its diagonal block is closed (modes 1 and 2). K = 1 is classic blocked.
// No work-group returns before a barrier or skips its store, even uniformly: the launches hold only
// the tiles that need an update (and fw_rest masks its stores per element). PoCL 5.0 on a 16-core
// AVX-512 CPU ran the kernels wrong when some groups of a launch returned early (blocked tile 16,
// n = 31: sum of distances 26441 instead of 88948, the same with one thread and every work-group
// method), and again when some groups of fw_cross skipped their store under a group-uniform
// `if` (generalized tile 16, K = 2, n = 31: 652 of 961 pairs reachable); right in this form.
// Local memory: every tile kernel takes ONE host-sized `__local T* smem` argument and carves its
// tiles out of it (fw_*_words below; src/apsp/apsp.cpp mirrors them), instead of declaring several
// automatic __local arrays: that is the form every OpenCL implementation handles the same way.
// POISON_LOCAL=1 fills smem with -12345 (and a barrier) first, so a kernel that read local memory
// it had not written would give visibly wrong (too short) distances on any device.
// Integers (INTEGER=1): infinity is 2^30-1 and sums are floored at -2^30, so nothing overflows
// even while a negative cycle drives distances down (the host bounds |weights|*(n-1) < 2^28).
// Required macros: VALUE_TYPE (float|int), INTEGER (0|1), TILE (16|32|64), PATHS (0|1),
// THREAD_TILE (4|8), CHUNK (divides TILE), POISON_LOCAL (0|1), LOCAL_SIZE (tile kernels).
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

// Tile kernels: LOCAL_SIZE work-items per TILE x TILE tile, each owning ROWS elements of one
// column (the host derives LOCAL_SIZE = min(TILE * TILE, 256)); fw_naive and fw_rest run 256.
#define ROWS (TILE * TILE / LOCAL_SIZE)
#define ROW_STEP (LOCAL_SIZE / TILE)
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
  for (int e = 0, i = l / TILE; e < ROWS; ++e, i += ROW_STEP) {
    D[AT(bi, bj, i, j)] = c[e];
#if PATHS
    P[AT(bi, bj, i, j)] = cn[e];
#endif
  }
}

#if INTEGER
typedef int4 T4;
#else
typedef float4 T4;
#endif
#define BIG (16 * THREAD_TILE)   // rows and columns of one fw_rest tile
#define NH (THREAD_TILE / 4)     // 4-wide row (column) groups per work-item, 64 apart
#define APAD (BIG + 4)           // A is stored k-major, padded, 16-byte aligned rows
#define CHUNK4 (CHUNK * BIG / 4) // 4-vectors of A (and of B) per chunk
#define LOADS ((CHUNK4 + 255) / 256)
#define BUF (CHUNK * (APAD + BIG + PATHS * APAD))  // words of one of the two stage buffers
// C = min(C, D[:, s0:s0+depth] (x) D[s0:s0+depth, :]) on BIG x BIG tiles.
// Mode 0 (the bulk): every tile of the matrix, except the elements whose row or column lies in
// [s0, s0+depth) (the band, already final). Modes 1 and 2 (the band, after its diagonal block was
// closed): the tiles of the band rows (from row s0), or of the band columns (from column s0);
// the result goes to scratch S (rows band: depth x N, then columns band: N x depth),
// since B (rows) or A (columns) is the band itself, read by other groups; elements of the
// diagonal block keep their value. fw_unband copies S back into D. Band tiles may reach past N
// (depth not a multiple of BIG): their loads are clamped and those elements never stored.
// Work-item (tx, ty) of 16 x 16 owns rows 64h + 4ty + [0, 4) and columns 64h' + 4tx + [0, 4)
// (h, h' < NH), so each k reads its operands with 2 NH 16-byte local loads for THREAD_TILE^2
// updates. A CHUNK of k values is staged in one of two local buffers while the other is used:
// its global loads are issued before the current chunk's updates, its local stores after them,
// and one barrier per chunk separates the two uses of a buffer.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void fw_rest(const int N, const int s0, const int depth, const int mode, __global T* D,
             __global int* P, __global T* S, __global int* SP, __local T4* smem4) {
  const int nt = N / BIG, g = get_group_id(0), s1 = s0 + depth;
  const int bt = (depth + BIG - 1) / BIG;  // band tiles across the depth (modes 1 and 2)
  const bool row_band = mode == 1, col_band = mode == 2;
  const int r0 = row_band ? s0 + (g / nt) * BIG : col_band ? (g / bt) * BIG : (g / nt) * BIG;
  const int c0 = row_band ? (g % nt) * BIG : col_band ? s0 + (g % bt) * BIG : (g % nt) * BIG;
  __local T* smem = (__local T*)smem4;
  // No early return for tiles inside the band: the store below skips every band element.
  poison(smem, 2 * BUF);
  const int l = get_local_id(0), tx = l % 16, ty = l / 16;
  T c[THREAD_TILE][THREAD_TILE];
  int cn[PATHS ? THREAD_TILE : 1][PATHS ? THREAD_TILE : 1];
#pragma unroll
  for (int x = 0; x < THREAD_TILE; ++x) {
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
  // Staging: 4-vector v = l + 256 e of a chunk at k0 is A(row = v % BIG, k0 + 4 (v / BIG) + [0,4))
  // (consecutive items take consecutive rows: conflict-free transposed local stores) and
  // B(k0 + v / (BIG / 4), c0 + 4 (v % (BIG / 4)) + [0, 4)).
  T4 ra[LOADS], rb[LOADS];
  int4 rn[LOADS];  // next hops of A (PATHS)
  const int chunks = depth / CHUNK;
#define LOAD_CHUNK(k0)                                                            \
  for (int e = 0; e < LOADS; ++e) {                                               \
    const int v = l + 256 * e;                                                    \
    if (CHUNK4 % 256 == 0 || v < CHUNK4) {                                        \
      const size_t at = (size_t)min(r0 + v % BIG, N - 1) * N + (k0) + 4 * (v / BIG); \
      ra[e] = *(__global const T4*)(D + at);                                      \
      if (PATHS) rn[e] = *(__global const int4*)(P + at);                         \
      rb[e] = *(__global const T4*)(D + (size_t)((k0) + v / (BIG / 4)) * N +      \
                                    min(c0 + 4 * (v % (BIG / 4)), N - 4));        \
    }                                                                             \
  }
#define STORE_CHUNK(buf)                                                          \
  for (int e = 0; e < LOADS; ++e) {                                               \
    const int v = l + 256 * e;                                                    \
    if (CHUNK4 % 256 == 0 || v < CHUNK4) {                                        \
      __local T* as = smem + (buf) * BUF;                                         \
      const int row = v % BIG, kk = 4 * (v / BIG);                                \
      as[kk * APAD + row] = ra[e].x, as[(kk + 1) * APAD + row] = ra[e].y;         \
      as[(kk + 2) * APAD + row] = ra[e].z, as[(kk + 3) * APAD + row] = ra[e].w;   \
      if (PATHS) {                                                                \
        __local int* an = (__local int*)(as + CHUNK * (APAD + BIG));              \
        an[kk * APAD + row] = rn[e].x, an[(kk + 1) * APAD + row] = rn[e].y;       \
        an[(kk + 2) * APAD + row] = rn[e].z, an[(kk + 3) * APAD + row] = rn[e].w; \
      }                                                                           \
      ((__local T4*)(as + CHUNK * APAD))[v] = rb[e];                              \
    }                                                                             \
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
    __local const int* ans = (__local const int*)(bs + CHUNK * BIG);
#endif
#pragma unroll
    for (int kk = 0; kk < CHUNK; ++kk) {
      T av[THREAD_TILE], bv[THREAD_TILE];
#pragma unroll
      for (int h = 0; h < NH; ++h) {
        const T4 a = *(__local const T4*)(as + kk * APAD + 64 * h + 4 * ty);
        const T4 b = *(__local const T4*)(bs + kk * BIG + 64 * h + 4 * tx);
        av[4 * h] = a.x, av[4 * h + 1] = a.y, av[4 * h + 2] = a.z, av[4 * h + 3] = a.w;
        bv[4 * h] = b.x, bv[4 * h + 1] = b.y, bv[4 * h + 2] = b.z, bv[4 * h + 3] = b.w;
      }
#pragma unroll
      for (int x = 0; x < THREAD_TILE; ++x) {
#if PATHS
        const int an = ans[kk * APAD + 64 * (x / 4) + 4 * ty + x % 4];
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
    if (more) {
#pragma unroll
      STORE_CHUNK((ch + 1) & 1)
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // unconditional: every item reaches it every chunk
  }
#undef LOAD_CHUNK
#undef STORE_CHUNK
  // Band rows and columns are whole 4-vectors (s0 and depth are multiples of TILE >= 16).
#pragma unroll
  for (int x = 0; x < THREAD_TILE; ++x) {
    const int row = r0 + 64 * (x / 4) + 4 * ty + x % 4;
    const bool row_in = row >= s0 && row < s1;
    if (mode == 0 ? row_in : row_band ? row >= s1 : row >= N) continue;
#pragma unroll
    for (int h = 0; h < NH; ++h) {
      const int col = c0 + 64 * h + 4 * tx;
      const bool col_in = col >= s0 && col < s1;
      if (mode == 0 ? col_in : col_band ? col >= s1 : col >= N) continue;
      const size_t at = (size_t)row * N + col;
      T4 v = (T4)(c[x][4 * h], c[x][4 * h + 1], c[x][4 * h + 2], c[x][4 * h + 3]);
#if PATHS
      int4 w = (int4)(cn[x][4 * h], cn[x][4 * h + 1], cn[x][4 * h + 2], cn[x][4 * h + 3]);
#endif
      if (mode == 0) {
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
