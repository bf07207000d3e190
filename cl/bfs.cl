// Level-synchronous BFS kernels, one launch per level (the host reads the next frontier's size
// and edge count from ctr[0], ctr[1] and picks the next level's kernel): `bfs_queue` (top-down,
// one work-item per frontier vertex), `bfs_wave` (top-down, one frontier vertex per wave of
// WAVE_WIDTH lanes: 32 on NVIDIA, 64 on AMD) and `bfs_scatter` (writes the levels and parents
// that CPU steps found into levels[] and parents[]). The load-balanced advance is in
// cl/bfs_lb.cl, bottom-up on bitmaps in cl/bfs_bitmap.cl.
#ifndef WAVE_WIDTH
#error "WAVE_WIDTH undefined"
#endif
#include "bfs_common.cl"

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_queue(
    __global const int* off, __global const int* adj, __global volatile int* levels,
    __global int* parents, __global const int* in, int count, __global int* out,
    __global volatile int* ctr, int level) {
  BFS_LOCALS;
  const int i = get_global_id(0);
  if (i < count)
    bfs_expand(in[i], 0, 1, level + 1, off, adj, levels, parents, lq, &lcount, &ldeg, out, ctr);
  bfs_flush(lq, &lcount, &ldeg, &lbase, out, ctr, ctr + 1);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void bfs_wave(
    __global const int* off, __global const int* adj, __global volatile int* levels,
    __global int* parents, __global const int* in, int count, __global int* out,
    __global volatile int* ctr, int level) {
  BFS_LOCALS;
  const int i = get_global_id(0) / WAVE_WIDTH, lane = get_global_id(0) % WAVE_WIDTH;
  if (i < count)
    bfs_expand(in[i], lane, WAVE_WIDTH, level + 1, off, adj, levels, parents, lq, &lcount, &ldeg,
               out, ctr);
  bfs_flush(lq, &lcount, &ldeg, &lbase, out, ctr, ctr + 1);
}

__kernel void bfs_scatter(__global int* levels, __global int* parents, __global const int* in,
                          __global const int* lev, __global const int* par, int count) {
  const int i = get_global_id(0);
  if (i < count) levels[in[i]] = lev[i], parents[in[i]] = par[i];
}
