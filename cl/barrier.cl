// Global (inter-work-group) barriers for persistent kernels, one strategy chosen by
// BARRIER_STRATEGY: 0 relaunch (no in-kernel barrier: the host launches once per phase),
// 1 lock (CUDA grid.sync()'s algorithm: one counter word; each group adds 1 with release, group 0
// adds 0x80000000 - (G-1), so the top bit flips exactly when all G arrived, and everybody spins
// on that bit with acquire: no separate flag store; with BARRIER_LOCK_SPLIT = K > 1 group g adds
// 1 to counter g % K instead, and everybody spins until every counter holds its round's count,
// then acquires each: K words share the arrivals), 2 grouped-lock (groups of
// BARRIER_GROUP_SIZE work-groups count on their own counters; the last of each arrives at a
// top-bit counter as in lock), 3 lock-free (Xiao & Feng Arrayin/Arrayout flags checked by master
// work-group 0, G <= work-group size), 4 tree (flag arrays in ceil(log_B G) levels plus a release
// flag, B = BARRIER_BRANCH <= work-group size, any G). In 3 and 4 every flag word is written by
// one group only; BARRIER_FLAG_STRIDE (1 packed, 32 one 128-byte line each) spaces them.
// All strategies share one call:
//   global_barrier(state, &round)
// where `state` is the zero-filled buffer the host API sizes and `round` a private counter that
// starts at 0 in every launch. Ordering comes from barrier_order.cl (C11 acquire/release, NVIDIA
// PTX fences or one-directional acquire/release, plain 1.2 mem_fence): one work-item per group
// arrives with release and spins with acquire, between work-group barriers, so that data written
// before the barrier is read correctly through ordinary loads after it. Every hop of a multi-hop
// arrival (group counter -> top counter, child flag -> parent flag) acquires and releases.
// Every persistent kernel starts with `if (barrier_discovery(state)) return;` so the host can run
// the occupancy-discovery protocol (Sorensen et al., OOPSLA 2016) with the very same kernel.
#include "contract.h"
#ifndef BARRIER_STRATEGY
#error "BARRIER_STRATEGY undefined!"
#endif
#ifndef BARRIER_C11
#error "BARRIER_C11 undefined!"
#endif
#if BARRIER_STRATEGY == BARRIER_LOCK && !defined(BARRIER_LOCK_SPLIT)
#error "BARRIER_LOCK_SPLIT undefined!"
#endif
#if BARRIER_STRATEGY == BARRIER_GROUPED_LOCK && !defined(BARRIER_GROUP_SIZE)
#error "BARRIER_GROUP_SIZE undefined!"
#endif
#if (BARRIER_STRATEGY == BARRIER_LOCK || BARRIER_STRATEGY == BARRIER_GROUPED_LOCK) && \
    !defined(BARRIER_SPIN_NS)
#error "BARRIER_SPIN_NS undefined!"
#endif
#if BARRIER_STRATEGY == BARRIER_TREE && !defined(BARRIER_BRANCH)
#error "BARRIER_BRANCH undefined!"
#endif
#if (BARRIER_STRATEGY == BARRIER_LOCK_FREE || BARRIER_STRATEGY == BARRIER_TREE) && \
    !defined(BARRIER_FLAG_STRIDE)
#error "BARRIER_FLAG_STRIDE undefined!"
#endif

// The state layout (BARRIER_MODE .. BARRIER_ARRAYS, in ints) and the strategy numbers are the
// host/kernel contract of contract.h.
#include "barrier_order.cl"

// Spin loads: the C11 and order-1 paths spin with acquire loads; order 2 spins relaxed and
// acquires once; the full-fence paths spin on volatile loads and fence once.
#if BARRIER_C11 || (defined(BARRIER_NV_PTX) && BARRIER_NV_ORDER == BARRIER_ORDER_ACQREL)
#define B_SPIN_LOAD(p) flag_load_acquire(p)
#define B_SPIN_DONE(p)
#elif defined(BARRIER_NV_PTX) && BARRIER_NV_ORDER == BARRIER_ORDER_ACQREL_RSPIN
#define B_SPIN_LOAD(p) flag_load_relaxed(p)
#define B_SPIN_DONE(p) (void)flag_load_acquire(p)
#else
#define B_SPIN_LOAD(p) flag_load_relaxed(p)
#define B_SPIN_DONE(p) B_FULL_FENCE()
#endif

