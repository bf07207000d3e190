// kernel_builds(): the list behind tools/portability/compile_kernels.sh holds every family, every
// kernel file of cl/ (built, or included by a built file), no duplicate, the -cl-std each device
// kind gets on the C11 barrier path (CL2.0 on ROCm's OpenCL C 2.0, CL3.0 on 3.0 devices), no NVIDIA
// path off NVIDIA; and this device's list builds here.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/sort_keys.hpp"
#include "support.hpp"

using namespace lockstep;

TEST_CASE(
    "kernel builds: every family, no duplicates, -cl-std per device kind, no PTX off NVIDIA") {
  const auto amd = kernel_builds(device_profile("amd", 0, "2.0"));
  std::set<std::string> families;
  std::set<std::pair<std::string, std::string>> unique;
  for (const auto& b : amd) {
    families.insert(b.family);
    CHECK(unique.insert({b.file, b.options}).second);
    CHECK(b.options.find("BARRIER_NV_PTX") == std::string::npos);
    CHECK(b.options.find("USE_NV_SHUFFLE") == std::string::npos);
    CHECK(b.options.find("-cl-std=CL3.0") == std::string::npos);
    if (b.options.find("WAVE_WIDTH=") != std::string::npos)
      CHECK((b.options.find("WAVE_WIDTH=64") != std::string::npos));
  }
  for (const char* f :
       {"barrier", "spmv", "spmm", "blas1", "cg", "sort/bitonic", "sort/radix",
        "sort/radix-persistent", "bfs", "align", "search", "apsp", "copy", "mpi/halo", "mpi/bfs"})
    CHECK_MESSAGE(families.count(f), f);
  // The persistent kernels get LOCAL_SIZE from PersistentKernel (persistent_defines).
  for (const auto& b : amd)
    if (b.file == "bitonic.cl" || b.file == "bfs_persistent.cl" || b.file == "smith_waterman.cl" ||
        b.file == "sw_pipeline.cl" || b.file == "sw_pipeline16.cl" ||
        b.file == "persistent_check.cl" || b.file == "radix_persistent.cl")
      CHECK_MESSAGE(b.options.find("-D LOCAL_SIZE=") != std::string::npos, b.file, " ", b.options);
  // The APSP tuning space's micro-tiles reach fw_rest: 16 x 4 and unroll 1, 2.
  bool micro = false;
  for (const auto& b : amd)
    micro |= b.file == "floyd_warshall_rest.cl" &&
             b.options.find("-D TM=16") != std::string::npos &&
             b.options.find("-D KU=2") != std::string::npos;
  CHECK(micro);
  bool cl20 = false, plain12 = false;
  for (const auto& b : amd) {
    cl20 |= b.options.find("BARRIER_C11=1") != std::string::npos &&
            b.options.find("-cl-std=CL2.0") != std::string::npos;
    plain12 |= b.options.find("BARRIER_C11=0") != std::string::npos;
  }
  CHECK(cl20);
  CHECK(plain12);  // LOCKSTEP_BARRIER_C11=0's path, in the barrier family
  for (const auto& b : kernel_builds(device_profile("intel", 0, "3.0")))
    if (b.options.find("BARRIER_C11=1") != std::string::npos)
      CHECK(b.options.find("-cl-std=CL3.0") != std::string::npos);
  bool ptx = false;
  for (const auto& b : kernel_builds(device_profile("nvidia", 0, "1.2")))
    ptx |= b.options.find("BARRIER_NV_PTX=1") != std::string::npos;
  CHECK(ptx);
  // DPX: the alignment pipeline's inline PTX on compute capability 9.0 only (the capability, not
  // the name: the same NVIDIA profile at 8.0 builds the portable path), never on AMD.
  auto dpx_builds = [](const DeviceInfo& d) {
    int with = 0, without = 0;
    for (const auto& b : kernel_builds(d))
      if (b.file == "sw_pipeline.cl" || b.file == "sw_pipeline16.cl")
        (b.options.find("DPX_NV=1") != std::string::npos ? with : without)++;
    return std::pair<int, int>(with, without);
  };
  DeviceInfo hopper = device_profile("nvidia", 0, "1.2");
  CHECK(hopper.nv_cc_major == 9);
  CHECK(dpx_builds(hopper).first > 0);
  CHECK(dpx_builds(hopper).second == 0);
  DeviceInfo ampere = hopper;
  ampere.nv_cc_major = 8, ampere.dpx = false;
  CHECK(dpx_builds(ampere).first == 0);
  CHECK(dpx_builds(ampere).second > 0);
  CHECK(dpx_builds(device_profile("amd", 0, "2.0")).first == 0);
}

