// Device discovery and choice, and the Context (device + context + profiling queue).
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "lockstep/runtime.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/environment.hpp"

namespace lockstep {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

template <cl_int Name, typename R = typename cl::detail::param_traits<cl::detail::cl_device_info,
                                                                      Name>::param_type>
R info(const cl::Device& d, const char* what) {
  R value{};
  cl_int err = d.getInfo(Name, &value);
  if (err != CL_SUCCESS) throw opencl_error(std::string("clGetDeviceInfo(") + what + ")", err);
  return value;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
    s.pop_back();
  return s;
}

}  // namespace

Vendor vendor_of(const std::string& vendor, const std::string& platform) {
  const std::string v = lower(vendor + " " + platform);
  if (v.find("nvidia") != std::string::npos) return Vendor::nvidia;
  if (v.find("advanced micro") != std::string::npos || v.find("amd") != std::string::npos)
    return Vendor::amd;
  if (v.find("intel") != std::string::npos) return Vendor::intel;
  return Vendor::other;
}

const char* to_string(Vendor v) {
  switch (v) {
    case Vendor::nvidia:
      return "nvidia";
    case Vendor::amd:
      return "amd";
    case Vendor::intel:
      return "intel";
    default:
      return "other";
  }
}

const char* vendor_name(Vendor v) {
  switch (v) {
    case Vendor::nvidia:
      return "NVIDIA Corporation";
    case Vendor::amd:
      return "Advanced Micro Devices, Inc.";
    case Vendor::intel:
      return "Intel(R) Corporation";
    default:
      return "";
  }
}

unsigned vendor_wave_width(Vendor v, bool gpu) {
  if (!gpu) return 1;
  return v == Vendor::nvidia ? 32 : v == Vendor::amd ? 64 : 1;
}

// Under `ulimit -v` an OpenCL driver may fail to start (its compiler, its threads' stacks): it
// then lists no device, or fails with CL_OUT_OF_HOST_MEMORY, and the limit is the likelier
// cause. "" without a limit.
static std::string address_space_note() {
  struct rlimit lim {};
  if (::getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return "";
  return "; the address space is limited to " + std::to_string(lim.rlim_cur >> 20) +
         " MiB (ulimit -v), which may be too little for the OpenCL driver to start";
}

std::vector<cl::Device> all_devices() {
  std::vector<cl::Platform> platforms;
  cl_int err = cl::Platform::get(&platforms);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || platforms.empty()) return {};
  check(err, "clGetPlatformIDs");
  std::vector<cl::Device> out;
  for (auto& p : platforms) {
    std::vector<cl::Device> ds;
    err = p.getDevices(CL_DEVICE_TYPE_ALL, &ds);
    if (err == CL_DEVICE_NOT_FOUND) continue;
    if (const std::string note = address_space_note();
        err == CL_OUT_OF_HOST_MEMORY && !note.empty())
      throw input_error("listing the OpenCL devices: out of host memory" + note);
    check(err, "clGetDeviceIDs");
    out.insert(out.end(), ds.begin(), ds.end());
  }
  return out;
}

