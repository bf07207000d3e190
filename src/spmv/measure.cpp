// SpmvBench: the timing and verification protocol of `lockstep spmv` and the tuner.
#include <algorithm>
#include <random>

#include "lockstep/spmv_measure.hpp"
#include "lockstep/tolerance.hpp"

namespace lockstep {

double spmv_min_bytes(int32_t rows, int32_t cols, size_t nnz, size_t value_bytes) {
  return double(nnz) * double(value_bytes + 4) + (double(rows) + 1) * 4 +
         double(cols) * double(value_bytes) + double(rows) * double(value_bytes);
}

template <typename T>
SpmvBench<T>::SpmvBench(cl::CommandQueue& queue, const Csr<T>& host)
    : queue_(queue), host_(host), device_(queue, host), x_(size_t(host.cols)) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& v : x_) v = T(u(rng));
  bx_ = upload(queue, x_, CL_MEM_READ_ONLY);
  by_ = make_buffer(queue.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                    std::max<size_t>(1, size_t(host.rows)) * sizeof(T));
}

template <typename T>
SpmvMeasurement SpmvBench<T>::measure(SpmvConfig config, int repeats, bool verify) {
  if (config.algorithm == SpmvAlgorithm::automatic) config = device_.automatic_config();
  SpmvMeasurement m;
  m.config = config;
  T nan = std::numeric_limits<T>::quiet_NaN();  // y must be written, never read, with beta = 0
  check(queue_.enqueueFillBuffer(by_, nan, 0, std::max<size_t>(1, size_t(host_.rows)) * sizeof(T)),
        "clEnqueueFillBuffer");
  for (int i = 0; i < 3; ++i) spmv<T>(queue_, device_, bx_, by_, T(1), T(0), config);
  check(queue_.finish(), "clFinish");
  std::vector<double> ms;
  for (int i = 0; i < std::max(1, repeats); ++i)
    ms.push_back(spmv<T>(queue_, device_, bx_, by_, T(1), T(0), config).ms());
  std::nth_element(ms.begin(), ms.begin() + long(ms.size() / 2), ms.end());
  m.median_ms = ms[ms.size() / 2];
  m.gflops = 2.0 * double(device_.nnz()) / (m.median_ms * 1e6);
  m.gbs = spmv_min_bytes(device_.rows(), device_.cols(), device_.nnz(), sizeof(T)) /
          (m.median_ms * 1e6);
  if (!verify) return m;
  if (want_.empty() && host_.rows > 0) {
    want_ = spmv_reference(host_, x_, x_, 1.0, 0.0);
    scale_.assign(want_.size(), 0.0);
    for (int32_t r = 0; r < host_.rows; ++r)
      for (int32_t k = host_.row_ptr[r]; k < host_.row_ptr[r + 1]; ++k)
        scale_[r] += std::fabs(double(host_.values[k]) * double(x_[host_.col_idx[k]]));
  }
  auto y = download<T>(queue_, by_, size_t(host_.rows));
  m.verified = true;
  for (int32_t r = 0; r < host_.rows; ++r) {
    size_t len = size_t(host_.row_ptr[r + 1] - host_.row_ptr[r]);
    m.max_rel_err = std::max(m.max_rel_err, relative_error(double(y[r]), want_[r], scale_[r]));
    if (!close(double(y[r]), want_[r], tolerance<T>(len), scale_[r])) m.verified = false;
  }
  return m;
}

template class SpmvBench<float>;
template class SpmvBench<double>;

}  // namespace lockstep
