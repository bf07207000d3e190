// Tile ranking for the radix sorts (cl/radix.cl, cl/radix_small.cl), the Onesweep way (Adinets &
// Merrill 2022; CUB's BlockRadixRankMatch): a tile of TILE = LOCAL_SIZE * ITEMS keys is split into
// waves of RW lanes; wave w owns the RW * ITEMS consecutive keys from w * RW * ITEMS, lane-striped
// (item i of lane x is key i * RW + x of the wave: loads and stores coalesce). Each wave ranks its
// keys item by item against its own 256 digit counters in local memory, then one scan over
// (digit, wave) turns the counters into exclusive offsets, so a key's rank is the number of keys
// before it in (digit, position) order: a stable counting sort of the tile by the digit.
// How a wave finds the lanes that hold the same digit (RADIX_MATCH, cl/contract.h's RADIX_MATCH_*):
//   0  COUNTERS, RW = 1: every work-item is its own wave and counts its keys serially (CPUs; any
//      device whose local memory holds LOCAL_SIZE * 256 counters).
//   1  PTX, NVIDIA, RW = WAVE_WIDTH = 32: each lane sets its bit in its digit's word of the
//      wave's 256 match words (local atomic_or, CUB's MATCH_EARLY_COUNTS_ANY: on the H100 1.5x
//      faster passes than PTX match.any.sync), bar.warp.sync between steps and shfl.sync (the
//      leader's old count to its peers). Needs sm_70.
//   2  LANES, RW = WAVE_WIDTH lanes emulated through local memory and work-group barriers: the
//      same leader/peer logic as 1, so PoCL verifies it (slow; tests only).
// Then rank_scatter moves the keys (and values) to their ranks in local memory.
// Macros: LOCAL_SIZE, ITEMS, RADIX_MATCH, WAVE_WIDTH (RADIX_MATCH > 0), PAIRS (0/1), and
// cl/sort_keys.cl's.
#include "sort_keys.cl"
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif
#ifndef ITEMS
#error "ITEMS undefined!"
#endif
#ifndef RADIX_MATCH
#error "RADIX_MATCH undefined!"
#endif
#ifndef PAIRS
#error "PAIRS undefined!"
#endif
#include "scan.cl"
// Loops over ITEMS carry `#pragma unroll` for ITEMS <= 32 (GPUs): fully unrolled, k[] and r[]
// stay in registers (clang-16 nvptx otherwise keeps them on the stack); the CPUs' long runs
// (ITEMS 128, 512) stay loops (unrolling them took PoCL minutes to compile).
#define RADIX RADIX_BINS  // cl/contract.h
#define DIGITS (KEY_BITS / 8)
#define TILE (LOCAL_SIZE * ITEMS)
#if RADIX_MATCH != RADIX_MATCH_COUNTERS
#ifndef WAVE_WIDTH
#error "WAVE_WIDTH undefined!"
#endif
#define RW WAVE_WIDTH
#else
#define RW 1
#endif
#if RADIX_MATCH == RADIX_MATCH_PTX && RW != 32
#error "RADIX_MATCH_PTX (PTX warp sync and shuffle) needs WAVE_WIDTH == 32"
#endif
#if LOCAL_SIZE % RW || RW > 64
#error "LOCAL_SIZE must be a multiple of the wave width (at most 64)"
#endif
#define WAVES (LOCAL_SIZE / RW)
// Digits per work-item wherever work-items own digits (l * DPT .. l * DPT + DPT - 1, below RADIX).
#define DPT (LOCAL_SIZE >= RADIX ? 1 : RADIX / LOCAL_SIZE)
// Ranks: a key's place in its tile, below TILE. Tiles of at most 2^16 keys hold two ranks to a
// register (RANK_WORDS words: item i in the low half of word i / 2 when i is even, else the
// high half), which frees ITEMS / 2 registers across the look-back and the values' trip; a
// work-item's ranks are written in item order (RANK_SET of an even item clears the word).
#define RANK_PACK (TILE <= 65536)
#if RANK_PACK
#define RANK_WORDS ((ITEMS + 1) / 2)
#define RANK_GET(r, i) (((r)[(i) / 2] >> (16 * ((i) % 2))) & 0xffffu)
#define RANK_SET(r, i, v) ((r)[(i) / 2] = (i) % 2 ? (r)[(i) / 2] | ((v) << 16) : (v))
#define RANK_ADD(r, i, v) ((r)[(i) / 2] += (v) << (16 * ((i) % 2)))
#else
#define RANK_WORDS ITEMS
#define RANK_GET(r, i) ((r)[i])
#define RANK_SET(r, i, v) ((r)[i] = (v))
#define RANK_ADD(r, i, v) ((r)[i] += (v))
#endif
#if RW > 32
typedef ulong lanes_t;
#else
typedef uint lanes_t;
#endif

