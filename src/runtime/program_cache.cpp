// The two-level program cache. In memory: keyed by (context, device, full source, options),
// one mutex. On disk (runtime/disk_cache.hpp: the cache root's programs/ folder, off with
// LOCKSTEP_DISK_CACHE=0): a file named by a 64-bit hash of the full key (source, options, the
// device key with its driver version, library version) that stores the key itself, so a hash
// collision or a stale or corrupt file is detected and rebuilt; written atomically.
// LOCKSTEP_SHOW_BUILDS=1 prints each build's file, options, device and cache level to stderr, and
// a compiler's non-empty build log; LOCKSTEP_BUILD_OPTIONS adds options to every build (e.g.
// -cl-nv-verbose for ptxas's register and spill counts on NVIDIA). Otherwise a build says nothing
// unless it fails (the error carries the whole build log): see QuietStderr.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <utility>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/runtime.hpp"
#include "lockstep/version.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/environment.hpp"

namespace fs = std::filesystem;

namespace lockstep {
namespace {

constexpr char kMagic[] = "lockstep-program-cache-1\n";

bool show_builds() { return env::is_on("LOCKSTEP_SHOW_BUILDS"); }

std::string build_log(const cl::Program& p, const cl::Device& d) {
  std::string log;
  p.getBuildInfo(d, CL_PROGRAM_BUILD_LOG, &log);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// PoCL's in-process clang prints its "N warnings generated." summary to the process's stderr
// while it builds (the warnings themselves go to the build log), so a user's first run would show
// a compiler's summary they cannot act on. Unless LOCKSTEP_SHOW_BUILDS asks to see builds, fd 2
// goes to a temporary file for the build; afterwards everything else that arrived there (another
// thread's message) is written back to stderr, and only those summary lines are dropped.
class QuietStderr {
 public:
  QuietStderr() {
    if (show_builds()) return;
    static std::mutex one_at_a_time;  // fd 2 is the process's: nested redirections would leak
    held_ = std::unique_lock<std::mutex>(one_at_a_time);
    std::fflush(stderr);
    tmp_ = std::tmpfile();
    saved_ = tmp_ ? dup(2) : -1;
    if (saved_ < 0 || dup2(fileno(tmp_), 2) < 0) restore();
  }
  ~QuietStderr() { restore(); }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  void restore() {
    if (saved_ >= 0) {
      std::fflush(stderr);
      dup2(saved_, 2);
      close(saved_);
      saved_ = -1;
      std::rewind(tmp_);
      char line[4096];
      while (std::fgets(line, sizeof line, tmp_)) {
        static const std::regex summary_re(
            "[0-9]+ (warning|error)s?( and [0-9]+ (warning|error)s?)? generated\\.\\s*");
        const bool summary = std::regex_match(line, summary_re);
        if (!summary) std::fputs(line, stderr);
      }
      std::fflush(stderr);
    }
    if (tmp_) std::fclose(tmp_);
    tmp_ = nullptr;
  }
  std::unique_lock<std::mutex> held_;
  std::FILE* tmp_ = nullptr;
  int saved_ = -1;
};

// Returns the binary stored under `key`, or empty when absent, stale or corrupt.
std::vector<unsigned char> load_binary(const fs::path& file, const std::string& key) {
  auto text = disk_cache::read(file);
  if (!text) return {};
  std::string_view in = *text;
  auto take = [&](size_t n) {
    std::string_view part = in.substr(0, std::min(n, in.size()));
    in.remove_prefix(part.size());
    return part;
  };
  auto number = [&]() {
    uint64_t v = 0;
    std::string_view b = take(sizeof v);
    if (b.size() == sizeof v) std::memcpy(&v, b.data(), sizeof v);
    return b.size() == sizeof v ? v : ~uint64_t(0);
  };
  if (take(sizeof(kMagic) - 1) != kMagic || number() != key.size() || take(key.size()) != key)
    return {};
  uint64_t blen = number();
  if (blen == 0 || blen != in.size()) return {};  // also rejects a truncated or padded file
  return std::vector<unsigned char>(in.begin(), in.end());
}

void store_binary(const fs::path& file, const std::string& key,
                  const std::vector<unsigned char>& bin) {
  uint64_t klen = key.size(), blen = bin.size();
  std::string bytes(kMagic, sizeof(kMagic) - 1);
  bytes.append(reinterpret_cast<const char*>(&klen), sizeof klen).append(key);
  bytes.append(reinterpret_cast<const char*>(&blen), sizeof blen);
  bytes.append(reinterpret_cast<const char*>(bin.data()), bin.size());
  disk_cache::store_or_warn(file, bytes, "program cache file " + file.string());
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
  std::string key = "lockstep " + std::string(version) + "\n" + disk_cache::device_key(info) +
                    "\noptions " + options + "\nsource " + source;
  fs::path dir = disk_cache::folder("programs");
  fs::path file_path =
      dir.empty() ? fs::path() : dir / (disk_cache::hex(disk_cache::fnv1a(key)) + ".bin");
  auto t0 = std::chrono::steady_clock::now();
  cl_int err;
  const char* level = "compiled";

  // Another process compiling the same program (a parallel test run, two CLI runs) holds its
  // lock file: wait for it, then load its binary instead of compiling again.
  std::optional<disk_cache::Lock> compiling;
  if (!file_path.empty())
    compiling.emplace(disk_cache::folder("locks") /
                      file_path.filename().replace_extension(".lock"));
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
          std::cerr << "lockstep: build " << file << " [" << options << "] on " << info.name << ": "
                    << level << "\n";
        return p;
      }
    }
  }
  cl::Program p(ctx, source, false, &err);
  check(err, "clCreateProgramWithSource");
  {
    QuietStderr quiet;
    err = p.build({dev}, options.c_str());
  }
  if (err != CL_SUCCESS)
    throw opencl_error("clBuildProgram(" + file + ", \"" + options + "\")", err, build_log(p, dev));
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
    if (p.getInfo(CL_PROGRAM_BINARIES, &bins) == CL_SUCCESS && bins.size() == 1 && !bins[0].empty())
      store_binary(file_path, key, bins[0]);
  }
  return p;
}

}  // namespace

