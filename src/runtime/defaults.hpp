// Defaults as data: the measured constants of the untuned rules (radix sort's tiles, SpMV's
// untuned rule, APSP's tiles, BFS's thresholds, the default barrier) in one table keyed by device
// type, vendor, architecture and device name, looked up as CLBlast looks up its database: the
// device's own entry, else its architecture's, else its vendor's, else the device type's, else
// the portable default. The rules keep their logic in their modules; this table holds their
// numbers. BENCHMARKS.md ("Defaults as data") lists the measurement behind each entry.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "lockstep/runtime.hpp"

namespace lockstep::defaults {

/// What the table is keyed by. type: "GPU", or "CPU" for every other device (the rules always
/// split GPU from the rest); vendor: to_string(Vendor) ("nvidia", "amd", "intel", "other");
/// architecture: architecture_of(); device: the device name. An empty field matches any value.
struct Key {
  std::string type, vendor, architecture, device;
};

/// "sm_XY" from NVIDIA's compute capability, AMD's "gfx..." name (its OpenCL device name), else "".
std::string architecture_of(const DeviceInfo& device);
Key key_of(const DeviceInfo& device);

/// One row of the table: where it applies (empty fields: any), the rule, and its values.
struct Entry {
  Key key;
  std::string rule;  // "radix", "spmv", "apsp", "bfs", "barrier"
  std::vector<std::pair<std::string, std::string>> values;
};
const std::vector<Entry>& table();

/// A rule's values for a key, each from the most specific entry that sets it (device, then
/// architecture, then vendor, then type, then the portable default, which sets every value).
class Values {
 public:
  /// A name the portable default lacks is a programming error (std::logic_error).
  const std::string& text(const std::string& name) const;
  double number(const std::string& name) const;
  int integer(const std::string& name) const { return int(number(name)); }

 private:
  size_t find(const std::string& name) const;
  static Values resolve(const Key& key, const std::string& rule);
  friend const Values& values(const Key&, const std::string&);
  std::string rule_;
  std::vector<std::pair<std::string, std::string>> text_;  // sorted by name
  std::vector<double> number_;                             // NaN where not a number
};
/// Resolved once per (key, rule) and process, then kept (thread-safe).
const Values& values(const Key& key, const std::string& rule);

}  // namespace lockstep::defaults
