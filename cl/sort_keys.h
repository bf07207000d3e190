// The sort key transform, written once for the kernels (cl/sort_keys.cl) and the host reference
// (src/sort/cpu.cpp): every key type is sorted as an unsigned bit pattern of its width whose
// ascending order is the requested order. u32/u64 as is; i32/i64 sign bit flipped; f32/f64
// negative: all bits flipped, else the sign bit flipped (-0 before +0; every NaN becomes the
// all-ones pattern, so NaNs come last in both orders and come back as one canonical quiet NaN,
// payload not kept). Descending inverts the transformed bits (NaNs excepted; no number maps to
// all ones, that pattern is a NaN's). Expression macros on the key's bits x (an unsigned of the
// key's width, evaluated more than once) with the width's constants; the flags are constants in
// the kernels (KEY_TYPE, DESCENDING), so the compiler folds every choice away.
#ifndef LOCKSTEP_SORT_KEYS_H
#define LOCKSTEP_SORT_KEYS_H

// (OpenCL C: the runtime defines __OPENCL_VERSION__, an offline clang only __OPENCL_C_VERSION__;
// there `long long`, and so ULL, is 128 bits, which SPIR-V refuses)
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define SORT_KEY_U64(c) ((ulong)c##UL)
#else
#define SORT_KEY_U64(c) c##ULL
#endif
#define SORT_KEY_SIGN32 0x80000000u
#define SORT_KEY_INF32 0x7F800000u
#define SORT_KEY_QNAN32 0x7FC00000u
#define SORT_KEY_MAX32 0xFFFFFFFFu
#define SORT_KEY_SIGN64 SORT_KEY_U64(0x8000000000000000)
#define SORT_KEY_INF64 SORT_KEY_U64(0x7FF0000000000000)
#define SORT_KEY_QNAN64 SORT_KEY_U64(0x7FF8000000000000)
#define SORT_KEY_MAX64 SORT_KEY_U64(0xFFFFFFFFFFFFFFFF)

// Whether the bits x of a float are a NaN.
#define SORT_KEY_IS_NAN(x, sign, inf) (((x) & ~(sign)) > (inf))
// The ascending order's bits of a number.
#define SORT_KEY_ORDER(x, sign, is_signed, is_float) \
  ((is_signed) ? (x) ^ (sign) : (is_float) ? (((x) & (sign)) ? ~(x) : ((x) | (sign))) : (x))
// The inverse of SORT_KEY_ORDER.
#define SORT_KEY_UNORDER(y, sign, is_signed, is_float) \
  ((is_signed) ? (y) ^ (sign) : (is_float) ? (((y) & (sign)) ? ((y) & ~(sign)) : ~(y)) : (y))
// A stored key's sortable bits (key_in) and back (key_out).
#define SORT_KEY_IN(x, sign, inf, max, is_signed, is_float, descending)                          \
  (((is_float) && SORT_KEY_IS_NAN(x, sign, inf)) ? (max)                                         \
   : (descending)                                ? ~SORT_KEY_ORDER(x, sign, is_signed, is_float) \
                                                 : SORT_KEY_ORDER(x, sign, is_signed, is_float))
#define SORT_KEY_OUT(y, sign, max, qnan, is_signed, is_float, descending)           \
  (((is_float) && (y) == (max)) ? (qnan)                                            \
   : (descending)               ? SORT_KEY_UNORDER(~(y), sign, is_signed, is_float) \
                                : SORT_KEY_UNORDER(y, sign, is_signed, is_float))

#endif