cl::Program program(const cl::Context& context, const cl::Device& device, const std::string& file,
                    const Defines& defines) {
  std::string source = kernel_source(file);
  std::string options = defines.options();
  if (const auto extra = env::value("LOCKSTEP_BUILD_OPTIONS"))
    options += (options.empty() ? "" : " ") + *extra;  // part of both cache keys
  MemoryKey key{context(), device(), source, options};
  std::lock_guard<std::mutex> lock(cache_mutex);  // one build at a time keeps logs readable
  auto& cache = memory_cache();
  if (auto it = cache.find(key); it != cache.end()) {
    ++stats.memory_hits;
    return it->second;
  }
  detail::note_kernel_file(file);  // the test binaries check it against the kernel registry
  const auto t0 = std::chrono::steady_clock::now();
  cl::Program p = build(context, device, file, source, options);
  stats.build_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  cache.emplace(std::move(key), p);
  return p;
}

ProgramCacheStats program_cache_stats() {
  std::lock_guard<std::mutex> lock(cache_mutex);
  return stats;
}

cl::Kernel kernel(const cl::Context& context, const cl::Device& device, const std::string& file,
                  const std::string& name, const Defines& defines) {
  cl::Program p = program(context, device, file, defines);
  cl_int err;
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<cl::Kernel> created;
  bool first;  // PoCL compiles a kernel's code at its program's first clCreateKernel of it
  {
    static std::set<std::pair<cl_program, std::string>> seen;  // programs stay in memory_cache
    std::lock_guard<std::mutex> lock(cache_mutex);
    first = seen.emplace(p(), name).second;
  }
  if (first) {
    QuietStderr quiet;  // (the compiler's summary lines; later creations compile nothing)
    created.emplace(p, name.c_str(), &err);
  } else {
    created.emplace(p, name.c_str(), &err);
  }
  cl::Kernel& k = *created;
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    stats.build_ms += ms;
  }
  if (ms > 100 && show_builds())  // PoCL compiles the kernel's code here, not in clBuildProgram
    std::cerr << "lockstep: kernel " << name << " (" << file << ") created in " << ms << " ms\n";
  const auto dir = env::value("LOCKSTEP_KERNEL_DIR");
  check(err, ("clCreateKernel(" + name + " in " + file +
              (dir ? " from LOCKSTEP_KERNEL_DIR=" + *dir : std::string()) + ")")
                 .c_str());
  return k;
}

cl::Kernel kernel(const cl::CommandQueue& queue, const std::string& file, const std::string& name,
                  const Defines& defines) {
  return kernel(queue.getInfo<CL_QUEUE_CONTEXT>(), queue.getInfo<CL_QUEUE_DEVICE>(), file, name,
                defines);
}

}  // namespace lockstep
