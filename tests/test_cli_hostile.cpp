// Hostile inputs, third round: each case used to crash, be accepted silently, or
// say too little; now each is refused with one line that names what is wrong and where. Cases
// in the test suite "device" open an OpenCL device; the others fail before one is opened.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support.hpp"

namespace fs = std::filesystem;
using lockstep::test::has;
using lockstep::test::run_cli;
using lockstep::test::run_shell;

namespace {

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

/// Standard output alone (standard error dropped).
int run_stdout(const std::string& args, std::string& out) {
  return run_shell("(" + lockstep::test::cli_path() + " " + args + " 2>/dev/null)", out);
}

}  // namespace

TEST_CASE("--device or LOCKSTEP_DEVICE past any integer names itself and the devices" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string m = (d.path / "m.mtx").string();
  put(m, "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n");
  std::string out;
  CHECK(run_cli("spmv " + m + " --device 99999999999999999999999", out) == 1);
  CHECK(has(out, "--device 99999999999999999999999: device index out of range; "));
  CHECK(has(out, "device(s): 0 = "));
  CHECK(!has(out, "internal error"));
  lockstep::test::ScopedEnv env("LOCKSTEP_DEVICE", "99999999999999999999999");
  CHECK(run_cli("spmv " + m, out) == 1);
  CHECK(has(out, "LOCKSTEP_DEVICE=99999999999999999999999: device index out of range"));
}

TEST_CASE("gen:laplace2d:N takes the whole text as N, in range") {
  std::string out;
  CHECK(run_cli("cg gen:laplace2d:8abc", out) == 1);
  CHECK(has(out, "gen:laplace2d:8abc: N '8abc' is not a whole number"));
  CHECK(run_cli("cg gen:laplace2d:8:9", out) == 1);
  CHECK(has(out, "N '8:9' is not a whole number"));
  CHECK(run_cli("cg gen:laplace2d:0", out) == 1);
  CHECK(has(out, "gen:laplace2d:0: N = 0 out of range [1, 65536]"));
  CHECK(run_cli("cg gen:laplace9d:4", out) == 1);
  CHECK(has(out, "unknown generated matrix 'laplace9d'"));
}

