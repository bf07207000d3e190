// Dynamic-programming min/max forms, the one file of them (the alignment pipelines and the
// search kernel include it). DPX_NV, the level the host sets (src/runtime/device.cpp from
// CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV >= 9, never from the name; LOCKSTEP_DPX=0 clears it,
// LOCKSTEP_DPX=2 asks for level 2):
//   DPX_NV >= 1: inline PTX that ptxas turns into Hopper's DPX instructions: add then max into
//     VIADDMNMX, max of a max into VIMNMX3, and max.relu (a max clamped at 0, PTX ISA 8.0, sm_90)
//     into one VIMNMX; on packed lanes add.s16x2, max.s16x2 and the two-input max.relu.s16x2;
//   DPX_NV >= 2: also the three-input max.s16x2 / max.relu.s16x2. On the H100 (driver
//     580.159.04) the driver emits PTX .version 9.0, yet its ptxas (and CUDA 13's, at .version 7.8
//     and 8.0 alike) refuses them with "Arguments mismatch for instruction 'max'", so level 1
//     runs (the search tries 2 only under LOCKSTEP_DPX=2). Nothing is lost: ptxas makes
//     search_inter's 64-row column 3 VIADDMNMX.S16 + 1 VIMNMX.S16 + 1 VIADD.16 + 1 LDS per word
//     (two cells) and a VIMNMX3.S16 per two words for the best (SASS counts,
//     BENCHMARKS.md, Database search); the portable path there is 23x slower;
//   otherwise (PoCL, AMD, other NVIDIA GPUs): the same values in portable OpenCL C.
// On 32-bit ints:
//   dpx_addmax(a, b, c) = max(a + b, c)
//   dpx_max3(a, b, c)   = max(max(a, b), c)
//   dpx_max_relu(a, b)  = max(max(a, b), 0)
// and lane-wise on two signed 16-bit lanes packed into a uint (lane 0 in the low half):
//   dpx2_add(a, b), dpx2_max(a, b), dpx2_addmax(a, b, c) = max(a + b, c),
//   dpx2_max_relu(a, b), dpx2_max3(a, b, c), dpx2_max3_relu(a, b, c) = max(a, b, c, 0)
// No overflow: callers keep a + b inside the lane (the host bounds the scores, or the search
// detects saturation itself, cl/search.cl); a 16-bit lane wraps, in every path.
#ifndef DPX_CL
#define DPX_CL

#if defined(DPX_NV) && DPX_NV
// One PTX instruction (or a two-instruction block through a temporary) on 32-bit registers.
#define DPX_ASM2(T, name, ptx)                                     \
  static inline T name(T a, T b) {                                 \
    T d;                                                           \
    asm(ptx " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));            \
    return d;                                                      \
  }
#define DPX_ASM3(T, name, ptx)                                     \
  static inline T name(T a, T b, T c) {                            \
    T d;                                                           \
    asm(ptx : "=r"(d) : "r"(a), "r"(b), "r"(c));                   \
    return d;                                                      \
  }
DPX_ASM3(int, dpx_addmax, "{\n\t.reg .s32 t;\n\tadd.s32 t, %1, %2;\n\tmax.s32 %0, t, %3;\n\t}")
DPX_ASM3(int, dpx_max3, "{\n\t.reg .s32 t;\n\tmax.s32 t, %1, %2;\n\tmax.s32 %0, t, %3;\n\t}")
DPX_ASM2(int, dpx_max_relu, "max.relu.s32")
DPX_ASM2(uint, dpx2_add, "add.s16x2")
DPX_ASM2(uint, dpx2_max, "max.s16x2")
DPX_ASM3(uint, dpx2_addmax,
         "{\n\t.reg .b32 t;\n\tadd.s16x2 t, %1, %2;\n\tmax.s16x2 %0, t, %3;\n\t}")
DPX_ASM2(uint, dpx2_max_relu, "max.relu.s16x2")
#if DPX_NV >= 2
DPX_ASM3(uint, dpx2_max3, "max.s16x2 %0, %1, %2, %3;")
DPX_ASM3(uint, dpx2_max3_relu, "max.relu.s16x2 %0, %1, %2, %3;")
#endif
#else
static inline int dpx_addmax(int a, int b, int c) { return max(a + b, c); }
static inline int dpx_max3(int a, int b, int c) { return max(max(a, b), c); }
static inline int dpx_max_relu(int a, int b) { return max(max(a, b), 0); }
static inline uint dpx2_add(uint a, uint b) {
  return as_uint(as_ushort2(a) + as_ushort2(b));  // unsigned lanes: wrapping is defined
}
static inline uint dpx2_max(uint a, uint b) { return as_uint(max(as_short2(a), as_short2(b))); }
static inline uint dpx2_addmax(uint a, uint b, uint c) { return dpx2_max(dpx2_add(a, b), c); }
static inline uint dpx2_max_relu(uint a, uint b) {
  return as_uint(max(max(as_short2(a), as_short2(b)), (short2)(0, 0)));
}
#endif
#if !defined(DPX_NV) || DPX_NV < 2
static inline uint dpx2_max3(uint a, uint b, uint c) { return dpx2_max(dpx2_max(a, b), c); }
static inline uint dpx2_max3_relu(uint a, uint b, uint c) {
  return dpx2_max(dpx2_max3(a, b, c), 0u);
}
#endif
// Two ints into the lanes of a uint (each must fit 16 bits), and back.
static inline uint dpx2_pack(int lo, int hi) { return (uint)(lo & 0xffff) | ((uint)hi << 16); }
static inline int dpx2_lo(uint x) { return as_short2(x).x; }
static inline int dpx2_hi(uint x) { return as_short2(x).y; }

#endif  // DPX_CL
