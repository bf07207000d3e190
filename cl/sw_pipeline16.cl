// The flag-array pipeline of cl/sw_pipeline.cl on packed 16-bit scores: each register holds one
// row of two stacked stripes. A group owns double stripes of 2 * LOCAL_SIZE * SW_R rows; work-item
// t holds rows t*SW_R + r of the upper stripe (lane 0) and LOCAL_SIZE*SW_R + t*SW_R + r of the
// lower one (lane 1). The lower stripe runs LOCAL_SIZE columns behind the upper one: at step s
// work-item t computes column c = s - t in lane 0 and c - LOCAL_SIZE in lane 1, so the lower
// stripe's first work-item reads the upper stripe's bottom row (written by the last work-item one
// step before) from local memory (ring), and every other exchange is the 32-bit kernel's, on
// both lanes at once. A lane outside [0, m) is held at its initial values. The cell is the
// 32-bit kernel's on G = H - open, in dpx2_* forms (cl/dpx.cl); the query profile holds both
// stripes' scores as shorts, paired per column into one register.
// Exactness: the host runs this kernel only when scores and gaps are small (every step stays
// inside 16 bits while the scores do). A value that could leave 16 bits at the next step
// (G >= sat) is caught by the per-column best check, which sets *overflow; the host then runs
// the 32-bit kernel. Lanes are then no longer meaningful, but the flags still advance, so
// nothing waits for ever.
#include "sw_common.cl"
#include "dpx.cl"

#define SW_R4 (((SW_R) + 3) / 4 * 4)
#define SW_PLANE (LOCAL_SIZE * SW_R4)
#define SW_NEG16 (-16384)
#define SW_PAD16 (-8192)
#define SW_LANE(v, k) ((k) == 0 ? (v).x : (k) == 1 ? (v).y : (k) == 2 ? (v).z : (v).w)