typedef struct {
  uint cnt[WAVES * RADIX];  // [wave][digit]: counts, then exclusive offsets in the tile
  uint scan[LOCAL_SIZE];    // block scan scratch (and RADIX_MATCH_LANES's lane exchange)
#if RADIX_MATCH == RADIX_MATCH_PTX
  uint match[WAVES * RADIX];  // [wave][digit]: the lanes holding the digit, one item at a time
#endif
} rank_shared;

uint digit_of(key_t k, int shift) { return (uint)(k >> shift) & (RADIX - 1); }

// The tile position of item i of this work-item (lane-striped inside its wave).
uint tile_pos(int i) {
  const uint l = get_local_id(0);
  return (l / RW) * (RW * ITEMS) + (uint)i * RW + l % RW;
}

// Exclusive prefix sum of v over the work-group; *total: the sum of all v. RADIX_MATCH_PTX (NVIDIA):
// shfl.sync.up scans inside each warp, one barrier, every work-item adds the warp totals before
// its own (2 barriers). Elsewhere cl/scan.cl's Hillis-Steele in local memory.
uint block_excl_scan(uint v, __local uint* s, uint* total) {
#if RADIX_MATCH == RADIX_MATCH_PTX
  const uint l = get_local_id(0), lane = l % 32, w = l / 32;
  uint x = v;
  for (uint off = 1; off < 32; off <<= 1) {
    uint y;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y) : "r"(x), "r"(off));
    if (lane >= off) x += y;
  }
  if (lane == 31) s[w] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint before = 0, all = 0;
  for (uint j = 0; j < LOCAL_SIZE / 32; ++j) {
    const uint t = s[j];
    before += j < w ? t : 0;
    all += t;
  }
  *total = all;
  barrier(CLK_LOCAL_MEM_FENCE);  // s is reused by the next call
  return before + x - v;
#else
  const uint r = wg_scan_incl(v, s) - v;
  *total = s[LOCAL_SIZE - 1];
  barrier(CLK_LOCAL_MEM_FENCE);  // s is reused by the next call
  return r;
#endif
}

