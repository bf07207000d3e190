// Bottom-up BFS on bitmaps (Beamer's direction-optimizing step; 1 bit per vertex for the visited
// set and for the frontiers). Conversions happen only when the direction changes:
//   bfs_bu_begin     levels -> visited bitmap (level != -1) and frontier bitmap (level == `level`),
//                    one work-item per 32-bit word
//   bfs_bu_step      one work-item per vertex: an unvisited vertex scans its in-neighbours until
//                    the first one in the frontier bitmap (early exit), takes it as parent; the
//                    group collects its L vertices' bits in local memory and writes its own
//                    L / 32 words of the next frontier and of the visited bitmap with plain
//                    stores (no other group touches them); counts: one global atomic a group
//   bfs_bits_to_queue  frontier bitmap -> queue (back to top-down), through the staging queue
// Kernels run back to back on one queue: no cross-group protocol inside a launch.
// The next frontier's edges: ctr[1] (one device: n + m < 2^31), or with BFS_EDGES_64 (the
// distributed BFS, whose rank may see more than 2^31 frontier edges) the long edges[0].
#include "bfs_common.cl"

#ifdef BFS_EDGES_64
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define BFS_EDGES_ARG , __global volatile long* edges
#define BFS_ADD_EDGES(ctr, d) atom_add(edges, (long)(d))
#else
#define BFS_EDGES_ARG
#define BFS_ADD_EDGES(ctr, d) atomic_add((ctr) + 1, (d))
#endif

#if LOCAL_SIZE % 32 != 0
#error "LOCAL_SIZE must be a multiple of 32 (bitmap words)"
#endif
#define WORDS (LOCAL_SIZE / 32)

__kernel void bfs_bu_begin(__global const int* levels, int n, int level, __global uint* visited,
                           __global uint* frontier) {
  const int w = get_global_id(0);
  if (w >= (n + 31) / 32) return;
  uint vis = 0, fr = 0;
  for (int b = 0; b < 32; ++b) {
    const int v = 32 * w + b;
    const int l = v < n ? levels[v] : 0;  // past n: visited, not in the frontier
    vis |= (l != -1 ? 1u : 0u) << b;
    fr |= (v < n && l == level ? 1u : 0u) << b;
  }
  visited[w] = vis;
  frontier[w] = fr;
}

// in_off/in_adj: in-neighbours (the out-neighbours of a symmetric graph); off: out-degrees.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_bu_step(
    __global const BFS_OFFSET* in_off, __global const int* in_adj, __global const BFS_OFFSET* off,
    __global int* levels, __global int* parents, __global uint* visited,
    __global const uint* frontier, __global uint* next, int n,
    __global volatile int* ctr BFS_EDGES_ARG, int level) {
  __local volatile uint bits[WORDS];
  __local volatile int lcount, ldeg;
  const int lid = get_local_id(0), v = get_global_id(0);
  if (lid < WORDS) bits[lid] = 0;
  if (lid == 0) lcount = 0, ldeg = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (v < n && !((visited[v >> 5] >> (v & 31)) & 1u)) {
    const BFS_OFFSET end = in_off[v + 1];
    for (BFS_OFFSET e = in_off[v]; e < end; ++e) {
      const int u = in_adj[e];
      if ((frontier[u >> 5] >> (u & 31)) & 1u) {
        levels[v] = level + 1;
        parents[v] = u;
        atomic_or(bits + (lid >> 5), 1u << (v & 31));
        atomic_inc(&lcount);
        atomic_add(&ldeg, (int)(off[v + 1] - off[v]));  // a group: < 2^31 (degrees < 2^23)
        break;
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int w = get_group_id(0) * WORDS + lid;
  if (lid < WORDS && w < (n + 31) / 32) {
    next[w] = bits[lid];
    visited[w] |= bits[lid];
  }
  if (lid == 0 && lcount) atomic_add(ctr, lcount), BFS_ADD_EDGES(ctr, ldeg);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_bits_to_queue(
    __global const BFS_OFFSET* off, __global const uint* frontier, int n, __global int* out,
    __global volatile int* ctr) {
  BFS_LOCALS;
  const int v = get_global_id(0);
  int found = -1, d = 0;
  if (v < n && ((frontier[v >> 5] >> (v & 31)) & 1u)) found = v, d = (int)(off[v + 1] - off[v]);
  bfs_stage_any(found, d, lq, &lcount, &ldeg, out, ctr);
  bfs_flush(lq, &lcount, &ldeg, &lbase, out, ctr, ctr + 1);
}
