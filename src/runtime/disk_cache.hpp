// The one disk-cache utility (internal) under the program cache, the occupancy cache and the
// tuning database: where the cache root is and whether the disk caches are on, one hash, one
// device key, and one atomic write. Nothing here writes to the working directory.
//
// Root: $LOCKSTEP_CACHE_DIR, else $XDG_CACHE_HOME/lockstep, else ~/.cache/lockstep
// (cache_directory() in lockstep/runtime.hpp: one warning line per process and root when it is
// unusable, and then the run goes on without disk caches). Off switch: LOCKSTEP_DISK_CACHE=0.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "lockstep/runtime.hpp"

namespace lockstep::disk_cache {

// The offset basis lockstep has always used (one digit short of FNV's published
// 14695981039346656037): kept so that existing file names and matrix fingerprints stay valid.
constexpr uint64_t kFnvBasis = 1469598103934665603ull;

/// 64-bit FNV-1a over bytes; pass the previous result as `h` to hash several pieces as one.
uint64_t fnv1a_bytes(const void* data, size_t bytes, uint64_t h = kFnvBasis);
inline uint64_t fnv1a(std::string_view s, uint64_t h = kFnvBasis) {
  return fnv1a_bytes(s.data(), s.size(), h);
}
/// 16 lower-case hex digits.
std::string hex(uint64_t h);

/// A cache folder by the XDG rule, and the variable it came from: `own` (the application's own
/// variable, named `own_name`, when set), else $XDG_CACHE_HOME/APP, else $HOME/.cache/APP; both
/// empty when none is set. lockstep's root (LOCKSTEP_CACHE_DIR, "lockstep") and PoCL's kernel
/// cache (POCL_CACHE_DIR, "pocl") follow it.
struct CacheRoot {
  std::string dir, from;
};
CacheRoot cache_root(const std::optional<std::string>& own, const char* own_name, const char* app);
/// lockstep's: cache_root(LOCKSTEP_CACHE_DIR, "lockstep"), before any check that it is usable.
CacheRoot lockstep_root();
/// "" when `dir` is (or, created now, becomes) a writable directory; else why not.
std::string why_unusable(const std::string& dir);

/// False when LOCKSTEP_DISK_CACHE=0: then nothing is read from or written to the cache root.
bool enabled();

/// `sub` below the cache root ("" for the root itself), or an empty path when the disk caches
/// are off or the root is unusable. The folder is not created here (write_atomic does that).
std::filesystem::path folder(const std::string& sub = "");

/// What identifies a device for every disk cache: platform, device name, driver version and
/// compute units (a driver update or a partitioned device gives new entries).
std::string device_key(const DeviceInfo& d);
/// The same as a short file-name part: the device name made safe, "-", hex(fnv1a(device_key)).
std::string device_file_stem(const DeviceInfo& d);

/// The whole file, or nothing when it cannot be opened.
std::optional<std::string> read(const std::filesystem::path& file);

/// Writes `bytes` to `file` atomically: its folder is created, a temporary file in the same
/// folder is written, flushed to disk (fsync), closed and checked, then renamed over `file`.
/// On any failure the temporary is removed and `file` is untouched. Returns "" on success, else
/// what failed ("write /x/y.tmpAB12cd: No space left on device").
std::string write_atomic(const std::filesystem::path& file, std::string_view bytes);

/// For caches (an optimisation): writes atomically and on failure prints one warning line per
/// process ("lockstep: warning: cannot write <what> ...; continuing without storing it").
bool store_or_warn(const std::filesystem::path& file, std::string_view bytes,
                   const std::string& what);

/// An exclusive advisory lock (flock) on a folder, or on a lock file that is created if missing,
/// held for the object's life; none (and no error) if the path cannot be opened. Processes
/// sharing a cache root take it around read-check-write: the tuning database's folder, and a
/// program's `locks/<hash>.lock` while it compiles (so a second process waits and loads the binary
/// instead of compiling the same program again).
class Lock {
 public:
  explicit Lock(const std::filesystem::path& path, bool folder = false);
  ~Lock();
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace lockstep::disk_cache