#if RADIX_MATCH == RADIX_MATCH_PTX
void wave_sync(void) { asm volatile("bar.warp.sync 0xffffffff;" ::: "memory"); }
// The lanes of my wave whose digit is d. Every lane clears its digit's word, then sets its bit:
// the clears of one item precede every lane's set (wave_sync), and rank_waves' wave_sync after
// the read keeps the next item's clears behind it.
lanes_t wave_match(uint d, __local rank_shared* s) {
  const uint l = get_local_id(0);
  __local volatile uint* m = s->match + (l / RW) * RADIX + d;
  *m = 0;
  wave_sync();
  atomic_or((__local uint*)m, 1u << (l % RW));
  wave_sync();
  return *m;
}
uint wave_shfl(uint v, uint src, __local rank_shared* s) {
  uint r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src));
  return r;
}
#elif RADIX_MATCH == RADIX_MATCH_LANES
lanes_t wave_match(uint d, __local rank_shared* s) {
  const uint l = get_local_id(0), w0 = l - l % RW;
  s->scan[l] = d;
  barrier(CLK_LOCAL_MEM_FENCE);
  lanes_t m = 0;
  for (uint j = 0; j < RW; ++j) m |= (lanes_t)(s->scan[w0 + j] == d) << j;
  barrier(CLK_LOCAL_MEM_FENCE);
  return m;
}
uint wave_shfl(uint v, uint src, __local rank_shared* s) {
  const uint l = get_local_id(0);
  s->scan[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint r = s->scan[l - l % RW + src];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
void wave_sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
#endif

// Ranking in three steps, so that a caller can publish the tile's digit counts as soon as they
// are known (radix_pass's look-back), before the offsets are scanned:
// (r holds RANK_WORDS words; RANK_GET(r, i) reads item i's rank)
//   rank_waves(k, shift, r, s)   rank i = the key's rank among its wave's keys of its digit;
//                                s->cnt[wave][digit] = the wave's counts. All work-items call it.
//   rank_digit_count(d, s)       after rank_waves: how many keys of the tile have digit d (read by
//                                the work-item that owns d: l * DPT <= d < l * DPT + DPT).
//   rank_offsets(k, shift, r, s) rank i = the key's position in the tile sorted stably by digit;
//                                afterwards s->cnt[d] (wave 0's row) is where digit d starts.
void rank_waves(const key_t* k, int shift, uint* r, __local rank_shared* s) {
  const uint l = get_local_id(0), w = l / RW;
  for (uint j = l; j < WAVES * RADIX; j += LOCAL_SIZE) s->cnt[j] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint* wc = s->cnt + w * RADIX;
#if RADIX_MATCH == RADIX_MATCH_COUNTERS
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) RANK_SET(r, i, wc[digit_of(k[i], shift)]++);
#else
  const uint lane = l % RW;
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint d = digit_of(k[i], shift);
    const lanes_t peers = wave_match(d, s);  // always holds this lane
    const uint upto = (uint)popcount(peers & ((((lanes_t)2) << lane) - 1));  // peers <= lane
    const uint leader = RW - 1 - (uint)clz(peers);
    uint old = 0;
    if (lane == leader) {  // the last peer adds them all
      old = wc[d];
      wc[d] = old + upto;
    }
    wave_sync();
    RANK_SET(r, i, wave_shfl(old, leader, s) + upto - 1);
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
}

uint rank_digit_count(uint d, __local rank_shared* s) {
  uint t = 0;
  for (uint v = 0; v < WAVES; ++v) t += s->cnt[v * RADIX + d];
  return t;
}

void rank_offsets(const key_t* k, int shift, uint* r, __local rank_shared* s) {
  const uint l = get_local_id(0), w = l / RW;
  // Exclusive offsets in (digit, wave) order: work-item l walks its digits' columns serially,
  // then one block scan over the per-work-item sums.
  const uint d0 = l * DPT;
  uint t = 0;
  for (uint d = d0; d < d0 + DPT && d < RADIX; ++d)
    for (uint v = 0; v < WAVES; ++v) {
      const uint c = s->cnt[v * RADIX + d];
      s->cnt[v * RADIX + d] = t;
      t += c;
    }
  uint total;
  const uint base = block_excl_scan(t, s->scan, &total);
  for (uint d = d0; d < d0 + DPT && d < RADIX; ++d)
    for (uint v = 0; v < WAVES; ++v) s->cnt[v * RADIX + d] += base;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint* wc = s->cnt + w * RADIX;
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) RANK_ADD(r, i, wc[digit_of(k[i], shift)]);
}

void rank_tile(const key_t* k, int shift, uint* r, __local rank_shared* s) {
  rank_waves(k, shift, r, s);
  rank_offsets(k, shift, r, s);
}

// WITH_VALUES(...): its arguments in the pair sorts (PAIRS=1), nothing for keys alone.
#if PAIRS
#define WITH_VALUES(...) __VA_ARGS__
#else
#define WITH_VALUES(...)
#endif

// The tile in rank order in local memory: lk[rank i] = k[i], with PAIRS also lv[rank i] = v[i]
// (radix_pass, radix_small; the caller's barrier orders these stores before other reads).
void rank_scatter(const key_t* k, const uint* r,
                  __local key_t* lk WITH_VALUES(, const uint* v, __local uint* lv)) {
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    lk[RANK_GET(r, i)] = k[i];
#if PAIRS
    lv[RANK_GET(r, i)] = v[i];
#endif
  }
}

#if PAIRS
// Pairs whose values follow the keys through the same local memory (radix_pass, radix_small;
// called once every key has been read from it): v[i] to lv[rank i], then a barrier.
void values_to_ranks(const uint* v, const uint* r, __local uint* lv) {
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) lv[RANK_GET(r, i)] = v[i];
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif

// After rank_scatter and a barrier: the tile's first cnt keys (and values) from local memory to
// dst[gbase[digit] + position] (a digit's keys are consecutive there, so the stores coalesce),
// through key_out where `out` (radix_pass, radix_persistent).
void tile_store(__local const key_t* lk, __local const int* gbase, int shift, uint cnt, int out,
                __global key_t* dst WITH_VALUES(, __local const uint* lv, __global uint* vdst)) {
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = get_local_id(0) + (uint)i * LOCAL_SIZE;
    if (j < cnt) {
      const key_t x = lk[j];
      const uint a = (uint)gbase[digit_of(x, shift)] + j;
      dst[a] = out ? key_out(x) : x;
#if PAIRS
      vdst[a] = lv[j];
#endif
    }
  }
}
