// The runtime: device choice, errors by name with build logs, Defines, kernel sources with
// includes and LOCKSTEP_KERNEL_DIR, and the two-level program cache (disk cache exercised twice,
// and a corrupt entry rebuilt), and the one disk-cache utility under every cache.
#include <cstdlib>
#include <fstream>

#include "runtime/disk_cache.hpp"
#include "support.hpp"

using namespace lockstep;
namespace fs = std::filesystem;

namespace {
Defines fill_defines(long long wg = 64) {
  Defines d;
  set_value_type<float>(d).set("LOCAL_SIZE", wg);
  return d;
}

std::vector<float> run_fill(Context& ctx, int n, float value) {
  cl::Buffer x = make_buffer(ctx.context(), CL_MEM_READ_WRITE, n * sizeof(float));
  cl::Kernel k = ctx.kernel("blas1.cl", "fill", fill_defines());
  set_args(k, n, value, x);
  launch(ctx.queue(), k, (n + 63) / 64 * 64, 64);
  return download<float>(ctx.queue(), x, n);
}
}  // namespace

TEST_CASE("status names") {
  CHECK(std::string(status_name(-54)) == "CL_INVALID_WORK_GROUP_SIZE");
  CHECK(std::string(status_name(CL_BUILD_PROGRAM_FAILURE)) == "CL_BUILD_PROGRAM_FAILURE");
  CHECK(std::string(status_name(12345)) == "CL_UNKNOWN_STATUS");
  opencl_error e("clFoo", CL_OUT_OF_RESOURCES);
  CHECK(std::string(e.what()) == "clFoo failed: CL_OUT_OF_RESOURCES (-5)");
}

TEST_CASE("device selection by index, substring and error") {
  auto all = all_devices();
  REQUIRE(!all.empty());
  DeviceInfo first = describe(all[0]);

  CHECK(describe(select_device("0")).name == first.name);
  std::string upper = first.name.substr(0, 4);
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  CHECK(describe(select_device(upper)).index >= 0);
  CHECK_THROWS_WITH_AS(select_device("no-such-device-anywhere"),
                       doctest::Contains("no OpenCL device matches"), input_error);
  CHECK_THROWS_WITH_AS(select_device("999"), doctest::Contains("out of range"), input_error);
  // The comma list and the nth match (what each MPI rank of a host asks for): the nth item,
  // modulo the list; among the matching devices the nth, modulo their count.
  CHECK(describe(select_device("0,999", 0)).index == 0);
  CHECK(describe(select_device("999,0", 3)).index == 0);
  CHECK_THROWS_WITH_AS(select_device("0,999", 1), doctest::Contains("out of range"), input_error);
  CHECK(describe(select_device(first.name, all.size())).name == first.name);
  CHECK(first.compute_units > 0);
  CHECK(first.max_work_group_size > 0);
}

TEST_CASE("Defines give sorted, deterministic options") {
  Defines a, b;
  a.set("B", 2).set("A", "x");
  b.set("A", "x").set("B", 2);
  CHECK(a.options() == "-D A=x -D B=2");
  CHECK(a.options() == b.options());
}

TEST_CASE("kernel sources resolve includes and every embedded file is there") {
  std::string src = kernel_source("blas1.cl");
  CHECK(src.find("cl_khr_fp64") != std::string::npos);  // from common.cl
  CHECK(src.find("#include") == std::string::npos);
  CHECK_THROWS_AS(kernel_source("no-such-file.cl"), input_error);
}

