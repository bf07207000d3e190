// The two-level program cache. In memory: keyed by (context, device, full source, options),
// one mutex. On disk ($LOCKSTEP_CACHE_DIR, else $XDG_CACHE_HOME/lockstep, else
// ~/.cache/lockstep): a file named by a 64-bit hash of the full key (source, options, platform,
// device, driver version, library version) that stores the key itself, so a hash collision or a
// stale or corrupt file is detected and rebuilt; written to a temporary file then renamed.
// A cache root that is a regular file or not writable gives one warning line and no disk cache.
// LOCKSTEP_SHOW_BUILDS=1 prints each build's file, options, device and cache level to stderr, and
// a compiler's non-empty build log; LOCKSTEP_BUILD_OPTIONS adds options to every build (e.g.
// -cl-nv-verbose for ptxas's register and spill counts on NVIDIA).
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

#include "lockstep/runtime.hpp"
#include "lockstep/version.hpp"

namespace fs = std::filesystem;

namespace lockstep {
namespace {

constexpr char kMagic[] = "lockstep-program-cache-1\n";

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

bool show_builds() {
  const char* v = std::getenv("LOCKSTEP_SHOW_BUILDS");
  return v && *v && std::string(v) != "0";
}

fs::path cache_dir() {
  std::string root = cache_directory();
  return root.empty() ? fs::path() : fs::path(root) / "programs";
}

bool disk_cache_enabled() {
  const char* v = std::getenv("LOCKSTEP_DISK_CACHE");
  return !(v && std::string(v) == "0");
}

std::string build_log(const cl::Program& p, const cl::Device& d) {
  std::string log;
  p.getBuildInfo(d, CL_PROGRAM_BUILD_LOG, &log);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// Returns the binary stored under `key`, or empty when absent, stale or corrupt.
std::vector<unsigned char> load_binary(const fs::path& file, const std::string& key) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::string magic(sizeof(kMagic) - 1, '\0');
  uint64_t klen = 0, blen = 0;
  if (!in.read(magic.data(), magic.size()) || magic != kMagic) return {};
  if (!in.read(reinterpret_cast<char*>(&klen), sizeof klen) || klen != key.size()) return {};
  std::string stored(klen, '\0');
  if (!in.read(stored.data(), klen) || stored != key) return {};
  if (!in.read(reinterpret_cast<char*>(&blen), sizeof blen) || blen == 0 || blen > (1ull << 30))
    return {};
  std::vector<unsigned char> bin(blen);
  if (!in.read(reinterpret_cast<char*>(bin.data()), blen)) return {};
  if (in.peek() != std::char_traits<char>::eof()) return {};
  return bin;
}

void store_binary(const fs::path& file, const std::string& key,
                  const std::vector<unsigned char>& bin) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) return;  // the disk cache is an optimisation; a read-only home must not fail builds
  std::random_device rd;
  fs::path tmp = file;
  tmp += ".tmp" + std::to_string(rd());
  {
    std::ofstream out(tmp, std::ios::binary);
    uint64_t klen = key.size(), blen = bin.size();
    out.write(kMagic, sizeof(kMagic) - 1);
    out.write(reinterpret_cast<const char*>(&klen), sizeof klen);
    out.write(key.data(), klen);
    out.write(reinterpret_cast<const char*>(&blen), sizeof blen);
    out.write(reinterpret_cast<const char*>(bin.data()), blen);
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

struct MemoryKey {
  cl_context context;
  cl_device_id device;
  std::string source, options;
  bool operator<(const MemoryKey& o) const {
    return std::tie(context, device, options, source) <
           std::tie(o.context, o.device, o.options, o.source);
  }
};

std::mutex cache_mutex;
ProgramCacheStats stats;
std::map<MemoryKey, cl::Program>& memory_cache() {
  static auto* cache = new std::map<MemoryKey, cl::Program>();  // never destroyed: programs
  return *cache;  // may outlive the OpenCL runtime's own teardown at exit
}

cl::Program build(const cl::Context& ctx, const cl::Device& dev, const std::string& file,
                  const std::string& source, const std::string& options) {
  DeviceInfo info = describe(dev);
  std::string key = "lockstep " + std::string(version) + "\nplatform " + info.platform +
                    "\ndevice " + info.name + "\ndriver " + info.driver_version + "\noptions " +
                    options + "\nsource " + source;
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(fnv1a(key)));
  fs::path dir = disk_cache_enabled() ? cache_dir() : fs::path();
  fs::path file_path = dir.empty() ? fs::path() : dir / name;
  auto t0 = std::chrono::steady_clock::now();
  cl_int err;
  const char* level = "compiled";

  if (!file_path.empty()) {
    auto bin = load_binary(file_path, key);
    if (!bin.empty()) {
      cl::Program::Binaries bins{bin};
      std::vector<cl_int> status;
      cl::Program p(ctx, {dev}, bins, &status, &err);
      if (err == CL_SUCCESS && p.build({dev}, options.c_str()) == CL_SUCCESS) {
        level = "disk";
        ++stats.disk_hits;
        if (show_builds())
          std::cerr << "lockstep: build " << file << " [" << options << "] on " << info.name
                    << ": " << level << "\n";
        return p;
      }
    }
  }
  cl::Program p(ctx, source, false, &err);
  check(err, "clCreateProgramWithSource");
  err = p.build({dev}, options.c_str());
  if (err != CL_SUCCESS)
    throw opencl_error("clBuildProgram(" + file + ", \"" + options + "\")", err,
                       build_log(p, dev));
  ++stats.compiles;
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (show_builds()) {
    std::cerr << "lockstep: build " << file << " [" << options << "] on " << info.name << ": "
              << level << " in " << ms << " ms\n";
    if (std::string log = build_log(p, dev); log.find_first_not_of(" \n\r\t") != std::string::npos)
      std::cerr << log << (log.back() == '\n' ? "" : "\n");  // e.g. ptxas's -cl-nv-verbose lines
  }
  if (!file_path.empty()) {
    std::vector<std::vector<unsigned char>> bins;
    if (p.getInfo(CL_PROGRAM_BINARIES, &bins) == CL_SUCCESS && bins.size() == 1 &&
        !bins[0].empty())
      store_binary(file_path, key, bins[0]);
  }
  return p;
}

}  // namespace

