// Smith-Waterman-Gotoh local alignment of one long pair, 32-bit scores: the flag-array pipeline.
// Group g owns row stripes g, g+G, ... of LOCAL_SIZE * SW_R rows (work-item t: rows t*SW_R ..
// t*SW_R+SW_R-1 of the stripe) and streams along all columns of B as an inner wavefront: at step
// s work-item t computes column s - t of its rows, taking the row above (H, F) from work-item t-1
// through local memory (one work-group barrier a step) and, for t = 0, from the stripe above
// through rowH/rowF in global memory. Before each chunk of SW_W columns work-item 0 waits until
// the stripe above published it (flag_load_acquire on flags[stripe-1]); work-item LOCAL_SIZE-1
// writes its bottom row into rowH/rowF and then flag_store_release(flags[stripe], chunks done).
// Flags through cl/barrier_order.cl: the releasing work-item wrote the row itself and the
// acquiring work-item 0 is the only reader of it, so no work-group barrier is needed around them.
//
// The cell, in five integer operations (four of them DPX forms, cl/dpx.cl), on G = H - open:
//   e = max(E - ext, G_left)         f = max(f_up - ext, G_up)
//   G = max(max(e, f, 0) - open, G_diag + s)
// so that E, F and the diagonal need no separate "- open". The scores s of the stripe's rows
// against every residue (the query profile, SW_ALPHA x LOCAL_SIZE x SW_R4, int or with
// SW_PROF_CHAR char) sit in local memory: one vector load gives four rows' scores. Rows past n
// (the padding of the last stripe) score SW_PAD against everything, so they never beat a row
// above them. The best: each column's maximum over the item's rows is compared once with the
// item's best; only a column that reaches it takes the exact per-row pass (score, then smallest
// i, then smallest j), so the cost is one max per cell. The items' bests are reduced into
// best[3*g..3*g+2].
#include "sw_common.cl"
#include "dpx.cl"

#define SW_R4 (((SW_R) + 3) / 4 * 4)
#define SW_PLANE (LOCAL_SIZE * SW_R4)  // profile entries of one residue
#if defined(SW_PROF_CHAR) && SW_PROF_CHAR
typedef char SW_PROF_T;
typedef char4 SW_PROF_V;
#define SW_PAD (-128)
#else
typedef int SW_PROF_T;
typedef int4 SW_PROF_V;
#define SW_PAD (-(1 << 20))
#endif

// Element k (a compile-time constant after unrolling) of an int4.
#define SW_LANE(v, k) ((k) == 0 ? (v).x : (k) == 1 ? (v).y : (k) == 2 ? (v).z : (v).w)

__kernel void sw_pipeline(__global volatile int* state, __global const uchar* A,
                          __global const uchar* B, int n, int m, __global const int* table,
                          int open, int ext, __global int* rowH, __global int* rowF,
                          __global volatile int* flags, __global int* best, int stripes) {
  if (barrier_discovery(state)) return;
  __local SW_PROF_V prof[SW_ALPHA * SW_PLANE / 4];
  __local int xh[2][LOCAL_SIZE], xf[2][LOCAL_SIZE];
  __local int ls[LOCAL_SIZE], li[LOCAL_SIZE], lj[LOCAL_SIZE];
  const int t = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  int bs = 0, bi = SW_BIG, bj = SW_BIG;
  for (int st = g; st < stripes; st += groups) {
    const int base = st * LOCAL_SIZE * SW_R, top = base + t * SW_R;
    // The profile of this stripe (the previous stripe's last step ended with a barrier).
    __local SW_PROF_T* pw = (__local SW_PROF_T*)prof;
    for (int k = t; k < SW_ALPHA * SW_PLANE; k += LOCAL_SIZE) {
      const int b = k / SW_PLANE, rest = k % SW_PLANE, r = rest % SW_R4;
      const int row = base + (rest / SW_R4) * SW_R + r;
      pw[k] = r >= SW_R ? 0 : row < n ? (SW_PROF_T)table[A[row] * SW_ALPHA + b] : SW_PAD;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int G[SW_R], E[SW_R];
#pragma unroll
    for (int r = 0; r < SW_R; ++r) {
      G[r] = -open;  // H = 0 left of column 0
      E[r] = SW_NEG;
    }
    int gdiag = -open;  // G of the row above at the previous column
    // A column whose best G reaches lim takes the exact pass; items of padding rows never do.
    int lim = top < n ? max(bs, 1) - open : SW_BIG;
    __local const SW_PROF_V* pt = prof + t * (SW_R4 / 4);
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
        __local const SW_PROF_V* p = pt + B[c] * (SW_PLANE / 4);
        int gu = hu - open, gd = gdiag, f = dpx_addmax(fu, -ext, gu);
        gdiag = gu;
#pragma unroll
        for (int q = 0; q < SW_R4 / 4; ++q) {
          const int4 sc = convert_int4(p[q]);
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            const int r = 4 * q + k;
            if (r < SW_R) {
              if (r > 0) f = dpx_addmax(f, -ext, gu);
              const int e = dpx_addmax(E[r], -ext, G[r]);
              const int gn = dpx_addmax(dpx_max_relu(e, f), -open, gd + SW_LANE(sc, k));
              gd = G[r];
              G[r] = gn;
              E[r] = e;
              gu = gn;
            }
          }
        }
        int cm = G[0];
#pragma unroll
        for (int r = 1; r + 1 < SW_R; r += 2) cm = dpx_max3(cm, G[r], G[r + 1]);
        if (SW_R % 2 == 0) cm = max(cm, G[SW_R - 1]);
        if (cm >= lim) {  // rare: a new best (or a tie) in this column
#pragma unroll
          for (int r = 0; r < SW_R; ++r)
            if (top + r < n) sw_better(G[r] + open, top + r, c, &bs, &bi, &bj);
          lim = max(bs, 1) - open;
        }
        xh[s & 1][t] = gu + open;
        xf[s & 1][t] = f;
        if (t == LOCAL_SIZE - 1) {
          rowH[c] = gu + open;
          rowF[c] = f;
          if ((c + 1) % SW_W == 0 || c == m - 1) flag_store_release(flags + st, c / SW_W + 1);
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  sw_group_best(bs, bi, bj, ls, li, lj, best);
}
