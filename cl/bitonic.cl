// Bitonic sort (the seed's first persistent application), as the all-ascending network: stage
// s (blocks of 2s) starts with a "flip" step (i against the mirror of i in its block), then
// half-cleaners of strides s/2 .. 1; every compare-exchange puts the minimum at the lower index.
// Any n works without padding the buffer: a position >= n is a virtual KEY_MAX that never moves,
// so a compare-exchange whose upper index is out of range is skipped. Keys are key_t bits
// (cl/sort_keys.cl); the first phase applies key_in, the last key_out (phase flags).
// The host's phase list (int4: kind, param, levels, flags; the kinds and flags are BITONIC_* of
// contract.h) runs in ONE persistent kernel with global_barrier() between phases, or one launch
// per phase under relaunch:
//   LOCAL_SORT   each TILE-element tile sorted in local memory (stages s < TILE)
//   GLOBAL_FLIP  global flip of stage s (s >= TILE) fused with `levels`-1 half-cleaners
//   GLOBAL_HALF  `levels` global half-cleaners of strides param, param/2, .. fused in registers
//   LOCAL_MERGE  half-cleaners TILE/2 .. 1 of each tile in local memory
// Macros: TILE (power of two), LOCAL_SIZE, FUSE (max fused levels, 1..3), PAIRS (0/1).
#include "barrier.cl"
#include "contract.h"
#include "sort_keys.cl"
#ifndef TILE
#error "TILE undefined!"
#endif
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif
#ifndef FUSE
#error "FUSE undefined!"
#endif
#ifndef PAIRS
#error "PAIRS undefined!"
#endif
#define FUSE_N (1 << FUSE)
// Exchanges elements a and b of a fused step's register arrays r (keys) and v (values, PAIRS).
#if PAIRS
#define SWAP_RV(a, b)                                \
  do {                                               \
    key_t x_ = r[a];                                 \
    r[a] = r[b], r[b] = x_;                          \
    uint y_ = v[a];                                  \
    v[a] = v[b], v[b] = y_;                          \
  } while (0)
#else
#define SWAP_RV(a, b)                                \
  do {                                               \
    key_t x_ = r[a];                                 \
    r[a] = r[b], r[b] = x_;                          \
  } while (0)
#endif

void local_cmpx(__local key_t* lk, __local uint* lv, uint i, uint p) {
  key_t a = lk[i], b = lk[p];
  if (b < a) {
    lk[i] = b;
    lk[p] = a;
#if PAIRS
    uint t = lv[i];
    lv[i] = lv[p];
    lv[p] = t;
#endif
  }
}

