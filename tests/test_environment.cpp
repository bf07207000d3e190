// The one table of LOCKSTEP_* variables (src/runtime/environment.cpp): README's "Environment"
// table is that table, every variable the sources read is in it and read through it, the
// deprecated LOCKSTEP_OCCUPANCY_CACHE still turns the disk caches off and LOCKSTEP_SEARCH_DPX
// still sets the DPX level; the one XDG rule of the cache folders; and the one vendor rule.
// Host-only (no OpenCL device).
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "lockstep/kernel_builds.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/environment.hpp"
#include "support.hpp"

using namespace lockstep;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// README's rows for the table, in its order: "| `NAME` | meaning | default |".
std::string readme_table() {
  std::string t = "| variable | effect | default |\n| --- | --- | --- |\n";
  for (const env::Variable& v : env::variables())
    t += std::string("| `") + v.name + "` | " + v.meaning + " | " + v.default_value + " |\n";
  return t;
}
}  // namespace

TEST_CASE("environment: README's table is the table of src/runtime/environment.cpp") {
  const std::string readme = slurp(test::source_dir() / "README.md");
  const std::string want = readme_table();
  INFO("README.md's Environment section should hold exactly:\n" << want);
  CHECK(readme.find(want) != std::string::npos);
}

TEST_CASE("environment: every LOCKSTEP_* variable the sources read is in the table") {
  std::set<std::string> names;
  for (const env::Variable& v : env::variables()) names.insert(v.name);
  // getenv of a LOCKSTEP_ name anywhere but the table's own file and the test harness
  // (tests/support.hpp, which the MPI tests include without src/: its names are in the table);
  // env:: calls of a name not in it.
  const std::regex direct(std::string("getenv\\(\"") + "LOCKSTEP_");
  const std::regex harness(std::string("getenv\\(\"") + "(LOCKSTEP_[A-Z0-9_]+)\"");
  const std::regex through("env::(value|is_zero|is_on)\\(\"(LOCKSTEP_[A-Z0-9_]+)\"\\)");
  int files = 0;
  for (const char* dir : {"src", "tools/lockstep", "tests", "python"}) {
    if (!fs::exists(test::source_dir() / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(test::source_dir() / dir)) {
      const auto ext = e.path().extension();
      if (ext != ".cpp" && ext != ".hpp" && ext != ".h") continue;
      if (e.path().filename() == "environment.cpp" || e.path().filename() == "test_environment.cpp")
        continue;
      ++files;
      const std::string text = slurp(e.path());
      CAPTURE(e.path().string());
      if (e.path().filename() == "support.hpp" && e.path().parent_path().filename() == "tests") {
        for (std::sregex_iterator m(text.begin(), text.end(), harness), end; m != end; ++m)
          CHECK(names.count((*m)[1].str()) == 1);
        continue;
      }
      CHECK_FALSE(std::regex_search(text, direct));
      for (std::sregex_iterator m(text.begin(), text.end(), through), end; m != end; ++m)
        CHECK(names.count((*m)[2].str()) == 1);
    }
  }
  CHECK(files > 50);
  CHECK_THROWS_AS(env::value("LOCKSTEP_NOT_A_VARIABLE"), std::logic_error);
}

TEST_CASE("environment: LOCKSTEP_OCCUPANCY_CACHE=0 is LOCKSTEP_DISK_CACHE=0, deprecated") {
  test::ScopedEnv a("LOCKSTEP_DISK_CACHE", nullptr), b("LOCKSTEP_OCCUPANCY_CACHE", nullptr);
  CHECK_FALSE(env::disk_cache_off());
  {
    test::ScopedEnv off("LOCKSTEP_DISK_CACHE", "0");
    CHECK(env::disk_cache_off());
  }
  {
    test::ScopedEnv off("LOCKSTEP_OCCUPANCY_CACHE", "0");
    CHECK(env::disk_cache_off());
  }
  test::ScopedEnv empty("LOCKSTEP_DISK_CACHE", "");
  CHECK_FALSE(env::value("LOCKSTEP_DISK_CACHE"));
  CHECK_FALSE(env::disk_cache_off());
}

TEST_CASE("environment: LOCKSTEP_SEARCH_DPX is LOCKSTEP_DPX, deprecated") {
  test::ScopedEnv a("LOCKSTEP_DPX", nullptr), b("LOCKSTEP_SEARCH_DPX", nullptr);
  CHECK(env::dpx_level() == 1);  // DPX where the device has it
  {
    test::ScopedEnv off("LOCKSTEP_DPX", "0");
    CHECK(env::dpx_level() == 0);
  }
  {
    test::ScopedEnv two("LOCKSTEP_DPX", "2");
    CHECK(env::dpx_level() == 2);
  }
  {
    test::ScopedEnv off("LOCKSTEP_SEARCH_DPX", "0");
    CHECK(env::dpx_level() == 0);
    test::ScopedEnv wins("LOCKSTEP_DPX", "1");  // the new name wins over the old
    CHECK(env::dpx_level() == 1);
  }
}

TEST_CASE("disk cache: one XDG rule for lockstep's root and PoCL's kernel cache") {
  test::ScopedEnv x("XDG_CACHE_HOME", "/x/cache"), h("HOME", "/home/u");
  auto root = disk_cache::cache_root(std::string("/mine"), "POCL_CACHE_DIR", "pocl");
  CHECK(root.dir == "/mine");
  CHECK(root.from == "POCL_CACHE_DIR");
  root = disk_cache::cache_root(std::nullopt, "POCL_CACHE_DIR", "pocl");
  CHECK(root.dir == "/x/cache/pocl");
  CHECK(root.from == "XDG_CACHE_HOME");
  {
    test::ScopedEnv no_xdg("XDG_CACHE_HOME", "");
    root = disk_cache::cache_root(std::string(), "LOCKSTEP_CACHE_DIR", "lockstep");
    CHECK(root.dir == "/home/u/.cache/lockstep");
    CHECK(root.from == "HOME");
    test::ScopedEnv no_home("HOME", nullptr), own("LOCKSTEP_CACHE_DIR", nullptr);
    CHECK(disk_cache::lockstep_root().dir.empty());
    CHECK(disk_cache::lockstep_root().from.empty());
  }
  test::ScopedEnv own("LOCKSTEP_CACHE_DIR", "/own");
  CHECK(disk_cache::lockstep_root().dir == "/own");
  CHECK(disk_cache::why_unusable("/dev/null/x") != "");
  CHECK(disk_cache::why_unusable(fs::temp_directory_path().string()) == "");
}

TEST_CASE("vendor: one rule for describe(), the build profiles and is_nvidia") {
  CHECK(vendor_of("NVIDIA Corporation", "NVIDIA CUDA") == Vendor::nvidia);
  CHECK(vendor_of("Advanced Micro Devices, Inc.", "AMD Accelerated Parallel Processing") ==
        Vendor::amd);
  CHECK(vendor_of("Intel(R) Corporation", "Intel(R) OpenCL Graphics") == Vendor::intel);
  CHECK(vendor_of("GenuineIntel", "Portable Computing Language") == Vendor::intel);
  CHECK(vendor_of("", "Portable Computing Language") == Vendor::other);
  for (Vendor v : {Vendor::nvidia, Vendor::amd, Vendor::intel}) {
    CAPTURE(to_string(v));
    CHECK(vendor_of(vendor_name(v), "") == v);
    const DeviceInfo p = device_profile(to_string(v), 0, "2.0");
    CHECK(p.vendor_id() == v);
    CHECK(p.is_nvidia() == (v == Vendor::nvidia));
    CHECK(p.wave_width == vendor_wave_width(v, true));
  }
  CHECK(vendor_wave_width(Vendor::nvidia, true) == 32);
  CHECK(vendor_wave_width(Vendor::amd, true) == 64);
  CHECK(vendor_wave_width(Vendor::amd, false) == 1);
  DeviceInfo cpu = device_profile("cpu", 0, "3.0");
  CHECK(cpu.vendor_id() == Vendor::other);
  CHECK(cpu.wave_width == 1);
  CHECK_FALSE(cpu.is_nvidia());
  DeviceInfo pocl_on_nvidia_host;  // a CPU device of a machine with an NVIDIA platform name
  pocl_on_nvidia_host.type = "CPU", pocl_on_nvidia_host.vendor = "NVIDIA Corporation";
  CHECK_FALSE(pocl_on_nvidia_host.is_nvidia());
}
