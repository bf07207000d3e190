// CSR SpMM: Y = alpha * A * X + beta * Y for a dense X of k columns (k right-hand sides), row- or
// column-major, in one pass over A. Algorithms: team (cl/spmm.cl: a team of work-items per row)
// and merge (cl/spmm_merge.cl: merge-path, every team the same number of rows + nonzeros whatever
// the row lengths, for power-law rows; a second launch adds the parts of rows split between
// teams, deterministically). The algorithm and the kernel's shape (work-group size, work-items
// per team, columns per vector load, merge-path steps per team) are tuned by the one tuning
// engine (family "spmm", a key per matrix, k and layout: `lockstep spmm FILE --k K --tune`), else
// chosen by a rule.
//
//   lockstep::DeviceCsr<float> dA(ctx, A);
//   lockstep::spmm<float>(ctx.queue(), dA, X, Y, k, lockstep::DenseLayout::row_major);
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "lockstep/spmv.hpp"

namespace lockstep {
namespace tuning {
class Family;
using Params = nlohmann::json;
}  // namespace tuning

/// How a dense rows x k block is stored: row-major (X[i * k + c], NumPy's C order) or
/// column-major (X[c * rows + i], Fortran order: k vectors one after the other).
enum class DenseLayout { row_major, col_major };
DenseLayout parse_dense_layout(const std::string& name);  // "row" | "col"; input_error
const char* to_string(DenseLayout l);

/// team: a team of work-items per row of A; merge: a team per MERGE_ITEMS merge-path steps.
enum class SpmmAlgorithm { team, merge };
std::string to_string(SpmmAlgorithm a);
SpmmAlgorithm parse_spmm_algorithm(const std::string& name);  // "team" | "merge"; input_error

/// The kernel's shape; local_size 0: automatic (the tuning database's entry, else the rule).
struct SpmmConfig {
  int local_size = 0;  // work-group size (LOCAL_SIZE)
  int team = 0;        // work-items per team (TEAM, a power of two <= 32): the columns' lanes
  int vec = 0;         // adjacent columns per load (VEC: 1, 2 or 4; row-major only)
  SpmmAlgorithm algorithm = SpmmAlgorithm::team;
  int items = 0;  // merge: merge-path steps (rows + nonzeros) per team (MERGE_ITEMS)
  /// Column-major only: copy X row-major into a scratch block (cl/spmm_transpose.cl), run this
  /// shape row-major on it and copy the result back into Y with alpha and beta. The column-major
  /// kernels read one strided value per column and nonzero; this reads each X row contiguously.
  bool transpose = false;
  bool automatic() const { return local_size == 0; }
  std::string str() const;
};

/// The rule (no tuning entry): row-major: the widest VEC that divides k, TEAM the fewest lanes
/// that cover k with one chunk each on GPUs (at most 4 elsewhere), up to 32; column-major: one
/// work-item per row (up to 8 columns each, else more lanes). 256 work-items. Rows whose lengths
/// are irregular (irregular_rows(stats), the SpMV rule's test: a few hub rows far longer than the
/// mean) take merge, spmm_merge_items steps per team; the others team. Merge on GPUs, row-major:
/// VEC 1, TEAM min(16, k) lanes, 4 x spmm_merge_items steps from k = 16 (the H100 tuner's choice).
/// Column-major on GPUs: the row-major shape with `transpose` (the two copies move 2 (rows + cols)
/// k values, less than one column-major pass reads on any matrix with more than a few nonzeros a
/// row); elsewhere the column-major kernel.
SpmmConfig spmm_rule(const DeviceInfo& device, int k, DenseLayout layout,
                     const RowStats& stats = {});
/// The rule's merge-path steps per team.
constexpr int spmm_merge_items = 64;
/// The -D options of the layout copies of `transpose` for k columns.
template <typename T>
Defines spmm_transpose_defines(const DeviceInfo& device, int k);
/// Whether a configuration can run k columns in `layout` on a device.
bool spmm_valid(const SpmmConfig& c, const DeviceInfo& device, int k, DenseLayout layout);
/// The -D options of a configuration for k columns.
template <typename T>
Defines spmm_defines(const SpmmConfig& c, int k, DenseLayout layout);
/// The database key of (value type, k, layout, matrix).
std::string spmm_key(size_t value_bytes, int k, DenseLayout layout, const std::string& fingerprint);
/// What `automatic` resolves to for this matrix, k and layout.
template <typename T>
SpmmConfig choose_spmm_config(const DeviceInfo& device, const DeviceCsr<T>& a, int k,
                              DenseLayout layout);

/// Y = alpha * A * X + beta * Y on buffers: X holds cols x k values, Y rows x k, both in
/// `layout` with leading dimension k (row-major) or cols / rows (column-major). One launch.
template <typename T>
SpmvRun spmm(cl::CommandQueue& queue, const DeviceCsr<T>& a, const cl::Buffer& X, cl::Buffer& Y,
             int k, DenseLayout layout, T alpha = 1, T beta = 0, SpmmConfig config = {});
/// The same on host vectors (uploads X and Y, downloads Y).
template <typename T>
void spmm(Context& ctx, const DeviceCsr<T>& a, const std::vector<T>& X, std::vector<T>& Y, int k,
          DenseLayout layout, T alpha = 1, T beta = 0, SpmmConfig config = {});

/// A configuration as the tuning family's parameters (what `--tune` stores), and back.
tuning::Params spmm_params(const SpmmConfig& c);
SpmmConfig spmm_config(const tuning::Params& p);
/// SpMM as a tuning family: algorithm x local_size x team x vec (x items), each timed (median of
/// `repeats`) and checked against a host product in double.
template <typename T>
std::unique_ptr<tuning::Family> spmm_family(Context& ctx, const Csr<T>& host, int k,
                                            DenseLayout layout, int repeats = 10);

}  // namespace lockstep
