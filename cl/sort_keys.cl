// The key transform shared by cl/bitonic.cl and cl/radix.cl: every key type is sorted as an
// unsigned bit pattern (key_t: uint, or ulong for the 64-bit types) whose ascending order is the
// requested order. KEY_TYPE (cl/contract.h KEY_*): u32 as is; i32/i64 sign bit flipped; f32/f64
// negative: all bits flipped, else the sign bit flipped (-0 before +0; every NaN becomes KEY_MAX,
// so NaNs come last in both orders and come back as one canonical quiet NaN, payload not kept);
// u64 as is. The 64-bit types are u64's sort: only these transforms differ. DESCENDING=1 inverts
// the transformed bits (NaNs excepted). key_in maps a stored key to its sortable bits, key_out
// back.
#include "contract.h"
#ifndef KEY_TYPE
#error "KEY_TYPE undefined!"
#endif
#ifndef DESCENDING
#error "DESCENDING undefined!"
#endif

#if KEY_TYPE >= KEY_U64
typedef ulong key_t;
#define KEY_BITS 64
#define KEY_MAX ((ulong)0xFFFFFFFFFFFFFFFFUL)
#define KEY_SIGN ((ulong)0x8000000000000000UL)
#define KEY_INF ((ulong)0x7FF0000000000000UL)
#define KEY_QNAN ((ulong)0x7FF8000000000000UL)
#else
typedef uint key_t;
#define KEY_BITS 32
#define KEY_MAX 0xFFFFFFFFu
#define KEY_SIGN 0x80000000u
#define KEY_INF 0x7F800000u
#define KEY_QNAN 0x7FC00000u
#endif
// KEY_FLOAT: NaNs are canonicalised, so a sort that moves no key still rewrites them
#define KEY_FLOAT (KEY_TYPE == KEY_F32 || KEY_TYPE == KEY_F64)
#define KEY_SIGNED (KEY_TYPE == KEY_I32 || KEY_TYPE == KEY_I64)

key_t key_in(key_t x) {
#if KEY_SIGNED
  x ^= KEY_SIGN;
#elif KEY_FLOAT
  if ((x & ~KEY_SIGN) > KEY_INF) return KEY_MAX;  // NaN: last in either order
  x = (x & KEY_SIGN) ? ~x : (x | KEY_SIGN);
#endif
#if DESCENDING
  x = ~x;  // floats: never KEY_MAX for a number (that bit pattern is a NaN's)
#endif
  return x;
}

key_t key_out(key_t x) {
#if KEY_FLOAT
  if (x == KEY_MAX) return KEY_QNAN;  // the canonical quiet NaN
#endif
#if DESCENDING
  x = ~x;
#endif
#if KEY_SIGNED
  x ^= KEY_SIGN;
#elif KEY_FLOAT
  x = (x & KEY_SIGN) ? (x & ~KEY_SIGN) : ~x;
#endif
  return x;
}
