// The SpMV kernels' declared parameters and constraints (read by the tests and the tuner), and
// the model that predicts a configuration from row-length statistics.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "lockstep/spmv.hpp"

namespace lockstep {

std::string to_string(SpmvKernel k) {
  switch (k) {
    case SpmvKernel::scalar: return "scalar";
    case SpmvKernel::vector: return "vector";
    case SpmvKernel::adaptive: return "adaptive";
    default: return "auto";
  }
}

SpmvKernel parse_spmv_kernel(const std::string& name) {
  for (auto k : {SpmvKernel::scalar, SpmvKernel::vector, SpmvKernel::adaptive, SpmvKernel::automatic})
    if (to_string(k) == name) return k;
  throw input_error("unknown SpMV kernel '" + name + "' (expected scalar, vector, adaptive or auto)");
}

std::string SpmvConfig::str() const {
  std::ostringstream s;
  s << "kernel=" << to_string(kernel) << " wg_bits=" << wg_bits;
  if (kernel == SpmvKernel::vector) s << " rows_bits=" << rows_bits << " shuffle=" << shuffle;
  return s.str();
}

const std::vector<SpmvKernelSpec>& spmv_parameters() {
  static const std::vector<SpmvKernelSpec> specs{
      {SpmvKernel::scalar, {{"wg_bits", {6, 7, 8, 9, 10}}}},
      {SpmvKernel::vector,
       {{"wg_bits", {6, 7, 8, 9, 10}}, {"rows_bits", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}, {"shuffle", {0, 1}}}},
      {SpmvKernel::adaptive, {{"wg_bits", {7, 8, 9, 10}}}},
  };
  return specs;
}

static bool nvidia(const DeviceInfo& d) {
  std::string v = d.vendor + " " + d.platform;
  return d.is_gpu() && (v.find("NVIDIA") != std::string::npos || v.find("nvidia") != std::string::npos);
}

bool spmv_valid(const SpmvConfig& c, const DeviceInfo& d, size_t value) {
  size_t wg = size_t(1) << c.wg_bits;
  if (c.wg_bits < 0 || c.wg_bits > 12 || wg > d.max_work_group_size) return false;
  switch (c.kernel) {
    case SpmvKernel::scalar: return true;
    case SpmvKernel::vector:
      if (c.rows_bits < 0 || c.rows_bits > c.wg_bits) return false;
      if (c.shuffle && (!nvidia(d) || d.wave_width != 32 || c.rows_bits == c.wg_bits)) return false;
      return wg * value <= d.local_mem_bytes;
    case SpmvKernel::adaptive: return 2 * wg * value <= d.local_mem_bytes;
    default: return false;
  }
}

std::vector<SpmvConfig> spmv_search_space(const DeviceInfo& d, size_t value) {
  std::vector<SpmvConfig> out;
  for (auto& spec : spmv_parameters()) {
    // cartesian product of the declared values
    std::vector<size_t> idx(spec.parameters.size(), 0);
    while (true) {
      SpmvConfig c;
      c.kernel = spec.kernel;
      for (size_t p = 0; p < idx.size(); ++p) {
        int v = spec.parameters[p].values[idx[p]];
        const std::string& n = spec.parameters[p].name;
        if (n == "wg_bits") c.wg_bits = v;
        else if (n == "rows_bits") c.rows_bits = v;
        else if (n == "shuffle") c.shuffle = v;
      }
      if (spmv_valid(c, d, value)) out.push_back(c);
      size_t p = 0;
      while (p < idx.size() && ++idx[p] == spec.parameters[p].values.size()) idx[p++] = 0;
      if (p == idx.size()) break;
    }
  }
  return out;
}

// The seed paper found the optimum flat and predictable from row statistics: give each row
// about as many items as it has entries (a power of two, at most one wave on GPUs, at most
// the group), 256-item groups; irregular row lengths go to the load-balanced kernel.
SpmvConfig predict_spmv_config(const DeviceInfo& d, const RowStats& s, int32_t rows, size_t value) {
  SpmvConfig c;
  c.wg_bits = 8;
  while ((size_t(1) << c.wg_bits) > d.max_work_group_size && c.wg_bits > 0) --c.wg_bits;
  bool irregular = s.max > 8 * std::max(1.0, s.mean) && s.std > s.mean && s.max > 256;
  if (irregular && rows > 0) {
    c.kernel = SpmvKernel::adaptive;
    if (!spmv_valid(c, d, value)) c.kernel = SpmvKernel::vector;
    else return c;
  }
  c.kernel = SpmvKernel::vector;
  int tpr_bits = 0;
  while ((1 << (tpr_bits + 1)) <= std::max(1.0, s.mean) && tpr_bits < c.wg_bits) ++tpr_bits;
  int wave = std::max(1u, d.wave_width);
  if (d.is_gpu()) tpr_bits = std::min(tpr_bits, int(std::log2(wave)));
  else tpr_bits = 0;  // CPUs: one row per item vectorises best
  c.rows_bits = c.wg_bits - tpr_bits;
  c.shuffle = 0;
  SpmvConfig with = c;
  with.shuffle = 1;
  if (spmv_valid(with, d, value)) c.shuffle = 1;
  return c;
}

}  // namespace lockstep
