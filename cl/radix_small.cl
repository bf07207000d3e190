// The whole radix sort in one launch of one work-group, for n <= TILE (LOCAL_SIZE * ITEMS): the
// keys stay in registers, and every 8-bit pass ranks them (cl/radix_rank.cl) and moves them
// through local memory to their new tile positions. Stable, like cl/radix.cl; no global memory
// traffic besides one load and one store per key. Macros: cl/radix_rank.cl's (PAIRS among them).
#include "radix_rank.cl"

__kernel void radix_small(__global key_t* keys, __global uint* vals, uint n) {
  __local key_t lk[TILE];
  __local rank_shared s;
#if PAIRS
  __local uint lv[TILE];
  uint v[ITEMS];
#endif
  key_t k[ITEMS];
  uint r[ITEMS];
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
    rank_scatter(k, r, lk WITH_VALUES(, v, lv));
    barrier(CLK_LOCAL_MEM_FENCE);
#if ITEMS <= 32
    #pragma unroll
#endif
    for (int i = 0; i < ITEMS; ++i) {
      k[i] = lk[tile_pos(i)];
#if PAIRS
      v[i] = lv[tile_pos(i)];
#endif
    }
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
