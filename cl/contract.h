// The host/kernel contract: every number that the library's C++ and its kernels must agree on,
// declared once. Kernels `#include "contract.h"` (src/runtime/kernels.cpp resolves it from the
// embedded cl/ files like any .cl include); the library includes "cl/contract.h". Plain
// preprocessor constants, so that both OpenCL C and C++ read them and `#if` can test them.
#ifndef LOCKSTEP_CONTRACT_H
#define LOCKSTEP_CONTRACT_H

// ---- global barriers (cl/barrier.cl, src/barrier/) ----
// BARRIER_STRATEGY: the values of lockstep::BarrierStrategy (barrier.cpp checks them).
#define BARRIER_RELAUNCH 0
#define BARRIER_LOCK 1
#define BARRIER_GROUPED_LOCK 2
#define BARRIER_LOCK_FREE 3
#define BARRIER_TREE 4
// BARRIER_NV_ORDER (cl/barrier_order.cl): the values of lockstep::BarrierOrder.
#define BARRIER_ORDER_FENCE 0
#define BARRIER_ORDER_ACQREL 1
#define BARRIER_ORDER_ACQREL_RSPIN 2

// State layout, in ints: every independently written word sits on its own line of BARRIER_LINE
// ints (128 bytes); lock-free and tree flag words are 1 (packed) or BARRIER_LINE ints apart.
#define BARRIER_LINE 32
#define BARRIER_MODE 0          // 1: this launch only discovers occupancy (host sets)
#define BARRIER_POLL_CLOSED 32  // discovery: 0 open, 1 closed
#define BARRIER_POLL_COUNT 64   // discovery: tickets taken (host reads)
#define BARRIER_PATIENCE 65     // discovery: polls without change before closing (host sets)
#define BARRIER_FLAG 96         // tree: release generation
#define BARRIER_TOP 128         // lock / grouped-lock top-bit counter
#define BARRIER_ARRAYS 160      // the fixed part's size; then group counters, flags, tree levels

// ---- bitonic sort (cl/bitonic.cl, src/sort/bitonic.cpp): the phase list's int4 (kind, param,
// levels, flags) ----
#define BITONIC_LOCAL_SORT 0     // each TILE-element tile sorted in local memory
#define BITONIC_GLOBAL_FLIP 1    // flip of stage param fused with levels-1 half-cleaners
#define BITONIC_GLOBAL_HALF 2    // `levels` global half-cleaners of strides param, param/2, ..
#define BITONIC_LOCAL_MERGE 3    // half-cleaners TILE/2 .. 1 of each tile in local memory
#define BITONIC_KEY_IN 1         // flag: the phase reads keys through key_in (the first phase)
#define BITONIC_KEY_OUT 2        // flag: the phase writes keys through key_out (the last phase)

// ---- sort keys (cl/sort_keys.cl): KEY_TYPE, the values of lockstep::KeyType (sort.cpp checks
// them). The 64-bit types are u64's radix sort with i64/f64 bit transforms. ----
#define KEY_U32 0
#define KEY_I32 1
#define KEY_F32 2
#define KEY_U64 3
#define KEY_I64 4
#define KEY_F64 5

// ---- radix ranking (cl/radix_rank.cl, src/sort/radix.cpp): 8-bit digits, RADIX_BINS of them;
// RADIX_MATCH, the values of detail::RadixMatch (radix.cpp checks them): how a wave finds its
// lanes that hold the same digit ----
#define RADIX_BINS 256
#define RADIX_MATCH_COUNTERS 0  // waves of one work-item, counting serially (CPUs)
#define RADIX_MATCH_PTX 1       // NVIDIA warps of 32: PTX warp sync and shuffle
#define RADIX_MATCH_LANES 2     // WAVE_WIDTH lanes emulated in local memory (PoCL runs PTX's logic)

// ---- radix sort state (cl/radix_state.cl, src/sort/radix.cpp): ints ----
// Zero between sorts: the counts per pass (room for 8 digits, whatever the key type, since sorts
// of different key types share the buffer) and digit, the 8 passes' tile counters, the finished
// histogram groups; then per pass and digit the digit's first position and per pass the plan.
#define RADIX_ST_TILE (8 * RADIX_BINS)
#define RADIX_ST_DONE (RADIX_ST_TILE + 8)
#define RADIX_ST_ZERO (RADIX_ST_DONE + 1)
#define RADIX_ST_WORDS(digits) (RADIX_ST_ZERO + (digits) * RADIX_BINS + (digits) + 1)

#endif
