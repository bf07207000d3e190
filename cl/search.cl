// Database search kernels (issue 34).
//
// search_inter: inter-sequence Smith-Waterman, best scores only. One work-item = one database
// subject against a PAIR of queries whose scores share each 32-bit word (16-bit lanes, lane 0 =
// query A, lane 1 = query B; cl/sw_packed.cl). A work-group is one chunk of LOCAL_SIZE subjects of
// similar length, padded to the chunk's longest (pad code 31, scored -16384) and interleaved four
// residues per word so that consecutive work-items read consecutive words. The queries are
// processed in stripes of STRIPE rows: the stripe's profile (packed score of each row against each
// of 32 codes, [row][code] so that the work-items' different codes fall in different banks) in
// local memory, the stripe's H and E in registers, and the row below the stripe (H of its last row
// and F of the next, per column) handed to the next stripe through `boundary`.
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
// Parameters: LOCAL_SIZE (work-items per group), STRIPE (query rows held per work-item), SW_DPX
// (see sw_packed.cl); ENDS_LOCAL and ENDS_ROWS (search_ends' shape).
#include "sw_packed.cl"

#define SW_CODES 32

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void search_inter(
    __global const uint* residues,    // per chunk: [column / 4][lane] words of 4 codes
    __global const int4* chunks,      // word offset, padded length, boundary offset, score slot
    const int pairs,                  // query pairs in this launch
    const int pair_base,              // index of its first pair
    __global const uint* profile,     // per pair: [row][SW_CODES] packed scores
    __global const int2* pair_info,   // per pair: profile word offset, stripes
    __global uint2* boundary,         // per (chunk, pair): [column][lane] (H, F) below a stripe
    __global uint* scores,            // [pair][slot] packed best
    const int slots, const uint neg_open, const uint neg_ext) {
  __local uint prof[STRIPE * SW_CODES];
  const int g = get_group_id(0), lane = get_local_id(0);
  const int chunk = g / pairs, pair = g - chunk * pairs;
  const int4 c = chunks[chunk];
  const int2 pi = pair_info[pair_base + pair];
  __global const uint* res = residues + c.x + lane;
  __global uint2* bnd = boundary + ((long)c.z * pairs + (long)pair * c.y * LOCAL_SIZE) + lane;
  const int words = c.y >> 2;
  uint best = 0;
  for (int s = 0; s < pi.y; ++s) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = lane; k < STRIPE * SW_CODES; k += LOCAL_SIZE)
      prof[k] = profile[pi.x + s * (STRIPE * SW_CODES) + k];
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool first = s == 0, last = s == pi.y - 1;
    uint h[STRIPE], e[STRIPE];
#pragma unroll
    for (int r = 0; r < STRIPE; ++r) h[r] = 0, e[r] = neg_open;
    uint top_left = 0;  // H of the row above the stripe, previous column
    // The next word's codes and boundary cells are loaded one word ahead (their latency hidden
    // behind this word's 4 x STRIPE cells; the compiler cannot hoist a load of `bnd` above the
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
#pragma unroll
      for (int b = 0; b < 4; ++b) {
        const int col = 4 * w + b;
        const __local uint* pr = prof + ((codes >> (8 * b)) & (SW_CODES - 1));
        const uint2 above = above4[b];
        uint diag = top_left, f = above.y;
        top_left = above.x;
#pragma unroll
        for (int r = 0; r < STRIPE; r += 2) {
          const uint h0 = sw_max3_relu(sw_add(diag, pr[r * SW_CODES]), e[r], f);
          const uint t0 = sw_add(h0, neg_open);
          f = sw_addmax(f, neg_ext, t0);
          e[r] = sw_addmax(e[r], neg_ext, t0);
          diag = h[r];
          h[r] = h0;
          const uint h1 = sw_max3_relu(sw_add(diag, pr[(r + 1) * SW_CODES]), e[r + 1], f);
          const uint t1 = sw_add(h1, neg_open);
          f = sw_addmax(f, neg_ext, t1);
          e[r + 1] = sw_addmax(e[r + 1], neg_ext, t1);
          diag = h[r + 1];
          h[r + 1] = h1;
          best = sw_max3(best, h0, h1);
        }
        if (!last) bnd[(long)col * LOCAL_SIZE] = (uint2)(h[STRIPE - 1], f);
      }
    }
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
