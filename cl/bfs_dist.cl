// The top-down kernels of the distributed BFS (src/mpi/bfs.cpp); its bottom-up levels run
// cl/bfs_bitmap.cl. A rank owns global vertices [first, last); levels, parents and the frontier
// queues hold its vertices by local index (global - first), the rows hold global neighbour ids,
// row offsets are BFS_OFFSET (long: a rank may hold 2^31 entries or more).
//   bfs_dist_expand   one wave a frontier vertex: an owned neighbour is claimed here (its parent
//                     the global id of the frontier vertex) and staged for the next frontier; any
//                     other leaves as the pair (neighbour, parent) in `remote` the first time this
//                     rank meets it (the global bitmap `seen`: a vertex sent once is claimed by
//                     its owner at that level, so it never needs sending again), counted per owner
//                     in counts[owner] (ctr[2] counts them all; slots past `capacity` are dropped:
//                     the host sized it from the frontier's edges, so none are)
//   bfs_dist_lb_expand  the same per edge, load-balanced: cl/bfs_lb.cl's merge-path tiles (its
//                     scan, sums and path kernels partition the frontier's vertices and edges,
//                     so a hub's edges spread over as many groups as they fill)
//   bfs_dist_starts   the buckets' starts, a prefix of counts (one work-item), into the cursors
//   bfs_dist_bucket   one work-item a pair (ctr[2] of them, read on the device: the host need
//                     not wait for the expand): copies it to its owner's bucket, cursor[owner]
//   bfs_dist_or       seen |= a gathered frontier bitmap (bottom-up levels: every vertex in it is
//                     visited)
//   bfs_dist_claim    one work-item a received pair: the owner claims it
//   bfs_dist_news     a level whose pairs would not fit (src/mpi/bfs_hub.cpp): the expand ran
//                     with capacity 0, so its remote vertices are only bits of `seen`; news =
//                     seen & ~news (news held seen before the expand): this level's discoveries
//   bfs_dist_mask     skip |= ~candidates: the owner's bottom-up scan then visits only the
//                     vertices some rank discovered (it picks a parent among their in-neighbours)
//   bfs_dist_bits     bits |= a list of global vertices (a short frontier gathered as a list)
// The next frontier's size is ctr[0]; its edges, a 64-bit sum, `edges[0]`.
#ifndef WAVE_WIDTH
#error "WAVE_WIDTH undefined"
#endif
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#include "bfs_lb.cl"

