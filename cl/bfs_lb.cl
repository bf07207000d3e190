// Load-balanced top-down advance (Gunrock's LB advance; Merrill, Garland and Grimshaw's scan-based
// gather; the merge-path partition of Merrill and Garland's SpMV). The frontier's vertices and
// their out-edges form one merged sequence (each vertex's end marker after its edges); every
// work-group takes TILE = LB_ITEMS x LOCAL_SIZE items of it, so a hub's edges are spread over as
// many groups as they fill, and a run of zero-degree vertices cannot overflow a tile.
//   bfs_lb_scan    group g: inclusive scan of the out-degrees of in[g L .. g L + L) -> ends[]
//                  (within the group), sums[g] = the group's total
//   bfs_lb_sums    one group: exclusive scan of sums[0 .. groups) in place
//   bfs_lb_path    one work-item per tile boundary: the merge-path search (all tiles' searches
//                  at once, so no group of the expand waits through ~log2(count) global loads)
//   bfs_lb_expand  its tile's first and last (vertex, edge) pairs from bfs_lb_path, the tile's
//                  vertices (id, row start, scanned ends) into local memory (lb_load_tile), then
//                  each work-item
//                  takes edges LOCAL_SIZE apart (coalesced adj reads), finds the edge's vertex by
//                  binary search in local memory, claims the neighbour and appends it through a
//                  sub-group-aggregated (or local-memory) staging queue; one global atomic a group.
// Kernels run back to back on one queue: no cross-group protocol inside a launch. The distributed
// BFS (cl/bfs_dist.cl) runs the first three and its own expand on lb_load_tile / lb_vertex, with
// BFS_OFFSET=long rows (a frontier's count + edges still below 2^31: the host checks).
#include "bfs_common.cl"
#include "scan.cl"

#ifndef LB_ITEMS
#error "LB_ITEMS undefined"
#endif
#define TILE (LB_ITEMS * LOCAL_SIZE)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_lb_scan(
    __global const BFS_OFFSET* off, __global const int* in, int count, __global int* ends,
    __global int* sums) {
  __local uint s[LOCAL_SIZE];
  const int i = get_global_id(0);
  int d = 0;
  if (i < count) {
    const int u = in[i];
    d = (int)(off[u + 1] - off[u]);
  }
  const int incl = (int)wg_scan_incl((uint)d, s);
  if (i < count) ends[i] = incl;
  if (get_local_id(0) == LOCAL_SIZE - 1) sums[get_group_id(0)] = incl;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_lb_sums(
    __global int* sums, int groups) {
  __local uint s[LOCAL_SIZE];
  int carry = 0;
  for (int base = 0; base < groups; base += LOCAL_SIZE) {  // group-uniform loop
    const int i = base + get_local_id(0);
    const int x = i < groups ? sums[i] : 0;
    const int incl = (int)wg_scan_incl((uint)x, s);
    if (i < groups) sums[i] = carry + incl - x;
    carry += (int)s[LOCAL_SIZE - 1];
    barrier(CLK_LOCAL_MEM_FENCE);  // s is read above before the next round writes it
  }
}

// The global inclusive scan of the frontier's out-degrees at frontier index i.
int lb_end(__global const int* ends, __global const int* sums, int i) {
  return ends[i] + sums[i / LOCAL_SIZE];
}

// Merge path: the vertices whose end markers lie before diagonal `diag` of the merged sequence
// (count vertices, edges edges); the edges before it are diag minus that.
int lb_merge_path(__global const int* ends, __global const int* sums, int count, int edges,
                  int diag) {
  int lo = max(diag - edges, 0), hi = min(diag, count);
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (lb_end(ends, sums, mid) <= diag - mid - 1)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// path[t] = vertices before diagonal t x TILE (the last boundary clamped to the sequence's end).
__kernel void bfs_lb_path(__global const int* ends, __global const int* sums, int count,
                          int edges, int tiles, __global int* path) {
  const int t = get_global_id(0);
  if (t <= tiles)
    path[t] = lb_merge_path(ends, sums, count, edges, (int)min((long)t * TILE, (long)count + edges));
}

// Loads group g's tile: lu[k], lrow[k] = the id and row start of the tile's k-th vertex, lend[k] =
// the edges before it (lend[0]: before the first); *e0, *e1: the tile's edge range. Returns the
// vertices owning the tile's edges (<= TILE + 1). Ends with a barrier.
int lb_load_tile(__global const BFS_OFFSET* off, __global const int* in, int count, int edges,
                 __global const int* ends, __global const int* sums, __global const int* path,
                 __local int* lend, __local int* lu, __local BFS_OFFSET* lrow, int* e0, int* e1) {
  const int lid = get_local_id(0), g = get_group_id(0);
  const int total = count + edges;
  const int d0 = (int)min((long)g * TILE, (long)total);
  const int d1 = (int)min((long)d0 + TILE, (long)total);
  const int x0 = path[g], x1 = path[g + 1];
  *e0 = d0 - x0, *e1 = d1 - x1;
  const int nloc = min(x1, count - 1) - x0 + 1;
  for (int k = lid; k < nloc; k += LOCAL_SIZE) {
    const int u = in[x0 + k];
    lu[k] = u;
    lrow[k] = off[u];
    lend[k + 1] = lb_end(ends, sums, x0 + k);
  }
  if (lid == 0) lend[0] = x0 > 0 ? lb_end(ends, sums, x0 - 1) : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  return nloc;
}

// The tile vertex k with lend[k] <= e < lend[k + 1] (binary search in local memory).
int lb_vertex(__local const int* lend, int nloc, int e) {
  int lo = 0, hi = nloc - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) >> 1;
    if (lend[mid] <= e)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_lb_expand(
    __global const BFS_OFFSET* off, __global const int* adj, __global volatile int* levels,
    __global int* parents, __global const int* in, int count, int edges,
    __global const int* ends, __global const int* sums, __global const int* path,
    __global int* out, __global volatile int* ctr, int level) {
  __local int lend[TILE + 2], lu[TILE + 1];
  __local BFS_OFFSET lrow[TILE + 1];
  BFS_LOCALS;
  int e0, e1;
  const int nloc = lb_load_tile(off, in, count, edges, ends, sums, path, lend, lu, lrow, &e0, &e1);
  const int next = level + 1;
  for (int r = 0; r < LB_ITEMS; ++r) {  // uniform trip count: sub-group operations inside
    const int e = e0 + r * LOCAL_SIZE + get_local_id(0);
    int v = -1, d = 0;
    if (e < e1) {
      const int lo = lb_vertex(lend, nloc, e);
      const int w = adj[lrow[lo] + (e - lend[lo])];
      if (bfs_claim(levels, parents, w, lu[lo], next)) v = w, d = (int)(off[w + 1] - off[w]);
    }
    bfs_stage_any(v, d, lq, &lcount, &ldeg, out, ctr);
  }
  bfs_flush(lq, &lcount, &ldeg, &lbase, out, ctr, ctr + 1);
}
