// The key transform shared by cl/bitonic.cl and cl/radix.cl: every key type is sorted as an
// unsigned bit pattern (key_t: uint, or ulong for u64) whose ascending order is the requested
// order. KEY_TYPE 0 u32 (as is), 1 i32 (sign bit flipped), 2 f32 (negative: all bits flipped,
// else the sign bit flipped; -0 before +0; every NaN becomes KEY_MAX, so NaNs come last in both
// orders and come back as one canonical NaN, payload not kept), 3 u64. DESCENDING=1 inverts the
// transformed bits (NaNs excepted). key_in maps a stored key to its sortable bits, key_out back.
#ifndef KEY_TYPE
#error "KEY_TYPE undefined!"
#endif
#ifndef DESCENDING
#error "DESCENDING undefined!"
#endif

#if KEY_TYPE == 3
typedef ulong key_t;
#define KEY_BITS 64
#define KEY_MAX ((ulong)0xFFFFFFFFFFFFFFFFUL)
#else
typedef uint key_t;
#define KEY_BITS 32
#define KEY_MAX 0xFFFFFFFFu
#endif

key_t key_in(key_t x) {
#if KEY_TYPE == 1
  x ^= 0x80000000u;
#elif KEY_TYPE == 2
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return KEY_MAX;  // NaN: last in either order
  x = (x & 0x80000000u) ? ~x : (x | 0x80000000u);
#endif
#if DESCENDING
  x = ~x;  // f32: never KEY_MAX for a number (that bit pattern is a NaN's)
#endif
  return x;
}

key_t key_out(key_t x) {
#if KEY_TYPE == 2
  if (x == KEY_MAX) return 0x7FC00000u;  // the canonical quiet NaN
#endif
#if DESCENDING
  x = ~x;
#endif
#if KEY_TYPE == 1
  x ^= 0x80000000u;
#elif KEY_TYPE == 2
  x = (x & 0x80000000u) ? (x & 0x7FFFFFFFu) : ~x;
#endif
  return x;
}
