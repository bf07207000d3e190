// Smith-Waterman-Gotoh local alignment, 32-bit scores. A work-group of LOCAL_SIZE work-items
// owns a block of LOCAL_SIZE * SW_R rows of A (work-item t: rows t*SW_R .. t*SW_R+SW_R-1) and
// sweeps columns of B as an inner wavefront: at step s work-item t computes column s - t of its
// rows, taking the row above (H, F) from work-item t-1 through local memory (one work-group
// barrier a step) and, for t = 0, from the block above through a row buffer in global memory.
//   sw_barrier:  tiles of LOCAL_SIZE*SW_R rows x SW_W columns by anti-diagonals of tiles, one phase
//                per diagonal, global_barrier between phases (or one launch per diagonal).
//                Tile borders: rowH/rowF (bottom rows, one buffer), colH (right columns, three
//                buffers by tile column mod 3, so the corner H[top-1][left-1] written two
//                diagonals before is still there), colE (one buffer).
//   sw_pipeline: group g owns row stripes g, g+G, ... and streams along all columns; before
//                each chunk of SW_W columns work-item 0 waits until the stripe above published
//                it (flag_load_acquire on flags[stripe-1]); work-item LOCAL_SIZE-1 writes its
//                bottom row into rowH/rowF and then flag_store_release(flags[stripe], chunks done).
// Flags through cl/barrier_order.cl (included by barrier.cl): the releasing work-item wrote the
// row itself and the acquiring work-item 0 is the only reader of it, so no work-group barrier is
// needed around them. Both keep, per row, the best score and its first column (columns increase within a sweep),
// merge rows into a per-item best with the tie rule (score, then smallest i, then smallest j),
// and reduce the group into best[3*g..3*g+2] (merged with what earlier launches left there).
#include "barrier.cl"

#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif
#ifndef SW_R
#error "SW_R undefined!"
#endif
#ifndef SW_W
#error "SW_W undefined!"
#endif
#ifndef SW_ALPHA
#error "SW_ALPHA undefined!"
#endif

#define SW_NEG (-(1 << 29))
#define SW_BIG 0x7fffffff

// (s, i, j) replaces (*bs, *bi, *bj) when better: higher score, then smaller i, then smaller j.
static inline void sw_better(int s, int i, int j, int* bs, int* bi, int* bj) {
  if (s > *bs || (s == *bs && s > 0 && (i < *bi || (i == *bi && j < *bj)))) {
    *bs = s;
    *bi = i;
    *bj = j;
  }
}

// One column j (residue code b) of this work-item's SW_R rows. In: hu/fu = H and F of the row
// above, *diag = H of the row above at column j-1. Returns H of the bottom row, *fu its F.
static inline int sw_column(int j, int b, int hu, int* fu, int* diag, int* H, int* E, const int* arow,
                     __local const int* sub, int open, int ext, int* rb, int* rj) {
  int hd = *diag, f = *fu;
  *diag = hu;
#pragma unroll
  for (int r = 0; r < SW_R; ++r) {
    const int e = max(E[r] - ext, H[r] - open);
    f = max(f - ext, hu - open);
    const int h = max(max(hd + sub[arow[r] + b], 0), max(e, f));
    hd = H[r];
    H[r] = h;
    E[r] = e;
    hu = h;
    if (h > rb[r]) {
      rb[r] = h;
      rj[r] = j;
    }
  }
  *fu = f;
  return hu;
}

// The row above for work-item t at step s: from global (t = 0) or from work-item t-1.
#define SW_UP(s, t, global_ok, gh, gf, hu, fu)      \
  if ((t) == 0) {                                   \
    hu = (global_ok) ? (gh) : 0;                    \
    fu = (global_ok) ? (gf) : SW_NEG;               \
  } else {                                          \
    hu = xh[((s) + 1) & 1][(t) - 1];                \
    fu = xf[((s) + 1) & 1][(t) - 1];                \
  }

static inline void sw_load_sub(__global const int* table, __local int* sub) {
  for (int k = get_local_id(0); k < SW_ALPHA * SW_ALPHA; k += LOCAL_SIZE) sub[k] = table[k];
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Merges each row's best into the work-item's best (rows >= n do not exist).
static inline void sw_merge_rows(int top, int n, const int* rb, const int* rj, int* bs, int* bi, int* bj) {
  #pragma unroll
  for (int r = 0; r < SW_R; ++r)
    if (top + r < n) sw_better(rb[r], top + r, rj[r], bs, bi, bj);
}

// Reduces the work-items' bests into best[3*g..] (merged with the value already there).
static inline void sw_group_best(int bs, int bi, int bj, __local int* ls, __local int* li,
                          __local int* lj, __global int* best) {
  const int t = get_local_id(0), g = get_group_id(0);
  ls[t] = bs;
  li[t] = bi;
  lj[t] = bj;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    int s = best[3 * g], i = best[3 * g + 1], j = best[3 * g + 2];
    for (int k = 0; k < LOCAL_SIZE; ++k) sw_better(ls[k], li[k], lj[k], &s, &i, &j);
    best[3 * g] = s;
    best[3 * g + 1] = i;
    best[3 * g + 2] = j;
  }
}

