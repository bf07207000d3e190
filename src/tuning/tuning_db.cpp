// Tuning database storage: load (a stale, empty or corrupt file is ignored with one warning
// naming it), lookup, and atomic store through runtime/disk_cache.hpp (a failed write throws
// and leaves the previous file and no temporary behind). With the disk caches off or the cache
// root unusable, and no LOCKSTEP_TUNING_DB, there is no file: a store says once that it is not
// kept (the entry stays in this object only).
#include "lockstep/tuning_db.hpp"

#include <cstdlib>
#include <ctime>
#include <iostream>
#include <mutex>

#include "lockstep/version.hpp"
#include "runtime/disk_cache.hpp"

using nlohmann::json;

namespace lockstep {

std::string TuningDb::path_for(const DeviceInfo& d) {
  if (const char* p = std::getenv("LOCKSTEP_TUNING_DB"); p && *p) return p;
  const auto dir = disk_cache::folder("tuning");  // empty: caches off or the root unusable
  return dir.empty() ? std::string() : (dir / (disk_cache::device_file_stem(d) + ".json")).string();
}

TuningDb::TuningDb(const DeviceInfo& d) : path_(path_for(d)) {
  device_ = {{"platform", d.platform}, {"name", d.name}, {"driver", d.driver_version},
             {"compute_units", d.compute_units}, {"type", d.type}};
  if (path_.empty()) return;
  auto text = disk_cache::read(path_);
  if (!text) return;
  if (text->empty()) {
    std::cerr << "lockstep: ignoring empty tuning database " << path_
              << " (0 bytes); the next store replaces it\n";
    return;
  }
  try {
    json j = json::parse(*text);
    if (j.value("lockstep_version", "") != version) {
      std::cerr << "lockstep: ignoring tuning database " << path_ << " written by lockstep "
                << j.value("lockstep_version", "?") << " (this is " << version << ")\n";
      return;
    }
    for (auto& e : j.at("entries"))
      entries_.push_back({e.at("routine"), e.at("key"), e.value("features", json::object()),
                          e.at("params"), e.value("metrics", json::object()), e.value("date", "")});
  } catch (const std::exception& e) {
    entries_.clear();
    std::cerr << "lockstep: ignoring corrupt tuning database " << path_ << " (" << e.what()
              << "); the next store replaces it\n";
  }
}

std::optional<TuningEntry> TuningDb::find(const std::string& routine, const std::string& key) const {
  for (auto& e : entries_)
    if (e.routine == routine && e.key == key) return e;
  return std::nullopt;
}

std::vector<TuningEntry> TuningDb::entries(const std::string& routine) const {
  std::vector<TuningEntry> out;
  for (auto& e : entries_)
    if (routine.empty() || e.routine == routine) out.push_back(e);
  return out;
}

void TuningDb::store(const TuningEntry& entry) {
  TuningEntry e = entry;
  if (e.date.empty()) {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    e.date = buf;
  }
  bool replaced = false;
  for (auto& old : entries_)
    if (old.routine == e.routine && old.key == e.key) old = e, replaced = true;
  if (!replaced) entries_.push_back(e);

  json j = {{"lockstep_version", version}, {"device", device_}, {"entries", json::array()}};
  for (auto& x : entries_)
    j["entries"].push_back({{"routine", x.routine}, {"key", x.key}, {"features", x.features},
                            {"params", x.params}, {"metrics", x.metrics}, {"date", x.date}});
  if (path_.empty()) {
    static std::once_flag said;
    std::call_once(said, [] {
      std::cerr << "lockstep: tuning result not stored: no tuning database ("
                << (disk_cache::enabled() ? "the cache directory is unusable" : "LOCKSTEP_DISK_CACHE=0")
                << "; LOCKSTEP_TUNING_DB=FILE names one)\n";
    });
    return;
  }
  if (std::string why = disk_cache::write_atomic(path_, j.dump(1) + "\n"); !why.empty())
    throw input_error("cannot write tuning database " + path_ + ": " + why);
}

}  // namespace lockstep
