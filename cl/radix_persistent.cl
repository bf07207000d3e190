// The whole LSD radix sort in ONE persistent launch (PersistentKernel, cl/barrier.cl), for the
// mid range: a few tiles up to about one tile per co-resident work-group. Tiles of TILE =
// LOCAL_SIZE * ITEMS keys; every 8-bit pass is two phases, each ended by global_barrier():
//   A  each tile ranks its keys (cl/radix_rank.cl) and writes its 256 digit counts (16 bits) to
//      counts[tile]; in pass 0 each group also writes the AND and the OR of its keys to andor[g].
//   B  each tile reads every tile's counts (ordinary loads after the barrier): per digit, the
//      keys of the tiles before it and the total; the scan of the totals is where each digit
//      starts. It stores its keys (and values) from local memory in digit order (coalesced).
// Digit p is the same for every key iff byte p of (AND of all keys) ^ (OR of all keys) is 0:
// that pass is skipped. Between passes the buffers hold key_in bits (the first moving pass reads
// through key_in, the last stores through key_out); with no moving pass f32 keys are
// canonicalised in place at the end (NaNs become 0x7FC00000). Stable. Variants:
//   HELD=1  a group per tile under an in-kernel barrier (the GPU case): the group keeps its tile
//           in registers, ranked and in digit order in local memory, from A to B, and stores IN
//           PLACE (every group has read its tile before the barrier that ends A): no scratch
//           buffer. Pass 0 is ranked before the plan is known (B of pass 0 reads andor).
//   HELD=0  any group count, also relaunch (one launch per phase): group g walks tiles g, g + G,
//           ..; B loads and ranks each tile again and stores to the other buffer (keys <-> tmp);
//           an odd number of moving passes ends with a copy back. Phases 2p (A of pass p),
//           2p + 1 (B), 2 DIGITS (the end): PersistentKernel::run_phases(2 DIGITS + 1).
// PoCL builds a barrier under a branch by duplicating the code after it, and every barrier costs
// it compile time: helpers with barriers are called unconditionally, with a flag for their work.
// Macros: cl/radix_rank.cl's, PAIRS (0/1), HELD (0/1) and cl/barrier.cl's.
#include "barrier.cl"
#include "radix_rank.cl"
#ifndef PAIRS
#error "PAIRS undefined!"
#endif
#ifndef HELD
#error "HELD undefined!"
#endif
#if HELD && !BARRIER_IN_KERNEL
#error "HELD=1 needs an in-kernel barrier"
#endif
#if TILE > 65535
#error "TILE must be below 65536 (16-bit digit counts)"
#endif
// Counts are written as ushorts, read as words: digit 2i is the low half on little-endian devices.
#ifdef __ENDIAN_LITTLE__
#define EVEN_COUNT(x) ((x) & 0xFFFFu)
#define ODD_COUNT(x) ((x) >> 16)
#else
#define EVEN_COUNT(x) ((x) >> 16)
#define ODD_COUNT(x) ((x) & 0xFFFFu)
#endif
#define KEY_WORDS (KEY_BITS / 32)
#define OCTS (RADIX / 8)  // a row of counts is OCTS uint4 of 8 counts each
#define SLICES (LOCAL_SIZE >= OCTS ? LOCAL_SIZE / OCTS : 1)

// w[0 .. 2 KEY_WORDS): AND words, then OR words.
void and_or_init(__local uint* w) {
  const uint l = get_local_id(0);
  if (l < 2 * KEY_WORDS) w[l] = l < KEY_WORDS ? ~0u : 0u;
}
#if RADIX_MATCH == RADIX_MATCH_PTX
uint wave_bfly(uint v, uint lanes) {
  uint r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(lanes));
  return r;
}
#endif
// With `on`, folds a into the AND words and o into the OR words (a barrier must follow).
// NVIDIA: each warp reduces through shfl.sync first: 8 atomics per word meet, not 256.
void and_or_add(key_t a, key_t o, int on, __local uint* w) {
  for (int i = 0; on && i < KEY_WORDS; ++i) {
    uint x = (uint)(a >> (32 * i)), y = (uint)(o >> (32 * i));
#if RADIX_MATCH == RADIX_MATCH_PTX
    for (uint lanes = 16; lanes; lanes >>= 1) x &= wave_bfly(x, lanes), y |= wave_bfly(y, lanes);
    if (get_local_id(0) % 32 == 0)
#endif
      atomic_and(&w[i], x), atomic_or(&w[KEY_WORDS + i], y);
  }
}
key_t words_key(__global const uint* p) {
#if KEY_WORDS == 2
  return (key_t)p[0] | ((key_t)p[1] << 32);
#else
  return p[0];
#endif
}
// Bit p set: pass p moves keys (byte p of AND ^ OR is not 0), from AND/OR words w (local or
// private: a macro, free of address spaces).
#define PLAN_OF(w, m)                                                          \
  for (int p_ = 0; p_ < DIGITS; ++p_)                                          \
    if ((((w)[p_ / 4] ^ (w)[KEY_WORDS + p_ / 4]) >> (8 * (p_ % 4))) & 0xFFu) \
      m |= 1u << p_;
