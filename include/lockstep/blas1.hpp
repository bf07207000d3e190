// Device vector operations a solver needs beside SpMV, on buffers of n values of T (float or
// double), enqueued on `queue`: fill, axpby (y = a*x + b*y) and dot (returns to the host).
#pragma once
#include <CL/opencl.hpp>

namespace lockstep {

template <typename T>
void fill(cl::CommandQueue& queue, cl::Buffer& x, int n, T value);
template <typename T>
void axpby(cl::CommandQueue& queue, int n, T a, const cl::Buffer& x, T b, cl::Buffer& y);
template <typename T>
T dot(cl::CommandQueue& queue, int n, const cl::Buffer& x, const cl::Buffer& y);

}  // namespace lockstep
