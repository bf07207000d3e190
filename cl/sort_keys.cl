// The key transform shared by cl/bitonic.cl and cl/radix.cl, for KEY_TYPE (cl/contract.h KEY_*)
// and DESCENDING: key_t is uint, or ulong for the 64-bit types (u64's sort: only the transforms
// differ); key_in maps a stored key to its sortable bits, key_out back. The transform itself is
// cl/sort_keys.h's, which the host reference (src/sort/cpu.cpp) includes too.
#include "contract.h"
#include "sort_keys.h"
#ifndef KEY_TYPE
#error "KEY_TYPE undefined!"
#endif
#ifndef DESCENDING
#error "DESCENDING undefined!"
#endif

#if KEY_TYPE >= KEY_U64
typedef ulong key_t;
#define KEY_BITS 64
#define KEY_MAX SORT_KEY_MAX64
#define KEY_SIGN SORT_KEY_SIGN64
#define KEY_INF SORT_KEY_INF64
#define KEY_QNAN SORT_KEY_QNAN64
#else
typedef uint key_t;
#define KEY_BITS 32
#define KEY_MAX SORT_KEY_MAX32
#define KEY_SIGN SORT_KEY_SIGN32
#define KEY_INF SORT_KEY_INF32
#define KEY_QNAN SORT_KEY_QNAN32
#endif
// KEY_FLOAT: NaNs are canonicalised, so a sort that moves no key still rewrites them
#define KEY_FLOAT (KEY_TYPE == KEY_F32 || KEY_TYPE == KEY_F64)
#define KEY_SIGNED (KEY_TYPE == KEY_I32 || KEY_TYPE == KEY_I64)

key_t key_in(key_t x) {
  return SORT_KEY_IN(x, KEY_SIGN, KEY_INF, KEY_MAX, KEY_SIGNED, KEY_FLOAT, DESCENDING);
}

key_t key_out(key_t x) {
  return SORT_KEY_OUT(x, KEY_SIGN, KEY_MAX, KEY_QNAN, KEY_SIGNED, KEY_FLOAT, DESCENDING);
}