// The plan from every group's andor words, read by each work-item alone (no barrier).
uint read_plan(__global const uint* andor, uint groups) {
  uint all[2 * KEY_WORDS], m = 0;
  for (int i = 0; i < 2 * KEY_WORDS; ++i) all[i] = i < KEY_WORDS ? ~0u : 0u;
  for (uint t = 0; t < groups; ++t)
    for (int i = 0; i < 2 * KEY_WORDS; ++i) {
      const uint x = andor[t * 2 * KEY_WORDS + i];
      all[i] = i < KEY_WORDS ? all[i] & x : all[i] | x;
    }
  PLAN_OF(all, m);
  return m;
}

// Items past cnt are KEY_MAX padding: digit 255 in every pass, ranked after every real key.
// With `fold`, the AND and the OR of the real keys go into w.
void load_tile(__global const key_t* src, __global const uint* vsrc, uint base, uint cnt, int in,
               int fold, __local uint* w, key_t* k, uint* v) {
  key_t a = KEY_MAX, o = 0;
#if ITEMS <= 32
  #pragma unroll
#endif
  for (int i = 0; i < ITEMS; ++i) {
    const uint j = tile_pos(i);
    k[i] = KEY_MAX;
    if (j < cnt) {
      k[i] = src[base + j];
      if (in) k[i] = key_in(k[i]);
      a &= k[i], o |= k[i];
#if PAIRS
      v[i] = vsrc[base + j];
#endif
    }
  }
  and_or_add(a, o, fold, w);
}

// After rank_waves: the tile's digit counts (padding taken off digit 255) to its counts row.
void write_counts(__global ushort* row, uint cnt, __local rank_shared* s) {
  for (uint d = get_local_id(0) * DPT; d < get_local_id(0) * DPT + DPT && d < RADIX; ++d)
    row[d] = (ushort)(rank_digit_count(d, s) - (d == RADIX - 1 ? TILE - cnt : 0));
}

