// Smith-Waterman-Gotoh local alignment, 32-bit scores, by tiles of anti-diagonals (sw_barrier;
// the flag-array pipeline, sw_pipeline, is in cl/sw_pipeline.cl). A work-group of LOCAL_SIZE
// work-items owns a block of LOCAL_SIZE * SW_R rows of A (work-item t: rows t*SW_R ..
// t*SW_R+SW_R-1) and sweeps columns of B as an inner wavefront: at step s work-item t computes
// column s - t of its rows, taking the row above (H, F) from work-item t-1 through local memory
// (one work-group barrier a step) and, for t = 0, from the block above through a row buffer in
// global memory. Tiles of LOCAL_SIZE*SW_R rows x SW_W columns by anti-diagonals of tiles, one
// phase per diagonal, global_barrier between phases (or one launch per diagonal). Tile borders:
// rowH/rowF (bottom rows, one buffer), colH (right columns, three buffers by tile column mod 3,
// so the corner H[top-1][left-1] written two diagonals before is still there), colE (one
// buffer). It keeps, per row, the best score and its first column (columns increase within a
// tile), merges rows into a per-item best with the tie rule (score, then smallest i, then
// smallest j), and reduces the group into best[3*g..3*g+2] (merged with what earlier launches
// left there).
#include "sw_common.cl"

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

// Merges each row's best into the work-item's best (rows >= n do not exist).
static inline void sw_merge_rows(int top, int n, const int* rb, const int* rj, int* bs, int* bi, int* bj) {
  #pragma unroll
  for (int r = 0; r < SW_R; ++r)
    if (top + r < n) sw_better(rb[r], top + r, rj[r], bs, bi, bj);
}

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