// PoCL 3.1 refuses -cl-std=CL2.0 here (no atomic_*_explicit overload for a __global atomic_int
// pointer in its 2.0 headers): the option must follow the device's own OpenCL C version, as
// add_flag_defines does. The list for this very device builds on it: every strategy's entry of
// the persistent check kernel and the bench kernel's entry without a LOCAL_SIZE, the -D sets the
// barrier and persistent-kernel tests build too (so the suite compiles them once; the bench
// kernel's LOCAL_SIZE=256 entries, the same code at another size, would be 8 compiles of their
// own).
TEST_CASE("kernel builds: this device's barrier builds, from its own DeviceInfo, build" *
          doctest::test_suite("device")) {
  Context& ctx = test::context();
  int built = 0;
  for (const auto& b : kernel_builds(ctx.info()))
    if (b.family == "barrier" && b.options.find("BARRIER_C11=1") != std::string::npos &&
        (b.file == "persistent_check.cl" || b.options.find("LOCAL_SIZE=") == std::string::npos)) {
      CHECK_NOTHROW(program(ctx.context(), ctx.device(), b.file, Defines().flag(b.options)));
      ++built;
    }
  CHECK(built >= (ctx.info().c20_atomics ? 5 : 0));
}

TEST_CASE("kernel builds: select_builds takes a workload's families and types") {
  const DeviceInfo d = device_profile("nvidia", 0, "3.0");
  const auto sort64 = select_builds(d, {"sort/radix"}, {"f64"});
  REQUIRE_FALSE(sort64.empty());
  for (const auto& b : sort64) {
    CHECK(b.family.rfind("sort/radix", 0) == 0);
    CHECK(b.options.find("-D KEY_TYPE=5") != std::string::npos);
  }
  const auto spmv = select_builds(d, {"spmv", "spmm"}, {"f32"});
  bool spmm = false;
  for (const auto& b : spmv) {
    CHECK(b.options.find("VALUE_TYPE=float") != std::string::npos);
    spmm |= b.family == "spmm";
  }
  CHECK(spmm);
  CHECK(select_builds(d, {}, {}).size() == kernel_builds(d).size());
  CHECK_THROWS_WITH_AS(select_builds(d, {}, {"f16"}),
                       "unknown type 'f16' (expected u32, i32, f32, u64, i64, f64)", input_error);
  // the types are the sort key types (one list, lockstep/sort_keys.hpp), each selecting its own
  for (const std::string& t : build_types()) {
    CAPTURE(t);
    const std::string key = "-D KEY_TYPE=" + std::to_string(int(parse_key_type(t))) + " ";
    const auto builds = select_builds(d, {"sort/radix"}, {t});
    REQUIRE_FALSE(builds.empty());
    for (const auto& b : builds) CHECK((b.options + " ").find(key) != std::string::npos);
  }
  CHECK(build_types().size() == all_key_types().size());
}

// The registry covers cl/: every kernel file is built by some family (on some described device),
// or #included by a file that is, so precompile and the AMD/SPIR-V compile pass compile all of
// cl/. A new kernel file that no family lists fails here (and any program a test builds from a
// file outside the registry fails the test binary: tests/main.cpp).
TEST_CASE("kernel builds: every cl/ file is built or included by a built file") {
  namespace fs = std::filesystem;
  const fs::path dir = test::source_dir() / "cl";
  const std::set<std::string>& built = registered_kernel_files();
  std::set<std::string> covered(built.begin(), built.end()), all;
  std::map<std::string, std::set<std::string>> includes;
  const std::regex include_re("#include \"([A-Za-z0-9_]+\\.(cl|h))\"");
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".cl") continue;
    all.insert(name);
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    for (std::sregex_iterator m(text.begin(), text.end(), include_re), end; m != end; ++m)
      includes[name].insert((*m)[1]);
  }
  REQUIRE(all.size() > 20);
  for (bool grew = true; grew;) {  // what the built files include, transitively
    grew = false;
    for (const std::string& f : std::set<std::string>(covered))
      for (const std::string& i : includes[f]) grew |= covered.insert(i).second;
  }
  for (const std::string& f : all) CHECK_MESSAGE(covered.count(f), f, " is in no kernel family");
  for (const std::string& f : built) CHECK_MESSAGE(all.count(f), f, " is not a file of cl/");
  for (const char* f : {"search.cl", "bfs_dist.cl", "spmm.cl", "spmm_merge.cl", "halo.cl"})
    CHECK_MESSAGE(built.count(f), f);
  CHECK(unregistered_kernel_files().empty());
}

TEST_CASE("kernel builds: precompile's search family is search's own -D sets") {
  const auto gpu = select_builds(device_profile("amd", 0, "2.0"), {"search"}, {});
  REQUIRE(gpu.size() == 2);  // 128 x 64 plain, 128 x 32 skew
  for (const auto& b : gpu) {
    CHECK(b.file == "search.cl");
    CHECK(b.options.find("-D LOCAL_SIZE=128") != std::string::npos);
    CHECK(b.options.find("DPX_NV") == std::string::npos);
  }
  int dpx = 0;
  for (const auto& b : select_builds(device_profile("nvidia", 0, "1.2"), {"search"}, {}))
    dpx += b.options.find("-D DPX_NV=1") != std::string::npos;
  CHECK(dpx == 2);
  CHECK(select_builds(device_profile("cpu", 0, "3.0"), {"search"}, {}).size() == 1);
}