__kernel void sw_pipeline16(__global volatile int* state, __global const uchar* A,
                            __global const uchar* B, int n, int m, __global const int* table,
                            int open, int ext, __global int* rowH, __global int* rowF,
                            __global volatile int* flags, __global int* best, int stripes,
                            int sat, __global int* overflow) {
  if (barrier_discovery(state)) return;
  __local short4 prof[2 * SW_ALPHA * SW_PLANE / 4];  // [lane][residue][item][row]
  __local uint xh[2][LOCAL_SIZE], xf[2][LOCAL_SIZE];  // G and F of each item's bottom row
  __local int ring[2][2];  // the upper stripe's bottom row (H, F), one step old
  __local int ls[LOCAL_SIZE], li[LOCAL_SIZE], lj[LOCAL_SIZE];
  const int t = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  const uint init_g = dpx2_pack(-open, -open), init_e = dpx2_pack(SW_NEG16, SW_NEG16);
  const uint next = dpx2_pack(-ext, -ext), nopen = dpx2_pack(-open, -open);
  int bs = 0, bi = SW_BIG, bj = SW_BIG, over = 0;
  for (int st = g; st < stripes; st += groups) {
    const int base = st * 2 * LOCAL_SIZE * SW_R, top = base + t * SW_R;
    const int top1 = top + LOCAL_SIZE * SW_R;  // lane 1's first row
    __local short* pw = (__local short*)prof;
    for (int k = t; k < 2 * SW_ALPHA * SW_PLANE; k += LOCAL_SIZE) {
      const int lane = k / (SW_ALPHA * SW_PLANE), b = (k / SW_PLANE) % SW_ALPHA;
      const int rest = k % SW_PLANE, r = rest % SW_R4;
      const int row = base + lane * LOCAL_SIZE * SW_R + (rest / SW_R4) * SW_R + r;
      pw[k] = r >= SW_R ? 0 : row < n ? (short)table[A[row] * SW_ALPHA + b] : SW_PAD16;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint G[SW_R], E[SW_R];
#pragma unroll
    for (int r = 0; r < SW_R; ++r) G[r] = init_g, E[r] = init_e;
    uint gdiag = init_g;
    int lim = top < n && !over ? max(bs, 1) - open : SW_BIG;
    __local const short4* p0 = prof + t * (SW_R4 / 4);
    __local const short4* p1 = p0 + SW_ALPHA * SW_PLANE / 4;
    for (int s = 0; s < m + 2 * LOCAL_SIZE - 1; ++s) {
      const int c = s - t, c1 = c - LOCAL_SIZE;
      const bool ok0 = c >= 0 && c < m, ok1 = c1 >= 0 && c1 < m;
      if (t == 0 && st > 0 && c < m && c % SW_W == 0) {
        const int want = c / SW_W + 1;
        while (flag_load_relaxed(flags + st - 1) < want) {
        }
        (void)flag_load_acquire(flags + st - 1);
      }
      if (ok0 || ok1) {
        uint gu, fu;  // G and F of the row above
        if (t == 0) {
          const bool up = ok0 && st > 0;
          gu = dpx2_add(dpx2_pack(up ? rowH[c] : 0, ring[(s + 1) & 1][0]), nopen);
          fu = dpx2_pack(up ? rowF[c] : SW_NEG16, ring[(s + 1) & 1][1]);
        } else {
          gu = xh[(s + 1) & 1][t - 1];
          fu = xf[(s + 1) & 1][t - 1];
        }
        __local const short4* q0 = p0 + (ok0 ? B[c] : 0) * (SW_PLANE / 4);
        __local const short4* q1 = p1 + (ok1 ? B[c1] : 0) * (SW_PLANE / 4);
        uint gd = gdiag, f = dpx2_addmax(fu, next, gu);
        gdiag = gu;
#pragma unroll
        for (int q = 0; q < SW_R4 / 4; ++q) {
          const short4 s0 = q0[q], s1 = q1[q];
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            const int r = 4 * q + k;
            if (r < SW_R) {
              if (r > 0) f = dpx2_addmax(f, next, gu);
              const uint e = dpx2_addmax(E[r], next, G[r]);
              const uint sc = as_uint((short2)(SW_LANE(s0, k), SW_LANE(s1, k)));
              const uint gn = dpx2_addmax(dpx2_max_relu(e, f), nopen, dpx2_add(gd, sc));
              gd = G[r];
              G[r] = gn;
              E[r] = e;
              gu = gn;
            }
          }
        }
        if (!ok0 || !ok1) {  // hold the lane outside [0, m) at its initial values
          const uint keep = ok0 ? 0xffffu : 0xffff0000u;
#pragma unroll
          for (int r = 0; r < SW_R; ++r) {
            G[r] = (G[r] & keep) | (init_g & ~keep);
            E[r] = (E[r] & keep) | (init_e & ~keep);
          }
          gdiag = (gdiag & keep) | (init_g & ~keep);
          gu = (gu & keep) | (init_g & ~keep);
          f = (f & keep) | (init_e & ~keep);
        }
        uint cm = G[0];
#pragma unroll
        for (int r = 1; r < SW_R; ++r) cm = dpx2_max(cm, G[r]);
        if (dpx2_lo(cm) >= lim || dpx2_hi(cm) >= lim) {  // rare: a new best, a tie, or overflow
#pragma unroll
          for (int r = 0; r < SW_R; ++r) {
            const int g0 = dpx2_lo(G[r]), g1 = dpx2_hi(G[r]);
            over |= (ok0 && g0 >= sat) || (ok1 && g1 >= sat);
            if (ok0 && top + r < n) sw_better(g0 + open, top + r, c, &bs, &bi, &bj);
            if (ok1 && top1 + r < n) sw_better(g1 + open, top1 + r, c1, &bs, &bi, &bj);
          }
          lim = over ? SW_BIG : max(bs, 1) - open;
        }
        xh[s & 1][t] = gu;
        xf[s & 1][t] = f;
        if (t == LOCAL_SIZE - 1) {
          ring[s & 1][0] = dpx2_lo(gu) + open;
          ring[s & 1][1] = dpx2_lo(f);
          if (ok1) {
            rowH[c1] = dpx2_hi(gu) + open;
            rowF[c1] = dpx2_hi(f);
            if ((c1 + 1) % SW_W == 0 || c1 == m - 1) flag_store_release(flags + st, c1 / SW_W + 1);
          }
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (over) overflow[0] = 1;
  sw_group_best(bs, bi, bj, ls, li, lj, best);
}
