// SpMV as a tuning family (see tuning.hpp). Parameters: algorithm (scalar, vector, adaptive,
// merge), local_size (work-items per group), rows_bits (vector: 2^rows_bits rows per group),
// shuffle (vector on NVIDIA) and items (merge: items per work-item), declared once in
// spmv_spaces(), with spmv_valid() as the constraint. Key: "<float|double>:<fingerprint>".
// Every candidate is verified against the double reference (tolerance.hpp) before its time
// counts. Exhaustive search times every valid configuration; the model-led search starts from
// the scalar kernel, the seed paper's default and the model's prediction (predict_spmv_config)
// and climbs to better neighbours (one parameter changed, or another algorithm).
// `spmv(..., SpmvConfig{})` and `lockstep spmv --algorithm auto` find the stored winner.
#pragma once
#include <memory>

#include "lockstep/spmv_measure.hpp"
#include "lockstep/tuning.hpp"

namespace lockstep {

/// The algorithms' declared parameters (ranges before device limits), one space per algorithm:
/// {"algorithm", {name}} first, then its tunable parameters (local_size, rows_bits, ...).
const std::vector<tuning::Space>& spmv_spaces();

/// The seed paper's default configuration: vector, 256 items, 32 rows per group.
SpmvConfig seed_default_config();

/// DRAM copy bandwidth of the device in GB/s (read + write): a float4 copy of a buffer well above
/// the last-level cache, best of 10. Measured on every call, never stored (a figure measured
/// under load would otherwise stay wrong); a cache-resident matrix can exceed it.
double copy_bandwidth_gbs(Context& ctx);

/// A configuration as tuning parameters, and back (old entries' "kernel"/"wg_bits" are read too,
/// with one deprecation line per process).
tuning::Params spmv_params(const SpmvConfig& c);
SpmvConfig spmv_config(const tuning::Params& p);
/// The tuning database key of a matrix on the device.
std::string spmv_key(size_t value_bytes, const std::string& fingerprint);

/// The SpMV family for one matrix: each candidate timed `repeats` times (median) and verified.
template <typename T>
std::unique_ptr<tuning::Family> spmv_family(Context& ctx, const Csr<T>& host, int repeats = 10);

}  // namespace lockstep