DeviceInfo describe(const cl::Device& d) {
  DeviceInfo i;
  cl::Platform p(info<CL_DEVICE_PLATFORM>(d, "CL_DEVICE_PLATFORM"), true);
  std::string pname;
  check(p.getInfo(CL_PLATFORM_NAME, &pname), "clGetPlatformInfo(CL_PLATFORM_NAME)");
  i.platform = trim(pname);
  i.name = trim(info<CL_DEVICE_NAME>(d, "CL_DEVICE_NAME"));
  i.vendor = trim(info<CL_DEVICE_VENDOR>(d, "CL_DEVICE_VENDOR"));
  i.version = trim(info<CL_DEVICE_VERSION>(d, "CL_DEVICE_VERSION"));
  i.driver_version = trim(info<CL_DRIVER_VERSION>(d, "CL_DRIVER_VERSION"));
  i.opencl_c_version = trim(info<CL_DEVICE_OPENCL_C_VERSION>(d, "CL_DEVICE_OPENCL_C_VERSION"));
  cl_device_type t = info<CL_DEVICE_TYPE>(d, "CL_DEVICE_TYPE");
  i.type = (t & CL_DEVICE_TYPE_GPU)           ? "GPU"
           : (t & CL_DEVICE_TYPE_CPU)         ? "CPU"
           : (t & CL_DEVICE_TYPE_ACCELERATOR) ? "ACCELERATOR"
                                              : "OTHER";
  i.compute_units = info<CL_DEVICE_MAX_COMPUTE_UNITS>(d, "CL_DEVICE_MAX_COMPUTE_UNITS");
  i.max_work_group_size = info<CL_DEVICE_MAX_WORK_GROUP_SIZE>(d, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
  i.local_mem_bytes = info<CL_DEVICE_LOCAL_MEM_SIZE>(d, "CL_DEVICE_LOCAL_MEM_SIZE");
  i.global_mem_bytes = info<CL_DEVICE_GLOBAL_MEM_SIZE>(d, "CL_DEVICE_GLOBAL_MEM_SIZE");
  i.max_alloc_bytes = info<CL_DEVICE_MAX_MEM_ALLOC_SIZE>(d, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  std::string ext = info<CL_DEVICE_EXTENSIONS>(d, "CL_DEVICE_EXTENSIONS");
  auto has = [&](const char* e) {
    return (" " + ext + " ").find(std::string(" ") + e + " ") != std::string::npos;
  };
  i.fp64 = has("cl_khr_fp64");
  i.int64_atomics = has("cl_khr_int64_base_atomics");
  i.subgroups = has("cl_khr_subgroups") || has("cl_intel_subgroups");
  // OpenCL 3.0 devices list optional OpenCL C features; 2.0 atomics with device scope and
  // acquire/release are what the barrier library's C11 path needs.
  bool device_scope = false, acq_rel = false;
  if (i.version.rfind("OpenCL 3.", 0) == 0) {
    std::vector<cl_name_version> features;
    if (d.getInfo(CL_DEVICE_OPENCL_C_FEATURES, &features) == CL_SUCCESS) {
      for (auto& f : features) {
        std::string n = f.name;
        device_scope |= n == "__opencl_c_atomic_scope_device";
        acq_rel |= n == "__opencl_c_atomic_order_acq_rel";
        i.subgroups |= n == "__opencl_c_subgroups";
      }
    }
  } else if (i.opencl_c_version.find("OpenCL C 2.") != std::string::npos) {
    device_scope = acq_rel = true;
  }
  i.c20_atomics = device_scope && acq_rel;
  i.wave_width = vendor_wave_width(i.vendor_id(), i.is_gpu());
  // LOCKSTEP_WAVE_WIDTH=W (a power of two, 1..1024) replaces the vendor rule, so the code AMD GPUs
  // would run (wave 64) builds and runs on PoCL in CI. The one place wave_width is computed.
  if (const auto w = env::value("LOCKSTEP_WAVE_WIDTH")) {
    char* end = nullptr;
    const long v = std::strtol(w->c_str(), &end, 10);
    if (*end || v < 1 || v > 1024 || (v & (v - 1)))
      throw input_error("LOCKSTEP_WAVE_WIDTH must be a power of two in [1, 1024], got '" + *w +
                        "'");
    i.wave_width = unsigned(v);
  }
  // Compute capability: CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV / _MINOR_NV (0x4000 / 0x4001).
  if (i.is_nvidia() && has("cl_nv_device_attribute_query")) {
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(d(), 0x4000, sizeof major, &major, nullptr) == CL_SUCCESS &&
        clGetDeviceInfo(d(), 0x4001, sizeof minor, &minor, nullptr) == CL_SUCCESS)
      i.nv_cc_major = int(major), i.nv_cc_minor = int(minor);
  }
  i.dpx = i.is_nvidia() && i.nv_cc_major >= 9 && env::dpx_level() > 0;
  auto all = all_devices();
  for (size_t k = 0; k < all.size(); ++k)
    if (all[k]() == d()) i.index = int(k);
  return i;
}

std::string no_device_message() {
  std::string msg = "no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)";
  msg += address_space_note();
  // PoCL offers no device when it cannot create its kernel cache: name that folder.
  const char* pocl = std::getenv("POCL_CACHE_DIR");
  const auto [dir, from] = disk_cache::cache_root(
      pocl ? std::optional<std::string>(pocl) : std::nullopt, "POCL_CACHE_DIR", "pocl");
  if (dir.empty()) return msg;
  const std::string why = disk_cache::why_unusable(dir);
  if (!why.empty())
    msg += "; PoCL's kernel cache directory " + dir + " (from " + from + ") is unusable (" + why +
           "), and PoCL then lists no device: point POCL_CACHE_DIR or XDG_CACHE_HOME at a "
           "writable directory";
  return msg;
}

cl::Device select_device(const std::string& spec_in, size_t nth) {
  std::string spec = spec_in;
  if (spec.empty()) spec = env::value("LOCKSTEP_DEVICE").value_or("");
  // Named as the user gave it: the variable, or the caller's option (the CLI's --device).
  const std::string named = spec_in.empty() ? "LOCKSTEP_DEVICE=" + spec : "--device " + spec;
  if (spec.find(',') != std::string::npos) {  // one spec per process of a host
    std::vector<std::string> items;
    std::stringstream s(spec);
    for (std::string item; std::getline(s, item, ',');) items.push_back(item);
    if (items.empty()) items.push_back("");
    spec = items[nth % items.size()];
    nth = 0;
  }
  auto all = all_devices();
  if (all.empty()) throw device_not_found_error(no_device_message());
  auto listing = [&] {
    std::string s = std::to_string(all.size()) + " device(s):";
    for (size_t k = 0; k < all.size(); ++k) {
      const DeviceInfo i = describe(all[k]);
      s += (k ? ", " : " ") + std::to_string(k) + " = " + i.name + " (" + i.platform + ")";
    }
    return s;
  };
  if (!spec.empty() && std::all_of(spec.begin(), spec.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    // Digits only: an index (compared as text first, so that no number overflows).
    const size_t digits = spec.size() - std::min(spec.find_first_not_of('0'), spec.size());
    const size_t k = digits > 9 ? all.size() : size_t(std::strtoul(spec.c_str(), nullptr, 10));
    if (k >= all.size())
      throw device_not_found_error(named + ": device index out of range; " + listing() +
                                   " (see `lockstep devices`)");
    return all[k];
  }
  // The GPUs (no spec), or the devices whose name or platform contains the text: the nth.
  const std::string want = lower(spec);
  std::vector<cl::Device> matches;
  for (auto& d : all) {
    if (want.empty()) {
      if (info<CL_DEVICE_TYPE>(d, "CL_DEVICE_TYPE") & CL_DEVICE_TYPE_GPU) matches.push_back(d);
      continue;
    }
    DeviceInfo i = describe(d);
    if (lower(i.name).find(want) != std::string::npos ||
        lower(i.platform).find(want) != std::string::npos)
      matches.push_back(d);
  }
  if (!matches.empty()) return matches[nth % matches.size()];
  if (want.empty()) return all.front();
  throw device_not_found_error(named + ": no OpenCL device matches; " + listing() +
                               " (see `lockstep devices`)");
}

Context::Context(const std::string& spec) : Context(select_device(spec)) {}

Context::Context(const cl::Device& device) : device_(device) {
  cl_int err;
  context_ = cl::Context(device_, nullptr, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  queue_ = cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  info_ = describe(device_);
}

Context::Context(const cl::Context& context, const cl::Device& device,
                 const cl::CommandQueue* queue)
    : device_(device), context_(context) {
  cl_int err = CL_SUCCESS;
  if (queue && (*queue)()) {
    const cl::Device qd = queue->getInfo<CL_QUEUE_DEVICE>(&err);
    check(err, "clGetCommandQueueInfo");
    const cl::Context qc = queue->getInfo<CL_QUEUE_CONTEXT>(&err);
    check(err, "clGetCommandQueueInfo");
    const cl_command_queue_properties p = queue->getInfo<CL_QUEUE_PROPERTIES>(&err);
    check(err, "clGetCommandQueueInfo");
    if (qc() != context() || qd() != device())
      throw input_error("Context: the queue belongs to another context or device");
    shares_queue_ =
        (p & CL_QUEUE_PROFILING_ENABLE) && !(p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  }
  if (shares_queue_) {
    queue_ = *queue;
  } else {
    queue_ = cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
  }
  info_ = describe(device_);
}

const cl::Buffer& Context::scratch(size_t slot, size_t bytes, bool zeroed) {
  if (scratch_.size() <= slot) scratch_.resize(slot + 1);
  auto& [have, buffer] = scratch_[slot];
  bytes = std::max<size_t>(bytes, 4);
  if (have < bytes) {
    buffer = cl::Buffer();  // give the old one back before the larger allocation
    if (zeroed) {
      std::vector<char> zeros(bytes);
      buffer = make_buffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, zeros.data());
    } else {
      buffer = make_buffer(context_, CL_MEM_READ_WRITE, bytes);
    }
    have = bytes;
  }
  return buffer;
}

}  // namespace lockstep
