// Sparse matrices: a CSR matrix resident on the device (SpMV and CG on it), the tuner and the
// Matrix Market reader. x, y and b go straight between NumPy memory and device buffers kept with
// the matrix: no host copy besides the one the library's DeviceCsr upload makes.
#include <chrono>
#include <cmath>

#include "common.hpp"

namespace lockstep::python {
namespace {

SpmvConfig spmv_config(const std::string& algorithm, int local_size) {
  SpmvConfig c;
  c.algorithm = parse_spmv_algorithm(algorithm);
  if (local_size != 0) {
    if (c.algorithm == SpmvAlgorithm::automatic)
      throw input_error("spmv: local_size needs an explicit algorithm (not auto)");
    if (local_size < 1 || (local_size & (local_size - 1)))
      throw input_error("spmv: local_size must be a power of two, not " +
                        std::to_string(local_size));
    c.local_size = local_size;
  }
  return c;
}

template <typename T>
class DeviceMatrix {
 public:
  DeviceMatrix(ContextPtr c, int64_t rows, int64_t cols, const Array<int32_t>& indptr,
               const Array<int32_t>& indices, const Array<T>& data)
      : c_(std::move(c)) {
    Csr<T> host;
    {
      Csr<double> pattern = csr_of(rows, cols, indptr, indices);
      host.rows = pattern.rows, host.cols = pattern.cols;
      host.row_ptr = std::move(pattern.row_ptr), host.col_idx = std::move(pattern.col_idx);
    }
    if (data.size() != py::ssize_t(host.col_idx.size()))
      throw input_error("matrix: data and indices differ in length");
    host.values = to_vector(data);
    device_call(*c_, [&](Context& ctx) {
      dev_.emplace(ctx, host);
      bx_ =
          make_buffer(ctx.context(), CL_MEM_READ_ONLY, std::max<size_t>(1, host.cols) * sizeof(T));
      by_ =
          make_buffer(ctx.context(), CL_MEM_READ_WRITE, std::max<size_t>(1, host.rows) * sizeof(T));
      return 0;
    });
  }
  int rows() const { return dev_->rows(); }
  int cols() const { return dev_->cols(); }

  /// y = alpha A x + beta y into `out` (rows values); the binding and the C++ timing share it.
  void run(Context& ctx, const T* x, const T* y, T* out, T alpha, T beta, const SpmvConfig& c) {
    cl::CommandQueue& q = ctx.queue();
    if (rows() == 0) return;
    if (cols() > 0)
      check(q.enqueueWriteBuffer(bx_, CL_TRUE, 0, size_t(cols()) * sizeof(T), x),
            "clEnqueueWriteBuffer");
    if (beta != T(0))
      check(q.enqueueWriteBuffer(by_, CL_TRUE, 0, size_t(rows()) * sizeof(T), y),
            "clEnqueueWriteBuffer");
    spmv<T>(q, *dev_, bx_, by_, alpha, beta, c);
    check(q.enqueueReadBuffer(by_, CL_TRUE, 0, size_t(rows()) * sizeof(T), out),
          "clEnqueueReadBuffer");
  }

  py::array_t<T> spmv_py(const Array<T>& x, std::optional<Array<T>> y, double alpha, double beta,
                         const std::string& algorithm, int local_size) {
    auto shape = [](const char* name, int want, py::ssize_t have) {
      return "lockstep.spmv: " + std::string(name) + " must have shape (" + std::to_string(want) +
             ",), not (" + std::to_string(have) + ",)";
    };
    if (x.ndim() != 1 || x.size() != cols()) throw input_error(shape("x", cols(), x.size()));
    if (y && (y->ndim() != 1 || y->size() != rows()))
      throw input_error(shape("y", rows(), y->size()));
    if (!y && beta != 0) throw input_error("lockstep.spmv: beta != 0 needs y");
    SpmvConfig config = spmv_config(algorithm, local_size);
    py::array_t<T> out = y ? py::array_t<T>(*y) : py::array_t<T>(rows());
    const T* px = x.data();
    const T* py_ = y ? y->data() : nullptr;
    T* po = out.mutable_data();
    device_call(*c_, [&](Context& ctx) {
      run(ctx, px, py_, po, T(alpha), T(beta), config);
      return 0;
    });
    return out;
  }

