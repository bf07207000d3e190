// The kernel registry (kernel_families()) and what reads it: kernel_builds() for a described
// device, deduplicated; the registered files; the files a process built outside it. The families
// list their own builds (detail::*_kernel_builds, next to their launches); this file only
// describes devices, holds the table and collects.
#include "lockstep/kernel_builds.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "bfs/steps.hpp"
#include "lockstep/sort_keys.hpp"

namespace lockstep {

DeviceInfo device_profile(const std::string& vendor, unsigned wave_width,
                          const std::string& opencl_c) {
  DeviceInfo i;
  i.platform = "profile";
  i.name = vendor + " (described, not opened)";
  i.type = vendor == "cpu" ? "CPU" : "GPU";
  const Vendor v = vendor_of(vendor, "");  // "amd", "nvidia", "intel"; "cpu": other
  i.vendor = v == Vendor::other ? vendor : vendor_name(v);
  if (opencl_c != "1.2" && opencl_c != "2.0" && opencl_c != "3.0")
    throw input_error("OpenCL C version must be 1.2, 2.0 or 3.0, got '" + opencl_c + "'");
  i.version = "OpenCL " + opencl_c;
  i.opencl_c_version = "OpenCL C " + opencl_c;
  i.compute_units = 100;
  i.max_work_group_size = 1024;
  i.local_mem_bytes = 64 * 1024;
  i.global_mem_bytes = i.max_alloc_bytes = cl_ulong(16) << 30;
  i.fp64 = i.int64_atomics = true;
  i.c20_atomics = opencl_c != "1.2";  // ROCm (2.0), NEO and PoCL (3.0) list the features used
  // The vendor rule of describe() (device.cpp), or the override LOCKSTEP_WAVE_WIDTH would set.
  i.wave_width = wave_width ? wave_width : vendor_wave_width(i.vendor_id(), i.is_gpu());
  if (vendor == "nvidia") i.nv_cc_major = 9, i.dpx = true;  // the H100 (sm_90)
  return i;
}

namespace {
// The -D options of a listed build back into Defines (the program cache's key is its options).
Defines parse_options(const std::string& options) {
  Defines d;
  std::istringstream in(options);
  for (std::string tok; in >> tok;) {
    if (tok == "-D" && in >> tok) {
      const size_t eq = tok.find('=');
      d.set(tok.substr(0, eq), eq == std::string::npos ? std::string("1") : tok.substr(eq + 1));
    } else {
      d.flag(tok);
    }
  }
  return d;
}
}  // namespace

std::vector<std::string> build_types() {
  std::vector<std::string> out;
  for (KeyType t : all_key_types()) out.emplace_back(to_string(t));
  return out;
}

std::vector<KernelBuild> select_builds(const DeviceInfo& device,
                                       const std::vector<std::string>& families,
                                       const std::vector<std::string>& types) {
  // A type's -D tokens: its KEY_TYPE (KeyType's value is cl/contract.h's KEY_*), and for f32
  // and f64 their VALUE_TYPE.
  static const std::map<std::string, std::vector<std::string>> tokens = [] {
    std::map<std::string, std::vector<std::string>> m;
    for (KeyType t : all_key_types())
      m[to_string(t)].push_back("KEY_TYPE=" + std::to_string(int(t)));
    m["f32"].push_back("VALUE_TYPE=float");
    m["f64"].push_back("VALUE_TYPE=double");
    return m;
  }();
  std::string expected;
  for (const std::string& t : build_types()) expected += (expected.empty() ? "" : ", ") + t;
  for (const std::string& t : types)
    if (!tokens.count(t)) throw input_error("unknown type '" + t + "' (expected " + expected + ")");
  std::vector<KernelBuild> out;
  for (KernelBuild& b : kernel_builds(device)) {
    bool family = families.empty();
    for (const std::string& f : families) family |= b.family.rfind(f, 0) == 0;
    if (!family) continue;
    const std::string o = " " + b.options + " ";
    const bool typed =
        o.find("VALUE_TYPE=") != std::string::npos || o.find("KEY_TYPE=") != std::string::npos;
    bool type = types.empty() || !typed;
    for (const std::string& t : types)
      for (const std::string& tok : tokens.at(t))
        type |= o.find("-D " + tok + " ") != std::string::npos;
    if (type) out.push_back(std::move(b));
  }
  return out;
}

double precompile(Context& ctx, const std::vector<KernelBuild>& builds,
                  const std::function<void(size_t, size_t, const KernelBuild&, double)>& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < builds.size(); ++i) {
    const auto t = std::chrono::steady_clock::now();
    program(ctx.context(), ctx.device(), builds[i].file, parse_options(builds[i].options));
    if (progress)
      progress(i + 1, builds.size(), builds[i],
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// lockstep::mpi's kernels, listed in the core library (the MPI library is optional).
void detail::mpi_kernel_builds(const DeviceInfo& target, std::vector<KernelBuild>& out) {
  // cl/halo.cl (src/mpi/exchange.cpp) gets set_value_type<T> alone.
  for (bool fp64 : {false, true}) {
    if (fp64 && !target.fp64) continue;
    Defines h;
    if (fp64)
      set_value_type<double>(h);
    else
      set_value_type<float>(h);
    out.push_back({"mpi/halo", "halo.cl", h.options()});
  }
  // The distributed BFS (src/mpi/bfs_level.cpp) at its default work-group size.
  const int wave = detail::bfs_wave_width(target, 0), local = 256;
  if (local % wave == 0) {
    const std::string o = detail::bfs_dist_defines(local, wave).options();
    for (const char* file : {"bfs_dist.cl", "bfs_bitmap.cl", "bfs_lb.cl"})
      out.push_back({"mpi/bfs", file, o});
  }
}

const std::vector<KernelFamily>& kernel_families() {
  static const std::vector<KernelFamily> families = {{"barrier", detail::barrier_kernel_builds},
                                                     {"spmv", detail::spmv_kernel_builds},
                                                     {"spmm", detail::spmm_kernel_builds},
                                                     {"blas1", detail::blas1_kernel_builds},
                                                     {"cg", detail::cg_kernel_builds},
                                                     {"sort", detail::sort_kernel_builds},
                                                     {"bfs", detail::bfs_kernel_builds},
                                                     {"align", detail::align_kernel_builds},
                                                     {"search", detail::search_kernel_builds},
                                                     {"apsp", detail::apsp_kernel_builds},
                                                     {"copy", detail::copy_kernel_builds},
                                                     {"mpi", detail::mpi_kernel_builds},
                                                     {"array", detail::elementwise_kernel_builds}};
  return families;
}

std::vector<KernelBuild> kernel_builds(const DeviceInfo& target) {
  std::vector<KernelBuild> all;
  for (const KernelFamily& f : kernel_families()) {
    f.builds(target, all);
    if (f.builds == detail::barrier_kernel_builds && target.c20_atomics) {
      // LOCKSTEP_BARRIER_C11=0: the OpenCL C 1.2 ordering path, built by the barrier family (the
      // other persistent kernels include the same barrier.cl; listing them twice would double
      // the pass).
      DeviceInfo c12 = target;
      c12.c20_atomics = false;
      f.builds(c12, all);
    }
  }
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<KernelBuild> out;
  for (auto& b : all)
    if (seen.insert({b.file, b.options}).second) out.push_back(std::move(b));
  return out;
}

const std::set<std::string>& registered_kernel_files() {
  static const std::set<std::string> files = [] {
    std::set<std::string> f;
    for (const DeviceInfo& d :
         {device_profile("amd", 0, "2.0"), device_profile("intel", 0, "3.0"),
          device_profile("nvidia", 0, "1.2"), device_profile("cpu", 0, "3.0")})
      for (const KernelBuild& b : kernel_builds(d)) f.insert(b.file);
    return f;
  }();
  return files;
}

namespace {
std::mutex built_mutex;
std::set<std::string>& built_files() {
  static auto* files = new std::set<std::string>();  // read at exit by the test binaries
  return *files;
}
}  // namespace

void detail::note_kernel_file(const std::string& file) {
  std::lock_guard<std::mutex> lock(built_mutex);
  built_files().insert(file);
}

std::vector<std::string> unregistered_kernel_files() {
  std::set<std::string> built;
  {
    std::lock_guard<std::mutex> lock(built_mutex);
    built = built_files();
  }
  std::vector<std::string> out;
  for (const std::string& f : built)
    if (!registered_kernel_files().count(f)) out.push_back(f);
  return out;
}

}  // namespace lockstep
