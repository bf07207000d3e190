// Sorting: sort / sort_pairs through device buffers written from and read into NumPy memory
// (no host copies); argsort is sort_pairs with the values 0..n-1.
#include "common.hpp"

namespace lockstep::python {
namespace {

py::dtype dtype_of(KeyType t) {
  return with_key_type(t, [](auto k) { return py::dtype::of<decltype(k)>(); });
}

/// The key types and their NumPy dtypes, in KeyType order (Python's KEY_DTYPES).
py::list key_types() {
  py::list out;
  for (KeyType t : all_key_types()) out.append(py::make_tuple(to_string(t), dtype_of(t)));
  return out;
}

/// The key type of an array's dtype (any byte order: kind and size).
KeyType key_type_of(const py::array& a) {
  std::string names;
  for (KeyType t : all_key_types()) {
    const py::dtype d = dtype_of(t);
    if (a.dtype().kind() == d.kind() && a.dtype().itemsize() == d.itemsize()) return t;
    names += (names.empty() ? "" : ", ") + d.attr("name").cast<std::string>();
  }
  throw py::type_error("sort: keys must be one of " + names + ", not " +
                       std::string(py::str(a.dtype())));
}

void need_contiguous(const py::array& a, const char* what) {
  if (a.ndim() != 1 || !(a.flags() & py::array::c_style))
    throw input_error(std::string("sort: ") + what + " must be a contiguous 1-D array");
}

SortOptions sort_options(bool descending, const std::string& algorithm, const std::string& barrier,
                         int local_size) {
  SortOptions o;
  o.descending = descending;
  o.algorithm = parse_sort_algorithm(algorithm);
  o.barrier = parse_barrier_choice(barrier);
  if (local_size < 0) throw input_error("sort: local_size must be positive");
  o.local_size = local_size;
  return o;
}

/// Sorts n keys from `keys` on the device, reading them back into keys_out (when not null) and
/// moving the 4-byte values from `values` into values_out (when not null): no host copies.
void sort_device(SharedContext& c, KeyType type, const void* keys, size_t n, void* keys_out,
                 const void* values, void* values_out, const SortOptions& o) {
  const size_t kb = n * key_bytes(type), vb = n * 4;
  device_call(c, [&](Context& ctx) {
    cl::CommandQueue& q = ctx.queue();
    cl::Buffer bk = make_buffer(ctx.context(), CL_MEM_READ_WRITE, kb), bv;
    check(q.enqueueWriteBuffer(bk, CL_TRUE, 0, kb, keys), "clEnqueueWriteBuffer");
    if (values) {
      bv = make_buffer(ctx.context(), CL_MEM_READ_WRITE, vb);
      check(q.enqueueWriteBuffer(bv, CL_TRUE, 0, vb, values), "clEnqueueWriteBuffer");
    }
    sort(ctx, type, bk, n, o, values ? &bv : nullptr);
    if (keys_out) check(q.enqueueReadBuffer(bk, CL_TRUE, 0, kb, keys_out), "clEnqueueReadBuffer");
    if (values) check(q.enqueueReadBuffer(bv, CL_TRUE, 0, vb, values_out), "clEnqueueReadBuffer");
    return 0;
  });
}

/// Sorted copies of keys (and of values, 4 bytes each, when given).
py::tuple sort_py(const ContextPtr& c, const py::array& keys, std::optional<py::array> values,
                  bool descending, const std::string& algorithm, const std::string& barrier,
                  int local_size) {
  const KeyType type = key_type_of(keys);
  need_contiguous(keys, "keys");
  const size_t n = size_t(keys.size());
  if (values) {
    need_contiguous(*values, "values");
    if (values->dtype().itemsize() != 4)
      throw py::type_error("sort_pairs: the device moves 4-byte values");
    if (size_t(values->size()) != n)
      throw input_error("sort_pairs: keys and values differ in length (" + std::to_string(n) +
                        " and " + std::to_string(values->size()) + ")");
  }
  const SortOptions o = sort_options(descending, algorithm, barrier, local_size);
  py::array out(keys.dtype(), std::vector<py::ssize_t>{py::ssize_t(n)});
  if (!values) {
    if (n) sort_device(*c, type, keys.data(), n, out.mutable_data(), nullptr, nullptr, o);
    return py::make_tuple(out, py::none());
  }
  py::array vout(values->dtype(), std::vector<py::ssize_t>{py::ssize_t(n)});
  if (n)
    sort_device(*c, type, keys.data(), n, out.mutable_data(), values->data(), vout.mutable_data(),
                o);
  return py::make_tuple(out, vout);
}

/// The permutation that sorts keys: sort_pairs with values 0, 1, ..., n-1 sorted in place.
py::array argsort_py(const ContextPtr& c, const py::array& keys, bool descending,
                     const std::string& algorithm, const std::string& barrier, int local_size) {
  const KeyType type = key_type_of(keys);
  need_contiguous(keys, "keys");
  if (size_t(keys.size()) > size_t(UINT32_MAX)) throw input_error("argsort: at most 2^32-1 keys");
  const SortOptions o = sort_options(descending, algorithm, barrier, local_size);
  const size_t n = size_t(keys.size());
  py::array_t<uint32_t> perm(static_cast<py::ssize_t>(n));
  uint32_t* p = perm.mutable_data();
  for (size_t i = 0; i < n; ++i) p[i] = uint32_t(i);
  if (n) sort_device(*c, type, keys.data(), n, nullptr, p, p, o);
  return std::move(perm);
}

/// Sorts n keys of `dtype` in `keys` in place on the device (and `values`, 4 bytes each, with
/// them): device arrays, no host transfer. The sort waits for its kernels (it times them).
void sort_buffer(const ContextPtr& c, const py::dtype& dtype, DeviceBuffer& keys, size_t n,
                 std::optional<BufferPtr> values, bool descending, const std::string& algorithm,
                 const std::string& barrier, int local_size) {
  const KeyType type = key_type_of(py::array(dtype, std::vector<py::ssize_t>{0}));
  if (keys.ctx.get() != c.get() || (values && (*values)->ctx.get() != c.get()))
    throw input_error("sort: the arrays live on another context");
  if (keys.nbytes < n * key_bytes(type) || (values && (*values)->nbytes < n * 4))
    throw input_error("sort: the device arrays are smaller than n");
  const SortOptions o = sort_options(descending, algorithm, barrier, local_size);
  if (n)
    device_call(*c, [&](Context& ctx) {
      return sort(ctx, type, keys.buffer, n, o, values ? &(*values)->buffer : nullptr), 0;
    });
}

}  // namespace

void bind_sort(py::module_& m) {
  m.def("key_types", &key_types);
  m.def("sort_buffer", &sort_buffer);
  m.def("sort", &sort_py);
  m.def("argsort", &argsort_py);
}

}  // namespace lockstep::python
