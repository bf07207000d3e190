// LSD radix sort, the Onesweep way (Adinets & Merrill 2022), 8-bit digits over key_t bits:
//  radix_histogram  a few work-groups count every digit of every key in one grid-stride pass; the
//                   last group to finish (flag_add_acq_rel on a counter, then plain loads of the
//                   others' counts) turns the counts into each digit's global start and writes the
//                   plan: which passes to skip (one digit holds every key: nothing moves) and
//                   which buffer each remaining pass reads. It also zeroes the first look-back
//                   flags, and leaves the counts zero for the next sort (cl/radix_state.cl).
//  radix_pass       once per digit (the host launches them all; a skipped pass returns at once).
//                   A tile takes its id from an atomic counter (never get_group_id: a tile only
//                   waits on tiles that started before it), ranks its keys (cl/radix_rank.cl),
//                   publishes its digit counts as soon as the waves have counted (before the
//                   offset scan), moves its keys to their tile order in local memory, finds its
//                   global offset per digit by decoupled look-back (chained=1; LOOKBACK flags
//                   per round trip) and writes keys and values from local memory, coalesced.
//  radix_count, radix_tile_scan  chained=0 (CPU devices): the tile offsets come from a count
//                   kernel and a scan kernel instead, so no work-group ever spins on another
//                   (groups that share an OS thread would starve each other).
// The state words, the pass plan and the look-back flags these kernels share: cl/radix_state.cl.
// Stable. Macros: cl/radix_rank.cl's (PAIRS among them), PRIVATE_COUNTS (1: the histogram and count
// kernels count per work-item in local memory, no atomics; CPUs) and cl/barrier_order.cl's.
#include "barrier_order.cl"
#include "radix_rank.cl"
#ifndef PRIVATE_COUNTS
#error "PRIVATE_COUNTS undefined!"
#endif
#include "radix_state.cl"

