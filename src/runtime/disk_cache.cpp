// The one disk-cache utility: cache root and off switch, FNV-1a, the device key, atomic writes.
#include "runtime/disk_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>

#include "io/temporaries.hpp"
#include "runtime/environment.hpp"

namespace fs = std::filesystem;

namespace lockstep {

std::string cache_directory() {
  const auto [root, from] = disk_cache::lockstep_root();
  if (root.empty()) return {};
  // The root must be (or become) a writable directory; otherwise one warning, and every cache
  // runs without its disk level. Checked once per process and root (create_directories, stat
  // and access are system calls, and automatic calls reach here through tuning::choose); the
  // key is the root itself, so a changed LOCKSTEP_CACHE_DIR (or HOME...) is checked afresh.
  static std::mutex mutex;
  static std::map<std::string, bool> usable;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = usable.find(root); it != usable.end()) return it->second ? root : std::string();
  const std::string why = disk_cache::why_unusable(root);
  usable[root] = why.empty();
  if (why.empty()) return root;
  std::cerr << "lockstep: warning: cache directory " << root << " (from " << from
            << ") is unusable (" << why << "); running without the disk caches\n";
  return {};
}

namespace disk_cache {

CacheRoot cache_root(const std::optional<std::string>& own, const char* own_name, const char* app) {
  if (own && !own->empty()) return {*own, own_name};
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return {(fs::path(x) / app).string(), "XDG_CACHE_HOME"};
  if (const char* h = std::getenv("HOME"); h && *h)
    return {(fs::path(h) / ".cache" / app).string(), "HOME"};
  return {};
}

CacheRoot lockstep_root() {
  return cache_root(env::value("LOCKSTEP_CACHE_DIR"), "LOCKSTEP_CACHE_DIR", "lockstep");
}

std::string why_unusable(const std::string& dir) {
  std::error_code ec, dir_ec;
  fs::create_directories(dir, ec);
  const bool is_dir = fs::is_directory(dir, dir_ec);  // (no throw: a symbolic link loop, ...)
  if (ec && !is_dir) return ec.message();
  if (dir_ec) return dir_ec.message();
  if (!is_dir) return "not a directory";
  if (access(dir.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
  return {};
}

uint64_t fnv1a_bytes(const void* data, size_t bytes, uint64_t h) {
  auto p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

std::string hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

bool enabled() { return !env::disk_cache_off(); }

fs::path folder(const std::string& sub) {
  if (!enabled()) return {};
  std::string root = cache_directory();
  if (root.empty()) return {};
  return sub.empty() ? fs::path(root) : fs::path(root) / sub;
}

std::string device_key(const DeviceInfo& d) {
  return "platform " + d.platform + "\ndevice " + d.name + "\ndriver " + d.driver_version +
         "\ncompute_units " + std::to_string(d.compute_units);
}

std::string device_file_stem(const DeviceInfo& d) {
  std::string s = d.name.substr(0, 40);
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  return s + "-" + hex(fnv1a(device_key(d)));
}

std::optional<std::string> read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string write_atomic(const fs::path& file, std::string_view bytes) {
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  std::string tmp = file.string() + ".tmpXXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) return "create " + tmp + ": " + std::strerror(errno);
  struct Registered {  // SIGINT/SIGTERM/SIGHUP remove the temporary (io/temporaries.hpp)
    int slot;
    ~Registered() { temporaries::remove(slot); }
  } registered{temporaries::add(tmp)};
  auto fail = [&](const char* call) {
    std::string why = std::string(call) + " " + tmp + ": " + std::strerror(errno);
    if (fd >= 0) close(fd);
    unlink(tmp.c_str());
    return why;
  };
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return fail("write");
    }
    done += size_t(n);
  }
  if (fchmod(fd, 0644) != 0) return fail("chmod");  // mkstemp's 0600 was for the temporary
  if (fsync(fd) != 0) return fail("fsync");
  int rc = close(fd);
  fd = -1;
  if (rc != 0) return fail("close");
  if (std::rename(tmp.c_str(), file.c_str()) != 0) {
    std::string why = "rename " + tmp + " to " + file.string() + ": " + std::strerror(errno);
    unlink(tmp.c_str());
    return why;
  }
  return {};
}

bool store_or_warn(const fs::path& file, std::string_view bytes, const std::string& what) {
  std::string why = write_atomic(file, bytes);
  if (why.empty()) return true;
  static std::once_flag warned;
  std::call_once(warned, [&] {
    std::cerr << "lockstep: warning: cannot write " << what << " (" << why
              << "); continuing without storing it\n";
  });
  return false;
}

Lock::Lock(const std::filesystem::path& path, bool folder) {
  if (!folder) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
  }
  fd_ = folder ? ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
               : ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  while (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
  }
}

Lock::~Lock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace disk_cache
}  // namespace lockstep
