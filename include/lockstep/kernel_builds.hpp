// The one kernel registry: every program build the library can ask for, listed without a device,
// family by family (kernel_families()). `lockstep precompile`, `lockstep kernels --list`, the
// AMD/SPIR-V compile pass of CI (tools/portability/compile_kernels.sh) and the coverage tests
// read it; the program cache reports any file built outside it (unregistered_kernel_files()), and
// the test binaries fail on such a file. Each family lists its builds from the same functions and
// tables its launches use (the -D functions, the tuning families' spaces, the barrier strategies),
// so a renamed macro or a new parameter value shows up here without a second list. Where the
// library picks a value at run time (local size, co-resident groups, alphabet), the list holds the
// values it can pick on a device like `target`; pure constants (a barrier's group count) get
// representative values.
#pragma once
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "lockstep/runtime.hpp"

namespace lockstep {

struct KernelBuild {
  std::string family;   // e.g. "spmv", "sort/bitonic"
  std::string file;     // kernel file in cl/
  std::string options;  // the full option string clBuildProgram would get
};

/// A DeviceInfo for a device known only by vendor ("amd", "intel", "nvidia", "cpu"), wave
/// width (0: the library's vendor rule) and OpenCL C version ("1.2", "2.0", "3.0"), with
/// generous limits (1024 work-items, 64 KiB local memory, fp64, 100 compute units); "nvidia"
/// is compute capability 9.0 (DPX).
DeviceInfo device_profile(const std::string& vendor, unsigned wave_width,
                          const std::string& opencl_c);

/// One entry of the registry: a family's name (the prefix `precompile --family` selects by) and
/// the function, next to the family's launches, that lists its builds (file and -D options).
struct KernelFamily {
  const char* name;
  void (*builds)(const DeviceInfo& target, std::vector<KernelBuild>& out);
};
/// The registry, in build order.
const std::vector<KernelFamily>& kernel_families();

/// Every cl/ file some family of the registry builds on any described device (AMD, Intel,
/// NVIDIA, CPU profiles); files they only #include are not in it.
const std::set<std::string>& registered_kernel_files();

/// The kernel files this process built (program()) that registered_kernel_files() lacks, sorted:
/// a family that builds a program it does not list. Empty when the registry is complete.
std::vector<std::string> unregistered_kernel_files();

/// Every distinct (file, options) build on `target`; with C11 atomics, the barrier family also
/// under the OpenCL C 1.2 ordering path that LOCKSTEP_BARRIER_C11=0 selects.
std::vector<KernelBuild> kernel_builds(const DeviceInfo& target);

/// The builds of kernel_builds(device) that a workload uses: families whose name starts with one
/// of `families` (e.g. "sort" takes sort/radix, sort/bitonic, ...; empty: all), and of those with
/// a VALUE_TYPE or KEY_TYPE only the ones named in `types` (f32, f64, u32, i32, u64, i64; empty:
/// all). Builds without either (barriers, BFS) always pass.
std::vector<KernelBuild> select_builds(const DeviceInfo& device,
                                       const std::vector<std::string>& families,
                                       const std::vector<std::string>& types);
/// The types select_builds takes: the sort key types (lockstep/sort_keys.hpp), f32 and f64
/// also naming the value types.
std::vector<std::string> build_types();
/// Builds each into the program cache (memory and disk: later processes load them instead of
/// compiling), calling progress(done, total, build, seconds) after each; returns the seconds.
double precompile(
    Context& ctx, const std::vector<KernelBuild>& builds,
    const std::function<void(size_t, size_t, const KernelBuild&, double)>& progress = {});

namespace detail {
// One per family, next to the code that builds its kernels.
void barrier_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void spmv_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void spmm_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void blas1_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void cg_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void sort_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void bfs_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void align_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void apsp_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void copy_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
void search_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
/// lockstep::mpi's kernels (cl/halo.cl, cl/bfs_dist.cl and the distributed BFS's -D sets of
/// bfs_bitmap.cl and bfs_lb.cl): listed here, in the core library, so that the compile pass and
/// precompile see them in builds without MPI too.
void mpi_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
/// The device arrays' kernels (cl/elementwise.cl, the Python package's lockstep.Array): one build
/// per dtype; elementwise_defines is that build's -D set for a NumPy dtype name ("float32", ...;
/// input_error for another).
void elementwise_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out);
Defines elementwise_defines(const DeviceInfo& device, const std::string& dtype);
constexpr int elementwise_local_size = 256;
/// Records that this process built `file` (the program cache calls it on each compile or disk
/// load), for unregistered_kernel_files().
void note_kernel_file(const std::string& file);
/// A persistent kernel's builds: `defines` as PersistentKernel builds them (LOCAL_SIZE =
/// local_size and each barrier strategy's options), at its one-group probe and a representative
/// group count; with every_strategy false, only the lock barrier's (the probe, the GPU default,
/// and what a kernel with an explicit lock barrier gets).
void persistent_kernel_builds(const DeviceInfo& d, const std::string& family,
                              const std::string& file, const Defines& defines, int local_size,
                              std::vector<KernelBuild>& out, bool every_strategy = true);
}  // namespace detail

}  // namespace lockstep
