// Stress and timing kernel for the global barriers of barrier.cl. Each round every work-item
// writes a value that depends on (round, group, item), all groups meet at the barrier, each reads
// its neighbour group's value through an ordinary (non-volatile) load and counts mismatches, and
// all meet again before the next round overwrites the data (barrier_loop: the barriers alone).
// With BARRIER_STRATEGY=0 (relaunch)
// barrier_bench_phase does one phase per launch and the host's launches are the barriers.
#include "barrier.cl"

uint bench_value(uint round, uint index) { return round * 1000003u + index * 7u + 1u; }

#if BARRIER_IN_KERNEL
__kernel void barrier_bench(__global volatile int* state, __global uint* data,
                            __global int* errors, int rounds) {
  if (barrier_discovery(state)) return;
  const int g = get_group_id(0), groups = get_num_groups(0);
  const int l = get_local_size(0), lid = get_local_id(0);
  const int neighbour = ((g + 1) % groups) * l + lid;
  int round = 0, wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    data[g * l + lid] = bench_value(r, g * l + lid);
    global_barrier(state, &round);
    wrong += data[neighbour] != bench_value(r, neighbour);
    global_barrier(state, &round);
  }
  if (wrong) atomic_add(errors, wrong);
}

// Barriers only (2 per round, no data), the loop CUDA's grid.sync() anchor times; same arguments.
__kernel void barrier_loop(__global volatile int* state, __global uint* data,
                           __global int* errors, int rounds) {
  if (barrier_discovery(state)) return;
  int round = 0;
  for (int r = 0; r < 2 * rounds; ++r) global_barrier(state, &round);
  if (round != 2 * rounds && get_local_id(0) == 0) atomic_add(errors, 1);
  (void)data;
}
#endif

// One phase of one round: phase 0 writes, phase 1 reads the neighbour's value and counts errors.
__kernel void barrier_bench_phase(__global uint* data, __global int* errors, int r, int phase) {
  const int g = get_group_id(0), groups = get_num_groups(0);
  const int l = get_local_size(0), lid = get_local_id(0);
  const int neighbour = ((g + 1) % groups) * l + lid;
  if (phase == 0) data[g * l + lid] = bench_value(r, g * l + lid);
  else if (data[neighbour] != bench_value(r, neighbour)) atomic_add(errors, 1);
}

// Token ring over the flag helpers of barrier_order.cl (the pattern of decoupled look-back and
// wavefront flags): in round r (1..rounds) group g waits until its predecessor published r (group
// 0 waits for group G-1's r-1), reads the predecessor's data of that round with ordinary loads,
// checks it, writes its own into buffer r&1 and publishes r. flags[g * stride] is written by
// group g only. Needs all G groups co-resident (`state`: a zeroed barrier state, for discovery).
__kernel void flag_ring(__global volatile int* state, __global volatile int* flags,
                        __global uint* data, __global int* errors, int rounds, int stride) {
  if (barrier_discovery(state)) return;
  const int g = get_group_id(0), groups = get_num_groups(0);
  const int l = get_local_size(0), lid = get_local_id(0), n = groups * l;
  const int prev = (g + groups - 1) % groups;
  int wrong = 0;
  for (int r = 1; r <= rounds; ++r) {
    const int want = g == 0 ? r - 1 : r;
    if (lid == 0) {
      while (flag_load_relaxed(flags + prev * stride) < want) {
      }
      (void)flag_load_acquire(flags + prev * stride);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (want > 0)
      wrong += data[(want & 1) * n + prev * l + lid] != bench_value(want, prev * l + lid);
    data[(r & 1) * n + g * l + lid] = bench_value(r, g * l + lid);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) flag_store_release(flags + g * stride, r);
  }
  if (wrong) atomic_add(errors, wrong);
}