cl::Program program(const cl::Context& context, const cl::Device& device, const std::string& file,
                    const Defines& defines) {
  std::string source = kernel_source(file);
  std::string options = defines.options();
  if (const char* extra = std::getenv("LOCKSTEP_BUILD_OPTIONS"); extra && *extra)
    options += std::string(options.empty() ? "" : " ") + extra;  // part of both cache keys
  MemoryKey key{context(), device(), source, options};
  std::lock_guard<std::mutex> lock(cache_mutex);  // one build at a time keeps logs readable
  auto& cache = memory_cache();
  if (auto it = cache.find(key); it != cache.end()) {
    ++stats.memory_hits;
    return it->second;
  }
  cl::Program p = build(context, device, file, source, options);
  cache.emplace(std::move(key), p);
  return p;
}

std::string cache_directory() {
  std::string root, from;
  if (const char* d = std::getenv("LOCKSTEP_CACHE_DIR"); d && *d) {
    root = d, from = "LOCKSTEP_CACHE_DIR";
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    root = (fs::path(x) / "lockstep").string(), from = "XDG_CACHE_HOME";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    root = (fs::path(h) / ".cache" / "lockstep").string(), from = "HOME";
  }
  if (root.empty()) return {};
  // The root must be (or become) a writable directory; otherwise one warning per process and
  // per root, and every cache runs without its disk level.
  std::error_code ec;
  fs::create_directories(root, ec);
  std::string why;
  if (ec && !fs::is_directory(root))
    why = ec.message();
  else if (!fs::is_directory(root))
    why = "not a directory";
  else if (access(root.c_str(), W_OK | X_OK) != 0)
    why = std::strerror(errno);
  if (why.empty()) return root;
  static std::mutex warned_mutex;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(warned_mutex);
  if (warned.insert(root).second)
    std::cerr << "lockstep: warning: cache directory " << root << " (from " << from << ") is unusable ("
              << why << "); running without the disk caches\n";
  return {};
}

ProgramCacheStats program_cache_stats() {
  std::lock_guard<std::mutex> lock(cache_mutex);
  return stats;
}

cl::Kernel kernel(const cl::Context& context, const cl::Device& device, const std::string& file,
                  const std::string& name, const Defines& defines) {
  cl::Program p = program(context, device, file, defines);
  cl_int err;
  cl::Kernel k(p, name.c_str(), &err);
  check(err, ("clCreateKernel(" + name + " in " + file + ")").c_str());
  return k;
}

cl::Kernel kernel(const cl::CommandQueue& queue, const std::string& file, const std::string& name,
                  const Defines& defines) {
  return kernel(queue.getInfo<CL_QUEUE_CONTEXT>(), queue.getInfo<CL_QUEUE_DEVICE>(), file, name,
                defines);
}

}  // namespace lockstep
