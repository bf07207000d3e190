// CSR SpMV on the device: y = alpha*A*x + beta*y.
//
//   lockstep::Context ctx;                                   // LOCKSTEP_DEVICE or the first GPU
//   auto A = lockstep::read_matrix_market<double>("m.mtx");
//   lockstep::DeviceCsr<double> dA(ctx.queue(), A);
//   std::vector<double> x(A.cols, 1.0), y(A.rows);
//   lockstep::spmv(ctx.queue(), dA, x, y);                   // algorithm chosen automatically
//
// Algorithms (one kernel each): scalar (one row per item), vector (the seed paper's family:
// 2^rows_bits rows per group of local_size items), adaptive (CSR-adaptive row blocks) and merge
// (merge-path: every group takes the same number of rows + nonzeros, whatever the row lengths).
// Each declares its tunable parameters once, in spmv_spaces() (spmv_tuner.hpp); the tests, the
// kernel builds and the tuner all read that table.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/csr.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep {

enum class SpmvAlgorithm { scalar, vector, adaptive, merge, automatic };
using SpmvKernel [[deprecated("use SpmvAlgorithm")]] = SpmvAlgorithm;
std::string to_string(SpmvAlgorithm a);
/// Every algorithm but automatic, in enum order.
const std::vector<SpmvAlgorithm>& all_spmv_algorithms();
SpmvAlgorithm parse_spmv_algorithm(
    const std::string& name);  // "auto" -> automatic; else input_error
[[deprecated("use parse_spmv_algorithm")]] inline SpmvAlgorithm parse_spmv_kernel(
    const std::string& name) {
  return parse_spmv_algorithm(name);
}

struct SpmvConfig {
  SpmvAlgorithm algorithm = SpmvAlgorithm::automatic;
  int local_size = 256;  // work-items per group, a power of two (LOCAL_SIZE)
  int rows_bits = 5;     // vector: 2^rows_bits rows per group
  int shuffle = 0;       // vector on NVIDIA: warp shuffles for the in-wave part of the reduction
  int items =
      7;  // merge: merge-path items (rows + nonzeros) per work-item (odd: fewer bank conflicts)
  std::string str() const;  // "algorithm=vector local_size=256 rows_bits=5 shuffle=0"
  /// One row per work-item: scalar, or vector with as many rows as items.
  bool row_per_item() const {
    return algorithm == SpmvAlgorithm::scalar ||
           (algorithm == SpmvAlgorithm::vector && (1 << rows_bits) == local_size);
  }
};

/// Whether a configuration is valid on a device (work-group size, local memory, wave width).
bool spmv_valid(const SpmvConfig& c, const DeviceInfo& device, size_t value_bytes = 8);
/// Every valid configuration of every algorithm on a device (the exhaustive search space of
/// spmv_spaces(), spmv_tuner.hpp).
std::vector<SpmvConfig> spmv_search_space(const DeviceInfo& device, size_t value_bytes = 8);

/// A CSR matrix on the device, with the adaptive kernel's row blocks built once at upload.
template <typename T>
class DeviceCsr {
 public:
  DeviceCsr(Context& ctx, const Csr<T>& host) : DeviceCsr(ctx.queue(), host) {}
  DeviceCsr(cl::CommandQueue& queue, const Csr<T>& host);  // on a queue of the caller's
  int32_t rows() const { return rows_; }
  int32_t cols() const { return cols_; }
  size_t nnz() const { return nnz_; }
  const RowStats& stats() const { return stats_; }
  /// Fraction of a row's neighbouring entries with adjacent columns (the model's locality feature).
  double contiguity() const { return contiguity_; }
  /// A fingerprint that identifies the matrix (shape, nnz, and a hash of its structure).
  const std::string& fingerprint() const { return fingerprint_; }
  const cl::Buffer& row_ptr() const { return row_ptr_; }
  const cl::Buffer& col_idx() const { return col_idx_; }
  const cl::Buffer& values() const { return values_; }

