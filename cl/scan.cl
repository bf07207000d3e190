// Work-group scans in local memory, shared by cl/radix_rank.cl (block_excl_scan's portable path)
// and cl/bfs_lb.cl. Macro: LOCAL_SIZE.
#ifndef LOCAL_SIZE
#error "LOCAL_SIZE undefined!"
#endif

// Inclusive prefix sum of x over the work-group (Hillis-Steele in s[0 .. LOCAL_SIZE): 2
// log2(LOCAL_SIZE) + 1 barriers). All work-items call it. Afterwards s[LOCAL_SIZE - 1] holds the
// group's total; the caller puts a barrier before s is written again.
uint wg_scan_incl(uint x, __local uint* s) {
  const uint l = get_local_id(0);
  s[l] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < LOCAL_SIZE; off <<= 1) {
    const uint y = l >= off ? s[l - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    s[l] += y;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return s[l];
}