  /// Y = alpha A X + beta Y for X of shape (cols, k), C or Fortran order (the result has X's
  /// order); Y (when given) is overwritten and returned. One SpMM launch (lockstep::spmm).
  py::array spmm_py(const py::array& X, std::optional<py::array> Y, double alpha, double beta) {
    if (X.ndim() != 2 || X.shape(0) != cols() || !py::isinstance<py::array_t<T>>(X))
      throw input_error("lockstep.spmm: X must be (" + std::to_string(cols()) +
                        ", k) of A's dtype");
    const bool c_order = X.flags() & py::array::c_style, f_order = X.flags() & py::array::f_style;
    if (!c_order && !f_order) throw input_error("lockstep.spmm: X must be contiguous");
    const DenseLayout layout = c_order ? DenseLayout::row_major : DenseLayout::col_major;
    const py::ssize_t k = X.shape(1);
    if (k < 1 || k > INT32_MAX) throw input_error("lockstep.spmm: X needs 1 to 2^31-1 columns");
    const std::vector<py::ssize_t> shape{rows(), k};
    std::vector<py::ssize_t> strides{py::ssize_t(sizeof(T)) * k, py::ssize_t(sizeof(T))};
    if (layout == DenseLayout::col_major)
      strides = {py::ssize_t(sizeof(T)), py::ssize_t(sizeof(T)) * rows()};
    if (Y) {
      const bool same = Y->ndim() == 2 && Y->shape(0) == rows() && Y->shape(1) == k &&
                        py::isinstance<py::array_t<T>>(*Y) &&
                        (Y->flags() & (c_order ? py::array::c_style : py::array::f_style)) &&
                        Y->writeable();
      if (!same)
        throw input_error("lockstep.spmm: Y must be a writeable (rows, k) array in X's order");
    } else if (beta != 0) {
      throw input_error("lockstep.spmm: beta != 0 needs Y");
    }
    py::array out = Y ? *Y : py::array(py::dtype::of<T>(), shape, strides);
    const size_t xb = size_t(cols()) * size_t(k) * sizeof(T),
                 yb = size_t(rows()) * size_t(k) * sizeof(T);
    const void* px = X.data();
    void* po = out.mutable_data();
    const T a = T(alpha), b = T(beta);
    if (yb)
      device_call(*c_, [&](Context& ctx) {
        cl::CommandQueue& q = ctx.queue();
        cl::Buffer bx = make_buffer(ctx.context(), CL_MEM_READ_ONLY, std::max<size_t>(xb, 1));
        cl::Buffer by = make_buffer(ctx.context(), CL_MEM_READ_WRITE, yb);
        if (xb) check(q.enqueueWriteBuffer(bx, CL_FALSE, 0, xb, px), "clEnqueueWriteBuffer");
        if (b != T(0)) check(q.enqueueWriteBuffer(by, CL_FALSE, 0, yb, po), "clEnqueueWriteBuffer");
        spmm<T>(q, *dev_, bx, by, int(k), layout, a, b);
        check(q.enqueueReadBuffer(by, CL_TRUE, 0, yb, po), "clEnqueueReadBuffer");
        return 0;
      });
    return out;
  }

