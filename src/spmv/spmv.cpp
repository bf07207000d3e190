// SpMV launches: build options from the configuration, grid sizes per kernel, and the
// resolution of `automatic` (tuning database entry for this matrix, else the model).
#include "lockstep/spmv.hpp"

#include "lockstep/kernel_builds.hpp"
#include "lockstep/spmv_tuner.hpp"

namespace lockstep {

template <typename T>
Defines spmv_defines(const SpmvConfig& c, const DeviceInfo& d) {
  Defines def;
  set_value_type<T>(def).set("LOCAL_SIZE", c.local_size);
  if (d.is_nvidia()) def.set("SPMV_NV_LOADS", 1);
  if (c.algorithm == SpmvAlgorithm::vector) {
    def.set("ROWS_PER_WORKGROUP_BITS", c.rows_bits).set("WAVE_WIDTH", std::max(1u, d.wave_width));
    if (c.shuffle) def.set("USE_NV_SHUFFLE", 1);
  }
  if (c.algorithm == SpmvAlgorithm::adaptive) def.set("BLOCK_NNZ", 2 * c.local_size);
  if (c.algorithm == SpmvAlgorithm::merge) def.set("MERGE_ITEMS", c.items);
  return def;
}

// The kernel file of a configuration: merge-path has its own.
static const char* spmv_file(const SpmvConfig& c) {
  return c.algorithm == SpmvAlgorithm::merge ? "spmv_merge.cl" : "spmv.cl";
}

// The tuner's space (every valid configuration), float and, where the device has fp64, double.
void detail::spmv_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  for (const SpmvConfig& c : spmv_search_space(d, sizeof(float)))
    out.push_back({"spmv", spmv_file(c), spmv_defines<float>(c, d).options()});
  if (d.fp64)
    for (const SpmvConfig& c : spmv_search_space(d, sizeof(double)))
      out.push_back({"spmv", spmv_file(c), spmv_defines<double>(c, d).options()});
}

template <typename T>
SpmvConfig choose_spmv_config(const DeviceInfo& device, const DeviceCsr<T>& a) {
  if (auto p = tuning::choose(device, "spmv", spmv_key(sizeof(T), a.fingerprint()))) {
    try {
      SpmvConfig c = spmv_config(*p);
      if (spmv_valid(c, device, sizeof(T))) return c;
    } catch (const std::exception&) {  // an unreadable entry: fall back to the model
    }
  }
  return predict_spmv_config(device, a.stats(), a.rows(), sizeof(T), a.contiguity());
}

template <typename T>
const SpmvConfig& DeviceCsr<T>::automatic_config() const {
  if (!auto_) auto_ = choose_spmv_config(device_, *this);
  return *auto_;
}

template <typename T>
SpmvRun spmv(cl::CommandQueue& queue, const DeviceCsr<T>& a, const cl::Buffer& x, cl::Buffer& y,
             T alpha, T beta, SpmvConfig c) {
  if (c.algorithm == SpmvAlgorithm::automatic) c = a.automatic_config();
  const DeviceInfo& d = a.device();
  if (!spmv_valid(c, d, sizeof(T)))
    throw input_error("SpMV configuration not valid on " + d.name + ": " + c.str());
  const size_t wg = size_t(c.local_size);
  const int rows = a.rows();
  SpmvRun run;
  if (rows == 0) {
    check(queue.enqueueMarkerWithWaitList(nullptr, &run.first), "clEnqueueMarkerWithWaitList");
    run.last = run.first;
    return run;
  }
  Defines def = spmv_defines<T>(c, d);
  switch (c.algorithm) {
    case SpmvAlgorithm::scalar: {
      cl::Kernel k = kernel(queue, "spmv.cl", "spmv_scalar", def);
      set_args(k, rows, a.row_ptr(), a.col_idx(), a.values(), x, y, alpha, beta);
      run.first = run.last = launch(queue, k, (rows + wg - 1) / wg * wg, wg);
      break;
    }
    case SpmvAlgorithm::vector: {
      cl::Kernel k = kernel(queue, "spmv.cl", "spmv_vector", def);
      set_args(k, rows, a.row_ptr(), a.col_idx(), a.values(), x, y, alpha, beta);
      size_t per_group = size_t(1) << c.rows_bits;
      run.first = run.last = launch(queue, k, (rows + per_group - 1) / per_group * wg, wg);
      break;
    }
    case SpmvAlgorithm::adaptive: {
      const auto& b = a.blocks(queue, c.local_size);
      cl::Kernel k = kernel(queue, "spmv.cl", "spmv_adaptive", def);
      set_args(k, b.blocks, a.row_ptr(), a.col_idx(), a.values(), x, y, b.partials, alpha, beta);
      run.first = run.last = launch(queue, k, size_t(b.count) * wg, wg);
      if (b.n_split) {
        cl::Kernel f = kernel(queue, "spmv.cl", "spmv_adaptive_fixup", def);
        set_args(f, b.n_split, b.split, b.partials, y, alpha, beta);
        run.last = launch(queue, f, (size_t(b.n_split) + wg - 1) / wg * wg, wg);
      }
      break;
    }
    case SpmvAlgorithm::merge: {
      const auto& m = a.merge_tiles(queue, c.local_size, c.items);
      cl::Kernel k = kernel(queue, "spmv_merge.cl", "spmv_merge", def);
      set_args(k, rows, m.coords, a.row_ptr(), a.col_idx(), a.values(), x, y, m.carry, alpha, beta);
      run.first = run.last = launch(queue, k, size_t(m.count) * wg, wg);
      if (m.n_plan) {
        cl::Kernel f = kernel(queue, "spmv_merge.cl", "spmv_merge_fixup", def);
        set_args(f, m.n_long, m.n_plan, m.plan, m.carry, y, alpha);
        const size_t short_groups = (size_t(m.n_plan - m.n_long) + wg - 1) / wg;
        run.last = launch(queue, f, (size_t(m.n_long) + short_groups) * wg, wg);
      }
      break;
    }
    default:
      break;
  }
  return run;
}

template <typename T>
void spmv(cl::CommandQueue& queue, const DeviceCsr<T>& a, const std::vector<T>& x,
          std::vector<T>& y, T alpha, T beta, SpmvConfig config) {
  if (x.size() != size_t(a.cols()) || y.size() != size_t(a.rows()))
    throw input_error("spmv: x must have cols (" + std::to_string(a.cols()) + ") and y rows (" +
                      std::to_string(a.rows()) + ") values");
  cl::Buffer bx = upload(queue, x, CL_MEM_READ_ONLY), by = upload(queue, y);
  spmv(queue, a, bx, by, alpha, beta, config);
  y = download<T>(queue, by, y.size());
}

#define LOCKSTEP_INSTANTIATE(T)                                                                    \
  template Defines spmv_defines<T>(const SpmvConfig&, const DeviceInfo&);                          \
  template SpmvConfig choose_spmv_config<T>(const DeviceInfo&, const DeviceCsr<T>&);               \
  template const SpmvConfig& DeviceCsr<T>::automatic_config() const;                               \
  template SpmvRun spmv<T>(cl::CommandQueue&, const DeviceCsr<T>&, const cl::Buffer&, cl::Buffer&, \
                           T, T, SpmvConfig);                                                      \
  template void spmv<T>(cl::CommandQueue&, const DeviceCsr<T>&, const std::vector<T>&,             \
                        std::vector<T>&, T, T, SpmvConfig);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep
