// What the kernels of cl/radix.cl share: the state buffer, the pass plan in it, and the
// look-back flags. Included by cl/radix.cl after cl/barrier_order.cl and cl/radix_rank.cl
// (RADIX, DIGITS, TILE, key_t).
// State: ints. The first ST_ZERO of them (the digit counts, the tile counters, the finished
// histogram groups) are zero between sorts: the host zeroes them once, when it allocates the
// buffer, and every sort leaves them zero (radix_histogram's last group clears the counts and its
// counter; in each pass the group that takes the last tile id clears that pass's counter).
// radix_histogram writes each digit's global starts (DIGITS * RADIX) and the plan: per pass -1
// (skip: one digit holds every key) or PLAN_* bits. The plan keeps the result in the caller's
// buffer: with an odd number of passes to run, the first skipped pass runs as a plain copy; with
// none to run, f32 keys are canonicalised in place.
// The zero words sit at the same places for every key type (room for 8 digits), since sorts of
// different key types share the buffer.
// The layout is the host's too: cl/contract.h's RADIX_ST_*.
#include "contract.h"
#define ST_COUNT 0                  // per pass and digit: the keys (radix_histogram's atomics)
#define ST_TILE RADIX_ST_TILE       // per pass: the next tile id
#define ST_DONE RADIX_ST_DONE       // histogram groups finished
#define ST_ZERO RADIX_ST_ZERO       // the words above, zero between sorts
#define ST_START ST_ZERO              // per pass and digit: the digit's first position
#define ST_PLAN (ST_START + DIGITS * RADIX)  // per pass: PLAN_* bits or -1; then the passes run
#define ST_SIZE RADIX_ST_WORDS(DIGITS)
#if ST_SIZE != ST_PLAN + DIGITS + 1 || RADIX != 256
#error "cl/contract.h's radix state layout and this file disagree"
#endif
#define PLAN_PARITY 1   // reads the scratch buffer (else the caller's)
#define PLAN_IN 2       // first pass run: key_in on load
#define PLAN_OUT 4      // last pass run: key_out on store
#define PLAN_COPY 8     // copy the keys as they are (an even number of hops)
#define PLAN_INPLACE 16 // key_out(key_in(k)) in the caller's buffer (f32 NaNs, nothing else runs)

// The start of every pass kernel (radix_pass, radix_count, radix_tile_scan): returns when the
// plan skips the pass; else src/dst (and vsrc/vdst) by the plan's parity, the local id, the
// number of tiles and the digit's shift.
#define PASS_SETUP()                                                                  \
  const int plan = state[ST_PLAN + pass];                                             \
  if (plan < 0) return;                                                               \
  const int par = plan & PLAN_PARITY;                                                 \
  __global key_t* src = par ? tmp : keys;                                             \
  __global key_t* dst = par ? keys : tmp;                                             \
  __global uint* vsrc = par ? tmpv : vals;                                            \
  __global uint* vdst = par ? vals : tmpv;                                            \
  const uint l = get_local_id(0), tiles = (n + TILE - 1) / TILE, shift = 8 * pass;

// Look-back flags (chained=1): per tile and digit one 32-bit word, FLAG_AGG | the tile's count,
// then FLAG_PREFIX | the inclusive prefix (30 bits: n < 2^30), written with flag_store_relaxed
// and read with flag_load_relaxed: a flag word carries its count, nothing else is read through
// it, so no release/acquire order is needed (cl/barrier_order.cl; on the H100 release stores
// cost 3 % of a pass). Two flag arrays alternate between passes; each pass zeroes the other.
#define FLAG_AGG 0x40000000u
#define FLAG_PREFIX 0x80000000u
#define FLAG_COUNT 0x3FFFFFFFu

// Decoupled look-back: the exclusive prefix of digit d over the tiles before `tile`. Loads
// LOOKBACK predecessors' flags at once (independent relaxed loads: a flag word carries its own
// count, nothing else is read through it, so no acquire is needed and the loads overlap), sums
// aggregates nearest first until an inclusive prefix; at an empty flag it reloads from there.
// H100, 2^26, two rounds: LOOKBACK 16/8/4/2 keys 1.588/1.565/1.545-1.549/1.552-1.562
// ms, pairs 2.405/2.397/2.367-2.381/2.379-2.386 (a predecessor's prefix is mostly near; fewer
// loads per round are fewer L2 requests and registers).
#ifndef LOOKBACK
#define LOOKBACK 4
#endif
uint look_back(__global volatile int* fl, uint tile, uint d) {
  uint excl = 0;
  for (int t = (int)tile - 1; t >= 0;) {
    uint f[LOOKBACK];
    #pragma unroll
    for (int j = 0; j < LOOKBACK; ++j)  // before tile 0: an inclusive prefix of 0
      f[j] = t - j >= 0 ? (uint)flag_load_relaxed(fl + (t - j) * RADIX + d) : FLAG_PREFIX;
    int step = LOOKBACK, done = 0;
    #pragma unroll
    for (int j = 0; j < LOOKBACK; ++j)
      if (step == LOOKBACK && !done) {
        if (!(f[j] & (FLAG_AGG | FLAG_PREFIX))) {
          step = j;  // not published yet: spin on it
        } else {
          excl += f[j] & FLAG_COUNT;
          done = (f[j] & FLAG_PREFIX) != 0;
        }
      }
    if (done) break;
    t -= step;
  }
  return excl;
}
