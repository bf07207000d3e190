// Device memory for the Python package: lockstep._Buffer (an OpenCL buffer on a context, what
// lockstep.Array and the PyOpenCL interop stand on), Context.from_handles (joining a PyOpenCL
// context and queue), the synchronisation points (finish, and event-ordering against a foreign
// queue of the same context), and the device-array entry points of sort. Reads and writes of host
// memory block (the explicit synchronisation point); kernels are enqueued and not waited for.
#include "common.hpp"

namespace lockstep::python {
namespace {

template <typename H>
H handle_of(intptr_t p) {  // a raw handle from PyOpenCL's int_ptr, retained
  return H(reinterpret_cast<typename H::cl_type>(p), /*retainObject=*/true);
}

void need_host(const py::array& a, size_t bytes, bool write) {
  if (!(a.flags() & (py::array::c_style | py::array::f_style)))
    throw input_error("lockstep.Array: host memory must be contiguous");
  if (size_t(a.nbytes()) != bytes)
    throw input_error("lockstep.Array: host array of " + std::to_string(a.nbytes()) +
                      " bytes for " + std::to_string(bytes));
  if (write && !a.writeable()) throw input_error("lockstep.Array: host array is read-only");
}

}  // namespace

void SharedContext::init_pool() {
  cl_int err = CL_SUCCESS;
  pool.limit = size_t(ctx.device().getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>(&err) / 8);
  check(err, "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)");
}

cl::Buffer BufferPool::take(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto same = free_.equal_range(bytes);
  if (same.first == same.second) return {};
  const auto it = std::prev(same.second);  // the last one freed: the likeliest still in cache
  cl::Buffer b = std::move(it->second);
  free_.erase(it);
  cached_ -= bytes;
  return b;
}

void BufferPool::give(size_t bytes, cl::Buffer b) {
  std::lock_guard<std::mutex> lock(mu_);
  if (bytes > limit) return;
  while (cached_ + bytes > limit && !free_.empty()) {  // the largest go first
    auto last = std::prev(free_.end());
    cached_ -= last->first;
    free_.erase(last);
  }
  free_.emplace(bytes, std::move(b));
  cached_ += bytes;
}

void BufferPool::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  free_.clear();
  cached_ = 0;
}

DeviceBuffer::DeviceBuffer(ContextPtr c, size_t bytes)
    : ctx(std::move(c)), nbytes(bytes), pooled(true) {
  const size_t size = std::max<size_t>(bytes, 1);
  buffer = ctx->pool.take(size);
  if (!buffer()) buffer = make_buffer(ctx->ctx.context(), CL_MEM_READ_WRITE, size);
}

DeviceBuffer::~DeviceBuffer() {
  // Not CL_MEM_REFERENCE_COUNT == 1: drivers (PoCL) retain a buffer for each enqueued command
  // until it completes, so that test kept almost no buffer of a loop that enqueues ahead (a CG
  // iteration) and each result paid clCreateBuffer and its first touch.
  if (!pooled || exported || !buffer() || ctx->ctx.shares_queue()) return;
  ctx->pool.give(std::max<size_t>(nbytes, 1), std::move(buffer));
}

DeviceBuffer::DeviceBuffer(ContextPtr c, intptr_t mem) : ctx(std::move(c)) {
  buffer = handle_of<cl::Buffer>(mem);
  cl_int err = CL_SUCCESS;
  const cl::Context owner = buffer.getInfo<CL_MEM_CONTEXT>(&err);
  check(err, "clGetMemObjectInfo");
  if (owner() != ctx->ctx.context()())
    throw input_error(
        "lockstep.Array: the buffer belongs to another OpenCL context (use "
        "lockstep.Context.from_pyopencl(context, queue) for that context)");
  nbytes = buffer.getInfo<CL_MEM_SIZE>(&err);
  check(err, "clGetMemObjectInfo");
}

