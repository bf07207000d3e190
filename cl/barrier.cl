// Global (inter-work-group) barriers for persistent kernels, one strategy chosen by
// BARRIER_STRATEGY: 0 relaunch (no in-kernel barrier: the host launches once per phase),
// 1 lock (Xiao & Feng: one counter whose goal grows by G per round, never reset; the last
// arriver bumps a generation flag on its own cache line that everybody spins on), 2 grouped-lock
// (groups of BARRIER_GROUP_SIZE work-groups with their own counters, group leaders meet at a top
// counter), 3 lock-free (Xiao & Feng Arrayin/Arrayout flags checked by master work-group 0,
// G <= work-group size), 4 tree (flag arrays in ceil(log_B G) levels plus a release flag,
// B = BARRIER_BRANCH <= work-group size, any G). All strategies share one call:
//   global_barrier(state, &round)
// where `state` is the zero-filled buffer the host API sizes and `round` a private counter that
// starts at 0 in every launch. Ordering: BARRIER_C11=1 (devices with OpenCL C 2.0/3.0 atomics,
// built with -cl-std=CL3.0) uses acquire/release at device scope; BARRIER_C11=0 (OpenCL C 1.2,
// NVIDIA) uses 1.x atomics, volatile spin loads and mem_fence(CLK_GLOBAL_MEM_FENCE) before
// arriving and after departing, with a work-group barrier around the one spinning work-item, so
// that data written before the barrier is read correctly through ordinary loads after it.
// On the 1.2 path every hop of a multi-hop arrival (group counter -> top counter -> flag, child
// flag -> parent flag) is a fence-acquire and a fence-release, as in CUDA's grid.sync(): a relaxed
// observation followed by a plain store would not carry the first group's data to the last.
// Every persistent kernel starts with `if (barrier_discovery(state)) return;` so the host can run
// the occupancy-discovery protocol (Sorensen et al., OOPSLA 2016) with the very same kernel.
#ifndef BARRIER_STRATEGY
#error "BARRIER_STRATEGY undefined!"
#endif
#ifndef BARRIER_C11
#error "BARRIER_C11 undefined!"
#endif
#if BARRIER_STRATEGY == 2 && !defined(BARRIER_GROUP_SIZE)
#error "BARRIER_GROUP_SIZE undefined!"
#endif
#if BARRIER_STRATEGY == 4 && !defined(BARRIER_BRANCH)
#error "BARRIER_BRANCH undefined!"
#endif

// State layout (ints); every independently written word sits on its own 128-byte line.
#define BARRIER_LINE 32
#define BARRIER_MODE 0            // 1: this launch only discovers occupancy
#define BARRIER_POLL_CLOSED 32    // discovery: 0 open, 1 closed
#define BARRIER_POLL_COUNT 64     // discovery: tickets taken
#define BARRIER_PATIENCE 65       // discovery: polls without change before closing (host sets)
#define BARRIER_FLAG 96           // release generation
#define BARRIER_TOP 128           // lock / grouped-lock top counter
#define BARRIER_ARRAYS 160        // group counters, flag arrays, tree levels

#if BARRIER_C11
#define B_ATOM(p) ((volatile __global atomic_int*)(p))
#define B_LOAD(p) atomic_load_explicit(B_ATOM(p), memory_order_acquire, memory_scope_device)
#define B_STORE(p, v) \
  atomic_store_explicit(B_ATOM(p), (v), memory_order_release, memory_scope_device)
#define B_ADD(p, v) \
  atomic_fetch_add_explicit(B_ATOM(p), (v), memory_order_acq_rel, memory_scope_device)
#define B_FENCE()
#define B_WG_BARRIER() \
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_device)
#else
#define B_LOAD(p) (*(p))
#define B_STORE(p, v) (*(p) = (v))
#define B_ADD(p, v) atomic_add((p), (v))
#ifdef BARRIER_NV_PTX  // NVIDIA: acquire/release at GPU scope (also invalidates the L1)
#define B_FENCE() asm volatile("fence.acq_rel.gpu;" ::: "memory")
#else
#define B_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
#define B_WG_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif

