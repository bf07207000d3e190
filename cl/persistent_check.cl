// A phased kernel for the PersistentKernel tests: in phase p every work-item reads, with an
// ordinary load, the value one work-group further on that phase p-1 wrote (another group's data
// right after the global barrier), adds 1 and writes it to the other buffer. After P phases
// out[i] = in[(i + P * L) mod N] + P, whatever the strategy, relaunch included.
#include "barrier.cl"

__kernel void persistent_shift(__global volatile int* state, __global int* a, __global int* b,
                               int phase_begin, int phase_end) {
  if (barrier_discovery(state)) return;
  const int n = get_global_size(0), i = get_global_id(0), l = get_local_size(0);
  int round = 0;
  for (int p = phase_begin; p < phase_end; ++p) {
    __global int* src = (p & 1) ? b : a;
    __global int* dst = (p & 1) ? a : b;
    dst[i] = src[(i + l) % n] + 1;
    global_barrier(state, &round);
  }
}

// The build's LOCAL_SIZE and BARRIER_STRATEGY (PersistentKernel sets both): the test of
// PersistentKernel::sibling, a kernel built with the persistent program's options.
__kernel void persistent_options(__global int* out) {
  if (get_global_id(0) == 0) out[0] = LOCAL_SIZE, out[1] = BARRIER_STRATEGY;
}
