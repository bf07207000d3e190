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
// search_exact: one (query, subject) pair per work-item in 32 bits, the loop order of align_cpu
// (query rows outer, a strictly greater score replaces the best): the exact score and its ends,
// with ties at the smallest end in the query, then in the subject. Used for saturated pairs and
// for the ends of the reported hits (whose score is known: it stops at the first cell reaching it).
//
// Parameters: LOCAL_SIZE (work-items per group), STRIPE (query rows held per work-item), SW_DPX
// (see sw_packed.cl).
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
    for (int w = 0; w < words; ++w) {
      const uint codes = res[(long)w * LOCAL_SIZE];
#pragma unroll
      for (int b = 0; b < 4; ++b) {
        const int col = 4 * w + b;
        const __local uint* pr = prof + ((codes >> (8 * b)) & (SW_CODES - 1));
        uint2 above = (uint2)(0u, neg_open);
        if (!first) above = bnd[(long)col * LOCAL_SIZE];
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

__kernel void search_exact(
    __global const uchar* seqs,  // the residues of every job's query and subject
    __global const int* jobs,    // per job: query offset, length, subject offset, length, scratch,
                                 // the score when known (the first cell reaching it is the end)
    const int njobs, __global const int* table, const int alphabet, const int open,
    const int ext, __global int2* scratch,  // per job: (H, F) of each subject column
    __global int4* out) {                   // per job: score, end in query, end in subject
  const int k = get_global_id(0);
  if (k >= njobs) return;
  __global const int* jb = jobs + 6 * k;
  __global const uchar* a = seqs + jb[0];
  __global const uchar* b = seqs + jb[2];
  const int n = jb[1], m = jb[3], target = jb[5];
  __global int2* hf = scratch + jb[4];
  const int neg = -(1 << 29);
  for (int j = 0; j < m; ++j) hf[j] = (int2)(0, neg);
  int best = 0, ei = -1, ej = -1;
  for (int i = 0; i < n; ++i) {
    __global const int* row = table + a[i] * alphabet;
    int diag = 0, left = 0, e = neg;
    for (int j = 0; j < m; ++j) {
      const int2 up = hf[j];
      e = max(e - ext, left - open);
      const int f = max(up.y - ext, up.x - open);
      const int h = max(max(diag + row[b[j]], 0), max(e, f));
      diag = up.x;
      left = h;
      hf[j] = (int2)(h, f);
      if (h > best) {
        best = h, ei = i, ej = j;
        if (best >= target) {  // rows outer: no later cell can take the end from this one
          out[k] = (int4)(best, ei, ej, 0);
          return;
        }
      }
    }
  }
  out[k] = (int4)(best, ei, ej, 0);
}
