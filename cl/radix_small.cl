// The whole radix sort in one launch of one work-group, for n <= TILE (LOCAL_SIZE * ITEMS): the
// keys stay in registers, and every 8-bit pass ranks them (cl/radix_rank.cl) and moves them
// through local memory to their new tile positions. Stable, like cl/radix.cl; no global memory
// traffic besides one load and one store per key. Pairs move their values through the keys'
// local memory after the keys (two more barriers a pass, half the local memory: on NVIDIA's 48
// KiB, 2^12 pairs fit one group, where separate arrays held 3840). Macros: cl/radix_rank.cl's
// (PAIRS among them).
#include "radix_rank.cl"

__kernel void radix_small(__global key_t* keys, __global uint* vals, uint n) {
  __local key_t lk[TILE];
  __local rank_shared s;
#if PAIRS
  uint v[ITEMS];
#endif
  key_t k[ITEMS];
  uint r[RANK_WORDS];
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = tile_pos(i);
    k[i] = KEY_MAX;  // padding: ranked after every real key in every pass
    if (j < n) {
      k[i] = key_in(keys[j]);
#if PAIRS
      v[i] = vals[j];
#endif
    }
  }
  for (int p = 0; p < DIGITS; ++p) {
    rank_tile(k, 8 * p, r, &s);
#if ITEMS <= 32
    #pragma unroll
#endif
    for (int i = 0; i < ITEMS; ++i) lk[RANK_GET(r, i)] = k[i];
    barrier(CLK_LOCAL_MEM_FENCE);
#if ITEMS <= 32
    #pragma unroll
#endif
    for (int i = 0; i < ITEMS; ++i) k[i] = lk[tile_pos(i)];
#if PAIRS
    __local uint* lv = (__local uint*)lk;
    barrier(CLK_LOCAL_MEM_FENCE);  // every key is read before a value overwrites it
    values_to_ranks(v, r, lv);
#if ITEMS <= 32
    #pragma unroll
#endif
    for (int i = 0; i < ITEMS; ++i) v[i] = lv[tile_pos(i)];
#endif
    // the next rank_tile's first barrier orders these reads before the next pass's writes
  }
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = tile_pos(i);
    if (j < n) {
      keys[j] = key_out(k[i]);
#if PAIRS
      vals[j] = v[i];
#endif
    }
  }
}