// Half-cleaners of strides j0, j0/2, .. 1 over the tile in local memory.
void local_half_cleaners(__local key_t* lk, __local uint* lv, uint j0) {
  for (uint j = j0; j > 0; j >>= 1) {
    for (uint t = get_local_id(0); t < TILE / 2; t += LOCAL_SIZE) {
      uint i = (t / j) * 2 * j + (t & (j - 1));
      local_cmpx(lk, lv, i, i + j);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// LOCAL_SORT (full sort of each tile) or LOCAL_MERGE over this group's tiles; any other kind
// runs no tile. No barrier sits under a condition: what the kind changes is only the trip counts
// of the loops around them (PoCL 5.0's work-group compiler aborted on the conditional form).
void local_phase(__global key_t* keys, __global uint* vals, uint n, int kind, int flags,
                 __local key_t* lk, __local uint* lv) {
  const uint tiles =
      (kind == BITONIC_LOCAL_SORT || kind == BITONIC_LOCAL_MERGE) ? (n + TILE - 1) / TILE : 0;
  const uint s_end = kind == BITONIC_LOCAL_SORT ? TILE : 1;       // stages 1 .. TILE/2
  const uint merge = kind == BITONIC_LOCAL_MERGE ? TILE / 2 : 0;  // strides TILE/2 .. 1
  for (uint tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {
    const uint base = tile * TILE;
    for (uint e = get_local_id(0); e < TILE; e += LOCAL_SIZE) {
      key_t k = KEY_MAX;
      if (base + e < n) {
        k = keys[base + e];
        if (flags & BITONIC_KEY_IN) k = key_in(k);
#if PAIRS
        lv[e] = vals[base + e];
#endif
      }
      lk[e] = k;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 1; s < s_end; s <<= 1) {
      for (uint t = get_local_id(0); t < TILE / 2; t += LOCAL_SIZE) {
        uint b = (t / s) * 2 * s, off = t & (s - 1);
        local_cmpx(lk, lv, b + off, b + 2 * s - 1 - off);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      local_half_cleaners(lk, lv, s / 2);
    }
    local_half_cleaners(lk, lv, merge);
    for (uint e = get_local_id(0); e < TILE; e += LOCAL_SIZE)
      if (base + e < n) {
        keys[base + e] = (flags & BITONIC_KEY_OUT) ? key_out(lk[e]) : lk[e];
#if PAIRS
        vals[base + e] = lv[e];
#endif
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// GLOBAL_FLIP: the flip of stage s fused with the next levels-1 half-cleaners (strides s/2 .. q,
// q = s >> (levels-1)). A unit holds h = 2^(levels-1) lower-half elements spaced q apart
// (r[0..h)) and their mirrors in the upper half in ascending order (r[h..2h)): the flip pairs
// r[m] with r[2h-1-m], then the half-cleaners work inside each half.
void global_flip(__global key_t* keys, __global uint* vals, uint n, uint npad, uint s,
                 int levels) {
  const uint q = s >> (levels - 1), h = 1u << (levels - 1);
  for (uint t = get_global_id(0); t < npad >> levels; t += get_global_size(0)) {
    const uint lo = (t / q) * 2 * s + (t & (q - 1));
    const uint hi = lo + 2 * s - 1 - 2 * (t & (q - 1)) - (h - 1) * q;  // lowest mirror
    if (lo >= n) continue;  // then every mirror is past n too: nothing moves
    key_t r[FUSE_N];
    uint v[FUSE_N];
#pragma unroll
    for (uint m = 0; m < FUSE_N; ++m)
      if (m < 2 * h) {
        const uint idx = m < h ? lo + m * q : hi + (m - h) * q;
        r[m] = idx < n ? keys[idx] : KEY_MAX;
#if PAIRS
        v[m] = idx < n ? vals[idx] : 0;
#endif
      }
#pragma unroll
    for (uint m = 0; m < FUSE_N / 2; ++m)
      if (m < h && r[2 * h - 1 - m] < r[m]) SWAP_RV(m, 2 * h - 1 - m);
    for (int L = levels - 2; L >= 0; --L) {
      const uint d = 1u << L;
#pragma unroll
      for (uint m = 0; m < FUSE_N; ++m)
        if (m < 2 * h && !(m & d) && r[m + d] < r[m]) SWAP_RV(m, m + d);
    }
#pragma unroll
    for (uint m = 0; m < FUSE_N; ++m)
      if (m < 2 * h) {
        const uint idx = m < h ? lo + m * q : hi + (m - h) * q;
        if (idx < n) {
          keys[idx] = r[m];
#if PAIRS
          vals[idx] = v[m];
#endif
        }
      }
  }
}

// GLOBAL_HALF: `levels` half-cleaners of strides j, j/2, .. fused: each work-item holds 2^levels
// elements spaced q = j >> (levels-1) apart and runs all levels in registers.
void global_half_cleaners(__global key_t* keys, __global uint* vals, uint n, uint npad, uint j,
                          int levels) {
  const uint q = j >> (levels - 1), m_count = 1u << levels;
  const uint units = npad >> levels;
  for (uint t = get_global_id(0); t < units; t += get_global_size(0)) {
    const uint b = (t / q) * q * m_count + (t & (q - 1));
    if (b >= n) continue;
    key_t r[FUSE_N];
    uint v[FUSE_N];
#pragma unroll
    for (uint m = 0; m < FUSE_N; ++m)
      if (m < m_count) {
        uint idx = b + m * q;
        r[m] = idx < n ? keys[idx] : KEY_MAX;
#if PAIRS
        v[m] = idx < n ? vals[idx] : 0;
#endif
      }
    for (int L = levels - 1; L >= 0; --L) {
      const uint h = 1u << L;
#pragma unroll
      for (uint m = 0; m < FUSE_N; ++m)
        if (m < m_count && !(m & h) && r[m + h] < r[m]) SWAP_RV(m, m + h);
    }
#pragma unroll
    for (uint m = 0; m < FUSE_N; ++m)
      if (m < m_count && b + m * q < n) {
        keys[b + m * q] = r[m];
#if PAIRS
        vals[b + m * q] = v[m];
#endif
      }
  }
}

__kernel void bitonic_sort(__global volatile int* state, __global key_t* keys,
                           __global uint* vals, uint n, uint npad, __global const int4* phases,
                           int phase_begin, int phase_end) {
  if (barrier_discovery(state)) return;
  __local key_t lk[TILE];
  __local uint lv[PAIRS ? TILE : 1];
  int round = 0;
  for (int p = phase_begin; p < phase_end; ++p) {
    const int4 ph = phases[p];
    local_phase(keys, vals, n, ph.x, ph.w, lk, lv);  // barriers: called unconditionally
    if (ph.x == BITONIC_GLOBAL_FLIP)
      global_flip(keys, vals, n, npad, (uint)ph.y, ph.z);
    else if (ph.x == BITONIC_GLOBAL_HALF)
      global_half_cleaners(keys, vals, n, npad, (uint)ph.y, ph.z);
    global_barrier(state, &round);
  }
}
