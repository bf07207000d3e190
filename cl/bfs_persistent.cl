// BFS kernels that run several levels in one launch. `bfs_single`: one work-group loops over
// levels, synchronised by work-group barriers only, while the frontier stays at most `hi`
// vertices and `hi_edges` out-edges
// (the small-frontier substitute for a CPU step once the levels live on the device).
// `bfs_multi`: persistent (launched by PersistentKernel: barrier state first, discovery, phases
// separated by global_barrier); all co-resident groups expand the frontier (one vertex per wave
// of WAVE_WIDTH lanes), meet at the global barrier, then every group reads the next frontier's
// size and edges, which other groups wrote, with ordinary loads, and all leave together when it
// is 0, below `lo` or above `hi` (or its edges above `hi_edges`: hubs go to the lb kernel). Counters rotate
// over three slots (ctr[2 + r % 3] frontier sizes, ctr[5 + r % 3] their edges) so that level r
// zeroes the slot of level r + 2 without racing readers. Under relaunch it runs one level.
// hist[2r], hist[2r+1] = size and edges of the frontier after level r of the launch (under
// relaunch, read the counters instead: group 0 writes hist before the other groups finish);
// ctr[8] = levels run. The frontier after an odd number of levels is in qb, else in qa.
#include "barrier.cl"
#include "bfs_common.cl"

#ifndef WAVE_WIDTH
#error "WAVE_WIDTH undefined"
#endif
#if LOCAL_SIZE % WAVE_WIDTH != 0
#error "LOCAL_SIZE must be a multiple of WAVE_WIDTH"
#endif
#define WAVES (LOCAL_SIZE / WAVE_WIDTH)  // frontier vertices a work-group expands at once

#define CNT 2
#define EDG 5
#define DONE 8

__kernel void bfs_single(__global const int* off, __global const int* adj,
                         __global volatile int* levels, __global int* parents, __global int* qa,
                         __global int* qb, __global volatile int* ctr, __global int* hist,
                         int count, int level0, int hi, int hi_edges, int max_levels) {
  __local volatile int lcount, ldeg;
  const int lid = get_local_id(0);
  for (int r = 0;; ++r) {
    __global const int* in = (r & 1) ? qb : qa;
    __global int* out = (r & 1) ? qa : qb;
    if (lid == 0) lcount = 0, ldeg = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < count; i += LOCAL_SIZE) {
      const int u = in[i], end = off[u + 1];
      for (int e = off[u]; e < end; ++e) {
        const int v = adj[e];
        if (bfs_claim(levels, parents, v, u, level0 + r + 1)) {
          out[atomic_inc(&lcount)] = v;
          atomic_add(&ldeg, off[v + 1] - off[v]);
        }
      }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    const int next = lcount, edges = ldeg;
    if (lid == 0) hist[2 * r] = next, hist[2 * r + 1] = edges;
    barrier(CLK_LOCAL_MEM_FENCE);  // everybody read lcount before it is reset
    if (next == 0 || next > hi || edges > hi_edges || r + 1 >= max_levels) {
      if (lid == 0) ctr[DONE] = r + 1;
      return;
    }
    count = next;
  }
}

__kernel void bfs_multi(__global volatile int* state, __global const int* off,
                        __global const int* adj, __global volatile int* levels,
                        __global int* parents, __global int* qa, __global int* qb,
                        __global volatile int* ctr, __global int* hist, int level0, int lo, int hi,
                        int hi_edges, int max_levels) {
  if (barrier_discovery(state)) return;
  BFS_LOCALS;
  const int gid = get_global_id(0);
  int round = 0;
  for (int r = 0;; ++r) {
    const int count = ctr[CNT + r % 3];
    __global const int* in = (r & 1) ? qb : qa;
    __global int* out = (r & 1) ? qa : qb;
    __global volatile int* gcount = ctr + CNT + (r + 1) % 3;
    if (gid == 0) ctr[CNT + (r + 2) % 3] = 0, ctr[EDG + (r + 2) % 3] = 0;
    // One frontier vertex per wave of WAVE_WIDTH lanes, so that a hub among a small frontier is
    // scanned by a whole wave rather than by one work-item. Group-uniform loop (bfs_flush).
    for (int base = get_group_id(0) * WAVES; base < count; base += get_num_groups(0) * WAVES) {
      const int i = base + get_local_id(0) / WAVE_WIDTH;
      if (i < count)
        bfs_expand(in[i], get_local_id(0) % WAVE_WIDTH, WAVE_WIDTH, level0 + r + 1, off, adj, levels,
                   parents, lq, &lcount, &ldeg, out, gcount);
      bfs_flush(lq, &lcount, &ldeg, &lbase, out, gcount, ctr + EDG + (r + 1) % 3);
    }
    global_barrier(state, &round);
    // Read by every group after the barrier; the edge count only where a bound needs it (and by
    // group 0 for hist): one more load per group and level cost the grid 1024 27 % (H100).
    const int next = *gcount;
    const int edges = hi_edges < INT_MAX || gid == 0 ? ctr[EDG + (r + 1) % 3] : 0;
    if (gid == 0) hist[2 * r] = next, hist[2 * r + 1] = edges;
    if (!BARRIER_IN_KERNEL || next == 0 || next < lo || next > hi || edges > hi_edges ||
        r + 1 >= max_levels) {
      if (gid == 0) ctr[DONE] = r + 1;
      return;
    }
  }
}