// B of one tile, after rank_scatter() (all work-items call it; the stores only with `b` and
// when pass moves keys): per digit the keys of the tiles before `tile` (colb) and of all tiles
// (colt), from every tile's counts row; the digit starts; then the stores (tile_store). Returns
// the plan: with `plan`, found from every group's andor words, else `moves`.
uint scatter_tile(int b, int plan, __global const uint* andor, uint groups, uint moves, int pass,
                  __global const uint* counts, uint tiles, uint tile, uint cnt,
                  __global key_t* dst, __global uint* vdst, __local key_t* lk, __local uint* lv,
                  __local uint* colb, __local uint* colt, __local int* gbase, __local uint* w,
                  __local rank_shared* s) {
  const uint l = get_local_id(0);
  for (uint d = l; d < RADIX; d += LOCAL_SIZE) colb[d] = colt[d] = 0;
  if (plan) and_or_init(w);
  barrier(CLK_LOCAL_MEM_FENCE);
  key_t a = KEY_MAX, o = 0;
  for (uint t = l; plan && t < groups; t += LOCAL_SIZE) {
    a &= words_key(andor + t * 2 * KEY_WORDS);
    o |= words_key(andor + t * 2 * KEY_WORDS + KEY_WORDS);
  }
  and_or_add(a, o, plan, w);
  __global const uint4* c4 = (__global const uint4*)counts;
  for (uint j = l; b && j < OCTS * SLICES; j += LOCAL_SIZE) {  // (8 digits, a slice of tiles)
    const uint oc = j % OCTS, sl = j / OCTS;
    uint bc[8], ac[8];
    for (int i = 0; i < 8; ++i) bc[i] = ac[i] = 0;
    #pragma unroll 8
    for (uint t = sl; t < tiles; t += SLICES) {  // unrolled: loads in flight together
      const uint4 x = c4[t * OCTS + oc];
      const uint wd[4] = {x.s0, x.s1, x.s2, x.s3};
      for (int i = 0; i < 4; ++i) {
        const uint lo = EVEN_COUNT(wd[i]), hi = ODD_COUNT(wd[i]);
        ac[2 * i] += lo, ac[2 * i + 1] += hi;
        if (t < tile) bc[2 * i] += lo, bc[2 * i + 1] += hi;
      }
    }
    for (int i = 0; i < 8; ++i) {
      if (bc[i]) atomic_add(&colb[8 * oc + i], bc[i]);
      if (ac[i]) atomic_add(&colt[8 * oc + i], ac[i]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (plan) PLAN_OF(w, moves);
  const int on = b && ((moves >> pass) & 1), out = (moves >> (pass + 1)) == 0;
  const uint d0 = l * DPT;
  uint mine = 0, total;
  for (uint d = d0; d < d0 + DPT && d < RADIX; ++d) mine += colt[d];
  uint start = block_excl_scan(mine, s->scan, &total);
  for (uint d = d0; d < d0 + DPT && d < RADIX; ++d) {
    gbase[d] = (int)(start + colb[d]) - (int)s->cnt[d];
    start += colt[d];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  tile_store(lk, gbase, 8 * pass, on ? cnt : 0, out, dst WITH_VALUES(, lv, vdst));
  barrier(CLK_LOCAL_MEM_FENCE);  // lk, gbase, w and s are reused
  return moves;
}

// The end (every tile of this group): an odd number of hops copied back (HELD=0), or with no
// moving pass f32 keys canonicalised in place.
void finish(__global key_t* keys, __global uint* vals, __global const key_t* tmp,
            __global const uint* tmpv, uint n, uint tiles, uint moves) {
  const uint run = popcount(moves), l = get_local_id(0);
  const int copy = !HELD && (run & 1);
#if KEY_FLOAT
  const int todo = copy || run == 0;
#else
  const int todo = copy;  // other keys come back bit for bit from key_out(key_in(x))
#endif
  for (uint t = get_group_id(0); todo && t < tiles; t += get_num_groups(0)) {
    const uint base = t * TILE, cnt = min((uint)TILE, n - base);
    for (uint j = l; j < cnt; j += LOCAL_SIZE) {
      keys[base + j] = copy ? tmp[base + j] : key_out(key_in(keys[base + j]));
#if PAIRS
      if (copy) vals[base + j] = tmpv[base + j];
#endif
    }
  }
}

__kernel void radix_persistent(__global volatile int* state, __global key_t* keys,
                               __global uint* vals, __global key_t* tmp, __global uint* tmpv,
                               uint n, __global uint* counts, __global uint* andor,
                               int phase_begin, int phase_end) {
  if (barrier_discovery(state)) return;
  __local key_t lk[TILE];
  __local uint lv[PAIRS ? TILE : 1];
  __local rank_shared s;
  __local uint colb[RADIX], colt[RADIX], w[2 * KEY_WORDS];
  __local int gbase[RADIX];
  const uint g = get_group_id(0), groups = get_num_groups(0), l = get_local_id(0);
  const uint tiles = (n + TILE - 1) / TILE;
  __global ushort* rows = (__global ushort*)counts;
  key_t k[ITEMS];
  uint r[RANK_WORDS], v[PAIRS ? ITEMS : 1];
  uint moves = 0;
  int round = 0;
  and_or_init(w);  // this group's AND/OR (pass 0)
  barrier(CLK_LOCAL_MEM_FENCE);
#if HELD
  // Group g holds tile g (none when g >= tiles).
  const uint base = g * TILE, cnt = g < tiles ? min((uint)TILE, n - base) : 0;
  int fresh = 0;  // k and v hold the tile as the buffer has it now
  for (int pass = 0; pass < DIGITS;) {
    if (!fresh) load_tile(keys, vals, base, cnt, pass == 0, pass == 0, w, k, v);
    rank_waves(k, 8 * pass, r, &s);
    if (cnt) write_counts(rows + g * RADIX, cnt, &s);
    if (pass == 0 && l < 2 * KEY_WORDS) andor[g * 2 * KEY_WORDS + l] = w[l];
    rank_offsets(k, 8 * pass, r, &s);
    rank_scatter(k, r, lk WITH_VALUES(, v, lv));
    global_barrier(state, &round);
    moves = scatter_tile(1, pass == 0, andor, groups, moves, pass, counts, tiles, g, cnt, keys,
                         vals, lk, lv, colb, colt, gbase, w, &s);
    global_barrier(state, &round);
    fresh = !((moves >> pass) & 1);
    do ++pass;
    while (pass < DIGITS && !((moves >> pass) & 1));
  }
#else
  for (int ph = phase_begin; ph < phase_end; ++ph) {
    const int pass = ph / 2, a = ph % 2 == 0;
    if (ph == 1 || (ph > 0 && ph == phase_begin)) moves = read_plan(andor, groups);
    const int act = pass < DIGITS && (ph == 0 || ((moves >> pass) & 1));
    const uint before = popcount(moves & ((1u << pass) - 1));  // moving passes before this one
    __global key_t* src = (before & 1) ? tmp : keys;
    __global key_t* dst = (before & 1) ? keys : tmp;
    __global uint* vsrc = (before & 1) ? tmpv : vals;
    __global uint* vdst = (before & 1) ? vals : tmpv;
    for (uint t = g; act && t < tiles; t += groups) {  // A: counts; B: (A again), the stores
      const uint base = t * TILE, cnt = min((uint)TILE, n - base);
      load_tile(src, vsrc, base, cnt, before == 0, ph == 0, w, k, v);
      rank_waves(k, 8 * pass, r, &s);
      if (a) write_counts(rows + t * RADIX, cnt, &s);
      rank_offsets(k, 8 * pass, r, &s);
      rank_scatter(k, r, lk WITH_VALUES(, v, lv));
      scatter_tile(!a, 0, andor, groups, moves, pass, counts, tiles, t, cnt, dst, vdst, lk, lv,
                   colb, colt, gbase, w, &s);
    }
    if (ph == 0 && l < 2 * KEY_WORDS) andor[g * 2 * KEY_WORDS + l] = w[l];
    if (pass == DIGITS) finish(keys, vals, tmp, tmpv, n, tiles, moves);
    global_barrier(state, &round);
  }
#endif
#if HELD
  finish(keys, vals, tmp, tmpv, n, tiles, moves);
#endif
}
