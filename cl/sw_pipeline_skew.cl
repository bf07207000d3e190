// Smith-Waterman-Gotoh local alignment of one long pair, 32-bit scores: the flag-array pipeline
// with skewed rows (AlignConfig::variant "skew"; cl/sw_pipeline.cl is the plain one, whose
// stripes, flags, cell and profile this file shares). Row k = t*SW_R + r of a stripe (work-item
// t, its row r) computes column c = s - k at step s, so a step is one anti-diagonal of the
// stripe: every cell of it depends only on cells of the two steps before (up and left at s-1,
// diagonal at s-2), and the SW_R cells of a work-item are SW_R independent chains (the plain
// kernel's step is one chain of SW_R dependent cells: latency-bound on a GPU).
//
// Per row the registers G (G = H - open at the row's previous column), U (G of the row above at
// that column: the next step's diagonal), E and F. A step goes through the rows in decreasing r,
// so row r+1 reads row r's values of the previous step (up = G[r], f_up = F[r], at column c of
// row r+1) before row r replaces them. Row 0 takes them from row SW_R-1 of work-item t-1 through
// local memory (written at step s-1; one work-group barrier a step), and work-item 0 from the
// stripe above through rowH/rowF in global memory. Flags as in cl/sw_pipeline.cl, through
// cl/barrier_order.cl: before each chunk of SW_W columns work-item 0 waits until the stripe above
// published it (flag_load_relaxed spin, then flag_load_acquire on flags[stripe-1]); work-item
// LOCAL_SIZE-1 writes its bottom row into rowH/rowF and then flag_store_release(flags[stripe],
// chunks done). The releasing work-item wrote the row itself and the acquiring work-item 0 is
// the only reader of it, so no work-group barrier is needed around them. The bottom row reaches
// column c at step c + LOCAL_SIZE*SW_R - 1, so stripe k+1 starts LOCAL_SIZE*SW_R + SW_W steps
// after stripe k (the plain kernel: LOCAL_SIZE + SW_W).
//
// The residue of B a row needs is the one row r-1 used the step before (a shift register of
// profile indices; row 0 loads B[s - t*SW_R]); the profile (SW_ALPHA x LOCAL_SIZE*SW_R scores,
// int or with SW_PROF_CHAR char) is one scalar local load per cell. A row is active while
// 0 <= c < m; a step whose rows are all active takes the path without per-row tests. The best
// (score, then smallest i, then smallest j): the step's maximum over the rows against lim, the
// exact per-row pass only when reached; steps with inactive rows take the exact pass directly.
#include "dpx.cl"
#include "sw_common.cl"

#define SW_PLANE (LOCAL_SIZE * SW_R)  // profile entries of one residue: the stripe's rows
#if defined(SW_PROF_CHAR) && SW_PROF_CHAR
typedef char SW_PROF_T;
#define SW_PAD (-128)
#else
typedef int SW_PROF_T;
#define SW_PAD (-(1 << 20))
#endif

// Cell of row r at step s: up and f_up from row r-1 of the previous step (row 0: gu, fu, read
// before), left from the row's own registers; the e/f/G forms of cl/sw_pipeline.cl.
#define SW_SKEW_CELL(r)                                                                    \
  {                                                                                        \
    const int up = (r) > 0 ? G[max((r)-1, 0)] : gu, fup = (r) > 0 ? F[max((r)-1, 0)] : fu; \
    const int f = dpx_addmax(fup, -ext, up);                                               \
    const int e = dpx_addmax(E[r], -ext, G[r]);                                            \
    G[r] = dpx_addmax(dpx_max_relu(e, f), -open, U[r] + (int)prof[off[r] + (r)]);            \
    U[r] = up;                                                                             \
    E[r] = e;                                                                              \
    F[r] = f;                                                                              \
  }