// The spin pause between polls of the top-bit word (lock, grouped-lock): BARRIER_SPIN_NS > 0
// sleeps that long (PTX nanosleep, sm_70 and later; NVIDIA only), so that fewer polls queue at
// the word's L2 slice beside the arrivals (H100, 1056 groups at full residency: 2.07 -> 1.95 us).
#if defined(BARRIER_NV_PTX) && defined(BARRIER_SPIN_NS) && BARRIER_SPIN_NS > 0
#define B_SPIN_PAUSE() asm volatile("nanosleep.u32 %0;" ::"r"(BARRIER_SPIN_NS))
#else
#define B_SPIN_PAUSE()
#endif

// Occupancy discovery. Returns 1 (for every work-item of the group) when this launch is a
// discovery launch: then the kernel must return at once. Only local id 0 spins; the others wait
// at the work-group barrier (all work-items stay alive, as in the real kernel). A group arriving
// while the poll is open takes a ticket and stays until ticket 0 closes the poll, after the count
// has stopped growing for `patience` polls; so every ticket holder is alive at the moment of
// closing and the count never exceeds the co-resident number.
int barrier_discovery(__global volatile int* state) {
  if (state[BARRIER_MODE] == 0) return 0;
  if (get_local_id(0) == 0 && flag_load_acquire(state + BARRIER_POLL_CLOSED) == 0) {
    int ticket = atomic_add(state + BARRIER_POLL_COUNT, 1);
    if (ticket == 0) {
      int seen = 1, still = 0, patience = state[BARRIER_PATIENCE];
      while (still < patience) {
        int now = flag_load_acquire(state + BARRIER_POLL_COUNT);
        still = (now == seen) ? still + 1 : 0;
        seen = now;
      }
      flag_store_release(state + BARRIER_POLL_CLOSED, 1);
    } else {
      while (flag_load_acquire(state + BARRIER_POLL_CLOSED) == 0) {
      }
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  return 1;
}

#if BARRIER_STRATEGY == BARRIER_RELAUNCH
#define BARRIER_IN_KERNEL 0
// relaunch: the host's launches are the barriers (one launch per phase), so a phase kernel's
// global_barrier() only counts rounds; the same kernel source serves every strategy.
void global_barrier(__global volatile int* state, int* round) {
  (void)state;
  ++*round;
}
#else
#define BARRIER_IN_KERNEL 1

// Spins (one work-item) until the tree's release flag reaches `gen` (signed difference: wraps).
void barrier_wait_flag(__global volatile int* state, int gen) {
  while (B_SPIN_LOAD(state + BARRIER_FLAG) - gen < 0) {
  }
  B_SPIN_DONE(state + BARRIER_FLAG);
}

// grid.sync()-style arrival of one of `n` participants (`first` adds the bias) at a top-bit
// counter, then the spin until the top bit equals round parity (it flips once per round).
void barrier_top_bit(__global volatile int* top, int first, int n, int gen) {
  flag_add_release(top, first ? (int)(0x80000000u - (uint)(n - 1)) : 1);
  while (((uint)B_SPIN_LOAD(top) >> 31) != ((uint)gen & 1u)) B_SPIN_PAUSE();
  B_SPIN_DONE(top);
}

void global_barrier(__global volatile int* state, int* round) {
  const int g = get_group_id(0), groups = get_num_groups(0), lid = get_local_id(0);
  const int gen = ++*round;
  B_WG_BARRIER();  // every work-item's writes precede the arrival
#if BARRIER_STRATEGY == BARRIER_LOCK && BARRIER_LOCK_SPLIT == 1
  if (lid == 0) barrier_top_bit(state + BARRIER_TOP, g == 0, groups, gen);
#elif BARRIER_STRATEGY == BARRIER_LOCK
  if (lid == 0) {
    __global volatile int* ctr = state + BARRIER_ARRAYS;  // K counters, one line each
    flag_add_release(ctr + (g % BARRIER_LOCK_SPLIT) * BARRIER_LINE, 1);
    // Counter k gets gen * n_k after round gen (n_k: the groups with g % K == k); a fast group
    // may already add round gen + 1's arrival, hence >= (as a difference: the count wraps).
    int all = 0;
    while (!all) {
      all = 1;
      for (int k = 0; k < BARRIER_LOCK_SPLIT; ++k) {
        const uint n_k = (uint)(groups / BARRIER_LOCK_SPLIT + (k < groups % BARRIER_LOCK_SPLIT));
        all &= (int)((uint)B_SPIN_LOAD(ctr + k * BARRIER_LINE) - (uint)gen * n_k) >= 0;
      }
    }
    for (int k = 0; k < BARRIER_LOCK_SPLIT; ++k) B_SPIN_DONE(ctr + k * BARRIER_LINE);
  }
#elif BARRIER_STRATEGY == BARRIER_GROUPED_LOCK
  if (lid == 0) {
    const int k = g / BARRIER_GROUP_SIZE, nk = (groups + BARRIER_GROUP_SIZE - 1) / BARRIER_GROUP_SIZE;
    const int members = min(BARRIER_GROUP_SIZE, groups - k * BARRIER_GROUP_SIZE);
    __global volatile int* top = state + BARRIER_TOP;
    // acq_rel: the last member acquires the others' arrivals and releases them at the top.
    if ((uint)flag_add_acq_rel(state + BARRIER_ARRAYS + k * BARRIER_LINE, 1) ==
        (uint)gen * members - 1u) {
      barrier_top_bit(top, k == 0, nk, gen);
    } else {
      while (((uint)B_SPIN_LOAD(top) >> 31) != ((uint)gen & 1u)) B_SPIN_PAUSE();
      B_SPIN_DONE(top);
    }
  }
#elif BARRIER_STRATEGY == BARRIER_LOCK_FREE
  const int S = BARRIER_FLAG_STRIDE;
  __global volatile int* in = state + BARRIER_ARRAYS;  // in[g]: written by group g only
  __global volatile int* out = in + ((groups * S + BARRIER_LINE - 1) & -BARRIER_LINE);  // master
  if (lid == 0) flag_store_release(in + g * S, gen);
  B_WG_BARRIER();  // PoCL: a store and a spin of one work-item need a barrier between them
  const int watch = g == 0 && lid < groups;  // master: work-item i watches group i
  if (watch) {
    while (B_SPIN_LOAD(in + lid * S) != gen) {
    }
    B_SPIN_DONE(in + lid * S);  // acquire what group lid wrote
  }
  B_WG_BARRIER();  // in every group: no barrier under a condition (PoCL)
  if (watch) flag_store_release(out + lid * S, gen);  // releases all the master acquired
  B_WG_BARRIER();
  if (lid == 0) {
    while (B_SPIN_LOAD(out + g * S) != gen) {
    }
    B_SPIN_DONE(out + g * S);
  }
#elif BARRIER_STRATEGY == BARRIER_TREE
  // Level l has count_l nodes (count_0 = G); node j of level l+1 is fed by nodes j*B..j*B+B-1 of
  // level l and written only by the group that owns node j*B (group index multiple of B^(l+1)).
  const int S = BARRIER_FLAG_STRIDE;
  __global volatile int* level = state + BARRIER_ARRAYS;
  int count = groups, node = g;
  if (lid == 0) flag_store_release(groups == 1 ? state + BARRIER_FLAG : level + g * S, gen);
  B_WG_BARRIER();  // PoCL: a store and a spin of one work-item need a barrier between them
  while (count > 1 && node % BARRIER_BRANCH == 0) {
    if (lid < BARRIER_BRANCH && node + lid < count) {
      __global volatile int* child = level + (node + lid) * S;
      while (B_SPIN_LOAD(child) != gen) {
      }
      B_SPIN_DONE(child);  // acquire the child's subtree
    }
    B_WG_BARRIER();
    __global volatile int* next = level + ((count * S + BARRIER_LINE - 1) & -BARRIER_LINE);
    count = (count + BARRIER_BRANCH - 1) / BARRIER_BRANCH;
    node /= BARRIER_BRANCH;
    if (lid == 0)  // release the whole subtree to the parent (or everybody)
      flag_store_release(count == 1 ? state + BARRIER_FLAG : next + node * S, gen);
    B_WG_BARRIER();
    level = next;
  }
  if (lid == 0) barrier_wait_flag(state, gen);
#else
#error "BARRIER_STRATEGY must be 0..4"
#endif
  B_WG_BARRIER();  // nobody proceeds before its leader saw the release
}
#endif
