// LSD radix sort in the style of Onesweep (Adinets & Merrill 2022), 8-bit digits over key_t bits
// (cl/sort_keys.cl): radix_histogram counts every digit of every key in one pass, radix_scan
// turns the counts into each digit's global start, and radix_pass (once per digit, ping-pong
// buffers) takes its tile id from an atomic counter (never get_group_id: a tile only ever waits
// on tiles that started before it), sorts the tile by the digit in local memory (stable 2-bit
// splits), then finds the tile's global offset per digit by decoupled look-back over a flag
// array: each tile publishes its count (FLAG_AGG), then its inclusive prefix (FLAG_PREFIX), in one
// 32-bit word (2 status bits, 30-bit count: n < 2^30), through flag_store_release; predecessors'
// words are read with flag_load_acquire. Stable, so pairs keep their input order among equal keys.
// Macros: LOCAL_SIZE (= 256, one work-item per digit), ITEMS (keys per work-item per tile),
// HIST_ITEMS (keys per work-item in the histogram), PAIRS (0/1).
#include "barrier_order.cl"
#include "sort_keys.cl"
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif
#ifndef ITEMS
#error "ITEMS undefined!"
#endif
#ifndef HIST_ITEMS
#error "HIST_ITEMS undefined!"
#endif
#ifndef PAIRS
#error "PAIRS undefined!"
#endif
#if LOCAL_SIZE != 256
#error "radix.cl needs LOCAL_SIZE == 256 (one work-item per digit)"
#endif
#define RADIX 256
#define DIGITS (KEY_BITS / 8)
#define TILE (LOCAL_SIZE * ITEMS)
#define FLAG_AGG 0x40000000u
#define FLAG_PREFIX 0x80000000u
#define FLAG_COUNT 0x3FFFFFFFu

uint digit_of(key_t k, int shift) { return (uint)(k >> shift) & (RADIX - 1); }