TEST_CASE("a value past the float range is refused in single precision, naming FILE:LINE") {
  lockstep::test::TempDir d;
  const std::string m = (d.path / "f32ovf.mtx").string();
  put(m, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1e39\n");
  std::string out;
  CHECK(run_cli("spmv " + m + " --precision float --verify", out) == 1);
  CHECK(has(out, m + ":4: value 1e+39: overflows f32"));
}

TEST_CASE("tune apsp --random 0 is refused: nothing to time, nothing stored") {
  lockstep::test::TempDir d;
  lockstep::test::ScopedEnv env("LOCKSTEP_TUNING_DB", (d.path / "db.json").string());
  std::string out;
  CHECK(run_cli("tune apsp --random 0", out) == 2);
  CHECK(has(out, "--random 0: a graph of 0 vertices has nothing to tune"));
  CHECK(!fs::exists(d.path / "db.json"));
}

TEST_CASE("bfs: the options of --distributed alone are refused without it") {
  std::string out;
  CHECK(run_cli("bfs --rmat 4 --gamma 3", out) == 2);
  CHECK(has(out, "--gamma needs --distributed"));
  CHECK(run_cli("bfs --rmat 4 --shared-capacity 64", out) == 2);
  CHECK(has(out, "--shared-capacity needs --distributed"));
}

TEST_CASE("spmv --rows-bits beyond the work-group is a usage error naming both options" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string m = (d.path / "m.mtx").string();
  put(m, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1\n");
  std::string out;
  CHECK(run_cli("spmv " + m + " --algorithm vector --local-size 1 --rows-bits 12", out) == 2);
  CHECK(has(out, "--rows-bits 12 needs a work-group of at least 4096 items"));
  CHECK(has(out, "--local-size 1 is smaller"));
}

TEST_CASE("no device because PoCL cannot write its cache: the message names the folder" *
          doctest::test_suite("device")) {
  std::string out;
  // Only where PoCL is the one platform: another (the NVIDIA driver beside PoCL on the GPU
  // machine) needs no cache folder, so `devices` still finds it there.
  const std::string pocl = "platform=\"Portable Computing Language\"";
  bool only_pocl = run_cli("devices", out) == 0 && has(out, pocl);
  for (size_t at = out.find("platform="); at != std::string::npos;
       at = out.find("platform=", at + 1))
    only_pocl = only_pocl && out.compare(at, pocl.size(), pocl) == 0;
  if (!only_pocl) return lockstep::test::skip("PoCL is not the only OpenCL platform here");
  CHECK(run_shell("env -u POCL_CACHE_DIR XDG_CACHE_HOME=/dev/null/cache " +
                      lockstep::test::cli_path() + " devices",
                  out) == 1);
  CHECK(has(out,
            "PoCL's kernel cache directory /dev/null/cache/pocl (from XDG_CACHE_HOME) is "
            "unusable"));
}

TEST_CASE("cg refuses a non-symmetric matrix before iterating") {
  lockstep::test::TempDir d;
  const std::string m = (d.path / "ns.mtx").string();
  put(m, "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 4\n2 1 1\n2 2 4\n");
  std::string out;
  CHECK(run_cli("cg " + m, out) == 1);
  CHECK(has(out, m + ": not symmetric: entry (2, 1) is 1 but (1, 2) is 0"));
}

TEST_CASE("weak messages now name what is wrong and where") {
  lockstep::test::TempDir d;
  std::string out;
  CHECK(run_cli("gen dense 3 5 -o " + (d.path / "x.mtx").string(), out) == 2);
  CHECK(has(out, "dense needs 0 <= k <= n"));
  CHECK(!has(out, "uniform"));
  CHECK(run_cli("kernels", out) == 2);
  CHECK(has(out, "lockstep kernels: give --list"));
  CHECK(!has(out, "lockstep kernels: lockstep kernels"));
  CHECK(run_cli("kernels --list --opencl-c 9.9", out) == 2);
  CHECK(has(out, "--opencl-c: OpenCL C version must be 1.2, 2.0 or 3.0, got '9.9'"));
  CHECK(run_cli("bench barrier --help", out) == 0);
  CHECK(has(out, "--local-size arg (=256) in [1, 4096]"));
  CHECK(run_cli("bench barrier --local-size 65536", out) == 2);
  CHECK(has(out, "local-size"));
  const std::string a = (d.path / "j.fa").string(), b = (d.path / "b.fa").string();
  put(a, ">a\nACGTACGT\nACGJ\n");
  put(b, ">b\nACGT\n");
  CHECK(run_cli("align " + a + " " + b + " --algorithm cpu", out) == 1);
  CHECK(has(out, a + ":3: record 1 ('a'): residue 11: 'J' is not an IUPAC nucleotide letter"));
}

TEST_CASE("LOCKSTEP_KERNEL_DIR of empty files: the message names the variable" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  for (const auto& e : fs::directory_iterator(lockstep::test::source_dir() / "cl"))
    put(d.path / e.path().filename(), "");
  const std::string m = (d.path / "m.mtx").string();
  put(m, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1\n");
  lockstep::test::ScopedEnv env("LOCKSTEP_KERNEL_DIR", d.path.string());
  std::string out;
  CHECK(run_cli("spmv " + m, out) == 1);
  CHECK(has(out, "LOCKSTEP_KERNEL_DIR=" + d.path.string() + ": "));
  CHECK(has(out, " is empty"));
}

TEST_CASE("--json - writes JSON alone to standard output; the summary goes to stderr") {
  lockstep::test::TempDir d;
  const std::string a = (d.path / "a.fa").string(), b = (d.path / "b.fa").string();
  put(a, ">a\nACGTACGTAAGG\n");
  put(b, ">b\nACGTTCGTAAGG\n");
  std::string out;
  REQUIRE(run_stdout("bfs --grid 4 --algorithm cpu --json -", out) == 0);
  CHECK(nlohmann::json::parse(out).at("n") == 16);
  REQUIRE(run_stdout("align " + a + " " + b + " --algorithm cpu --json -", out) == 0);
  CHECK(nlohmann::json::parse(out).contains("score"));
  REQUIRE(run_cli("align " + a + " " + b + " --algorithm cpu --json -", out) == 0);
  CHECK(has(out, "score="));  // the summary, on stderr now
}

TEST_CASE("--json - for sort and tune: JSON alone on standard output" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string m = (d.path / "m.mtx").string();
  put(m, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 3\n");
  std::string out;
  REQUIRE(run_stdout("sort --n 64 --json -", out) == 0);
  CHECK(nlohmann::json::parse(out).at("n") == 64);
  REQUIRE(run_stdout("tune " + m + " --budget 0 --repeat 1 --no-store --json -", out) == 0);
  CHECK(nlohmann::json::parse(out).at("family") == "spmv");
}

// The 29 s of a 1000-key bitonic sort on PoCL (and the 14 s of a 1 x 1 alignment) are PoCL
// compiling the kernels: clBuildProgram, then clCreateKernel's work-group code generation (and a
// specialisation at the first launch). The kernels' run is a fraction of a millisecond, so the
// summary now says both: ms (the run) and build_ms (this process's kernel compiles).
TEST_CASE("a tiny sort and a 1 x 1 alignment report their compile time apart from the run" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  std::string out;
  REQUIRE(run_cli("sort --n 1000 --algorithm bitonic --barrier tree", out) == 0);
  auto kv = lockstep::test::last_line(out);
  REQUIRE(kv.count("build_ms"));
  CHECK(std::stod(kv["ms"]) < 1000);
  const std::string a = (d.path / "a.fa").string(), b = (d.path / "b.fa").string();
  put(a, ">a\nA\n");
  put(b, ">b\nA\n");
  REQUIRE(run_cli("align " + a + " " + b + " --algorithm barrier", out) == 0);
  kv = lockstep::test::last_line(out);
  REQUIRE(kv.count("build_ms"));
  CHECK(std::stod(kv["ms"]) < 1000);
}
