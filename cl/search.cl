// Database search kernels.
//
// search_inter: inter-sequence Smith-Waterman, best scores only. One work-item = one database
// subject against a PAIR of queries whose scores share each 32-bit word (16-bit lanes, lane 0 =
// query A, lane 1 = query B; cl/dpx.cl's dpx2_* forms). A work-group is one chunk of LOCAL_SIZE
// subjects of similar length, padded to the chunk's longest (pad code 31, scored -16384) and
// interleaved four residues per word so that consecutive work-items read consecutive words. The
// queries are processed in stripes of STRIPE rows: the stripe's profile (packed score of each row
// against each of 32 codes, [row][code] so that the work-items' different codes fall in different
// banks) in local memory, the stripe's H and E in registers, and the row below the stripe (H of its
// last row and F of the next, per column) handed to the next stripe through `boundary`.
//
// Range: H >= 0 (max with 0), E and F >= -gap_open (they are max(..., H - open)), so no lane
// wraps below; a lane wraps above only after some H exceeded 32767 - (the largest table score),
// and since the best is a running maximum the host sees that best above that limit and recomputes
// the pair exactly (search_exact). Pad rows and pad columns score -16384: what they hold is
// reached only through a gap from a real cell, strictly below it, so they never change the best.
//
// search_ends (below): the exact 32-bit score and ends of one pair per work-group, for saturated
// pairs, long subjects and the reported hits.
//
// Parameters: LOCAL_SIZE (work-items per group), STRIPE (query rows held per work-item), DPX_NV
// (see dpx.cl); ENDS_LOCAL and ENDS_ROWS (search_ends' shape).
#include "dpx.cl"

#define SW_CODES 32

// Variants (the host's SearchOptions::variant; each exact, the same lanes as the plain kernel):
//  SEARCH_PROF2=1: the profile laid out [row / 2][code][2] in local memory, so that one 64-bit
//    load gives a column's score in two rows (one LDS.64 per four cells instead of two LDS.32);
//  SEARCH_SKEW=1: the four columns of a word in two pairs, each pair's second column one row
//    behind its first (a wavefront over two columns), so that every step holds two independent
//    dependency chains (H -> F -> H down a column) for the scheduler instead of one.
#ifndef SEARCH_PROF2
#define SEARCH_PROF2 0
#endif
#ifndef SEARCH_SKEW
#define SEARCH_SKEW 0
#endif
#if SEARCH_PROF2
typedef uint2 prof_t;  // rows 2k and 2k + 1 of one code
#define PROF_WORDS (STRIPE / 2 * SW_CODES)
// The score of row ROW (a constant after unrolling) from P (the column's code's profile); V holds
// the current row pair, loaded at the even row.
#define PSCORE(v, p, row) (((row) & 1) ? (v).y : ((v) = (p)[((row) >> 1) * SW_CODES]).x)
#else
typedef uint prof_t;
#define PROF_WORDS (STRIPE * SW_CODES)
#define PSCORE(v, p, row) ((p)[(row) * SW_CODES])
#endif

// One cell of row R: H from the diagonal DIAG plus score SC, E of the row and the column's F; the
// row's H and E and the column's F updated, DIAG left holding the row's H of the previous column
// (the next row's diagonal), HV the new H.
#define SEARCH_CELL(hv, diag, f, r, sc)                   \
  {                                                       \
    hv = dpx2_max3_relu(dpx2_add(diag, sc), e[r], f);     \
    const uint t_ = dpx2_add(hv, neg_open);               \
    f = dpx2_max(dpx2_add(f, neg_ext), t_);               \
    e[r] = dpx2_max(dpx2_add(e[r], neg_ext), t_);         \
    diag = h[r];                                          \
    h[r] = hv;                                            \
  }

// Short last stripes: with STRIPE a multiple of 8, a pair whose rows end within the first half
// or quarter of its last stripe runs that stripe with STRIPE / 2 or STRIPE / 4 rows (the host's
// pair_info.z), so the padding rows of a query (up to STRIPE - 1 of them, ~7 % of the cells for
// 50 proteins at STRIPE 32) are mostly not computed. The rows left out are padding: they score
// -16384 and never hold the best.
#ifndef SEARCH_TAILS
#define SEARCH_TAILS (STRIPE % 8 == 0)  // the host's last_stripe_rows
#endif

