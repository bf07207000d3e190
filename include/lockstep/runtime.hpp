// The one home for devices, contexts, queues and programs. Device choice: a spec string (an
// index from `lockstep devices`, or a case-insensitive substring of platform or device name),
// else LOCKSTEP_DEVICE, else the first GPU, else the first device. Programs are built from an
// embedded kernel file (cl/*.cl, or LOCKSTEP_KERNEL_DIR when set) plus typed -D parameters, and
// cached in memory and on disk (see program_cache.cpp).
#pragma once
#include <CL/opencl.hpp>
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "lockstep/error.hpp"

namespace lockstep {

/// What lockstep needs to know about a device; `lockstep devices` prints it.
/// A device's maker, the one vendor rule (vendor_of): what describe() derives the wave width
/// from, what the kernel-build profiles (`lockstep kernels --vendor`) describe, and what
/// DeviceInfo::is_nvidia() reads.
enum class Vendor { other, nvidia, amd, intel };
/// From CL_DEVICE_VENDOR and the platform name, case-insensitively ("NVIDIA Corporation",
/// "Advanced Micro Devices, Inc." or "AMD Accelerated Parallel Processing", "Intel(R) ...").
Vendor vendor_of(const std::string& vendor, const std::string& platform);
/// "nvidia", "amd", "intel", "other" (the names `lockstep kernels --vendor` takes).
const char* to_string(Vendor v);
/// The CL_DEVICE_VENDOR string a vendor's devices report (device profiles use it).
const char* vendor_name(Vendor v);
/// The lanes that run in lockstep on a GPU of this vendor: 32 NVIDIA, 64 AMD, else 1
/// (LOCKSTEP_WAVE_WIDTH replaces it in describe()).
unsigned vendor_wave_width(Vendor v, bool gpu);

struct DeviceInfo {
  int index = -1;  // position in list_devices()
  std::string platform, name, vendor, type, version, driver_version, opencl_c_version;
  cl_uint compute_units = 0;
  size_t max_work_group_size = 0;
  cl_ulong local_mem_bytes = 0, global_mem_bytes = 0, max_alloc_bytes = 0;
  bool fp64 = false;           // cl_khr_fp64
  bool int64_atomics = false;  // cl_khr_int64_base_atomics
  bool c20_atomics = false;    // OpenCL C 2.0/3.0 atomics with device scope, acquire/release
  bool subgroups = false;      // cl_khr_subgroups or OpenCL C 3.0 __opencl_c_subgroups
  unsigned wave_width = 1;     // lanes that run in lockstep: 32 NVIDIA, 64 AMD, 1 unknown/CPU
  // NVIDIA's compute capability (cl_nv_device_attribute_query), 0.0 elsewhere.
  int nv_cc_major = 0, nv_cc_minor = 0;
  // Hopper's DPX instructions through inline PTX (NVIDIA, compute capability >= 9.0; the
  // environment's LOCKSTEP_DPX=0 turns them off, so the portable path runs on the same GPU).
  bool dpx = false;
  bool is_gpu() const { return type == "GPU"; }
  Vendor vendor_id() const { return vendor_of(vendor, platform); }
  // An NVIDIA GPU (its OpenCL compiler takes inline PTX: fences, shuffles, cache hints).
  bool is_nvidia() const { return is_gpu() && vendor_id() == Vendor::nvidia; }
};

/// All devices of all platforms, in the order `lockstep devices` lists them.
std::vector<cl::Device> all_devices();
DeviceInfo describe(const cl::Device& device);
/// Resolves a device spec, the one parser of `--device` and LOCKSTEP_DEVICE ("" means:
/// LOCKSTEP_DEVICE, else the GPUs, else the first device): digits name an index; other text the
/// devices whose name or platform contains it (case-insensitively); a comma list is one spec per
/// process of a host. `nth` (an MPI rank's local rank; 0 otherwise) picks the list's item nth
/// modulo its length, and among several matching devices the nth modulo their count.
/// Throws input_error when nothing matches.
cl::Device select_device(const std::string& spec = "", size_t nth = 0);
/// Why all_devices() is empty, as far as can be told: the ICD hint, and a PoCL kernel cache
/// directory (POCL_CACHE_DIR, XDG_CACHE_HOME/pocl, ~/.cache/pocl) that cannot be written.
std::string no_device_message();

/// Typed -D parameters of a kernel build, turned into "-D NAME=value" options (sorted by name, so
/// equal parameter sets give equal options and hit the same cache entry).
class Defines {
 public:
  Defines& set(const std::string& name, long long value);
  Defines& set(const std::string& name, const std::string& value);
  Defines& set(const std::string& name, const char* value) { return set(name, std::string(value)); }
  Defines& flag(const std::string& option);  // any other build option, e.g. "-cl-std=CL2.0"
  std::string options() const;
  const std::map<std::string, std::string>& values() const { return values_; }
  const std::vector<std::string>& flags() const { return flags_; }

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> flags_;
};

/// VALUE_TYPE=float|double (and, for double, LOCKSTEP_FP64=1 so kernels enable cl_khr_fp64).
template <typename T>
Defines& set_value_type(Defines& d);

/// lockstep's cache root: $LOCKSTEP_CACHE_DIR, else $XDG_CACHE_HOME/lockstep, else
/// ~/.cache/lockstep (empty when none is set, or when the root is not a writable directory:
/// then one warning line on stderr). Each root is checked (and created) once per process.
/// Programs, tuning and occupancy live below it.
std::string cache_directory();

/// Source of a kernel file with its `#include "x.cl"` lines resolved (embedded copy, or the
/// file in LOCKSTEP_KERNEL_DIR when that variable is set).
std::string kernel_source(const std::string& file);

/// A built program from the two-level cache (memory, then disk, then compile). Build failures
/// throw opencl_error("clBuildProgram", ..., complete build log).
cl::Program program(const cl::Context& context, const cl::Device& device, const std::string& file,
                    const Defines& defines);
/// Counters of the program cache (this process), for tests and LOCKSTEP_SHOW_BUILDS.
struct ProgramCacheStats {
  size_t memory_hits = 0, disk_hits = 0, compiles = 0;
  // Milliseconds spent building programs and creating kernels: clCreateKernel is where PoCL
  // generates a kernel's work-group function and machine code (seconds per -D variant on a
  // cold ~/.cache/pocl), so a tiny problem's first run is mostly this.
  double build_ms = 0;
};
ProgramCacheStats program_cache_stats();
/// A fresh kernel object (cheap) from the cached program.
cl::Kernel kernel(const cl::Context& context, const cl::Device& device, const std::string& file,
                  const std::string& name, const Defines& defines);
cl::Kernel kernel(const cl::CommandQueue& queue, const std::string& file, const std::string& name,
                  const Defines& defines);

/// A device with its context and an in-order queue with profiling enabled.
class Context {
 public:
  explicit Context(const std::string& device_spec = "");
  explicit Context(const cl::Device& device);
  /// Joins an existing OpenCL program (PyOpenCL, an application's own context): lockstep works
  /// in `context` on `device`, on `queue` when it is an in-order queue of that device with
  /// profiling enabled (what lockstep's timing needs), else on a queue of its own in `context`
  /// (order it against the caller's queue with events: shares_queue() says which).
  Context(const cl::Context& context, const cl::Device& device,
          const cl::CommandQueue* queue = nullptr);
  bool shares_queue() const { return shares_queue_; }
  const cl::Context& context() const { return context_; }
  const cl::Device& device() const { return device_; }
  cl::CommandQueue& queue() { return queue_; }
  const DeviceInfo& info() const { return info_; }
  cl::Kernel kernel(const std::string& file, const std::string& name, const Defines& d) const {
    return lockstep::kernel(context_, device_, file, name, d);
  }
  /// A device buffer of at least `bytes` for one call's temporaries on queue(): slot `slot` of
  /// this context, kept (and grown) across calls, because the queue is in order, so the next call's
  /// commands run after the last one's. A fresh buffer per call paid its first touch inside the
  /// timed commands (H100, radix sort of 2^24 keys: ~0.15 ms of 0.7). Not for two threads at once
  /// (neither is queue()); release_scratch() gives the memory back. `zeroed`: a new buffer is
  /// created holding zero bytes; the caller's commands must leave it zero, so that the next call
  /// finds it so.
  const cl::Buffer& scratch(size_t slot, size_t bytes, bool zeroed = false);
  void release_scratch() { scratch_.clear(); }