__kernel void radix_histogram(__global const key_t* keys, uint n, __global volatile int* state,
                              __global int* flags, uint flag_words) {
  __local uint lh[DIGITS * RADIX];
  __local uint sc[LOCAL_SIZE];
  __local int last, skip[DIGITS];
  const uint l = get_local_id(0);
  for (uint i = get_global_id(0); i < flag_words; i += get_global_size(0)) flags[i] = 0;
  for (uint i = l; i < DIGITS * RADIX; i += LOCAL_SIZE) lh[i] = 0;
  if (l < DIGITS) skip[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#if PRIVATE_COUNTS  // CPUs: a serial run of keys per work-item, counted without atomics
  __local uint own[LOCAL_SIZE * DIGITS * RADIX];
  __local uint* mine = own + l * DIGITS * RADIX;
  for (uint i = 0; i < DIGITS * RADIX; ++i) mine[i] = 0;
  const uint per = (n + get_global_size(0) - 1) / get_global_size(0);
  for (uint e = get_global_id(0) * per; e < min(n, (uint)get_global_id(0) * per + per); ++e) {
    const key_t k = key_in(keys[e]);
    for (int d = 0; d < DIGITS; ++d) ++mine[d * RADIX + digit_of(k, 8 * d)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = l; i < DIGITS * RADIX; i += LOCAL_SIZE)
    for (uint w = 0; w < LOCAL_SIZE; ++w) lh[i] += own[w * DIGITS * RADIX + i];
#else  // 8 loads in flight per work-item before the counting (one at a time was latency-bound)
  const uint gs = get_global_size(0);
  for (uint e0 = get_global_id(0); e0 < n; e0 += 8 * gs) {
    key_t k[8];
    #pragma unroll
    for (int j = 0; j < 8; ++j) k[j] = e0 + j * gs < n ? key_in(keys[e0 + j * gs]) : 0;
    #pragma unroll
    for (int j = 0; j < 8; ++j)
      if (e0 + j * gs < n)
        for (int d = 0; d < DIGITS; ++d) atomic_inc(&lh[d * RADIX + digit_of(k[j], 8 * d)]);
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = l; i < DIGITS * RADIX; i += LOCAL_SIZE)
    if (lh[i]) atomic_add(&state[ST_COUNT + i], (int)lh[i]);
  B_WG_BARRIER();
  if (l == 0) last = flag_add_acq_rel(state + ST_DONE, 1) == (int)get_num_groups(0) - 1;
  B_WG_BARRIER();
  if (!last) return;
  // The last group: every group's counts are in (plain loads, after the acquire above).
  const uint d0 = l * DPT;
  for (int p = 0; p < DIGITS; ++p) {
    uint t = 0;
    for (uint d = d0; d < d0 + DPT && d < RADIX; ++d) {
      const uint c = (uint)state[ST_COUNT + p * RADIX + d];
      if (c == n) skip[p] = 1;
      t += c;
    }
    uint total;
    uint start = block_excl_scan(t, sc, &total);
    for (uint d = d0; d < d0 + DPT && d < RADIX; ++d) {
      const uint c = (uint)state[ST_COUNT + p * RADIX + d];
      state[ST_COUNT + p * RADIX + d] = 0;  // zero for the next sort
      state[ST_START + p * RADIX + d] = (int)start;
      start += c;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l != 0) return;
  state[ST_DONE] = 0;  // every group has counted: zero for the next sort
  int run = 0;
  for (int p = 0; p < DIGITS; ++p) run += !skip[p];
  int copy = -1;  // an odd number to run: the first skipped pass copies
  for (int p = 0; p < DIGITS && (run & 1); ++p)
    if (skip[p]) {
      copy = p;
      break;
    }
  const int hops = run + (copy >= 0);
  int at = 0;
  for (int p = 0; p < DIGITS; ++p) {
    int plan = -1;
    if (!skip[p] || p == copy) {
      plan = (at & 1) | (at == 0 ? PLAN_IN : 0) | (at == hops - 1 ? PLAN_OUT : 0);
      plan |= p == copy ? PLAN_COPY : 0;
      ++at;
    }
#if KEY_FLOAT
    if (hops == 0 && p == 0) plan = PLAN_INPLACE;
#endif
    state[ST_PLAN + p] = plan;
  }
  state[ST_PLAN + DIGITS] = hops;
}

__kernel void radix_pass(__global key_t* keys, __global key_t* tmp, __global uint* vals,
                         __global uint* tmpv, uint n, int pass, __global volatile int* state,
                         __global volatile int* flags, int chained) {
  PASS_SETUP();
  // The ranking's scratch and the tile in digit order (the keys, then with PAIRS the values)
  // share local memory, as in CUB's Onesweep: every read of s precedes the first key stored in
  // lk. So a tile may be as long as the local memory holds keys (NVIDIA: 48 KiB a group).
  __local union {
    key_t lk[TILE];
    rank_shared s;
  } sh;
  __local key_t* lk = sh.lk;
  __local rank_shared* s = &sh.s;
  __local uint start[RADIX];  // where each digit begins in the sorted tile
  __local int gbase[RADIX];
  __local uint tile_l;
  if (l == 0) {
    tile_l = chained ? (uint)atomic_inc(state + ST_TILE + pass) : get_group_id(0);
    if (chained && tile_l == tiles - 1)  // the last id is out: zero the counter for the next sort
      atomic_xchg(state + ST_TILE + pass, 0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_l, base = tile * TILE, cnt = min((uint)TILE, n - base);
  __global volatile int* fl = flags + (chained && par ? tiles * RADIX : 0);
  if (chained)  // the other flag array, for the next pass that runs
    for (uint d = l; d < RADIX; d += LOCAL_SIZE) flags[(par ? 0 : tiles * RADIX) + tile * RADIX + d] = 0;
  if (plan & (PLAN_COPY | PLAN_INPLACE)) {
    for (uint j = l; j < cnt; j += LOCAL_SIZE) {
      key_t k = src[base + j];
      if (plan & (PLAN_IN | PLAN_INPLACE)) k = key_in(k);
      if (plan & (PLAN_OUT | PLAN_INPLACE)) k = key_out(k);
      if (plan & PLAN_INPLACE) {
        src[base + j] = k;
        continue;
      }
      dst[base + j] = k;
#if PAIRS
      vdst[base + j] = vsrc[base + j];
#endif
    }
    return;
  }
  key_t k[ITEMS];
  uint r[RANK_WORDS];
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = tile_pos(i);
    k[i] = KEY_MAX;  // padding: digit 255 in every pass, ranked after every real key
    if (j < cnt) {
      k[i] = src[base + j];
      if (plan & PLAN_IN) k[i] = key_in(k[i]);
    }
  }
  // Rank; as soon as the tile's digit counts are known, publish them (CUB's early counts), so
  // that later tiles' look-backs need not wait for this tile's scan and local scatter.
  rank_waves(k, shift, r, s);
  if (chained)
    for (uint d = l * DPT; d < l * DPT + DPT && d < RADIX; ++d) {
      const uint c = rank_digit_count(d, s) - (d == RADIX - 1 ? TILE - cnt : 0);
      flag_store_relaxed(fl + tile * RADIX + d, (int)((tile == 0 ? FLAG_PREFIX : FLAG_AGG) | c));
    }
  rank_offsets(k, shift, r, s);
  for (uint d = l; d < RADIX; d += LOCAL_SIZE) start[d] = s->cnt[d];
  barrier(CLK_LOCAL_MEM_FENCE);  // s is dead: lk may overwrite it
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) lk[RANK_GET(r, i)] = k[i];
  // Per owned digit: where it starts in the sorted tile, its count, its global offset.
  for (uint d = l * DPT; d < l * DPT + DPT && d < RADIX; ++d) {
    const uint end = d + 1 < RADIX ? start[d + 1] : TILE;
    const uint c = end - start[d] - (d == RADIX - 1 ? TILE - cnt : 0);
    __global volatile int* my = fl + tile * RADIX + d;
    uint excl = 0;
    if (!chained) {
      excl = (uint)*my;  // radix_tile_scan's exclusive prefix
    } else if (tile > 0) {
      excl = look_back(fl, tile, d);
      flag_store_relaxed(my, (int)(FLAG_PREFIX | (excl + c)));
    }
    gbase[d] = state[ST_START + pass * RADIX + d] + (int)excl - (int)start[d];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#if !PAIRS
  tile_store(lk, gbase, shift, cnt, plan & PLAN_OUT, dst);
#else
  // Pairs exchange the values through the keys' local memory once the keys are out (as CUB's
  // Onesweep): half the local memory of two tiles, so a pair tile is as long as a key tile and a
  // digit's run of stores as long. Each work-item keeps the digits of the keys it stored, four
  // to a word, for the values in the same tile positions.
  uint dg[(ITEMS + 3) / 4];
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < (ITEMS + 3) / 4; ++i) dg[i] = 0;
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = l + (uint)i * LOCAL_SIZE;
    if (j < cnt) {
      const key_t x = lk[j];
      const uint d = digit_of(x, shift);
      dg[i / 4] |= d << (8 * (i % 4));
      dst[(uint)gbase[d] + j] = (plan & PLAN_OUT) ? key_out(x) : x;
    }
  }
  // The values are loaded only now, after the keys have gone out, as in CUB's Onesweep: a
  // work-item holds ranks and digits and values, never keys or values across the look-back (H100,
  // 384 x 22 at 80 registers: 28 bytes spilled instead of 92; 2^26 pairs 1 % faster at 384 x 18).
  uint v[ITEMS];
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = tile_pos(i);
    v[i] = j < cnt ? vsrc[base + j] : 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint* lv = (__local uint*)lk;
  values_to_ranks(v, r, lv);
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = l + (uint)i * LOCAL_SIZE;
    if (j < cnt) vdst[(uint)gbase[(dg[i / 4] >> (8 * (i % 4))) & 255u] + j] = lv[j];
  }
#endif
}

// chained=0, before radix_pass: each tile's digit counts into flags[tile][digit].
__kernel void radix_count(__global key_t* keys, __global key_t* tmp, __global uint* vals,
                          __global uint* tmpv, uint n, int pass, __global volatile int* state,
                          __global int* flags) {
  PASS_SETUP();
  if (plan & (PLAN_COPY | PLAN_INPLACE)) return;
  const uint tile = get_group_id(0), base = tile * TILE, cnt = min((uint)TILE, n - base);
#if PRIVATE_COUNTS  // CPUs: work-item l counts its ITEMS consecutive keys without atomics
  __local uint h[LOCAL_SIZE * RADIX];
  __local uint* mine = h + l * RADIX;
  for (uint d = 0; d < RADIX; ++d) mine[d] = 0;
  for (uint j = l * ITEMS; j < min(cnt, l * ITEMS + ITEMS); ++j) {
    const key_t k = src[base + j];
    ++mine[digit_of((plan & PLAN_IN) ? key_in(k) : k, shift)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = l; d < RADIX; d += LOCAL_SIZE) {
    uint t = 0;
    for (uint w = 0; w < LOCAL_SIZE; ++w) t += h[w * RADIX + d];
    flags[tile * RADIX + d] = (int)t;
  }
#else
  __local uint h[RADIX];
  for (uint d = l; d < RADIX; d += LOCAL_SIZE) h[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint j = l; j < cnt; j += LOCAL_SIZE) {
    const key_t k = src[base + j];
    atomic_inc(&h[digit_of((plan & PLAN_IN) ? key_in(k) : k, shift)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = l; d < RADIX; d += LOCAL_SIZE) flags[tile * RADIX + d] = (int)h[d];
#endif
}

// chained=0, one work-group: flags[tile][digit] becomes the exclusive prefix over the tiles.
__kernel void radix_tile_scan(__global key_t* keys, __global key_t* tmp, __global uint* vals,
                              __global uint* tmpv, uint n, int pass,
                              __global volatile int* state, __global int* flags) {
  PASS_SETUP();
  if (plan & (PLAN_COPY | PLAN_INPLACE)) return;
  for (uint d = l; d < RADIX; d += LOCAL_SIZE) {
    int t = 0;
    for (uint tile = 0; tile < tiles; ++tile) {
      const int c = flags[tile * RADIX + d];
      flags[tile * RADIX + d] = t;
      t += c;
    }
  }
}