void bind_array(py::module_& m) {
  py::class_<DeviceBuffer, std::shared_ptr<DeviceBuffer>>(m, "_Buffer")
      .def(py::init([](ContextPtr c, size_t bytes) {
        return std::make_shared<DeviceBuffer>(std::move(c), bytes);
      }))
      .def_static("from_int_ptr",
                  [](ContextPtr c, intptr_t mem) {
                    return std::make_shared<DeviceBuffer>(std::move(c), mem);
                  })
      .def_readonly("nbytes", &DeviceBuffer::nbytes)
      .def_readonly("ctx", &DeviceBuffer::ctx)
      .def_property_readonly("int_ptr", [](const DeviceBuffer& b) { return intptr_t(b.buffer()); })
      .def("export",
           [](DeviceBuffer& b) {  // PyOpenCL will see it: never back to the pool
             b.exported = true;
             return intptr_t(b.buffer());
           })
      .def("write",
           [](DeviceBuffer& b, const py::array& host, size_t offset) {
             need_host(host, size_t(host.nbytes()), false);
             if (offset + size_t(host.nbytes()) > b.nbytes)
               throw input_error("lockstep.Array: write past the end");
             const void* p = host.data();
             const size_t n = size_t(host.nbytes());
             if (n)
               device_call(*b.ctx, [&](Context& ctx) {
                 return check(ctx.queue().enqueueWriteBuffer(b.buffer, CL_TRUE, offset, n, p),
                              "clEnqueueWriteBuffer"),
                        0;
               });
           })
      .def("read",
           [](DeviceBuffer& b, py::array& host, size_t offset) {
             need_host(host, size_t(host.nbytes()), true);
             if (offset + size_t(host.nbytes()) > b.nbytes)
               throw input_error("lockstep.Array: read past the end");
             void* p = host.mutable_data();
             const size_t n = size_t(host.nbytes());
             if (n)
               device_call(*b.ctx, [&](Context& ctx) {
                 return check(ctx.queue().enqueueReadBuffer(b.buffer, CL_TRUE, offset, n, p),
                              "clEnqueueReadBuffer"),
                        0;
               });
           })
      .def("fill_zero",
           [](DeviceBuffer& b) {
             if (b.nbytes)
               device_call(*b.ctx, [&](Context& ctx) {
                 return check(ctx.queue().enqueueFillBuffer(b.buffer, cl_uchar(0), 0, b.nbytes),
                              "clEnqueueFillBuffer"),
                        0;
               });
           })
      .def("fill",
           [](DeviceBuffer& b, const py::bytes& value, size_t bytes) {  // the first `bytes`
             const std::string v = value;
             const size_t size = v.size();
             if (size != 1 && size != 2 && size != 4 && size != 8)
               throw input_error("lockstep.Array.fill: elements of 1, 2, 4 or 8 bytes");
             if (bytes > b.nbytes || bytes % size)
               throw input_error("lockstep.Array.fill: out of range");
             if (bytes)
               device_call(*b.ctx, [&](Context& ctx) {
                 return check(clEnqueueFillBuffer(ctx.queue()(), b.buffer(), v.data(), size, 0,
                                                  bytes, 0, nullptr, nullptr),
                              "clEnqueueFillBuffer"),
                        0;
               });
           })
      .def("copy_from", [](DeviceBuffer& b, const DeviceBuffer& src, size_t src_offset,
                           size_t bytes) {
        if (src_offset + bytes > src.nbytes || bytes > b.nbytes)
          throw input_error("lockstep.Array: copy out of range");
        if (bytes)
          device_call(*b.ctx, [&](Context& ctx) {
            return check(ctx.queue().enqueueCopyBuffer(src.buffer, b.buffer, src_offset, 0, bytes),
                         "clEnqueueCopyBuffer"),
                   0;
          });
      });

  // the context side: handles, synchronisation, ordering against a foreign queue
  auto cls = py::reinterpret_borrow<py::object>(m.attr("Context"));
  cls.attr("_from_handles") =
      py::cpp_function([](intptr_t context, intptr_t device, intptr_t queue) {
        cl::Context c = handle_of<cl::Context>(context);
        cl::Device d = handle_of<cl::Device>(device);
        cl::CommandQueue q;
        if (queue) q = handle_of<cl::CommandQueue>(queue);
        py::gil_scoped_release nogil;
        return std::make_shared<SharedContext>(c, d, queue ? &q : nullptr);
      });
  m.def("_context_handles", [](SharedContext& c) {
    return py::make_tuple(intptr_t(c.ctx.context()()), intptr_t(c.ctx.device()()),
                          intptr_t(c.ctx.queue()()), c.ctx.shares_queue());
  });
  m.def("_free_cached_buffers", [](SharedContext& c) { c.pool.clear(); });
  m.def("_finish", [](SharedContext& c) {
    device_call(c, [](Context& ctx) { return check(ctx.queue().finish(), "clFinish"), 0; });
  });
  // after(queue): lockstep's queue waits for what `queue` holds now; before(queue): `queue`
  // waits for what lockstep's queue holds now. Events, no host wait.
  m.def("_order_after", [](SharedContext& c, intptr_t queue) {
    cl::CommandQueue f = handle_of<cl::CommandQueue>(queue);
    device_call(c, [&](Context& ctx) {
      cl::Event e;
      check(f.enqueueMarkerWithWaitList(nullptr, &e), "clEnqueueMarkerWithWaitList");
      std::vector<cl::Event> w{e};
      return check(ctx.queue().enqueueBarrierWithWaitList(&w), "clEnqueueBarrierWithWaitList"), 0;
    });
  });
  m.def("_order_before", [](SharedContext& c, intptr_t queue) {
    cl::CommandQueue f = handle_of<cl::CommandQueue>(queue);
    device_call(c, [&](Context& ctx) {
      cl::Event e;
      check(ctx.queue().enqueueMarkerWithWaitList(nullptr, &e), "clEnqueueMarkerWithWaitList");
      std::vector<cl::Event> w{e};
      check(ctx.queue().flush(), "clFlush");
      return check(f.enqueueBarrierWithWaitList(&w), "clEnqueueBarrierWithWaitList"), 0;
    });
  });
}

}  // namespace lockstep::python