__kernel void radix_histogram(__global const key_t* keys, uint n, __global int* hist,
                              int transform) {
  __local int lh[DIGITS * RADIX];
  for (int i = get_local_id(0); i < DIGITS * RADIX; i += LOCAL_SIZE) lh[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint start = get_group_id(0) * (uint)(LOCAL_SIZE * HIST_ITEMS);
  for (uint e = get_local_id(0); e < LOCAL_SIZE * HIST_ITEMS; e += LOCAL_SIZE) {
    if (start + e >= n) break;
    key_t k = keys[start + e];
    if (transform) k = key_in(k);
    for (int d = 0; d < DIGITS; ++d) atomic_inc(&lh[d * RADIX + digit_of(k, 8 * d)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_local_id(0); i < DIGITS * RADIX; i += LOCAL_SIZE)
    if (lh[i]) atomic_add(&hist[i], lh[i]);
}

// Inclusive scan of s[0..LOCAL_SIZE) in place (Hillis-Steele); all work-items call it.
void local_scan(__local int* s) {
  const int l = get_local_id(0);
  for (int off = 1; off < LOCAL_SIZE; off <<= 1) {
    int v = l >= off ? s[l - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    s[l] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// The same for ulong (four 16-bit counters side by side; no field overflows).
void local_scan_wide(__local ulong* s) {
  const int l = get_local_id(0);
  for (int off = 1; off < LOCAL_SIZE; off <<= 1) {
    ulong v = l >= off ? s[l - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    s[l] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Group d: the digit counts of pass d become exclusive starts.
__kernel void radix_scan(__global int* hist) {
  __local int s[LOCAL_SIZE];
  const int l = get_local_id(0);
  __global int* h = hist + get_group_id(0) * RADIX;
  const int c = h[l];
  s[l] = c;
  barrier(CLK_LOCAL_MEM_FENCE);
  local_scan(s);
  h[l] = s[l] - c;
}

__kernel void radix_pass(__global const key_t* src, __global key_t* dst,
                         __global const uint* vsrc, __global uint* vdst, uint n, int pass,
                         __global const int* starts, __global volatile int* flags,
                         __global volatile int* counter, int tin, int tout) {
  __local key_t lk[TILE];
#if PAIRS
  __local uint lv[TILE];
#endif
  __local int scan[LOCAL_SIZE], dcount[RADIX], gbase[RADIX];
  __local ulong wide[LOCAL_SIZE];
  __local uint tile_l;
  const int l = get_local_id(0), shift = 8 * pass;
  if (l == 0) tile_l = atomic_inc(counter + pass);
  dcount[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = tile_l, base = tile * TILE;
  const uint cnt = min((uint)TILE, n - base);
  for (uint e = l; e < TILE; e += LOCAL_SIZE) {
    key_t k = KEY_MAX;
    if (e < cnt) {
      k = src[base + e];
      if (tin) k = key_in(k);
#if PAIRS
      lv[e] = vsrc[base + e];
#endif
      atomic_inc(&dcount[digit_of(k, shift)]);
    }
    lk[e] = k;
  }
  // Stable local sort of the tile by the digit: four 2-bit splits; work-item l owns the ITEMS
  // consecutive positions l*ITEMS.. and counts its keys per 2-bit value in one ulong (4 x 16
  // bits: TILE < 2^16), so one scan per split ranks all four values (padding KEY_MAX stays
  // behind every real key).
  for (int b = 0; b < 8; b += 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    key_t rk[ITEMS];
#if PAIRS
    uint rv[ITEMS];
#endif
    ulong mine = 0;
    for (int i = 0; i < ITEMS; ++i) {
      rk[i] = lk[l * ITEMS + i];
#if PAIRS
      rv[i] = lv[l * ITEMS + i];
#endif
      mine += 1UL << (16 * ((uint)(rk[i] >> (shift + b)) & 3));
    }
    wide[l] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    local_scan_wide(wide);
    const ulong before = wide[l] - mine, total = wide[LOCAL_SIZE - 1];
    const uint t0 = (uint)total & 0xFFFF, t1 = (uint)(total >> 16) & 0xFFFF;
    const uint t2 = (uint)(total >> 32) & 0xFFFF;
    uint p0 = (uint)before & 0xFFFF, p1 = t0 + ((uint)(before >> 16) & 0xFFFF);
    uint p2 = t0 + t1 + ((uint)(before >> 32) & 0xFFFF);
    uint p3 = t0 + t1 + t2 + ((uint)(before >> 48) & 0xFFFF);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < ITEMS; ++i) {
      const uint v = (uint)(rk[i] >> (shift + b)) & 3;
      const uint at = v == 0 ? p0++ : v == 1 ? p1++ : v == 2 ? p2++ : p3++;
      lk[at] = rk[i];
#if PAIRS
      lv[at] = rv[i];
#endif
    }
  }
  // Where each digit starts inside the sorted tile.
  const int c = dcount[l];
  scan[l] = c;
  barrier(CLK_LOCAL_MEM_FENCE);
  local_scan(scan);
  const int tile_start = scan[l] - c;
  // Decoupled look-back for digit l.
  __global volatile int* my = flags + (size_t)tile * RADIX + l;
  int excl = 0;
  if (tile == 0) {
    flag_store_release(my, (int)(FLAG_PREFIX | (uint)c));
  } else {
    flag_store_release(my, (int)(FLAG_AGG | (uint)c));
    for (int t = (int)tile - 1; t >= 0;) {
      const uint f = (uint)flag_load_acquire(flags + (size_t)t * RADIX + l);
      if (!(f & (FLAG_AGG | FLAG_PREFIX))) continue;  // not published yet: spin
      excl += (int)(f & FLAG_COUNT);
      if (f & FLAG_PREFIX) break;
      --t;
    }
    flag_store_release(my, (int)(FLAG_PREFIX | (uint)(excl + c)));
  }
  gbase[l] = starts[pass * RADIX + l] + excl - tile_start;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint e = l; e < cnt; e += LOCAL_SIZE) {
    const key_t k = lk[e];
    const uint at = (uint)gbase[digit_of(k, shift)] + e;
    dst[at] = tout ? key_out(k) : k;
#if PAIRS
    vdst[at] = lv[e];
#endif
  }
}