// One stripe of ROWS rows (a constant after inlining: each call below is its own unrolled copy)
// over the chunk's WORDS words: the stripe's H and E in registers, the row above from `bnd`
// (unless FIRST), the row below written to it (unless LAST). Returns BEST raised by the stripe's
// cells.
static inline __attribute__((always_inline)) uint search_stripe(
    const int rows, const int words, const bool first, const bool last,
    __global const uint* res, __global uint2* bnd, __local const prof_t* prof, uint best,
    const uint neg_open, const uint neg_ext) {
  uint h[STRIPE], e[STRIPE];
#pragma unroll
  for (int r = 0; r < rows; ++r) h[r] = 0, e[r] = neg_open;
  uint top_left = 0;  // H of the row above the stripe, previous column
  // The next word's codes and boundary cells are loaded one word ahead (their latency hidden
  // behind this word's 4 x ROWS cells; the compiler cannot hoist a load of `bnd` above the
  // stores to it).
  uint codes_next = res[0];
  uint2 above_next[4];
#pragma unroll
  for (int b = 0; b < 4; ++b)
    above_next[b] = first ? (uint2)(0u, neg_open) : bnd[(long)b * LOCAL_SIZE];
  for (int w = 0; w < words; ++w) {
    const uint codes = codes_next;
    uint2 above4[4];
#pragma unroll
    for (int b = 0; b < 4; ++b) above4[b] = above_next[b];
    if (w + 1 < words) {
      codes_next = res[(long)(w + 1) * LOCAL_SIZE];
#pragma unroll
      for (int b = 0; b < 4; ++b)
        if (!first) above_next[b] = bnd[(long)(4 * (w + 1) + b) * LOCAL_SIZE];
    }
#if SEARCH_SKEW
#pragma unroll
    for (int b = 0; b < 4; b += 2) {
      const int col = 4 * w + b;
      const __local prof_t* pa = prof + ((codes >> (8 * b)) & (SW_CODES - 1));
      const __local prof_t* pb = prof + ((codes >> (8 * b + 8)) & (SW_CODES - 1));
      prof_t va, vb;
      // Column A (col) runs row r while column B (col + 1) runs row r - 1: B's diagonal at
      // row 0 is the row above the stripe at column A, and after B's row r - 1, B's `diag`
      // holds A's H of row r - 1.
      uint diag_a = top_left, f_a = above4[b].y;
      uint diag_b = above4[b].x, f_b = above4[b + 1].y;
      top_left = above4[b + 1].x;
      uint ha, hb;
      SEARCH_CELL(ha, diag_a, f_a, 0, PSCORE(va, pa, 0));
      best = dpx2_max(best, ha);
#pragma unroll
      for (int r = 1; r < rows; ++r) {
        SEARCH_CELL(ha, diag_a, f_a, r, PSCORE(va, pa, r));
        SEARCH_CELL(hb, diag_b, f_b, r - 1, PSCORE(vb, pb, r - 1));
        best = dpx2_max3(best, ha, hb);
      }
      const uint ha_last = h[rows - 1];  // A's H of the last row, before B's
      SEARCH_CELL(hb, diag_b, f_b, rows - 1, PSCORE(vb, pb, rows - 1));
      best = dpx2_max(best, hb);
      if (!last) {
        bnd[(long)col * LOCAL_SIZE] = (uint2)(ha_last, f_a);
        bnd[(long)(col + 1) * LOCAL_SIZE] = (uint2)(hb, f_b);
      }
    }
#else
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const int col = 4 * w + b;
      const __local prof_t* pr = prof + ((codes >> (8 * b)) & (SW_CODES - 1));
      const uint2 above = above4[b];
      uint diag = top_left, f = above.y;
      top_left = above.x;
      prof_t v;
#pragma unroll
      for (int r = 0; r < rows; r += 2) {
        uint h0, h1;
        SEARCH_CELL(h0, diag, f, r, PSCORE(v, pr, r));
        SEARCH_CELL(h1, diag, f, r + 1, PSCORE(v, pr, r + 1));
        best = dpx2_max3(best, h0, h1);
      }
      if (!last) bnd[(long)col * LOCAL_SIZE] = (uint2)(h[rows - 1], f);
    }
#endif
  }
  return best;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void search_inter(
    __global const uint* residues,    // per chunk: [column / 4][lane] words of 4 codes
    __global const int4* chunks,      // word offset, padded length, boundary offset, score slot
    const int pairs,                  // query pairs in this launch
    const int pair_base,              // index of its first pair
    __global const prof_t* profile,   // per pair: [row][SW_CODES] packed scores (PROF2: see above)
    __global const int4* pair_info,   // per pair: profile word offset, stripes, last stripe's rows
    __global uint2* boundary,         // per (chunk, pair): [column][lane] (H, F) below a stripe
    __global uint* scores,            // [pair][slot] packed best
    const int slots, const uint neg_open, const uint neg_ext) {
  __local prof_t prof[PROF_WORDS];
  const int g = get_group_id(0), lane = get_local_id(0);
  const int chunk = g / pairs, pair = g - chunk * pairs;
  const int4 c = chunks[chunk];
  const int4 pi = pair_info[pair_base + pair];
  __global const uint* res = residues + c.x + lane;
  __global uint2* bnd = boundary + ((long)c.z * pairs + (long)pair * c.y * LOCAL_SIZE) + lane;
  const int words = c.y >> 2;
  uint best = 0;
  for (int s = 0; s < pi.y; ++s) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = lane; k < PROF_WORDS; k += LOCAL_SIZE)
      prof[k] = profile[pi.x / (int)(sizeof(prof_t) / 4) + s * PROF_WORDS + k];
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool first = s == 0, last = s == pi.y - 1;
#if SEARCH_TAILS
    const int rows = last ? pi.z : STRIPE;
    if (rows == STRIPE / 4)
      best = search_stripe(STRIPE / 4, words, first, last, res, bnd, prof, best, neg_open, neg_ext);
    else if (rows == STRIPE / 2)
      best = search_stripe(STRIPE / 2, words, first, last, res, bnd, prof, best, neg_open, neg_ext);
    else
