// Internal: pinned host staging (the MPI exchanges, the search's database uploads).
#pragma once
#include <algorithm>
#include <memory>

#include "lockstep/runtime.hpp"

namespace lockstep {

// Host memory the device copies to and from at full speed: a mapped CL_MEM_ALLOC_HOST_PTR
// buffer (pinned on NVIDIA), unmapped when the last owner lets go.
template <typename T>
std::shared_ptr<T> pinned(cl::CommandQueue& queue, size_t n) {
  const size_t bytes = std::max<size_t>(1, n) * sizeof(T);
  cl::Buffer b = make_buffer(queue.getInfo<CL_QUEUE_CONTEXT>(),
                             CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
  cl_int err = CL_SUCCESS;
  void* p = queue.enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, nullptr,
                                   nullptr, &err);
  check(err, "clEnqueueMapBuffer");
  return std::shared_ptr<T>(static_cast<T*>(p), [queue, b](T* ptr) mutable {
    queue.enqueueUnmapMemObject(b, ptr);  // no throw in a deleter: a failure only leaks the mapping
    queue.finish();
  });
}

}  // namespace lockstep