// Occupancy discovery. Returns 1 (for every work-item of the group) when this launch is a
// discovery launch: then the kernel must return at once. Only local id 0 spins; the others wait
// at the work-group barrier (all work-items stay alive, as in the real kernel). A group arriving
// while the poll is open takes a ticket and stays until ticket 0 closes the poll, after the count
// has stopped growing for `patience` polls; so every ticket holder is alive at the moment of
// closing and the count never exceeds the co-resident number.
int barrier_discovery(__global volatile int* state) {
  if (state[BARRIER_MODE] == 0) return 0;
  if (get_local_id(0) == 0 && B_LOAD(state + BARRIER_POLL_CLOSED) == 0) {
    int ticket = atomic_add(state + BARRIER_POLL_COUNT, 1);
    if (ticket == 0) {
      int seen = 1, still = 0, patience = state[BARRIER_PATIENCE];
      while (still < patience) {
        int now = B_LOAD(state + BARRIER_POLL_COUNT);
        still = (now == seen) ? still + 1 : 0;
        seen = now;
      }
      B_STORE(state + BARRIER_POLL_CLOSED, 1);
    } else {
      while (B_LOAD(state + BARRIER_POLL_CLOSED) == 0) {
      }
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  return 1;
}

#if BARRIER_STRATEGY == 0
#define BARRIER_IN_KERNEL 0
// relaunch: the host's launches are the barriers (one launch per phase), so a phase kernel's
// global_barrier() only counts rounds; the same kernel source serves every strategy.
void global_barrier(__global volatile int* state, int* round) {
  (void)state;
  ++*round;
}
#else
#define BARRIER_IN_KERNEL 1

// Spins (one work-item) until the release flag reaches `gen`; signed difference survives wrap.
void barrier_wait_flag(__global volatile int* state, int gen) {
  while (B_LOAD(state + BARRIER_FLAG) - gen < 0) {
  }
}

void global_barrier(__global volatile int* state, int* round) {
  const int g = get_group_id(0), groups = get_num_groups(0), lid = get_local_id(0);
  const int gen = ++*round;
  B_WG_BARRIER();  // every work-item's writes precede the arrival
#if BARRIER_STRATEGY == 1
  if (lid == 0) {
    B_FENCE();
    if ((uint)B_ADD(state + BARRIER_TOP, 1) == (uint)gen * groups - 1u) {  // wraps safely
      B_FENCE();  // 1.2: acquire the others' arrivals, release them with the flag
      B_STORE(state + BARRIER_FLAG, gen);
    } else {
      barrier_wait_flag(state, gen);
    }
    B_FENCE();
  }
#elif BARRIER_STRATEGY == 2
  if (lid == 0) {
    const int k = g / BARRIER_GROUP_SIZE, nk = (groups + BARRIER_GROUP_SIZE - 1) / BARRIER_GROUP_SIZE;
    const int members = min(BARRIER_GROUP_SIZE, groups - k * BARRIER_GROUP_SIZE);
    B_FENCE();
    int last = (uint)B_ADD(state + BARRIER_ARRAYS + k * BARRIER_LINE, 1) == (uint)gen * members - 1u;
    if (last) B_FENCE();  // 1.2: each hop of the chain is an acquire and a release
    if (last && (uint)B_ADD(state + BARRIER_TOP, 1) == (uint)gen * nk - 1u) {
      B_FENCE();
      B_STORE(state + BARRIER_FLAG, gen);
    } else {
      barrier_wait_flag(state, gen);
    }
    B_FENCE();
  }
#elif BARRIER_STRATEGY == 3
  __global volatile int* in = state + BARRIER_ARRAYS;
  __global volatile int* out = in + ((groups + BARRIER_LINE - 1) & -BARRIER_LINE);
  if (lid == 0) {
    B_FENCE();
    B_STORE(in + g, gen);
  }
  B_WG_BARRIER();  // PoCL: a store and a spin of one work-item need a barrier between them
  const int watch = g == 0 && lid < groups;  // master: work-item i watches group i
  if (watch) {
    while (B_LOAD(in + lid) != gen) {
    }
    B_FENCE();  // 1.2: acquire what group lid wrote
  }
  B_WG_BARRIER();  // in every group: no barrier under a condition (PoCL)
  if (watch) {
    B_FENCE();  // 1.2: release everything the master's work-items acquired
    B_STORE(out + lid, gen);
  }
  B_WG_BARRIER();
  if (lid == 0) {
    while (B_LOAD(out + g) != gen) {
    }
    B_FENCE();
  }
#elif BARRIER_STRATEGY == 4
  // Level l has count_l nodes (count_0 = G); node j of level l+1 is fed by nodes j*B..j*B+B-1 of
  // level l and owned by the group that owns node j*B (group index multiple of B^(l+1)).
  __global volatile int* level = state + BARRIER_ARRAYS;
  int count = groups, node = g;
  if (lid == 0) {
    B_FENCE();
    if (groups == 1) B_STORE(state + BARRIER_FLAG, gen);
    else B_STORE(level + g, gen);
  }
  B_WG_BARRIER();  // PoCL: a store and a spin of one work-item need a barrier between them
  while (count > 1 && node % BARRIER_BRANCH == 0) {
    if (lid < BARRIER_BRANCH && node + lid < count) {
      while (B_LOAD(level + node + lid) != gen) {
      }
      B_FENCE();  // 1.2: acquire the child's subtree
    }
    B_WG_BARRIER();
    __global volatile int* next = level + ((count + BARRIER_LINE - 1) & -BARRIER_LINE);
    count = (count + BARRIER_BRANCH - 1) / BARRIER_BRANCH;
    node /= BARRIER_BRANCH;
    if (lid == 0) {
      B_FENCE();  // 1.2: release the whole subtree to the parent (or everybody)
      if (count == 1) B_STORE(state + BARRIER_FLAG, gen);
      else B_STORE(next + node, gen);
    }
    B_WG_BARRIER();
    level = next;
  }
  if (lid == 0) {
    barrier_wait_flag(state, gen);
    B_FENCE();
  }
#else
#error "BARRIER_STRATEGY must be 0..4"
#endif
  B_WG_BARRIER();  // nobody proceeds before its leader saw the release
}
#endif
