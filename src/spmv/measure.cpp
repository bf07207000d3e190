// measure_spmv: the timing and verification protocol of `lockstep spmv` and the tuner.
#include "lockstep/spmv_measure.hpp"

#include <algorithm>
#include <random>

#include "lockstep/tolerance.hpp"

namespace lockstep {

double spmv_min_bytes(int32_t rows, int32_t cols, size_t nnz, size_t value_bytes) {
  return double(nnz) * double(value_bytes + 4) + (double(rows) + 1) * 4 +
         double(cols) * double(value_bytes) + double(rows) * double(value_bytes);
}

template <typename T>
SpmvMeasurement measure_spmv(cl::CommandQueue& queue, const Csr<T>& host, const DeviceCsr<T>& a,
                             SpmvConfig config, int repeats, bool verify) {
  if (config.kernel == SpmvKernel::automatic) config = a.automatic_config();
  SpmvMeasurement m;
  m.config = config;
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> x(size_t(a.cols()));
  for (auto& v : x) v = T(u(rng));
  cl::Buffer bx = upload(queue, x, CL_MEM_READ_ONLY);
  cl::Buffer by = make_buffer(queue.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                              std::max<size_t>(1, size_t(a.rows())) * sizeof(T));
  for (int i = 0; i < 3; ++i) spmv<T>(queue, a, bx, by, T(1), T(0), config);
  check(queue.finish(), "clFinish");
  std::vector<double> ms;
  for (int i = 0; i < std::max(1, repeats); ++i) ms.push_back(spmv<T>(queue, a, bx, by, T(1), T(0), config).ms());
  std::nth_element(ms.begin(), ms.begin() + long(ms.size() / 2), ms.end());
  m.median_ms = ms[ms.size() / 2];
  m.gflops = 2.0 * double(a.nnz()) / (m.median_ms * 1e6);
  m.gbs = spmv_min_bytes(a.rows(), a.cols(), a.nnz(), sizeof(T)) / (m.median_ms * 1e6);
  if (verify) {
    auto y = download<T>(queue, by, size_t(a.rows()));
    auto want = spmv_reference(host, x, x, 1.0, 0.0);
    m.verified = true;
    for (int32_t r = 0; r < a.rows(); ++r) {
      double scale = 0;
      for (int32_t k = host.row_ptr[r]; k < host.row_ptr[r + 1]; ++k)
        scale += std::fabs(double(host.values[k]) * double(x[host.col_idx[k]]));
      size_t len = size_t(host.row_ptr[r + 1] - host.row_ptr[r]);
      m.max_rel_err = std::max(m.max_rel_err, relative_error(double(y[r]), want[r], scale));
      if (!close(double(y[r]), want[r], tolerance<T>(len), scale)) m.verified = false;
    }
  }
  return m;
}

template SpmvMeasurement measure_spmv<float>(cl::CommandQueue&, const Csr<float>&, const DeviceCsr<float>&, SpmvConfig, int, bool);
template SpmvMeasurement measure_spmv<double>(cl::CommandQueue&, const Csr<double>&, const DeviceCsr<double>&, SpmvConfig, int, bool);

}  // namespace lockstep