// The start both kernels share: the occupancy-discovery exit, the substitution table (sub), the
// row exchange between neighbouring work-items (xh, xf) and the group reduction's scratch
// (ls, li, lj) in local memory, the ids, and the work-item's best (bs, bi, bj).
#define SW_START                                                                  \
  if (barrier_discovery(state)) return;                                           \
  __local int sub[SW_ALPHA * SW_ALPHA];                                           \
  __local int xh[2][LOCAL_SIZE], xf[2][LOCAL_SIZE];                               \
  __local int ls[LOCAL_SIZE], li[LOCAL_SIZE], lj[LOCAL_SIZE];                     \
  sw_load_sub(table, sub);                                                        \
  const int t = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0); \
  int bs = 0, bi = SW_BIG, bj = SW_BIG

__kernel void sw_barrier(__global volatile int* state, __global const uchar* A,
                         __global const uchar* B, int n, int m, __global const int* table,
                         int open, int ext, __global int* rowH, __global int* rowF,
                         __global int* colH, __global int* colE, int n_pad, __global int* best,
                         int tiles_r, int tiles_c, int phase_begin, int phase_end) {
  SW_START;
  int round = 0;
  for (int d = phase_begin; d < phase_end; ++d) {
    const int lo = max(0, d - (tiles_c - 1)), hi = min(d, tiles_r - 1);
    for (int tr = lo + g; tr <= hi; tr += groups) {
      const int tc = d - tr;
      const int top = tr * LOCAL_SIZE * SW_R + t * SW_R, left = tc * SW_W;
      const int width = min(SW_W, m - left);
      __global const int* hin = colH + ((tc + 2) % 3) * n_pad;
      __global int* hout = colH + (tc % 3) * n_pad;
      int H[SW_R], E[SW_R], arow[SW_R], rb[SW_R], rj[SW_R];
      #pragma unroll
      for (int r = 0; r < SW_R; ++r) {
        arow[r] = A[top + r] * SW_ALPHA;
        H[r] = tc ? hin[top + r] : 0;
        E[r] = tc ? colE[top + r] : SW_NEG;
        rb[r] = 0;
        rj[r] = 0;
      }
      int diag = (tc == 0 || top == 0) ? 0 : hin[top - 1];
      for (int s = 0; s < width + LOCAL_SIZE - 1; ++s) {
        const int c = s - t;
        if (c >= 0 && c < width) {
          int hu, fu;
          SW_UP(s, t, tr > 0, rowH[left + c], rowF[left + c], hu, fu);
          const int h = sw_column(left + c, B[left + c], hu, &fu, &diag, H, E, arow, sub, open,
                                  ext, rb, rj);
          xh[s & 1][t] = h;
          xf[s & 1][t] = fu;
          if (t == LOCAL_SIZE - 1) {
            rowH[left + c] = h;
            rowF[left + c] = fu;
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      #pragma unroll
      for (int r = 0; r < SW_R; ++r) {
        hout[top + r] = H[r];
        colE[top + r] = E[r];
      }
      sw_merge_rows(top, n, rb, rj, &bs, &bi, &bj);
    }
    global_barrier(state, &round);
  }
  sw_group_best(bs, bi, bj, ls, li, lj, best);
}

__kernel void sw_pipeline(__global volatile int* state, __global const uchar* A,
                          __global const uchar* B, int n, int m, __global const int* table,
                          int open, int ext, __global int* rowH, __global int* rowF,
                          __global volatile int* flags, __global int* best, int stripes) {
  SW_START;
  for (int st = g; st < stripes; st += groups) {
    const int top = st * LOCAL_SIZE * SW_R + t * SW_R;
    int H[SW_R], E[SW_R], arow[SW_R], rb[SW_R], rj[SW_R];
    #pragma unroll
    for (int r = 0; r < SW_R; ++r) {
      arow[r] = A[top + r] * SW_ALPHA;
      H[r] = 0;
      E[r] = SW_NEG;
      rb[r] = 0;
      rj[r] = 0;
    }
    int diag = 0;
    for (int s = 0; s < m + LOCAL_SIZE - 1; ++s) {
      const int c = s - t;
      if (t == 0 && st > 0 && c < m && c % SW_W == 0) {
        const int want = c / SW_W + 1;
        while (flag_load_relaxed(flags + st - 1) < want) {
        }
        (void)flag_load_acquire(flags + st - 1);
      }
      if (c >= 0 && c < m) {
        int hu, fu;
        SW_UP(s, t, st > 0, rowH[c], rowF[c], hu, fu);
        const int h = sw_column(c, B[c], hu, &fu, &diag, H, E, arow, sub, open, ext, rb, rj);
        xh[s & 1][t] = h;
        xf[s & 1][t] = fu;
        if (t == LOCAL_SIZE - 1) {
          rowH[c] = h;
          rowF[c] = fu;
          if ((c + 1) % SW_W == 0 || c == m - 1) flag_store_release(flags + st, c / SW_W + 1);
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    sw_merge_rows(top, n, rb, rj, &bs, &bi, &bj);
  }
  sw_group_best(bs, bi, bj, ls, li, lj, best);
}