TEST_CASE("a kernel runs and a missing macro fails with the build log") {
  Context& ctx = test::context();
  auto x = run_fill(ctx, 100, 2.5f);
  for (float v : x) REQUIRE(v == 2.5f);

  Defines missing;
  missing.set("LOCAL_SIZE", 64);
  try {
    ctx.kernel("blas1.cl", "fill", missing);
    FAIL("build without VALUE_TYPE succeeded");
  } catch (const opencl_error& e) {
    CHECK(e.status() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(e.call().find("clBuildProgram") != std::string::npos);
    CHECK(e.build_log().find("VALUE_TYPE undefined") != std::string::npos);
    CHECK(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE") != std::string::npos);
  }
}

TEST_CASE("disk cache: written once, loaded twice, corrupt entry rebuilt") {
  test::TempDir dir;
  test::ScopedEnv env("LOCKSTEP_CACHE_DIR", dir.path.string());
  cl::Device dev = test::context().device();
  Defines d = fill_defines(32);  // options no other test uses

  {  // first context: compiles and stores
    Context ctx(dev);
    auto before = program_cache_stats();
    run_fill(ctx, 10, 1.0f);
    CHECK(program_cache_stats().compiles == before.compiles + 1);
  }
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(dir.path / "programs")) files.push_back(e.path());
  REQUIRE(files.size() == 1);

  for (int round = 0; round < 2; ++round) {  // fresh contexts: loaded from disk
    Context ctx(dev);
    auto before = program_cache_stats();
    auto x = run_fill(ctx, 10, 3.0f);
    CHECK(x[9] == 3.0f);
    CHECK(program_cache_stats().disk_hits == before.disk_hits + 1);
    CHECK(program_cache_stats().compiles == before.compiles);
  }

  fs::resize_file(files[0], fs::file_size(files[0]) / 2);  // corrupt: truncated
  {
    Context ctx(dev);
    auto before = program_cache_stats();
    auto x = run_fill(ctx, 10, 4.0f);
    CHECK(x[0] == 4.0f);
    CHECK(program_cache_stats().compiles == before.compiles + 1);
  }
  {
    Context ctx(dev);
    auto before = program_cache_stats();
    run_fill(ctx, 10, 5.0f);
    CHECK(program_cache_stats().disk_hits == before.disk_hits + 1);
  }
}

TEST_CASE("LOCKSTEP_KERNEL_DIR overrides the embedded kernels") {
  test::TempDir dir;
  fs::copy(test::source_dir() / "cl", dir.path / "cl");
  {
    std::ofstream f(dir.path / "cl" / "blas1.cl", std::ios::app);
    f << "\n__kernel void only_on_disk(__global int* x) { x[0] = 42; }\n";
  }
  test::ScopedEnv env("LOCKSTEP_KERNEL_DIR", (dir.path / "cl").string());
  Context& ctx = test::context();
  cl::Kernel k = ctx.kernel("blas1.cl", "only_on_disk", fill_defines());
  cl::Buffer b = make_buffer(ctx.context(), CL_MEM_READ_WRITE, sizeof(int));
  set_args(k, b);
  launch(ctx.queue(), k, 1, 1);
  CHECK(download<int>(ctx.queue(), b, 1)[0] == 42);
}

// The one disk-cache utility (runtime/disk_cache.hpp): FNV-1a, the device key with the driver
// version, the off switch, and the atomic write that fails whole.
TEST_CASE("disk cache utility: hash, device key, off switch, atomic write that fails whole") {
  test::TempDir dir;
  test::ScopedEnv root("LOCKSTEP_CACHE_DIR", dir.path.string());
  DeviceInfo info = describe(test::context().device());
  fs::path file = dir.path / "sub" / "x.json";

  CHECK(disk_cache::fnv1a("") == disk_cache::kFnvBasis);
  CHECK(disk_cache::fnv1a("a") == ((disk_cache::kFnvBasis ^ 'a') * 1099511628211ull));
  CHECK(disk_cache::fnv1a("b", disk_cache::fnv1a("a")) == disk_cache::fnv1a("ab"));
  CHECK(disk_cache::device_key(info).find(info.driver_version) != std::string::npos);
  CHECK(disk_cache::folder("programs") == dir.path / "programs");
  {
    test::ScopedEnv off("LOCKSTEP_DISK_CACHE", "0");
    CHECK(disk_cache::folder("programs").empty());
  }
  CHECK(disk_cache::write_atomic(file, "first\n").empty());
  CHECK(disk_cache::read(file) == std::string("first\n"));
  std::string why;
  {
    test::DiskFull full(3);
    why = disk_cache::write_atomic(file, "second, longer\n");
  }
  CHECK(why.find("write") != std::string::npos);
  CHECK(disk_cache::read(file) == std::string("first\n"));
  CHECK(test::count_files(dir.path, ".tmp") == 0);
  fs::create_directories(dir.path / "sub" / "dir.json");  // rename onto a directory fails
  CHECK(!disk_cache::write_atomic(dir.path / "sub" / "dir.json", "x").empty());
  CHECK(test::count_files(dir.path, ".tmp") == 0);
}

// Two processes that need the same program at once (ctest -j2 runs neighbouring tests, which
// share programs, side by side): the second waits on the first's lock file and loads its binary,
// so the program is compiled once, whichever process starts first.
TEST_CASE("disk cache: two processes building one program at once compile it once") {
  test::TempDir dir;
  test::ScopedEnv root("LOCKSTEP_CACHE_DIR", dir.path.string()), show("LOCKSTEP_SHOW_BUILDS", "1");
  const std::string m = (test::source_dir() / "matrices" / "laplace2d_64.mtx").string();
  const std::string one =
      "POCL_CACHE_DIR=" + (dir.path / "pocl").string() + "$i " + test::cli_path() + " spmv " + m +
      " --algorithm scalar --local-size 64 --repeat 1 > " + (dir.path / "out").string() + "$i 2>&1";
  std::string out;
  REQUIRE(test::run_shell("for i in 1 2; do " + one + " & done; wait; cat " +
                              (dir.path / "out").string() + "1 " + (dir.path / "out").string() +
                              "2",
                          out) == 0);
  size_t compiled = 0, loaded = 0;
  for (size_t at = 0; (at = out.find("lockstep: build spmv.cl", at)) != std::string::npos; ++at) {
    const std::string line = out.substr(at, out.find('\n', at) - at);
    compiled += line.find(": compiled in") != std::string::npos;
    loaded += line.find(": disk") != std::string::npos;
  }
  CHECK_MESSAGE(compiled == 1, out);
  CHECK(loaded == 1);
}

TEST_CASE("disk cache: LOCKSTEP_DISK_CACHE=0 stores no program") {
  test::TempDir dir;
  test::ScopedEnv root("LOCKSTEP_CACHE_DIR", dir.path.string()), off("LOCKSTEP_DISK_CACHE", "0");
  Context ctx(test::context().device());
  auto before = program_cache_stats();

  run_fill(ctx, 10, 2.0f);

  CHECK(program_cache_stats().compiles == before.compiles + 1);
  CHECK(!fs::exists(dir.path / "programs"));
}

TEST_CASE("scratch buffers: kept per slot, grown on demand, released") {
  Context ctx(test::context().device());
  const cl::Buffer a = ctx.scratch(1, 1000);
  CHECK(a.getInfo<CL_MEM_SIZE>() >= 1000);
  CHECK(ctx.scratch(1, 10)() == a());  // smaller request: the same buffer
  CHECK(ctx.scratch(0, 10)() != a());  // another slot: another buffer
  const cl::Buffer b = ctx.scratch(1, 5000);
  CHECK(b.getInfo<CL_MEM_SIZE>() >= 5000);
  CHECK(b() != a());
  ctx.release_scratch();
  CHECK(ctx.scratch(1, 4).getInfo<CL_MEM_SIZE>() >= 4);
  // zeroed: a new (or grown) buffer holds zero bytes; a kept one is the caller's to keep zero
  for (size_t bytes : {size_t(12), size_t(40000)}) {
    const cl::Buffer z = ctx.scratch(2, bytes, true);
    CHECK(download<uint32_t>(ctx.queue(), z, bytes / 4) == std::vector<uint32_t>(bytes / 4, 0u));
    const uint32_t one = 1;
    ctx.queue().enqueueWriteBuffer(z, CL_TRUE, 0, 4, &one);
  }
  CHECK(download<uint32_t>(ctx.queue(), ctx.scratch(2, 8, true), 1)[0] == 1u);  // kept as left
}