 private:
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  DeviceInfo info_;
  std::vector<std::pair<size_t, cl::Buffer>> scratch_;  // per slot: bytes, buffer
  bool shares_queue_ = false;
};

// ---- small checked helpers over the Khronos bindings ----

cl::Buffer make_buffer(const cl::Context& context, cl_mem_flags flags, size_t bytes,
                       void* host = nullptr);
template <typename T>
cl::Buffer upload(cl::CommandQueue& queue, const std::vector<T>& data,
                  cl_mem_flags flags = CL_MEM_READ_WRITE) {
  cl::Buffer b = make_buffer(queue.getInfo<CL_QUEUE_CONTEXT>(), flags,
                             std::max<size_t>(1, data.size()) * sizeof(T));
  if (!data.empty())
    check(queue.enqueueWriteBuffer(b, CL_TRUE, 0, data.size() * sizeof(T), data.data()),
          "clEnqueueWriteBuffer");
  return b;
}
template <typename T>
std::vector<T> download(cl::CommandQueue& queue, const cl::Buffer& b, size_t n) {
  std::vector<T> out(n);
  if (n)
    check(queue.enqueueReadBuffer(b, CL_TRUE, 0, n * sizeof(T), out.data()), "clEnqueueReadBuffer");
  return out;
}

/// Local memory of a given size, as a kernel argument.
struct Local {
  size_t bytes;
};
/// Sets one kernel argument; a failure names the kernel and the argument index.
void set_arg(cl::Kernel& k, cl_uint index, size_t size, const void* value);
void set_arg(cl::Kernel& k, cl_uint index, const cl::Buffer& b);
void set_arg(cl::Kernel& k, cl_uint index, Local local);
template <typename T>
void set_arg(cl::Kernel& k, cl_uint index, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>, "kernel arguments are plain values or buffers");
  set_arg(k, index, sizeof(T), &value);
}
/// Sets all kernel arguments in order: set_args(k, buffer, n, Local{bytes}, 1.5f).
template <typename... Args>
void set_args(cl::Kernel& k, const Args&... args) {
  cl_uint i = 0;
  (set_arg(k, i++, args), ...);
}

/// Enqueues a 1-D range (global rounded up by the caller), behind the events of `after` when
/// given; failures name the kernel.
cl::Event launch(cl::CommandQueue& queue, const cl::Kernel& k, size_t global, size_t local,
                 const std::vector<cl::Event>* after = nullptr);
/// launch without an event, for work that nothing waits for by event or times (an in-order
/// queue orders it); global 0 enqueues nothing.
void enqueue(cl::CommandQueue& queue, const cl::Kernel& k, size_t global, size_t local);
/// Milliseconds between an event's start and end (the queue must have profiling enabled).
double event_ms(const cl::Event& e);
double event_ms(const cl::Event& first, const cl::Event& last);

}  // namespace lockstep
