// kernel_builds(): every family's list of builds for a described device, deduplicated. The
// families list their own builds (detail::*_kernel_builds, next to their launches); this file
// only describes devices and collects.
#include "lockstep/kernel_builds.hpp"

#include <chrono>
#include <map>
#include <set>
#include <sstream>

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

std::vector<KernelBuild> select_builds(const DeviceInfo& device,
                                       const std::vector<std::string>& families,
                                       const std::vector<std::string>& types) {
  static const std::map<std::string, std::vector<std::string>> tokens = {
      {"f32", {"VALUE_TYPE=float", "KEY_TYPE=2"}},
      {"f64", {"VALUE_TYPE=double", "KEY_TYPE=5"}},
      {"u32", {"KEY_TYPE=0"}},
      {"i32", {"KEY_TYPE=1"}},
      {"u64", {"KEY_TYPE=3"}},
      {"i64", {"KEY_TYPE=4"}}};
  for (const std::string& t : types)
    if (!tokens.count(t))
      throw input_error("unknown type '" + t + "' (expected f32, f64, u32, i32, u64 or i64)");
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

std::vector<KernelBuild> kernel_builds(const DeviceInfo& target) {
  std::vector<KernelBuild> all;
  detail::barrier_kernel_builds(target, all);
  if (target.c20_atomics) {   // LOCKSTEP_BARRIER_C11=0: the OpenCL C 1.2 ordering path, built
    DeviceInfo c12 = target;  // by the barrier family (the other persistent kernels include
    c12.c20_atomics = false;  // the same barrier.cl; listing them twice would double the pass)
    detail::barrier_kernel_builds(c12, all);
  }
  detail::spmv_kernel_builds(target, all);
  detail::spmm_kernel_builds(target, all);
  detail::blas1_kernel_builds(target, all);
  detail::cg_kernel_builds(target, all);
  detail::sort_kernel_builds(target, all);
  detail::bfs_kernel_builds(target, all);
  detail::align_kernel_builds(target, all);
  detail::apsp_kernel_builds(target, all);
  detail::copy_kernel_builds(target, all);
  // cl/halo.cl (lockstep::mpi, src/mpi/spmv.cpp, built only with LOCKSTEP_MPI) gets
  // set_value_type<T> alone.
  for (bool fp64 : {false, true}) {
    if (fp64 && !target.fp64) continue;
    Defines h;
    if (fp64)
      set_value_type<double>(h);
    else
      set_value_type<float>(h);
    all.push_back({"mpi/halo", "halo.cl", h.options()});
  }
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<KernelBuild> out;
  for (auto& b : all)
    if (seen.insert({b.file, b.options}).second) out.push_back(std::move(b));
  return out;
}

}  // namespace lockstep
