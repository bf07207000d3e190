// Stress and timing kernel for the global barriers of barrier.cl. Each round every work-item
// writes a value that depends on (round, group, item), all groups meet at the barrier, each reads
// its neighbour group's value through an ordinary (non-volatile) load and counts mismatches, and
// all meet again before the next round overwrites the data. With BARRIER_STRATEGY=0 (relaunch)
// barrier_bench_phase does one phase per launch and the host's launches are the barriers.
#include "common.cl"
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
#endif

// One phase of one round: phase 0 writes, phase 1 reads the neighbour's value and counts errors.
__kernel void barrier_bench_phase(__global uint* data, __global int* errors, int r, int phase) {
  const int g = get_group_id(0), groups = get_num_groups(0);
  const int l = get_local_size(0), lid = get_local_id(0);
  const int neighbour = ((g + 1) % groups) * l + lid;
  if (phase == 0) data[g * l + lid] = bench_value(r, g * l + lid);
  else if (data[neighbour] != bench_value(r, neighbour)) atomic_add(errors, 1);
}
