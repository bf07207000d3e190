// Checked helpers over the Khronos bindings: buffers, kernel arguments, launches, event times.
#include "lockstep/runtime.hpp"

namespace lockstep {

namespace {
std::string kernel_name(const cl::Kernel& k) {
  std::string n;
  k.getInfo(CL_KERNEL_FUNCTION_NAME, &n);
  while (!n.empty() && n.back() == '\0') n.pop_back();
  return n;
}
}  // namespace

cl::Buffer make_buffer(const cl::Context& context, cl_mem_flags flags, size_t bytes, void* host) {
  cl_int err;
  cl::Buffer b(context, flags, bytes, host, &err);
  if (err != CL_SUCCESS)
    throw opencl_error("clCreateBuffer(" + std::to_string(bytes) + " bytes)", err);
  return b;
}

void set_arg(cl::Kernel& k, cl_uint index, size_t size, const void* value) {
  cl_int err = clSetKernelArg(k(), index, size, value);
  if (err != CL_SUCCESS)
    throw opencl_error("clSetKernelArg(" + kernel_name(k) + ", arg " + std::to_string(index) + ")",
                       err);
}
void set_arg(cl::Kernel& k, cl_uint index, const cl::Buffer& b) {
  cl_mem m = b();
  set_arg(k, index, sizeof(cl_mem), &m);
}
void set_arg(cl::Kernel& k, cl_uint index, Local local) { set_arg(k, index, local.bytes, nullptr); }

namespace {
// clEnqueueNDRangeKernel, its failure naming the kernel; the event into `e` when given.
void enqueue_range(cl::CommandQueue& queue, const cl::Kernel& k, size_t global, size_t local,
                   const std::vector<cl::Event>* after, cl::Event* e) {
  cl_int err = queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global),
                                          local ? cl::NDRange(local) : cl::NullRange, after, e);
  if (err != CL_SUCCESS)
    throw opencl_error("clEnqueueNDRangeKernel(" + kernel_name(k) + ", global " +
                           std::to_string(global) + ", local " + std::to_string(local) + ")",
                       err);
}
}  // namespace

cl::Event launch(cl::CommandQueue& queue, const cl::Kernel& k, size_t global, size_t local,
                 const std::vector<cl::Event>* after) {
  cl::Event e;
  if (global == 0) {  // nothing to do; return a marker so callers can still time it
    cl_int err = queue.enqueueMarkerWithWaitList(after, &e);
    check(err, "clEnqueueMarkerWithWaitList");
    return e;
  }
  enqueue_range(queue, k, global, local, after, &e);
  return e;
}

void enqueue(cl::CommandQueue& queue, const cl::Kernel& k, size_t global, size_t local) {
  if (global > 0) enqueue_range(queue, k, global, local, nullptr, nullptr);
}

double event_ms(const cl::Event& first, const cl::Event& last) {
  cl_ulong start = 0, end = 0;
  check(first.wait(), "clWaitForEvents");
  check(last.wait(), "clWaitForEvents");
  check(first.getProfilingInfo(CL_PROFILING_COMMAND_START, &start),
        "clGetEventProfilingInfo(CL_PROFILING_COMMAND_START)");
  check(last.getProfilingInfo(CL_PROFILING_COMMAND_END, &end),
        "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END)");
  return double(end - start) * 1e-6;
}
double event_ms(const cl::Event& e) { return event_ms(e, e); }

}  // namespace lockstep
