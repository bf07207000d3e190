// What the two Smith-Waterman kernel files share (cl/smith_waterman.cl: sw_barrier;
// cl/sw_pipeline.cl: sw_pipeline): the shape macros, the tie rule, the row above from global
// memory or the neighbouring work-item, the substitution table in local memory and the group
// reduction of the work-items' bests.
#ifndef SW_COMMON_CL
#define SW_COMMON_CL
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

#endif  // SW_COMMON_CL
