// The device arrays' elementwise kernels (cl/elementwise.cl): arithmetic and comparisons
// against an array or a scalar, casts, and the partial sums of sum/dot, each enqueued on the
// context's queue and not waited for (the partial sums are read: a blocking read). Types are
// named by NumPy's dtype names; python/lockstep/_array.py checks shapes and dtypes.
#include <algorithm>
#include <map>

#include "common.hpp"
#include "lockstep/kernel_builds.hpp"

namespace lockstep::python {
namespace {

constexpr int kLocal = detail::elementwise_local_size;  // LOCAL_SIZE of cl/elementwise.cl
// Work-groups of the partial sums (grid-stride): lockstep::dot's count (src/blas1/blas1.cpp); 256
// groups of 256 keep too few loads in flight to stream a long vector on a large GPU.
constexpr size_t kSumGroups = 1024;
constexpr size_t kScratchSlot = 7;  // Context::scratch slot of the partial sums

struct ElemType {
  const char* cl;   // ELEM_TYPE
  const char* sum;  // SUM_TYPE (float: double when the device has fp64)
  bool is_float;
  size_t size;  // bytes
};

const ElemType& elem_type(const std::string& dtype) {
  static const std::map<std::string, ElemType> types = {
      {"bool", {"uchar", "long", false, 1}},     {"int32", {"int", "long", false, 4}},
      {"uint32", {"uint", "ulong", false, 4}},   {"int64", {"long", "long", false, 8}},
      {"uint64", {"ulong", "ulong", false, 8}},  {"float32", {"float", "double", true, 4}},
      {"float64", {"double", "double", true, 8}}};
  auto it = types.find(dtype);
  if (it == types.end()) throw input_error("lockstep.Array: no device kernels for dtype " + dtype);
  return it->second;
}

// The sums' type: double for floats where the device has fp64, else float (SUM_TYPE of
// detail::elementwise_defines).
std::string sum_type(const Context& ctx, const std::string& dtype) {
  const ElemType& t = elem_type(dtype);
  return t.is_float && !ctx.info().fp64 ? "float" : t.sum;
}

Defines ew_defines(const Context& ctx, const std::string& dtype) {
  return detail::elementwise_defines(ctx.info(), dtype);
}

// The kernel `name` of dtype's build, created once per context: a new kernel object per launch
// built the -D set, looked the program up in the cache and ran clCreateKernel every time (most of
// a small array operation's host time). Called inside device_call (c.mu held).
const cl::Kernel& ew_kernel(SharedContext& c, const std::string& name, const std::string& dtype) {
  const std::string key = name + '/' + dtype;
  auto it = c.kernels.find(key);
  if (it == c.kernels.end())
    it = c.kernels.emplace(key, c.ctx.kernel("elementwise.cl", name, ew_defines(c.ctx, dtype)))
             .first;
  return it->second;
}

size_t groups_for(size_t n) { return std::max<size_t>(1, (n + kLocal - 1) / kLocal); }

void need(const DeviceBuffer& b, size_t bytes) {
  if (b.nbytes < bytes) throw input_error("lockstep.Array: buffer too small");
}

// ew_binary / ew_compare: out = a op b (mode 0), a op s (1), s op a (2).
void elementwise(SharedContext& c, const char* name, const std::string& dtype, int op, int mode,
                 const DeviceBuffer& a, const DeviceBuffer* b, const py::bytes& scalar,
                 DeviceBuffer& out, size_t n, size_t out_itemsize) {
  const std::string s = scalar;
  const size_t item = elem_type(dtype).size;
  if (s.size() != item) throw input_error("lockstep.Array: scalar of the wrong size");
  need(a, n * item), need(out, n * out_itemsize);
  if (mode == 0) {
    if (!b) throw input_error("lockstep.Array: a second operand is needed");
    need(*b, n * item);
  }
  if (n == 0) return;
  device_call(c, [&](Context& ctx) {
    cl::Kernel k = ew_kernel(c, name, dtype);
    set_args(k, cl_long(n), cl_int(op), cl_int(mode), a.buffer, b ? b->buffer : a.buffer);
    set_arg(k, 5, s.size(), s.data());
    set_arg(k, 6, out.buffer);
    enqueue(ctx.queue(), k, groups_for(n) * kLocal, kLocal);
    return 0;
  });
}

}  // namespace

void bind_elementwise(py::module_& m) {
  // The device arrays' builds for these dtypes (lockstep.warmup's "array" family).
  m.def("_elementwise_builds", [](SharedContext& c, const std::vector<std::string>& dtypes) {
    py::list out;
    for (const std::string& d : dtypes)
      out.append(py::make_tuple("array", "elementwise.cl", ew_defines(c.ctx, d).options()));
    return out;
  });
  m.def("_ew_binary",
        [](SharedContext& c, const std::string& dtype, int op, int mode, const DeviceBuffer& a,
           const DeviceBuffer* b, const py::bytes& scalar, DeviceBuffer& out, size_t n) {
          elementwise(c, "ew_binary", dtype, op, mode, a, b, scalar, out, n, elem_type(dtype).size);
        });
  m.def("_ew_compare",
        [](SharedContext& c, const std::string& dtype, int op, int mode, const DeviceBuffer& a,
           const DeviceBuffer* b, const py::bytes& scalar, DeviceBuffer& out,
           size_t n) { elementwise(c, "ew_compare", dtype, op, mode, a, b, scalar, out, n, 1); });
  m.def("_ew_cast", [](SharedContext& c, const std::string& from, const std::string& to,
                       const DeviceBuffer& a, DeviceBuffer& out, size_t n) {
    need(a, n * elem_type(from).size), need(out, n * elem_type(to).size);
    if (n == 0) return;
    device_call(c, [&](Context& ctx) {
      if (elem_type(to).size == 8 && elem_type(to).is_float && !ctx.info().fp64)
        throw input_error("lockstep.Array.astype: the device has no float64");
      cl::Kernel k = ew_kernel(c, "ew_cast_" + to, from);
      set_args(k, cl_long(n), a.buffer, out.buffer);
      enqueue(ctx.queue(), k, groups_for(n) * kLocal, kLocal);
      return 0;
    });
  });
  // out[0] = the sum of a (b None) or of a * b, as out's dtype (== a's), kept on the device.
  m.def("_ew_sum_to", [](SharedContext& c, const std::string& dtype, const DeviceBuffer& a,
                         const DeviceBuffer* b, size_t n, DeviceBuffer& out) {
    need(a, n * elem_type(dtype).size), need(out, elem_type(dtype).size);
    if (b) need(*b, n * elem_type(dtype).size);
    device_call(c, [&](Context& ctx) {
      const size_t size = sum_type(ctx, dtype) == "float" ? 4 : 8;
      const size_t groups = std::min(kSumGroups, groups_for(n));
      const cl::Buffer& partial = ctx.scratch(kScratchSlot, groups * size);
      cl::Kernel k = ew_kernel(c, "ew_sum", dtype);
      set_args(k, cl_long(n), cl_int(b ? 1 : 0), a.buffer, b ? b->buffer : a.buffer, partial);
      enqueue(ctx.queue(), k, groups * kLocal, kLocal);
      cl::Kernel f = ew_kernel(c, "ew_sum_final", dtype);
      set_args(f, cl_int(groups), partial, out.buffer);
      enqueue(ctx.queue(), f, kLocal, kLocal);
      return 0;
    });
  });
  // The partial sums of a (b None) or of a * b, as (bytes, the sums' type): a blocking read.
  m.def("_ew_sum", [](SharedContext& c, const std::string& dtype, const DeviceBuffer& a,
                      const DeviceBuffer* b, size_t n) {
    need(a, n * elem_type(dtype).size);
    if (b) need(*b, n * elem_type(dtype).size);
    std::string partial;
    std::string type;
    device_call(c, [&](Context& ctx) {
      type = sum_type(ctx, dtype);
      const size_t size = type == "float" ? 4 : 8;
      const size_t groups = std::min(kSumGroups, groups_for(n));
      partial.assign(groups * size, '\0');
      if (n == 0) return 0;
      const cl::Buffer& out = ctx.scratch(kScratchSlot, partial.size());
      cl::Kernel k = ew_kernel(c, "ew_sum", dtype);
      set_args(k, cl_long(n), cl_int(b ? 1 : 0), a.buffer, b ? b->buffer : a.buffer, out);
      enqueue(ctx.queue(), k, groups * kLocal, kLocal);
      check(ctx.queue().enqueueReadBuffer(out, CL_TRUE, 0, partial.size(), partial.data()),
            "clEnqueueReadBuffer");
      return 0;
    });
    return py::make_tuple(py::bytes(partial), type);
  });
}

}  // namespace lockstep::python
