// Shared pieces of the BFS kernels (cl/bfs.cl, cl/bfs_persistent.cl): claiming a vertex for the
// next level (atomic_cmpxchg on levels[], then the winner writes parents[]), staging a group's
// discoveries in local memory and flushing them to the global next-frontier queue with one
// atomic_add per group (a full staging queue overflows to one global atomic per vertex), and
// expanding one frontier vertex with `width` lanes. OpenCL C 1.2 atomics only; where the compiler
// offers cl_khr_subgroups, bfs_stage_any() aggregates a sub-group's appends into one local atomic
// (BFS_NO_SUBGROUPS turns that off), else each found vertex takes one local atomic.
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined"
#endif
#ifndef LOCAL_QUEUE
#error "LOCAL_QUEUE undefined"
#endif
// The type of row offsets: int, or long where one device holds 2^31 entries or more (the
// distributed BFS, src/mpi/bfs.cpp, builds cl/bfs_bitmap.cl with BFS_OFFSET=long).
#ifndef BFS_OFFSET
#define BFS_OFFSET int
#endif

// 1 when this work-item moved v from unvisited (-1) to level `next`; it then owns parents[v].
int bfs_claim(__global volatile int* levels, __global int* parents, int v, int u, int next) {
  if (levels[v] != -1) return 0;
  if (atomic_cmpxchg(levels + v, -1, next) != -1) return 0;
  parents[v] = u;
  return 1;
}

// Appends v, whose out-degree is d, to the group's staging queue (or straight to the global one).
void bfs_stage(int v, int d, __local int* lq, __local volatile int* lcount,
               __local volatile int* ldeg, __global int* out, __global volatile int* gcount) {
  int k = atomic_inc(lcount);
  if (k < LOCAL_QUEUE)
    lq[k] = v;
  else
    out[atomic_inc(gcount)] = v;
  atomic_add(ldeg, d);
}

#if defined(cl_khr_subgroups) && !defined(BFS_NO_SUBGROUPS)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#define BFS_SUBGROUPS 1
#endif

// Called by every work-item of the group (v = -1: nothing found): stages the found vertices, one
// local atomic per sub-group where sub-groups exist (exclusive scan for the slots).
void bfs_stage_any(int v, int d, __local int* lq, __local volatile int* lcount,
                   __local volatile int* ldeg, __global int* out, __global volatile int* gcount) {
#ifdef BFS_SUBGROUPS
  const uint f = v >= 0 ? 1u : 0u;
  const uint k = sub_group_scan_exclusive_add(f), total = sub_group_reduce_add(f);
  const int dsum = sub_group_reduce_add(f ? d : 0);
  int base = 0;
  if (total && get_sub_group_local_id() == 0) {
    base = atomic_add(lcount, (int)total);
    atomic_add(ldeg, dsum);
  }
  base = sub_group_broadcast(base, 0);
  if (f) {
    const int at = base + (int)k;
    if (at < LOCAL_QUEUE)
      lq[at] = v;
    else
      out[atomic_inc(gcount)] = v;
  }
#else
  if (v >= 0) bfs_stage(v, d, lq, lcount, ldeg, out, gcount);
#endif
}

// Every work-item of the group calls it: reserves room in the global queue, copies the staged
// vertices there, adds the staged degrees to *gedges and empties the staging queue.
void bfs_flush(__local int* lq, __local volatile int* lcount, __local volatile int* ldeg,
               __local volatile int* lbase, __global int* out, __global volatile int* gcount,
               __global volatile int* gedges) {
  barrier(CLK_LOCAL_MEM_FENCE);
  const int lid = get_local_id(0), k = min(*lcount, LOCAL_QUEUE);
  if (lid == 0) {
    *lbase = k ? atomic_add(gcount, k) : 0;
    if (*ldeg) atomic_add(gedges, *ldeg);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int base = *lbase;
  for (int i = lid; i < k; i += LOCAL_SIZE) out[base + i] = lq[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) *lcount = 0, *ldeg = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Lane `lane` of `width` claims u's unvisited out-neighbours for level `next` and stages them.
void bfs_expand(int u, int lane, int width, int next, __global const int* off,
                __global const int* adj, __global volatile int* levels, __global int* parents,
                __local int* lq, __local volatile int* lcount, __local volatile int* ldeg,
                __global int* out, __global volatile int* gcount) {
  const int end = off[u + 1];
  for (int e = off[u] + lane; e < end; e += width) {
    const int v = adj[e];
    if (bfs_claim(levels, parents, v, u, next))
      bfs_stage(v, off[v + 1] - off[v], lq, lcount, ldeg, out, gcount);
  }
}

#define BFS_LOCALS                                 \
  __local int lq[LOCAL_QUEUE];                     \
  __local volatile int lcount, ldeg, lbase;        \
  if (get_local_id(0) == 0) lcount = 0, ldeg = 0;  \
  barrier(CLK_LOCAL_MEM_FENCE)
