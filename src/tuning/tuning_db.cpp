// Tuning database storage: load (ignoring stale or corrupt files with one warning), lookup,
// atomic store (temporary file, then rename).
#include "lockstep/tuning_db.hpp"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "lockstep/version.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace lockstep {
namespace {

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

fs::path tuning_dir() {
  std::string root = cache_directory();
  return root.empty() ? fs::path(".lockstep-tuning") : fs::path(root) / "tuning";
}

std::string slug(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  return s.substr(0, 40);
}

}  // namespace

std::string TuningDb::path_for(const DeviceInfo& d) {
  if (const char* p = std::getenv("LOCKSTEP_TUNING_DB"); p && *p) return p;
  char h[17];
  std::snprintf(h, sizeof h, "%016llx",
                static_cast<unsigned long long>(fnv1a(d.platform + "\n" + d.name + "\n" + d.driver_version)));
  return (tuning_dir() / (slug(d.name) + "-" + h + ".json")).string();
}

TuningDb::TuningDb(const DeviceInfo& d) : path_(path_for(d)) {
  device_ = {{"platform", d.platform}, {"name", d.name}, {"driver", d.driver_version},
             {"compute_units", d.compute_units}, {"type", d.type}};
  std::ifstream in(path_);
  if (!in) return;
  try {
    json j = json::parse(in);
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
    std::cerr << "lockstep: ignoring corrupt tuning database " << path_ << ": " << e.what() << "\n";
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
  fs::path file(path_);
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  fs::path tmp = file;
  tmp += ".tmp" + std::to_string(std::random_device{}());
  {
    std::ofstream out(tmp);
    out << j.dump(1) << "\n";
    if (!out) throw input_error("cannot write tuning database " + tmp.string());
  }
  fs::rename(tmp, file, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw input_error("cannot write tuning database " + path_);
  }
}

}  // namespace lockstep
