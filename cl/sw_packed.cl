// Packed 16-bit Smith-Waterman primitives: two signed 16-bit lanes in one 32-bit word (lane 0 in
// bits 0-15), every operation lane-wise, additions wrapping (callers keep values in range and
// detect saturation themselves, see cl/search.cl).
//
//   SW_DPX=2 (the host sets it for NVIDIA compute capability >= 9.0): inline PTX, the sm_90 DPX
//   forms add.s16x2, max.s16x2, max.relu.s16x2 and the three-input max / max.relu;
//   SW_DPX=1 (where the driver's PTX refuses those): add.s16x2 and two-input max.s16x2 only
//   (ptxas fuses an add feeding a max into VIADDMNMX, max(max()) into VIMNMX3);
//   On the H100 (driver 580.159.04) the driver emits PTX .version 9.0, yet its ptxas (and CUDA
//   13's, at .version 7.8 and 8.0 alike) refuses the three-input max.s16x2 / max.relu.s16x2 with
//   "Arguments mismatch for instruction 'max'", so level 1 runs. Nothing is lost: ptxas makes
//   search_inter's 64-row column 3 VIADDMNMX.S16 + 1 VIMNMX.S16 + 1 VIADD.16 + 1 LDS per word
//   (two cells) and a VIMNMX3.S16 per two words for the best (SASS counts
//   on the H100); the portable path there is 23x slower.
//   otherwise: portable OpenCL C on short2 (PoCL, AMD, any device). Both give identical lanes.
//
//   sw_add(a, b)           a + b
//   sw_max(a, b)           max(a, b)
//   sw_addmax(a, b, c)     max(a + b, c)
//   sw_max3(a, b, c)       max(a, b, c)
//   sw_max3_relu(a, b, c)  max(a, b, c, 0)
#ifndef LOCKSTEP_SW_PACKED_CL
#define LOCKSTEP_SW_PACKED_CL

#if defined(SW_DPX) && SW_DPX > 0

static inline uint sw_add(uint a, uint b) {
  uint d;
  asm("add.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
static inline uint sw_max(uint a, uint b) {
  uint d;
  asm("max.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
#if SW_DPX >= 2
static inline uint sw_max3(uint a, uint b, uint c) {
  uint d;
  asm("max.s16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
static inline uint sw_max3_relu(uint a, uint b, uint c) {
  uint d;
  asm("max.relu.s16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
#else
static inline uint sw_max3(uint a, uint b, uint c) { return sw_max(sw_max(a, b), c); }
static inline uint sw_max3_relu(uint a, uint b, uint c) { return sw_max(sw_max3(a, b, c), 0u); }
#endif

#else  // portable

static inline uint sw_add(uint a, uint b) {
  return as_uint(as_ushort2(a) + as_ushort2(b));  // unsigned lanes: wrapping is defined
}
static inline uint sw_max(uint a, uint b) { return as_uint(max(as_short2(a), as_short2(b))); }
static inline uint sw_max3(uint a, uint b, uint c) { return sw_max(sw_max(a, b), c); }
static inline uint sw_max3_relu(uint a, uint b, uint c) { return sw_max(sw_max3(a, b, c), 0u); }

#endif

static inline uint sw_addmax(uint a, uint b, uint c) { return sw_max(sw_add(a, b), c); }

#endif
