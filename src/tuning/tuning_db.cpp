// Tuning database storage: load (a stale or empty file is ignored with one warning naming it; a
// corrupt one is moved aside to PATH.corrupt; a file that lockstep did not write, such as an
// input of the run that LOCKSTEP_TUNING_DB names by mistake, is refused), lookup, and atomic store
// through runtime/disk_cache.hpp (a failed write throws and leaves the previous file and no
// temporary behind). With the disk caches off or the cache root unusable, and no
// LOCKSTEP_TUNING_DB, there is no file: a store says once that it is not kept (the entry stays in
// this object only) and returns false. The path is hostile input too: a symbolic link is followed
// to its target (a dangling one is refused), anything but a regular file (a FIFO, /dev/full,
// /dev/null, a directory) is refused before a byte is read, and so is a file over kMaxBytes.
// store() holds an advisory lock (flock on the database's folder) around read-merge-rename, so
// concurrent processes that store different entries keep all of them.
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

/// Whether `text`, which is no valid database, still looks like one lockstep wrote and that was
/// damaged since: `{` and, in its first 4 KiB, the "lockstep_version" (written first) or
/// "entries" field. Anything else (a matrix, a FASTA file, a binary) is no tuning database.
bool damaged_database(const std::string& text) {
  const size_t b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos || text[b] != '{') return false;
  const std::string head = text.substr(b, 4096);
  return head.find("\"lockstep_version\"") != std::string::npos ||
         head.find("\"entries\"") != std::string::npos;
}

/// A corrupt database is moved aside to PATH.corrupt (replacing an older one), never replaced
/// in place; "" when it could not be moved (then the store refuses to write over it).
std::string move_aside(const std::string& path) {
  const std::string aside = path + ".corrupt";
  return std::rename(path.c_str(), aside.c_str()) == 0 ? aside : std::string();
}

/// The first line of a parser's message, without nlohmann's "[json.exception.X.N] " prefix.
std::string plain_reason(const std::string& what) {
  std::string r = what.substr(0, what.find('\n'));
  if (r.rfind("[json.exception.", 0) == 0 && r.find("] ") != std::string::npos)
    r = r.substr(r.find("] ") + 2);
  return r;
}

/// The entries of a database file's text; a stale or empty text gives none (with a warning
/// unless `quiet`). A text lockstep did not write is refused (input_error); a corrupt one is
/// moved aside (with a warning) and gives none.
std::vector<TuningEntry> parse(const std::string& path, const std::string& text, bool quiet) {
  std::vector<TuningEntry> entries;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    if (!quiet)
      std::cerr << "lockstep: ignoring empty tuning database " << path << " (" << text.size()
                << " bytes); the next store replaces it\n";
    return entries;
  }
  json j = json::parse(text, nullptr, false);
  const bool ours =
      j.is_object() && j.contains("lockstep_version") && j["lockstep_version"].is_string();
  if (!ours && (!j.is_discarded() || !damaged_database(text)))
    refuse(path, std::string(j.is_discarded() ? "not JSON" : "JSON without a lockstep_version") +
                     ", so not a tuning database lockstep wrote: refusing to read or replace it");
  try {
    if (!ours) j = json::parse(text);  // throws the parser's reason
    const json& v = j.at("lockstep_version");
    if (v.get<std::string>() != version) {
      if (!quiet)
        std::cerr << "lockstep: ignoring tuning database " << path << " written by lockstep "
                  << v.get<std::string>() << " (this is " << version << ")\n";
      return entries;
    }
    for (auto& e : j.at("entries"))
      entries.push_back({e.at("routine"), e.at("key"), e.value("features", json::object()),
                         e.at("params"), e.value("metrics", json::object()), e.value("date", "")});
  } catch (const std::exception& e) {
    entries.clear();
    const std::string aside = move_aside(path);
    if (aside.empty())
      refuse(path, "corrupt (" + plain_reason(e.what()) + ") and cannot be moved aside (" +
                       std::strerror(errno) + ")");
    std::cerr << "lockstep: warning: corrupt tuning database " << path << " ("
              << plain_reason(e.what()) << ") moved aside to " << aside << "\n";
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
                    : disk_cache::lockstep_root().dir.empty()
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
  // lockstep_version first: a damaged file is still recognised as a database by its first line
  nlohmann::ordered_json j = {
      {"lockstep_version", version}, {"device", device_}, {"entries", json::array()}};
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
