// Shared pieces of the Python module `lockstep._lockstep`: the context object every binding takes,
// the rule for device work (GIL released, one call at a time per context), and zero-copy moves of
// result vectors into NumPy arrays. Argument checking with user-facing messages (dtypes, shapes,
// SciPy formats) lives in the pure-Python layer (python/lockstep/_checks.py); this layer still
// refuses what would be unsafe (an index outside the matrix) with lockstep::input_error.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "lockstep/lockstep.hpp"

namespace lockstep::python {
namespace py = pybind11;

/// lockstep.Context: a lockstep::Context plus the mutex that serialises device work on it (the
/// GIL is released during that work, so two Python threads may share one context).
/// Buffers of lockstep.Array that died, kept for the next array of the same size (as CuPy's memory
/// pool): `x = M @ x` in a loop allocates nothing after its first turn. Only buffers lockstep
/// allocated and never handed out (DeviceBuffer::exported) come back, and only for lockstep's own
/// in-order queue, which orders their next use after their last: a buffer whose commands are still
/// pending is reused at once (the driver's own references to it are no one else's); at most 1/8 of
/// the device memory is kept.
class BufferPool {
 public:
  cl::Buffer take(size_t bytes);
  void give(size_t bytes, cl::Buffer b);
  void clear();
  size_t limit = 0;

 private:
  std::mutex mu_;
  std::multimap<size_t, cl::Buffer> free_;
  size_t cached_ = 0;
};

struct SharedContext {
  explicit SharedContext(const std::string& spec) : ctx(spec) { init_pool(); }
  SharedContext(const cl::Context& c, const cl::Device& d, const cl::CommandQueue* q)
      : ctx(c, d, q) {
    init_pool();
  }
  Context ctx;
  std::mutex mu;
  BufferPool pool;
  /// The device arrays' kernel objects by kernel and dtype (python/src/elementwise.cpp), used
  /// under `mu`: launches set their arguments, which OpenCL captures at each enqueue.
  std::map<std::string, cl::Kernel> kernels;

 private:
  void init_pool();
};
using ContextPtr = std::shared_ptr<SharedContext>;

/// lockstep._Buffer: an OpenCL buffer of a context (its own, or a PyOpenCL one wrapped). The
/// Python class lockstep.Array gives it shape and dtype; kernels take `buffer` at offset 0.
struct DeviceBuffer {
  DeviceBuffer(ContextPtr c, size_t bytes);  // a buffer of `bytes` (at least 1), from c's pool
  DeviceBuffer(ContextPtr c, intptr_t mem);  // wraps (retains) a cl_mem of c's context
  ~DeviceBuffer();                           // an own, unshared buffer goes back to the pool
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ContextPtr ctx;
  cl::Buffer buffer;
  size_t nbytes = 0;
  bool pooled = false;    // allocated by lockstep (not a wrapped foreign cl_mem)
  bool exported = false;  // handed to PyOpenCL (another queue may still use it): never pooled
};
using BufferPtr = std::shared_ptr<DeviceBuffer>;

/// Runs f(ctx) without the GIL, holding the context's lock. f must not touch Python objects.
template <typename F>
auto device_call(SharedContext& c, F&& f) {
  py::gil_scoped_release nogil;
  std::lock_guard<std::mutex> lock(c.mu);
  return f(c.ctx);
}

/// A C-contiguous array of T (what the Python layer hands over; anything else is copied once).
template <typename T>
using Array = py::array_t<T, py::array::c_style | py::array::forcecast>;

/// Moves a vector into a NumPy array that owns it (no copy).
template <typename T>
py::array_t<T> to_numpy(std::vector<T>&& v) {
  auto* heap = new std::vector<T>(std::move(v));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({py::ssize_t(heap->size())}, {py::ssize_t(sizeof(T))}, heap->data(), owner);
}
/// The same for a rows x cols row-major matrix.
template <typename T>
py::array_t<T> to_numpy(std::vector<T>&& v, py::ssize_t rows, py::ssize_t cols) {
  auto* heap = new std::vector<T>(std::move(v));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({rows, cols}, {py::ssize_t(sizeof(T)) * cols, py::ssize_t(sizeof(T))},
                        heap->data(), owner);
}
template <typename T>
std::vector<T> to_vector(const Array<T>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

/// Checks CSR arrays (row pointers monotone from 0 to nnz, column indices in [0, cols)) before
/// they reach a library that trusts them; `what` names the caller in the message.
void check_csr(const char* what, int64_t rows, int64_t cols, const Array<int32_t>& indptr,
               const Array<int32_t>& indices);

/// The CSR pattern of a matrix from Python, checked (python/src/tune.cpp).
Csr<double> csr_of(int64_t rows, int64_t cols, const Array<int32_t>& indptr,
                   const Array<int32_t>& indices);

/// One registration function per capability (module.cpp calls them).
void bind_spmv(py::module_& m);
void bind_sort(py::module_& m);
void bind_graph(py::module_& m);
void bind_align(py::module_& m);
void bind_search(py::module_& m);
void bind_array(py::module_& m);
void bind_elementwise(py::module_& m);
void bind_tune(py::module_& m);

}  // namespace lockstep::python