// bfs_flush with the edges summed in 64 bits.
void dist_flush(__local int* lq, __local volatile int* lcount, __local volatile int* ldeg,
                __local volatile int* lbase, __global int* out, __global volatile int* gcount,
                __global volatile long* gedges) {
  barrier(CLK_LOCAL_MEM_FENCE);
  const int lid = get_local_id(0), k = min(*lcount, LOCAL_QUEUE);
  if (lid == 0) {
    *lbase = k ? atomic_add(gcount, k) : 0;
    if (*ldeg) atom_add(gedges, (long)*ldeg);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int base = *lbase;
  for (int i = lid; i < k; i += LOCAL_SIZE) out[base + i] = lq[i];
}

// The rank owning global vertex w: block holds ranks + 1 ascending starts.
int dist_owner(__global const int* block, int ranks, int w) {
  int lo = 0, hi = ranks - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (block[mid] <= w) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// Claims local vertex v for level `next` with global parent u; 1 when this work-item did.
int dist_claim(__global volatile int* levels, __global int* parents, int v, int u, int next) {
  if (levels[v] != -1) return 0;
  if (atomic_cmpxchg(levels + v, -1, next) != -1) return 0;
  parents[v] = u;
  return 1;
}

// Edge (u + first, w) of a frontier vertex: returns w - first when this work-item claimed the
// owned neighbour w (-1 otherwise); a remote w leaves as a pair the first time this rank meets it.
int dist_visit(int w, int u, int first, int last, __global volatile int* levels,
               __global int* parents, int next, __global volatile int* ctr,
               __global int* remote, int capacity, __global volatile uint* seen,
               __global const int* block, int ranks, __global volatile int* counts) {
  if (w >= first && w < last) {
    const int v = w - first;
    return dist_claim(levels, parents, v, u + first, next) ? v : -1;
  }
  const uint bit = 1u << (w & 31);
  if (!(seen[w >> 5] & bit) && !(atomic_or(seen + (w >> 5), bit) & bit)) {
    const int slot = atomic_inc(ctr + 2);
    if (slot < capacity) remote[2 * slot] = w, remote[2 * slot + 1] = u + first;
    atomic_inc(counts + dist_owner(block, ranks, w));
  }
  return -1;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_dist_expand(
    __global const BFS_OFFSET* off, __global const int* adj, __global volatile int* levels,
    __global int* parents, __global const int* in, int count, int first, int last,
    __global int* out, __global volatile int* ctr, __global volatile long* edges,
    __global int* remote, int capacity, int level, __global volatile uint* seen,
    __global const int* block, int ranks, __global volatile int* counts) {
  BFS_LOCALS;
  const int i = get_global_id(0) / WAVE_WIDTH, lane = get_global_id(0) % WAVE_WIDTH;
  if (i < count) {
    const int u = in[i];
    const BFS_OFFSET end = off[u + 1];
    for (BFS_OFFSET e = off[u] + lane; e < end; e += WAVE_WIDTH) {
      const int v = dist_visit(adj[e], u, first, last, levels, parents, level + 1, ctr, remote,
                               capacity, seen, block, ranks, counts);
      if (v >= 0) bfs_stage(v, (int)(off[v + 1] - off[v]), lq, &lcount, &ldeg, out, ctr);
    }
  }
  dist_flush(lq, &lcount, &ldeg, &lbase, out, ctr, edges);
}

// One group a merge-path tile of the frontier's `count` vertices and `edges` out-edges (ends,
// sums, path: cl/bfs_lb.cl's bfs_lb_scan, bfs_lb_sums, bfs_lb_path on this queue).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_dist_lb_expand(
    __global const BFS_OFFSET* off, __global const int* adj, __global volatile int* levels,
    __global int* parents, __global const int* in, int count, int edges,
    __global const int* ends, __global const int* sums, __global const int* path, int first,
    int last, __global int* out, __global volatile int* ctr, __global volatile long* gedges,
    __global int* remote, int capacity, int level, __global volatile uint* seen,
    __global const int* block, int ranks, __global volatile int* counts) {
  __local int lend[TILE + 2], lu[TILE + 1];
  __local BFS_OFFSET lrow[TILE + 1];
  BFS_LOCALS;
  int e0, e1;
  const int nloc = lb_load_tile(off, in, count, edges, ends, sums, path, lend, lu, lrow, &e0, &e1);
  for (int r = 0; r < LB_ITEMS; ++r) {  // uniform trip count: sub-group operations inside
    const int e = e0 + r * LOCAL_SIZE + get_local_id(0);
    int v = -1, d = 0;
    if (e < e1) {
      const int k = lb_vertex(lend, nloc, e);
      v = dist_visit(adj[lrow[k] + (e - lend[k])], lu[k], first, last, levels, parents,
                     level + 1, ctr, remote, capacity, seen, block, ranks, counts);
      if (v >= 0) d = (int)(off[v + 1] - off[v]);
    }
    bfs_stage_any(v, d, lq, &lcount, &ldeg, out, ctr);
  }
  dist_flush(lq, &lcount, &ldeg, &lbase, out, ctr, gedges);
}

// pairs[2 i] = a global vertex this rank owns, pairs[2 i + 1] its proposed parent (global).
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_dist_claim(
    __global const BFS_OFFSET* off, __global volatile int* levels, __global int* parents,
    __global const int* pairs, int count, int first, __global int* out,
    __global volatile int* ctr, __global volatile long* edges, int level) {
  BFS_LOCALS;
  const int i = get_global_id(0);
  int found = -1, d = 0;
  if (i < count) {
    const int v = pairs[2 * i] - first;
    if (dist_claim(levels, parents, v, pairs[2 * i + 1], level + 1))
      found = v, d = (int)(off[v + 1] - off[v]);
  }
  bfs_stage_any(found, d, lq, &lcount, &ldeg, out, ctr);
  dist_flush(lq, &lcount, &ldeg, &lbase, out, ctr, edges);
}

// One work-item: cursor[r] = counts[0] + ... + counts[r - 1], the buckets' starts.
__kernel void bfs_dist_starts(__global const int* counts, int ranks, __global int* cursor) {
  if (get_global_id(0) != 0) return;
  int sum = 0;
  for (int r = 0; r < ranks; ++r) cursor[r] = sum, sum += counts[r];
}

// The expand's ctr[2] pairs (none when past `capacity`: the host reports it), any grid size.
__kernel void bfs_dist_bucket(__global const int* remote, __global const int* ctr, int capacity,
                              __global const int* block, int ranks, __global volatile int* cursor,
                              __global int* out) {
  const int count = ctr[2];
  if (count > capacity) return;
  for (int i = get_global_id(0); i < count; i += get_global_size(0)) {
    const int w = remote[2 * i], k = atomic_inc(cursor + dist_owner(block, ranks, w));
    out[2 * k] = w, out[2 * k + 1] = remote[2 * i + 1];
  }
}

__kernel void bfs_dist_or(__global uint* seen, __global const uint* frontier, int words) {
  const int i = get_global_id(0);
  if (i < words) seen[i] |= frontier[i];
}

__kernel void bfs_dist_news(__global const uint* seen, __global uint* news, int words) {
  const int i = get_global_id(0);
  if (i < words) news[i] = seen[i] & ~news[i];
}

__kernel void bfs_dist_mask(__global uint* skip, __global const uint* candidates, int words) {
  const int i = get_global_id(0);
  if (i < words) skip[i] |= ~candidates[i];
}

__kernel void bfs_dist_bits(__global const int* list, int count, __global volatile uint* bits) {
  const int i = get_global_id(0);
  if (i < count) atomic_or(bits + (list[i] >> 5), 1u << (list[i] & 31));
}
