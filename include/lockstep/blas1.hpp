// Device vector operations a solver needs beside SpMV, on buffers of n values of T (float or
// double): fill, axpby (y = a*x + b*y) and dot (returns to the host). Enqueued on the context's
// queue, or on a queue of the caller's (the same context) for solvers that order their own work.
#pragma once
#include <CL/opencl.hpp>

#include "lockstep/runtime.hpp"

namespace lockstep {

template <typename T>
void fill(cl::CommandQueue& queue, cl::Buffer& x, int n, T value);
template <typename T>
void axpby(cl::CommandQueue& queue, int n, T a, const cl::Buffer& x, T b, cl::Buffer& y);
template <typename T>
T dot(cl::CommandQueue& queue, int n, const cl::Buffer& x, const cl::Buffer& y);

template <typename T>
void fill(Context& ctx, cl::Buffer& x, int n, T value) {
  fill<T>(ctx.queue(), x, n, value);
}
template <typename T>
void axpby(Context& ctx, int n, T a, const cl::Buffer& x, T b, cl::Buffer& y) {
  axpby<T>(ctx.queue(), n, a, x, b, y);
}
template <typename T>
T dot(Context& ctx, int n, const cl::Buffer& x, const cl::Buffer& y) {
  return dot<T>(ctx.queue(), n, x, y);
}

}  // namespace lockstep