__kernel void sw_pipeline_skew(__global volatile int* state, __global const uchar* A,
                               __global const uchar* B, int n, int m, __global const int* table,
                               int open, int ext, __global int* rowH, __global int* rowF,
                               __global volatile int* flags, __global int* best, int stripes) {
  if (barrier_discovery(state)) return;
  __local SW_PROF_T prof[SW_ALPHA * SW_PLANE];
  __local int xg[2][LOCAL_SIZE], xf[2][LOCAL_SIZE];
  __local int ls[LOCAL_SIZE], li[LOCAL_SIZE], lj[LOCAL_SIZE];
  const int t = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  int bs = 0, bi = SW_BIG, bj = SW_BIG;
  for (int st = g; st < stripes; st += groups) {
    const int base = st * SW_PLANE, top = base + t * SW_R;
    // The profile of this stripe (the previous stripe's last step ended with a barrier).
    for (int k = t; k < SW_ALPHA * SW_PLANE; k += LOCAL_SIZE) {
      const int row = base + k % SW_PLANE;
      prof[k] = row < n ? (SW_PROF_T)table[A[row] * SW_ALPHA + k / SW_PLANE] : SW_PAD;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int G[SW_R], U[SW_R], E[SW_R], F[SW_R], off[SW_R];
#pragma unroll
    for (int r = 0; r < SW_R; ++r) {
      G[r] = U[r] = -open;  // H = 0 left of column 0
      E[r] = F[r] = SW_NEG;
      off[r] = 0;
    }
    // A step whose best G reaches lim takes the exact pass; items of padding rows never do.
    int lim = top < n ? max(bs, 1) - open : SW_BIG;
    for (int s = 0; s < m + SW_PLANE - 1; ++s) {
      const int c0 = s - t * SW_R;  // row 0's column; row r's is c0 - r
      if (t == 0 && st > 0 && c0 < m && c0 % SW_W == 0) {
        const int want = c0 / SW_W + 1;
        while (flag_load_relaxed(flags + st - 1) < want) {
        }
        (void)flag_load_acquire(flags + st - 1);
      }
      if (c0 >= 0 && c0 - (SW_R - 1) < m) {  // some row active
#pragma unroll
        for (int r = SW_R - 1; r > 0; --r) off[r] = off[r - 1];
        int gu = 0, fu = 0;  // row 0's up (G) and f_up
        if (c0 < m) {
          off[0] = B[c0] * SW_PLANE + t * SW_R;  // row 0's profile entry
          if (t > 0) {
            gu = xg[(s + 1) & 1][t - 1];
            fu = xf[(s + 1) & 1][t - 1];
          } else {
            gu = (st > 0 ? rowH[c0] : 0) - open;
            fu = st > 0 ? rowF[c0] : SW_NEG;
          }
        }
        if (c0 >= SW_R - 1 && c0 < m) {  // every row active
#pragma unroll
          for (int r = SW_R - 1; r >= 0; --r) SW_SKEW_CELL(r);
          int cm = G[0];
#pragma unroll
          for (int r = 1; r + 1 < SW_R; r += 2) cm = dpx_max3(cm, G[r], G[r + 1]);
          if (SW_R % 2 == 0) cm = max(cm, G[SW_R - 1]);
          if (cm >= lim) {  // rare: a new best (or a tie) in this step
#pragma unroll
            for (int r = 0; r < SW_R; ++r)
              if (top + r < n) sw_better(G[r] + open, top + r, c0 - r, &bs, &bi, &bj);
            lim = max(bs, 1) - open;
          }
        } else {  // the first and last SW_R-1 steps of the item: some rows outside [0, m)
#pragma unroll
          for (int r = SW_R - 1; r >= 0; --r)
            if (c0 - r >= 0 && c0 - r < m) {
              SW_SKEW_CELL(r);
              if (top + r < n) sw_better(G[r] + open, top + r, c0 - r, &bs, &bi, &bj);
            }
          if (top < n) lim = max(bs, 1) - open;
        }
        const int c = c0 - (SW_R - 1);  // the bottom row's column
        if (c >= 0) {
          xg[s & 1][t] = G[SW_R - 1];
          xf[s & 1][t] = F[SW_R - 1];
          if (t == LOCAL_SIZE - 1) {
            rowH[c] = G[SW_R - 1] + open;
            rowF[c] = F[SW_R - 1];
            if ((c + 1) % SW_W == 0 || c == m - 1) flag_store_release(flags + st, c / SW_W + 1);
          }
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  sw_group_best(bs, bi, bj, ls, li, lj, best);
}