#endif
      best = search_stripe(STRIPE, words, first, last, res, bnd, prof, best, neg_open, neg_ext);
  }
  scores[(long)pair * slots + c.w + lane] = best;
}

// search_ends: one (query, subject) pair per work-group in 32 bits, an anti-diagonal wavefront:
// work-item t holds ENDS_ROWS query rows (H and E in registers) and takes subject column j at step
// j + t, handing the H and F of its last row to work-item t + 1 through local memory (double
// buffered by the step's parity: one barrier per step). A query longer than ENDS_LOCAL x ENDS_ROWS
// rows runs in passes, the row below a pass through `scratch` (two rows per job, alternating, so
// no pass reads what it writes). Ends follow align_cpu (rows outer, a strictly greater score
// replaces the best): of the cells holding the best score, the smallest row, then the smallest
// column; each work-item keeps that for its cells, and work-item 0 reduces them.
#define ENDS_NEG (-(1 << 29))
#define ENDS_TABLE 64  // alphabet at most this (the host's check)

__kernel __attribute__((reqd_work_group_size(ENDS_LOCAL, 1, 1))) void search_ends(
    __global const uchar* seqs,  // the residues of every job's query and subject
    __global const int* jobs,    // per job: query offset, length, subject offset, length, scratch
    __global const int* table, const int alphabet, const int open, const int ext,
    __global int2* scratch,      // per job: 2 x subject length (H, F)
    __global int4* out) {        // per job: score, end in query, end in subject (-1: score 0)
  __local int tab[ENDS_TABLE * ENDS_TABLE];
  __local int2 hand[2][ENDS_LOCAL];
  __local int3 red[ENDS_LOCAL];
  const int t = get_local_id(0);
  __global const int* jb = jobs + 5 * get_group_id(0);
  __global const uchar* a = seqs + jb[0];
  __global const uchar* b = seqs + jb[2];
  const int n = jb[1], m = jb[3];
  __global int2* bnd = scratch + jb[4];
  for (int k = t; k < alphabet * alphabet; k += ENDS_LOCAL) tab[k] = table[k];
  int best = 0, bi = INT_MAX, bj = INT_MAX;
  for (int p0 = 0, pass = 0; p0 < n; p0 += ENDS_LOCAL * ENDS_ROWS, ++pass) {
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // the previous pass's row is written
    __global const int2* below_prev = bnd + (pass & 1) * m;  // read (pass > 0)
    __global int2* below = bnd + ((pass + 1) & 1) * m;       // written (not the last pass)
    const bool first = pass == 0, last = p0 + ENDS_LOCAL * ENDS_ROWS >= n;
    const int i0 = p0 + t * ENDS_ROWS;
    int off[ENDS_ROWS], h[ENDS_ROWS], e[ENDS_ROWS];
#pragma unroll
    for (int r = 0; r < ENDS_ROWS; ++r)
      off[r] = (i0 + r < n ? a[i0 + r] : 0) * alphabet, h[r] = 0, e[r] = ENDS_NEG;
    int top_left = 0;  // H of the row above this work-item's rows, previous column
    for (int step = 0; step < m + ENDS_LOCAL - 1; ++step) {
      const int j = step - t;
      if (j >= 0 && j < m) {
        int2 above = (int2)(0, ENDS_NEG);
        if (t > 0) above = hand[(step - 1) & 1][t - 1];
        else if (!first) above = below_prev[j];
        int diag = top_left, hup = above.x, fup = above.y;
        top_left = above.x;
        const int code = b[j];
#pragma unroll
        for (int r = 0; r < ENDS_ROWS; ++r) {
          const int ev = max(e[r] - ext, h[r] - open);
          const int fv = max(fup - ext, hup - open);
          const int hv = max(max(diag + tab[off[r] + code], 0), max(ev, fv));
          diag = h[r];
          h[r] = hv, e[r] = ev, hup = hv, fup = fv;
          if (hv > best || (hv == best && hv > 0 && i0 + r < bi)) {
            if (i0 + r < n) best = hv, bi = i0 + r, bj = j;
          }
        }
        hand[step & 1][t] = (int2)(hup, fup);
        if (t == ENDS_LOCAL - 1 && !last) below[j] = (int2)(hup, fup);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  red[t] = (int3)(best, bi, bj);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    for (int u = 1; u < ENDS_LOCAL; ++u) {
      const int3 o = red[u];
      if (o.x > best || (o.x == best && (o.y < bi || (o.y == bi && o.z < bj))))
        best = o.x, bi = o.y, bj = o.z;
    }
    out[get_group_id(0)] = best > 0 ? (int4)(best, bi, bj, 0) : (int4)(0, -1, -1, 0);
  }
}
