// Dynamic-programming min/max forms on 32-bit integers. With DPX_NV (the host sets it for an
// NVIDIA device of compute capability >= 9.0, from CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, never
// from the name; LOCKSTEP_DPX=0 clears it) they are inline PTX that ptxas turns into Hopper's
// DPX instructions: add then max into VIADDMNMX, max of a max into VIMNMX3, and max.relu (a max
// clamped at 0, PTX ISA 8.0, sm_90) into one VIMNMX. Everywhere else (PoCL, AMD, other NVIDIA
// GPUs) the same values in portable OpenCL C.
//   dpx_addmax(a, b, c) = max(a + b, c)
//   dpx_max3(a, b, c)   = max(max(a, b), c)
//   dpx_max_relu(a, b)  = max(max(a, b), 0)
// and the same on two signed 16-bit lanes packed into a uint (lane 0 in the low half), the
// Hopper forms add.s16x2, max.s16x2 and max.relu.s16x2 (VIADDMNMX / VIMNMX .S16x2):
//   dpx2_add(a, b), dpx2_addmax(a, b, c), dpx2_max(a, b), dpx2_max_relu(a, b)
// No overflow: callers keep a + b inside the lane (the host bounds the scores); a 16-bit lane
// wraps, in both paths.
#ifndef DPX_CL
#define DPX_CL

#if defined(DPX_NV) && DPX_NV
static inline int dpx_addmax(int a, int b, int c) {
  int d;
  asm("{\n\t.reg .s32 t;\n\tadd.s32 t, %1, %2;\n\tmax.s32 %0, t, %3;\n\t}"
      : "=r"(d)
      : "r"(a), "r"(b), "r"(c));
  return d;
}
static inline int dpx_max3(int a, int b, int c) {
  int d;
  asm("{\n\t.reg .s32 t;\n\tmax.s32 t, %1, %2;\n\tmax.s32 %0, t, %3;\n\t}"
      : "=r"(d)
      : "r"(a), "r"(b), "r"(c));
  return d;
}
static inline int dpx_max_relu(int a, int b) {
  int d;
  asm("max.relu.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
static inline uint dpx2_add(uint a, uint b) {
  uint d;
  asm("add.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
static inline uint dpx2_max(uint a, uint b) {
  uint d;
  asm("max.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
static inline uint dpx2_addmax(uint a, uint b, uint c) {
  uint d;
  asm("{\n\t.reg .b32 t;\n\tadd.s16x2 t, %1, %2;\n\tmax.s16x2 %0, t, %3;\n\t}"
      : "=r"(d)
      : "r"(a), "r"(b), "r"(c));
  return d;
}
static inline uint dpx2_max_relu(uint a, uint b) {
  uint d;
  asm("max.relu.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
#else
static inline int dpx_addmax(int a, int b, int c) { return max(a + b, c); }
static inline int dpx_max3(int a, int b, int c) { return max(max(a, b), c); }
static inline int dpx_max_relu(int a, int b) { return max(max(a, b), 0); }
static inline uint dpx2_add(uint a, uint b) { return as_uint(as_short2(a) + as_short2(b)); }
static inline uint dpx2_max(uint a, uint b) { return as_uint(max(as_short2(a), as_short2(b))); }
static inline uint dpx2_addmax(uint a, uint b, uint c) { return dpx2_max(dpx2_add(a, b), c); }
static inline uint dpx2_max_relu(uint a, uint b) {
  return as_uint(max(max(as_short2(a), as_short2(b)), (short2)(0, 0)));
}
#endif
// Two ints into the lanes of a uint (each must fit 16 bits), and back.
static inline uint dpx2_pack(int lo, int hi) { return (uint)(lo & 0xffff) | ((uint)hi << 16); }
static inline int dpx2_lo(uint x) { return as_short2(x).x; }
static inline int dpx2_hi(uint x) { return as_short2(x).y; }

#endif  // DPX_CL
