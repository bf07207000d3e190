// Host side of cl/blas1.cl. The dot product keeps one scratch buffer per (context, n-groups)
// so a solver loop does not allocate on every call.
#include "lockstep/blas1.hpp"

#include <map>
#include <mutex>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep {
namespace {

constexpr int kWorkGroup = 256;
constexpr int kMaxGroups = 1024;

template <typename T>
Defines defines() {
  Defines d;
  set_value_type<T>(d).set("LOCAL_SIZE", kWorkGroup);
  return d;
}

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

// Scratch for partial sums: kMaxGroups values plus one result, per context.
cl::Buffer& scratch(const cl::Context& ctx) {
  static std::mutex m;
  static std::map<cl_context, cl::Buffer> buffers;
  std::lock_guard<std::mutex> lock(m);
  auto it = buffers.find(ctx());
  if (it == buffers.end())
    it = buffers
             .emplace(ctx(), make_buffer(ctx, CL_MEM_READ_WRITE, (kMaxGroups + 1) * sizeof(double)))
             .first;
  return it->second;
}

}  // namespace

void detail::blas1_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  out.push_back({"blas1", "blas1.cl", defines<float>().options()});
  if (d.fp64) out.push_back({"blas1", "blas1.cl", defines<double>().options()});
}

template <typename T>
void fill(cl::CommandQueue& queue, cl::Buffer& x, int n, T value) {
  cl::Kernel k = kernel(queue, "blas1.cl", "fill", defines<T>());
  set_args(k, n, value, x);
  enqueue(queue, k, round_up(n, kWorkGroup), kWorkGroup);
}

template <typename T>
void axpby(cl::CommandQueue& queue, int n, T a, const cl::Buffer& x, T b, cl::Buffer& y) {
  cl::Kernel k = kernel(queue, "blas1.cl", "axpby", defines<T>());
  set_args(k, n, a, x, b, y);
  enqueue(queue, k, round_up(n, kWorkGroup), kWorkGroup);
}

template <typename T>
T dot(cl::CommandQueue& queue, int n, const cl::Buffer& x, const cl::Buffer& y) {
  cl::Buffer& part = scratch(queue.getInfo<CL_QUEUE_CONTEXT>());
  int groups =
      int(std::min<size_t>(kMaxGroups, std::max<size_t>(1, round_up(n, kWorkGroup) / kWorkGroup)));
  cl::Kernel k1 = kernel(queue, "blas1.cl", "dot_partial", defines<T>());
  set_args(k1, n, x, y, part);
  enqueue(queue, k1, size_t(groups) * kWorkGroup, kWorkGroup);
  cl::Kernel k2 = kernel(queue, "blas1.cl", "sum_partials", defines<T>());
  set_args(k2, groups, kMaxGroups, part);
  enqueue(queue, k2, kWorkGroup, kWorkGroup);
  T result{};
  check(queue.enqueueReadBuffer(part, CL_TRUE, kMaxGroups * sizeof(T), sizeof(T), &result),
        "clEnqueueReadBuffer");
  return result;
}

#define LOCKSTEP_INSTANTIATE(T)                                                         \
  template void fill<T>(cl::CommandQueue&, cl::Buffer&, int, T);                        \
  template void axpby<T>(cl::CommandQueue&, int, T, const cl::Buffer&, T, cl::Buffer&); \
  template T dot<T>(cl::CommandQueue&, int, const cl::Buffer&, const cl::Buffer&);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep
