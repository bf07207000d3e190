// Cross-work-group memory ordering for flag protocols (global barriers, decoupled look-back,
// wavefront flags), at device scope, on three paths chosen by the host (add_flag_defines() in
// lockstep/barrier.hpp sets the macros):
//   BARRIER_C11=1                   OpenCL C 2.0/3.0 atomics, acquire/release, memory_scope_device
//   BARRIER_C11=0, BARRIER_NV_PTX   NVIDIA (OpenCL C 1.2 only): inline PTX at .gpu scope;
//     BARRIER_NV_ORDER=0  full `fence.acq_rel.gpu` around volatile loads/stores and atomic_add
//     BARRIER_NV_ORDER=1  one-directional: ld.acquire.gpu, st.release.gpu, red.release.gpu,
//                         atom.acq_rel.gpu (every spin iteration is an acquire load)
//     BARRIER_NV_ORDER=2  as 1, but spins use ld.relaxed.gpu and one ld.acquire.gpu at the end
//   BARRIER_C11=0, no BARRIER_NV_PTX  plain OpenCL C 1.2: volatile accesses, atomic_add and
//     mem_fence(CLK_GLOBAL_MEM_FENCE) (NOT enough on NVIDIA: stale reads were measured there).
// Public helpers, correct on every path (p points to global memory, 4-byte aligned):
//   int  flag_load_acquire(p)        later loads of this work-item see what the writer released
//   void flag_store_release(p, v)    earlier stores of this work-item are visible to an acquirer
//   int  flag_add_acq_rel(p, v)      atomic add, returns the old value; acquire and release
//   int  flag_load_relaxed(p)        for spinning; follow the spin with one flag_load_acquire(p)
//   void flag_store_relaxed(p, v)    a word that carries its own data (a look-back flag with its
//                                    count): no order for other data, so no release fence
// Work-group data: put a work_group barrier (barrier(CLK_GLOBAL_MEM_FENCE)) between the other
// work-items' stores and the one work-item that releases, and after the acquiring work-item.
#include "contract.h"
#ifndef BARRIER_C11
#error "BARRIER_C11 undefined!"
#endif
#if !BARRIER_C11 && defined(BARRIER_NV_PTX) && !defined(BARRIER_NV_ORDER)
#error "BARRIER_NV_ORDER undefined!"
#endif

#if BARRIER_C11
#define B_ATOM(p) ((volatile __global atomic_int*)(p))
int flag_load_acquire(__global volatile int* p) {
  return atomic_load_explicit(B_ATOM(p), memory_order_acquire, memory_scope_device);
}
int flag_load_relaxed(__global volatile int* p) {
  return atomic_load_explicit(B_ATOM(p), memory_order_relaxed, memory_scope_device);
}
void flag_store_release(__global volatile int* p, int v) {
  atomic_store_explicit(B_ATOM(p), v, memory_order_release, memory_scope_device);
}
void flag_store_relaxed(__global volatile int* p, int v) {
  atomic_store_explicit(B_ATOM(p), v, memory_order_relaxed, memory_scope_device);
}
int flag_add_acq_rel(__global volatile int* p, int v) {
  return atomic_fetch_add_explicit(B_ATOM(p), v, memory_order_acq_rel, memory_scope_device);
}
// Release-only arrival whose result is not needed.
void flag_add_release(__global volatile int* p, int v) {
  atomic_fetch_add_explicit(B_ATOM(p), v, memory_order_release, memory_scope_device);
}
#define B_WG_BARRIER() \
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_device)

#elif defined(BARRIER_NV_PTX) && BARRIER_NV_ORDER != BARRIER_ORDER_FENCE
int flag_load_acquire(__global volatile int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
int flag_load_relaxed(__global volatile int* p) {
#if BARRIER_NV_ORDER == BARRIER_ORDER_ACQREL_RSPIN
  int v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
#else
  return flag_load_acquire(p);
#endif
}
void flag_store_release(__global volatile int* p, int v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"((ulong)p), "r"(v) : "memory");
}
void flag_store_relaxed(__global volatile int* p, int v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"((ulong)p), "r"(v) : "memory");
}
int flag_add_acq_rel(__global volatile int* p, int v) {
  int old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;"
               : "=r"(old)
               : "l"((ulong)p), "r"(v)
               : "memory");
  return old;
}
void flag_add_release(__global volatile int* p, int v) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"((ulong)p), "r"(v) : "memory");
}
#define B_WG_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)

#else  // OpenCL C 1.2: full fences (PTX on NVIDIA, mem_fence elsewhere) around 1.x accesses
#ifdef BARRIER_NV_PTX
#define B_FULL_FENCE() asm volatile("fence.acq_rel.gpu;" ::: "memory")
#else
#define B_FULL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
int flag_load_acquire(__global volatile int* p) {
  int v = *p;
  B_FULL_FENCE();
  return v;
}
int flag_load_relaxed(__global volatile int* p) { return *p; }
void flag_store_relaxed(__global volatile int* p, int v) { *p = v; }
void flag_store_release(__global volatile int* p, int v) {
  B_FULL_FENCE();
  *p = v;
}
int flag_add_acq_rel(__global volatile int* p, int v) {
  B_FULL_FENCE();
  int old = atomic_add(p, v);
  B_FULL_FENCE();
  return old;
}
void flag_add_release(__global volatile int* p, int v) {
  B_FULL_FENCE();
  atomic_add(p, v);
}
#define B_WG_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif
