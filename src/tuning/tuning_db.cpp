// Tuning database storage: load (a stale, empty or corrupt file is ignored with one warning
// naming it), lookup, and atomic store through runtime/disk_cache.hpp (a failed write throws
// and leaves the previous file and no temporary behind). With the disk caches off or the cache
// root unusable, and no LOCKSTEP_TUNING_DB, there is no file: a store says once that it is not
// kept (the entry stays in this object only) and returns false.
// The path is hostile input too: a symbolic link is followed to its target (a dangling one is
// refused), anything but a regular file (a FIFO, /dev/full, /dev/null, a directory) is refused
// before a byte is read, and so is a file over kMaxBytes. store() holds an advisory lock
// (flock on the database's folder) around read-merge-rename, so concurrent processes that
// store different entries keep all of them.
#include "lockstep/tuning_db.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "lockstep/version.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/environment.hpp"

using nlohmann::json;

namespace lockstep {
namespace {

constexpr size_t kMaxBytes = size_t(64) << 20;  // thousands of entries take a few hundred KiB

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw input_error("tuning database " + path + ": " + why +
                    " (LOCKSTEP_TUNING_DB=FILE names a regular file)");
}

/// A symbolic link resolved to its target (the rename then replaces the target, not the link).
std::string resolve(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char real[PATH_MAX];
  if (!::realpath(path.c_str(), real))
    refuse(path, std::string("a symbolic link whose target cannot be resolved (") +
                     std::strerror(errno) + ")");
  return real;
}

const char* kind_of(mode_t m) {
  return S_ISDIR(m)    ? "a directory"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISCHR(m)  ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISSOCK(m) ? "a socket"
                       : "not a regular file";
}

/// The file's bytes; nothing when it does not exist. Opened without blocking (a FIFO), then
/// checked to be a regular file of at most kMaxBytes before anything is read.
std::optional<std::string> load(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    refuse(path, std::string("cannot open: ") + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse(path, std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) refuse(path, std::string(kind_of(st.st_mode)) + ", not a regular file");
  auto too_big = [&] {
    refuse(path, "larger than " + std::to_string(kMaxBytes >> 20) +
                     " MiB, more than a tuning database holds");
  };
  if (size_t(st.st_size) > kMaxBytes) too_big();
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse(path, std::string("read error: ") + std::strerror(errno));
    if (n == 0) break;
    text.append(buf, size_t(n));
    if (text.size() > kMaxBytes) too_big();
  }
  return text;
}

/// The entries of a database file's text; a stale, empty or corrupt text gives none (with a
/// warning unless `quiet`).
std::vector<TuningEntry> parse(const std::string& path, const std::string& text, bool quiet) {
  std::vector<TuningEntry> entries;
  if (text.empty()) {
    if (!quiet)
      std::cerr << "lockstep: ignoring empty tuning database " << path
                << " (0 bytes); the next store replaces it\n";
    return entries;
  }
  try {
    json j = json::parse(text);
    if (j.value("lockstep_version", "") != version) {
      if (!quiet)
        std::cerr << "lockstep: ignoring tuning database " << path << " written by lockstep "
                  << j.value("lockstep_version", "?") << " (this is " << version << ")\n";
      return entries;
    }
    for (auto& e : j.at("entries"))
      entries.push_back({e.at("routine"), e.at("key"), e.value("features", json::object()),
                         e.at("params"), e.value("metrics", json::object()), e.value("date", "")});
  } catch (const std::exception& e) {
    entries.clear();
    if (!quiet)
      std::cerr << "lockstep: ignoring corrupt tuning database " << path << " (" << e.what()
                << "); the next store replaces it\n";
  }
  return entries;
}

}  // namespace

std::string TuningDb::path_for(const DeviceInfo& d) {
  if (const auto p = env::value("LOCKSTEP_TUNING_DB")) return *p;
  const auto dir = disk_cache::folder("tuning");  // empty: caches off or the root unusable
  return dir.empty() ? std::string() : (dir / (disk_cache::device_file_stem(d) + ".json")).string();
}

TuningDb::TuningDb(const DeviceInfo& d) : path_(resolve(path_for(d))) {
  device_ = {{"platform", d.platform},
             {"name", d.name},
             {"driver", d.driver_version},
             {"compute_units", d.compute_units},
             {"type", d.type}};
  if (path_.empty()) return;
  if (auto text = load(path_)) entries_ = parse(path_, *text, false);
}

std::optional<TuningEntry> TuningDb::find(const std::string& routine,
                                          const std::string& key) const {
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

bool TuningDb::store(const TuningEntry& entry) {
  TuningEntry e = entry;
  if (e.date.empty()) {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    e.date = buf;
  }
  auto upsert = [&e](std::vector<TuningEntry>& entries) {
    for (auto& old : entries)
      if (old.routine == e.routine && old.key == e.key) return void(old = e);
    entries.push_back(e);
  };
  if (path_.empty()) {
    upsert(entries_);
    static std::once_flag said;
    std::call_once(said, [] {
      std::cerr << "lockstep: tuning result not stored: no tuning database ("
                << (!disk_cache::enabled() ? "LOCKSTEP_DISK_CACHE=0"
                    : cache_directory().empty() && !env::value("LOCKSTEP_CACHE_DIR") &&
                            !std::getenv("XDG_CACHE_HOME") && !std::getenv("HOME")
                        ? "no cache directory: HOME, XDG_CACHE_HOME, LOCKSTEP_CACHE_DIR unset"
                        : "the cache directory is unusable")
                << "; LOCKSTEP_TUNING_DB=FILE names one)\n";
    });
    return false;
  }
  // Read-merge-rename under the folder's lock: what other processes stored meanwhile stays.
  const std::filesystem::path file(path_);
  const std::string dir = file.has_parent_path() ? file.parent_path().string() : ".";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  disk_cache::Lock lock(dir, /*folder=*/true);
  if (auto text = load(path_)) entries_ = parse(path_, *text, true);
  upsert(entries_);
  json j = {{"lockstep_version", version}, {"device", device_}, {"entries", json::array()}};
  for (auto& x : entries_)
    j["entries"].push_back({{"routine", x.routine},
                            {"key", x.key},
                            {"features", x.features},
                            {"params", x.params},
                            {"metrics", x.metrics},
                            {"date", x.date}});
  if (std::string why = disk_cache::write_atomic(path_, j.dump(1) + "\n"); !why.empty())
    throw input_error("cannot write tuning database " + path_ + ": " + why);
  return true;
}

}  // namespace lockstep