  // adaptive row blocks for a work-group size (built on first use, then kept)
  struct Blocks {
    cl::Buffer blocks, split, partials;
    int count = 0, n_split = 0;
  };
  const Blocks& blocks(cl::CommandQueue& queue, int local_size) const;
  // merge-path tiles of local_size*items merge items: each group's start (row, nonzero), one
  // carry-out slot per group, and the fix-up plan: (row, first carry, count) for each row open at
  // the end of one or more tiles, rows spanning more than 32 tiles first (built on first use, then
  // kept). `width` values per carry slot (SpMM: k columns); a wider request grows the carry buffer.
  struct MergeTiles {
    cl::Buffer coords, carry, plan;
    int count = 0, n_long = 0, n_plan = 0;
    size_t width = 1;  // values per carry slot
  };
  const MergeTiles& merge_tiles(cl::CommandQueue& queue, int local_size, int items,
                                size_t width = 1) const;
  const DeviceInfo& device() const { return device_; }
  /// What `automatic` resolved to for this matrix (resolved once, on first use).
  const SpmvConfig& automatic_config() const;

 private:
  int32_t rows_, cols_;
  size_t nnz_;
  RowStats stats_;
  double contiguity_ = 0;
  std::string fingerprint_;
  std::vector<int32_t> host_row_ptr_;
  cl::Buffer row_ptr_, col_idx_, values_;
  mutable std::map<int, Blocks> blocks_;
  mutable std::map<int, MergeTiles> merge_;
  DeviceInfo device_;
  mutable std::optional<SpmvConfig> auto_;
};

/// The -D options of a configuration (what the launch builds with; the tuner reports them).
template <typename T>
Defines spmv_defines(const SpmvConfig& c, const DeviceInfo& device);
/// The configuration `automatic` resolves to: the tuning database's entry for this matrix on
/// this device when there is one, else the model's prediction from the row statistics.
template <typename T>
SpmvConfig choose_spmv_config(const DeviceInfo& device, const DeviceCsr<T>& a);
/// Whether a few rows are far longer than the mean (power-law rows): the rule's test for a
/// load-balanced kernel (SpMV: adaptive; SpMM: merge).
bool irregular_rows(const RowStats& stats);
/// The model alone (row statistics and column contiguity -> configuration); no tuning needed.
SpmvConfig predict_spmv_config(const DeviceInfo& device, const RowStats& stats, int32_t rows,
                               size_t value_bytes, double contiguity = 0);
/// Fraction of pairs of neighbouring entries in a row whose columns are adjacent (0 if none).
template <typename T>
double column_contiguity(const Csr<T>& a) {
  size_t pairs = 0, adjacent = 0;
  for (int32_t r = 0; r < a.rows; ++r)
    for (int32_t k = a.row_ptr[r]; k + 1 < a.row_ptr[r + 1]; ++k)
      ++pairs, adjacent += a.col_idx[size_t(k) + 1] == a.col_idx[size_t(k)] + 1;
  return pairs ? double(adjacent) / double(pairs) : 0.0;
}

/// The events of one SpMV (the adaptive and merge algorithms may launch twice).
struct SpmvRun {
  cl::Event first, last;
  double ms() const { return event_ms(first, last); }
};
/// y = alpha*A*x + beta*y on buffers (x: cols values, y: rows values).
template <typename T>
SpmvRun spmv(cl::CommandQueue& queue, const DeviceCsr<T>& a, const cl::Buffer& x, cl::Buffer& y,
             T alpha = 1, T beta = 0, SpmvConfig config = {});
/// The same on host vectors (uploads x and y, downloads y).
template <typename T>
void spmv(cl::CommandQueue& queue, const DeviceCsr<T>& a, const std::vector<T>& x,
          std::vector<T>& y, T alpha = 1, T beta = 0, SpmvConfig config = {});
/// The same on the context's queue (lockstep's convention: a Context& first).
template <typename T>
SpmvRun spmv(Context& ctx, const DeviceCsr<T>& a, const cl::Buffer& x, cl::Buffer& y, T alpha = 1,
             T beta = 0, SpmvConfig config = {}) {
  return spmv<T>(ctx.queue(), a, x, y, alpha, beta, config);
}
template <typename T>
void spmv(Context& ctx, const DeviceCsr<T>& a, const std::vector<T>& x, std::vector<T>& y,
          T alpha = 1, T beta = 0, SpmvConfig config = {}) {
  spmv<T>(ctx.queue(), a, x, y, alpha, beta, config);
}

}  // namespace lockstep
