// The one tuning database. One JSON file per device and driver, in
// $LOCKSTEP_CACHE_DIR/tuning, else $XDG_CACHE_HOME/lockstep/tuning, else ~/.cache/lockstep/tuning
// (LOCKSTEP_TUNING_DB names a file directly). Each entry: a routine ("spmv", "apsp"), a key that
// identifies the problem exactly (e.g. a matrix fingerprint and precision), its features, the
// chosen parameters and the measurements. A file written by another library version, or one
// that does not parse (or is empty), is ignored with one warning on stderr and replaced on the
// next store. With LOCKSTEP_DISK_CACHE=0 or an unusable cache root (and no LOCKSTEP_TUNING_DB)
// there is no file: store() says once that nothing is kept. A failed write throws input_error, and
// so does a path that is not a regular file (a FIFO, a device) or a file over 64 MiB.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/runtime.hpp"

namespace lockstep {

struct TuningEntry {
  std::string routine, key;
  nlohmann::json features, params, metrics;
  std::string date;  // UTC, ISO 8601
};

class TuningDb {
 public:
  /// The database of this device (by platform, name and driver version).
  explicit TuningDb(const DeviceInfo& device);
  /// The file the database of this device lives in (reads nothing).
  static std::string path_for(const DeviceInfo& device);
  const std::string& path() const { return path_; }
  std::optional<TuningEntry> find(const std::string& routine, const std::string& key) const;
  std::vector<TuningEntry> entries(const std::string& routine = "") const;
  /// Inserts or replaces (routine, key), merged with what the file holds now (under an advisory
  /// lock, so concurrent stores of other entries are kept), and writes the file atomically.
  /// False when there is no file to store in (said once on stderr); a failed write throws.
  bool store(const TuningEntry& entry);

 private:
  std::string path_;
  nlohmann::json device_;
  std::vector<TuningEntry> entries_;
};

}  // namespace lockstep
