// Shared by the Floyd-Warshall kernels (cl/floyd_warshall.cl: the tile phases; cl/floyd_warshall_
// rest.cl: the bulk min-plus GEMM): the value type, the saturating min-plus operations and the
// local-memory poisoning. Integers (INTEGER=1): infinity is 2^30-1 and sums are floored at -2^30,
// so nothing overflows even while a negative cycle drives distances down (the host bounds
// |weights|*(n-1) < 2^28).
// No work-group returns before a barrier or skips its store, even uniformly: the launches hold only
// the tiles that need an update (and fw_rest masks its stores per element). PoCL 5.0 on a 16-core
// AVX-512 CPU ran the kernels wrong when some groups of a launch returned early (blocked tile 16,
// n = 31: sum of distances 26441 instead of 88948, the same with one thread and every work-group
// method), and again when some groups of fw_cross skipped their store under a group-uniform
// `if` (generalized tile 16, K = 2, n = 31: 652 of 961 pairs reachable); right in this form.
// Local memory: every kernel takes ONE host-sized `__local` argument and carves its tiles out of
// it (src/apsp/apsp.cpp mirrors the sizes), instead of declaring several automatic __local arrays:
// that is the form every OpenCL implementation handles the same way. POISON_LOCAL=1 fills it with
// -12345 (and a barrier) first, so a kernel that read local memory it had not written would give
// visibly wrong (too short) distances on any device.
#include "common.cl"
#ifndef INTEGER
#error "INTEGER undefined!"
#endif
#ifndef PATHS
#error "PATHS undefined!"
#endif
#ifndef POISON_LOCAL
#error "POISON_LOCAL undefined!"
#endif
#if INTEGER
typedef int4 T4;
#define PLUS(a, b) max((a) + (b), -(1 << 30))
#define MIN(a, b) min(a, b)
#else
typedef float4 T4;
#define PLUS(a, b) ((a) + (b))
#define MIN(a, b) fmin(a, b)
#endif
// The register-tile update of fw_cross, fw_diag and fw_rest: distance d (and its next hop h) by
// the sum s through next hop hk. With next hops a compare, so the hop follows the distance; else
// MIN (hk is then never evaluated).
#if PATHS
#define RELAX(d, h, s, hk) \
  if ((s) < (d)) {         \
    (d) = (s);             \
    (h) = (hk);            \
  }
#else
#define RELAX(d, h, s, hk) (d) = MIN(d, s)
#endif

// Fills the first `words` of smem with garbage when POISON_LOCAL=1 (every item of the group).
static inline void poison(__local T* smem, const int words) {
#if POISON_LOCAL
  for (int x = get_local_id(0); x < words; x += get_local_size(0)) smem[x] = (T)(-12345);
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
}