  // ---- device arrays: buffers of this context at offset 0, enqueued and not waited for ----
  void need(const DeviceBuffer& b, size_t values, const char* name) const {
    if (b.ctx.get() != c_.get())
      throw input_error(std::string("lockstep.spmv: ") + name + " lives on another context");
    if (b.nbytes < values * sizeof(T))
      throw input_error(std::string("lockstep.spmv: ") + name + " is too small");
  }
  void spmv_buf(const DeviceBuffer& x, DeviceBuffer& y, double alpha, double beta,
                const std::string& algorithm, int local_size) {
    need(x, size_t(cols()), "x"), need(y, size_t(rows()), "y");
    const SpmvConfig config = spmv_config(algorithm, local_size);
    device_call(*c_, [&](Context& ctx) {
      return spmv<T>(ctx.queue(), *dev_, x.buffer, y.buffer, T(alpha), T(beta), config), 0;
    });
  }
  void spmm_buf(const DeviceBuffer& x, DeviceBuffer& y, int k, bool col_major, double alpha,
                double beta) {
    need(x, size_t(cols()) * size_t(k), "X"), need(y, size_t(rows()) * size_t(k), "Y");
    const DenseLayout l = col_major ? DenseLayout::col_major : DenseLayout::row_major;
    device_call(*c_, [&](Context& ctx) {
      return spmm<T>(ctx.queue(), *dev_, x.buffer, y.buffer, k, l, T(alpha), T(beta)), 0;
    });
  }
  py::tuple cg_buf(const DeviceBuffer& b, DeviceBuffer& x, double tol, int maxiter,
                   const std::string& algorithm, const std::string& preconditioner) {
    need(b, size_t(rows()), "b"), need(x, size_t(rows()), "x");
    CgOptions o;
    o.tol = tol, o.maxit = std::max(0, maxiter);
    o.algorithm = parse_cg_algorithm(algorithm);
    o.preconditioner = parse_preconditioner(preconditioner);
    CgResult r = device_call(
        *c_, [&](Context& ctx) { return cg<T>(ctx.queue(), *dev_, b.buffer, x.buffer, o); });
    // b not finite: rhs_norm's NaN or Inf is the first residual (any other breakdown has a
    // finite one there)
    const bool b_finite = r.residuals.empty() || std::isfinite(r.residuals.front());
    return py::make_tuple(r.iterations, r.converged, r.breakdown, r.stagnation, b_finite);
  }
  /// Seconds for n chained y = A x on device buffers from C++ (enqueue n, then clFinish): the
  /// baseline of Python's chained Matrix @ x on device arrays (tools/gpu/python_bench.sh).
  double time_chain(const DeviceBuffer& x, DeviceBuffer& y, int n) {
    need(x, size_t(cols()), "x"), need(y, size_t(rows()), "y");
    return device_call(*c_, [&](Context& ctx) {
      cl::CommandQueue& q = ctx.queue();
      spmv<T>(q, *dev_, x.buffer, y.buffer);
      check(q.finish(), "clFinish");
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) spmv<T>(q, *dev_, x.buffer, y.buffer);
      check(q.finish(), "clFinish");
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
  }

  py::tuple cg_py(const Array<T>& b, double tol, int maxiter, const std::string& algorithm,
                  const std::string& preconditioner) {
    if (rows() != cols())
      throw input_error("cg: conjugate gradients needs a square matrix (A is " +
                        std::to_string(rows()) + " x " + std::to_string(cols()) + ")");
    if (b.ndim() != 1 || b.size() != rows())
      throw input_error("cg: b must have " + std::to_string(rows()) + " values (A.shape[0])");
    if (!(tol > 0)) throw input_error("cg: tol must be positive");
    CgOptions o;
    o.tol = tol, o.maxit = std::max(0, maxiter);
    o.algorithm = parse_cg_algorithm(algorithm);
    o.preconditioner = parse_preconditioner(preconditioner);
    py::array_t<T> x(rows());
    const T* pb = b.data();
    T* px = x.mutable_data();
    CgResult r;
    if (rows() > 0)
      r = device_call(*c_, [&](Context& ctx) {
        cl::CommandQueue& q = ctx.queue();
        const size_t bytes = size_t(rows()) * sizeof(T);
        cl::Buffer db = make_buffer(ctx.context(), CL_MEM_READ_ONLY, bytes);
        cl::Buffer dx = make_buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
        check(q.enqueueWriteBuffer(db, CL_TRUE, 0, bytes, pb), "clEnqueueWriteBuffer");
        CgResult res = cg<T>(q, *dev_, db, dx, o);
        check(q.enqueueReadBuffer(dx, CL_TRUE, 0, bytes, px), "clEnqueueReadBuffer");
        return res;
      });
    else
      r.converged = true;
    double last = r.residuals.empty() ? 0.0 : r.residuals.back();
    return py::make_tuple(x, r.iterations, r.converged, r.breakdown, last, r.stagnation);
  }

  /// Seconds per call of the C++ path under spmv_py (no Python) and of the public
  /// std::vector overload lockstep::spmv(ctx, A, x, y): the overhead measurement's baseline.
  py::dict time_cpp(const Array<T>& x, int repeats) {
    if (x.size() != cols()) throw input_error("time: x must have A.shape[1] values");
    const size_t m = static_cast<size_t>(rows());
    std::vector<T> xv = to_vector(x), yv(m), out(m);
    using Clock = std::chrono::steady_clock;
    double core = 0, pub = 0;
    device_call(*c_, [&](Context& ctx) {
      SpmvConfig c;
      run(ctx, xv.data(), yv.data(), out.data(), T(1), T(0), c);  // warm-up: builds the kernel
      auto t0 = Clock::now();
      for (int i = 0; i < repeats; ++i) run(ctx, xv.data(), yv.data(), out.data(), T(1), T(0), c);
      auto t1 = Clock::now();
      for (int i = 0; i < repeats; ++i) spmv<T>(ctx, *dev_, xv, yv, T(1), T(0), c);
      auto t2 = Clock::now();
      core = std::chrono::duration<double>(t1 - t0).count() / repeats;
      pub = std::chrono::duration<double>(t2 - t1).count() / repeats;
      return 0;
    });
    py::dict d;
    d["core_s"] = core;
    d["public_s"] = pub;
    return d;
  }

  std::string automatic() {
    return device_call(*c_, [&](Context&) { return dev_->automatic_config().str(); });
  }
  /// The build options of that configuration (lockstep.warmup's matrix=: its one SpMV build).
  std::string automatic_options() {
    return device_call(*c_, [&](Context&) {
      return spmv_defines<T>(dev_->automatic_config(), dev_->device()).options();
    });
  }

 private:
  ContextPtr c_;
  std::optional<DeviceCsr<T>> dev_;
  cl::Buffer bx_, by_;
};

template <typename T>
void bind_matrix(py::module_& m, const char* name) {
  py::class_<DeviceMatrix<T>>(m, name)
      .def(py::init<ContextPtr, int64_t, int64_t, const Array<int32_t>&, const Array<int32_t>&,
                    const Array<T>&>())
      .def_property_readonly("rows", &DeviceMatrix<T>::rows)
      .def_property_readonly("cols", &DeviceMatrix<T>::cols)
      .def("spmv", &DeviceMatrix<T>::spmv_py)
      .def("cg", &DeviceMatrix<T>::cg_py)
      .def("spmm", &DeviceMatrix<T>::spmm_py)
      .def("spmv_buf", &DeviceMatrix<T>::spmv_buf)
      .def("spmm_buf", &DeviceMatrix<T>::spmm_buf)
      .def("cg_buf", &DeviceMatrix<T>::cg_buf)
      .def("time_chain", &DeviceMatrix<T>::time_chain)
      .def("time_cpp", &DeviceMatrix<T>::time_cpp)
      .def("automatic", &DeviceMatrix<T>::automatic)
      .def("automatic_options", &DeviceMatrix<T>::automatic_options);
}

}  // namespace

void bind_spmv(py::module_& m) {
  bind_matrix<float>(m, "_Matrix32");
  bind_matrix<double>(m, "_Matrix64");
  m.def("read_matrix_market", [](const std::string& path, bool single) -> py::tuple {
    Triplets t = [&] {
      py::gil_scoped_release nogil;
      return read_triplets(path);
    }();
    auto pack = [&](auto csr) {
      return py::make_tuple(csr.rows, csr.cols, to_numpy(std::move(csr.row_ptr)),
                            to_numpy(std::move(csr.col_idx)), to_numpy(std::move(csr.values)));
    };
    if (single) return pack(to_csr<float>(t));
    return pack(to_csr<double>(t));
  });
}

}  // namespace lockstep::python
