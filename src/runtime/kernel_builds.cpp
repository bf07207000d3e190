// kernel_builds(): every family's list of builds for a described device, deduplicated. The
// families list their own builds (detail::*_kernel_builds, next to their launches); this file
// only describes devices and collects.
#include "lockstep/kernel_builds.hpp"

#include <set>

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
  return i;
}

std::vector<KernelBuild> kernel_builds(const DeviceInfo& target) {
  std::vector<KernelBuild> all;
  detail::barrier_kernel_builds(target, all);
  if (target.c20_atomics) {  // LOCKSTEP_BARRIER_C11=0: the OpenCL C 1.2 ordering path, built
    DeviceInfo c12 = target;  // by the barrier family (the other persistent kernels include
    c12.c20_atomics = false;  // the same barrier.cl; listing them twice would double the pass)
    detail::barrier_kernel_builds(c12, all);
  }
  detail::spmv_kernel_builds(target, all);
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
    if (fp64) set_value_type<double>(h);
    else set_value_type<float>(h);
    all.push_back({"mpi/halo", "halo.cl", h.options()});
  }
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<KernelBuild> out;
  for (auto& b : all)
    if (seen.insert({b.file, b.options}).second) out.push_back(std::move(b));
  return out;
}

}  // namespace lockstep
