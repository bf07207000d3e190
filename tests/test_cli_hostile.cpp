// Hostile inputs, third round: each case used to crash, be accepted silently, or
// say too little; now each is refused with one line that names what is wrong and where. Cases
// in the test suite "device" open an OpenCL device; the others fail before one is opened.
#include <sys/stat.h>
#include <zlib.h>

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

/// Whether this build runs under AddressSanitizer (its CLI then cannot start under ulimit -v).
bool under_asan() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#else
  return false;
#endif
}

/// Standard output alone (standard error dropped).
int run_stdout(const std::string& args, std::string& out) {
  return run_shell("(" + lockstep::test::cli_path() + " " + args + " 2>/dev/null)", out);
}

}  // namespace

// Whether PoCL is the one OpenCL platform here (the GPU machine has NVIDIA's driver beside it,
// which behaves differently under resource limits: it aborts inside clGetPlatformIDs under a
// small `ulimit -v`).
static bool only_pocl() {
  std::string out;
  const std::string pocl = "platform=\"Portable Computing Language\"";
  bool only = run_cli("devices", out) == 0 && has(out, pocl);
  for (size_t at = out.find("platform="); at != std::string::npos;
       at = out.find("platform=", at + 1))
    only = only && out.compare(at, pocl.size(), pocl) == 0;
  return only;
}

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
  CHECK(run_cli("bfs --rmat 4 --bitmap-discoveries 0", out) == 2);
  CHECK(has(out, "--bitmap-discoveries needs --distributed"));
  CHECK(run_cli("bfs --rmat 4 --tiny-edges 0", out) == 2);
  CHECK(has(out, "--tiny-edges needs --distributed"));
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
  if (!only_pocl()) return lockstep::test::skip("PoCL is not the only OpenCL platform here");
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

// ---- Readers bounded while they read, errors carried out of parallel regions, and text from
// inputs escaped in outputs. ----

namespace {

/// A FASTA file of one record whose residues are `residues` copies of 'A' (gzip when `gz`).
void one_record(const std::string& path, size_t residues, bool gz) {
  const std::string line(4096, 'A');
  if (gz) {
    gzFile f = gzopen(path.c_str(), "wb1");
    gzputs(f, ">big\n");
    for (size_t done = 0; done < residues; done += line.size()) {
      gzwrite(f, line.data(), unsigned(line.size()));
      gzputs(f, "\n");
    }
    gzclose(f);
    return;
  }
  std::ofstream f(path, std::ios::binary);
  f << ">big\n";
  for (size_t done = 0; done < residues; done += line.size()) f << line << "\n";
}

}  // namespace

TEST_CASE("a FASTA gzip bomb stops at the host memory limit, while it is inflated") {
  if (under_asan())
    return lockstep::test::skip("ulimit -v leaves AddressSanitizer no shadow memory");
  // It was inflated whole before the check: under `ulimit -v` that ended in "out of host
  // memory" with no file named (or worse), and without one it took 2.1 GB for a 200 MiB limit.
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string(), bomb = (d.path / "bomb.fa.gz").string();
  put(q, ">q\nACDEFGHIK\n");
  one_record(bomb, size_t(700) << 20, true);
  std::string out;
  CHECK(run_shell("(ulimit -v 600000; LOCKSTEP_HOST_MEMORY_MIB=64 " + lockstep::test::cli_path() +
                      " search " + q + " " + bomb + " --algorithm cpu)",
                  out) == 1);
  CHECK(has(out, bomb + ": the sequences ("));
  CHECK(has(out, "bytes of FASTA so far) needs "));
  CHECK(has(out, "more than the 64 MiB"));
}

TEST_CASE("a FASTA file whose first byte is invalid is refused at once, before its size counts") {
  if (under_asan())
    return lockstep::test::skip("ulimit -v leaves AddressSanitizer no shadow memory");
  // 3 GiB of NUL bytes (a sparse file): it used to be read whole (60 s), or refused for its size
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string(), nul = (d.path / "nul.fa").string();
  put(q, ">q\nACDEFGHIK\n");
  { std::ofstream(nul, std::ios::binary); }
  fs::resize_file(nul, uintmax_t(3) << 30);
  std::string out;
  CHECK(run_shell("(ulimit -v 1000000; " + lockstep::test::cli_path() + " search " + q + " " + nul +
                      " --algorithm cpu)",
                  out) == 1);
  CHECK(has(out, nul + ":1: invalid character '\\x00' in a sequence"));
}

TEST_CASE("search refuses a sequence file without '>' headers, naming file and line") {
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string(), plain = (d.path / "plain.txt").string();
  put(q, ">q\nACDEFGHIK\n");
  put(plain, "\nACDEFGHIK\nLMNPQ\n");
  std::string out;
  CHECK(run_cli("search " + q + " " + plain + " --algorithm cpu", out) == 1);
  CHECK(has(out, plain + ":2: sequence text before any '>' header line"));
}

TEST_CASE("sort --input stops at 2^30 - 1 keys and at the host memory while it reads") {
  lockstep::test::TempDir d;
  const std::string sparse = (d.path / "keys.bin").string(), small = (d.path / "4m.bin").string();
  { std::ofstream(sparse, std::ios::binary); }
  fs::resize_file(sparse, uintmax_t(8) << 30);  // 2^31 u32 keys: refused before a byte is read
  put(small, std::string(size_t(4) << 20, '\1'));
  std::string out;
  const std::string cli = "timeout 120 " + lockstep::test::cli_path();
  CHECK(run_shell(cli + " sort --input " + sparse + " --binary", out) == 1);
  CHECK(has(out, sparse + ": more than 2^30 - 1 keys"));
  // /dev/zero never ends: it used to be read until memory ran out
  CHECK(run_shell("LOCKSTEP_HOST_MEMORY_MIB=64 " + cli + " sort --input /dev/zero --binary", out) ==
        1);
  CHECK(has(out, "/dev/zero: its keys needs "));
  CHECK(run_shell("LOCKSTEP_HOST_MEMORY_MIB=1 " + cli + " sort --input " + small + " --binary",
                  out) == 1);
  CHECK(has(out, small + ": its keys needs 4 MiB of host memory, more than the 1 MiB"));
}

TEST_CASE("an allocation that fails inside a parallel region is reported, not an abort") {
  if (under_asan())
    return lockstep::test::skip("ulimit -v leaves AddressSanitizer no shadow memory");
  if (!only_pocl())
    return lockstep::test::skip("another OpenCL driver than PoCL, which may abort under ulimit -v");
  // H and F of the CPU search (a row of the subject's length a thread) under `ulimit -v`:
  // std::bad_alloc escaped the OpenMP region, and the process aborted (exit 134)
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string(), big = (d.path / "big.fa").string();
  put(q, ">q\nACDEFGHIK\n");
  one_record(big, size_t(120) << 20, false);
  std::string out;
  CHECK(run_shell("(ulimit -v 1000000; " + lockstep::test::cli_path() + " search " + q + " " + big +
                      " --algorithm cpu --top 1)",
                  out) == 1);
  CHECK(has(out, "lockstep search: out of host memory"));
}

TEST_CASE("a stack of 64 KiB (ulimit -s 64) runs commands instead of crashing them" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  std::string out;
  CHECK(run_shell("(ulimit -s 64; " + lockstep::test::cli_path() + " gen laplace2d 8 -o " +
                      (d.path / "g.mtx").string() + ")",
                  out) == 0);
  CHECK(fs::exists(d.path / "g.mtx"));
  // the device's commands crashed (exit 139): the OpenCL platform's threads and its compiler
  CHECK(run_shell("(ulimit -s 64; " + lockstep::test::cli_path() + " sort --n 1000)", out) == 0);
  CHECK(has(out, "n=1000 type=u32"));
}

TEST_CASE(
    "record ids with terminal escapes or bytes that are no UTF-8 are escaped in TSV and JSON") {
  // The JSON writer threw "[json.exception.type_error.316] invalid UTF-8 byte" after the whole
  // search (no output at all), and an escape sequence in a header reached the terminal raw.
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string(), db = (d.path / "db.fa").string();
  const std::string tsv = (d.path / "s.tsv").string(), js = (d.path / "s.json").string();
  put(q,
      ">q\xff"
      "1 query\nACDEFGHIK\n");
  put(db,
      ">s\x1b[31mred\nACDEFGHIK\n>t\x9b"
      "2\nACDEFGHIK\n");
  std::string out;
  REQUIRE(run_cli("search " + q + " " + db + " --algorithm cpu --out " + tsv + " --json " + js,
                  out) == 0);
  std::ifstream t(tsv), j(js);
  const std::string text((std::istreambuf_iterator<char>(t)), {});
  CHECK(has(text, "q\\xff1\ts\\x1b[31mred\t"));
  CHECK(has(text, "q\\xff1\tt\\x9b2\t"));
  CHECK(!has(text, "\x1b"));
  const nlohmann::json report = nlohmann::json::parse(j);
  CHECK(report.dump().find("s\\\\x1b[31mred") != std::string::npos);
}

TEST_CASE("an empty --out, and a cache root in a symbolic link loop, are named in one line" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string();
  put(q, ">q\nACDEFGHIK\n");
  std::string out;
  CHECK(run_cli("search " + q + " " + q + " --algorithm cpu --out ''", out) == 2);
  CHECK(has(out, "--out: the path is empty"));
  CHECK(!has(out, "filesystem error"));
  CHECK(run_cli("gen proteins --residues 100 -o ''", out) != 0);
  CHECK(!has(out, "internal error"));
  fs::create_symlink(d.path / "b", d.path / "a");
  fs::create_symlink(d.path / "a", d.path / "b");
  CHECK(run_shell("LOCKSTEP_CACHE_DIR=" + (d.path / "a").string() + " " +
                      lockstep::test::cli_path() + " sort --n 100",
                  out) == 0);
  CHECK(has(out, "lockstep: warning: cache directory " + (d.path / "a").string()));
  CHECK(has(out, "Too many levels of symbolic links"));
}

TEST_CASE("an environment variable set to a value it cannot take is refused, named") {
  // each was ignored silently (LOCKSTEP_HOST_MEMORY_MIB=0 planned for the whole machine, ...)
  lockstep::test::TempDir d;
  const std::string gen =
      lockstep::test::cli_path() + " gen laplace2d 4 -o " + (d.path / "g.mtx").string();
  for (const std::string bad :
       {"LOCKSTEP_DISK_CACHE=false", "LOCKSTEP_DISK_CACHE=no", "LOCKSTEP_DISK_CACHE=2",
        "LOCKSTEP_HOST_MEMORY_MIB=0", "LOCKSTEP_HOST_MEMORY_MIB=abc", "LOCKSTEP_HOST_MEMORY_MIB=-1",
        "LOCKSTEP_HOST_MEMORY_MIB=1099511627776", "LOCKSTEP_DEVICE=0,,x", "LOCKSTEP_LOCAL_RANK=-7",
        "LOCKSTEP_BARRIER_C11=abc", "LOCKSTEP_SEARCH_DPX=9"}) {
    CAPTURE(bad);
    std::string out;
    CHECK(run_shell(bad + " " + gen, out) == 1);
    CHECK(has(out, "lockstep gen: " + bad + ": expected "));
    CHECK(!fs::exists(d.path / "g.mtx"));
  }
}

TEST_CASE("two outputs into one stream are refused: -, /dev/stdout, one FIFO") {
  // `--json - --out -` mixed TSV and JSON on standard output, `--json /dev/stdout --out -` let
  // the JSON overwrite the hits, and one FIFO given twice was written by both
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string(), fifo = (d.path / "jf").string();
  put(q, ">q\nACDEFGHIK\n");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string search = "search " + q + " " + q + " --algorithm cpu ";
  std::string out;
  CHECK(run_cli(search + "--json - --out -", out) == 2);
  CHECK(has(out, "--json - is the same file as --out -"));
  CHECK(run_shell("(" + lockstep::test::cli_path() + " " + search +
                      "--json /dev/stdout --out - 2>&1) | cat",
                  out) == 0);  // (the pipeline's status is cat's)
  CHECK(has(out, "--json /dev/stdout is the same file as --out -"));
  // (`timeout`: the old behaviour opened the FIFO twice for writing and waited for a reader)
  CHECK(run_shell("timeout 120 " + lockstep::test::cli_path() + " " + search + "--json " + fifo +
                      " --out " + fifo,
                  out) == 2);
  CHECK(has(out, "--json " + fifo + " is the same file as --out " + fifo));
  CHECK(run_cli(search + "--json /dev/null --out /dev/null", out) == 0);  // a sink takes both
}

TEST_CASE("apsp --path past 2^32 is refused, not wrapped") {
  std::string out;
  CHECK(run_cli("apsp --random 4 --cpu --path 4294967297,1", out) == 2);
  CHECK(has(out, "--path expects U,V with 1 <= U, V <= 4, got '4294967297,1'"));
}

TEST_CASE("precompile refuses a family or type it does not know, and empty lists") {
  for (const std::string bad : {"--family fft", "--family SORT", "--family ''",
                                "--family sort,,spmv", "--type ''", "--type f16"}) {
    CAPTURE(bad);
    std::string out;
    CHECK(run_cli("precompile " + bad + " --list", out) == 2);
    CHECK(has(out, "lockstep precompile: --"));
    CHECK(has(out, "(expected a comma list of "));
  }
}

TEST_CASE("cg --partition without --distributed is refused") {
  std::string out;
  CHECK(run_cli("cg gen:laplace2d:4 --partition planes", out) == 2);
  CHECK(has(out, "--partition needs --distributed"));
}

TEST_CASE("gen proteins writes --residues exactly and refuses a fraction, --device and -o ''") {
  lockstep::test::TempDir d;
  const std::string src = (d.path / "src.fa").string(), db = (d.path / "db.fa").string();
  put(src, ">long\n" + std::string(5000, 'A') + "\n");
  std::string out;
  REQUIRE(run_cli("gen proteins " + src + " -o " + db + " --residues 100", out) == 0);
  CHECK(has(out, "residues=100"));
  CHECK(fs::file_size(db) < 200);  // the 5000 residues of the source were written whole
  CHECK(run_cli("gen proteins " + src + " -o " + db + " --residues 1.5", out) == 2);
  CHECK(has(out, "--residues 1.5"));
  CHECK(run_cli("gen proteins " + src + " -o " + db + " --residues 10 --device 0", out) == 2);
  CHECK(has(out, "--device: gen proteins runs on the host"));
  CHECK(run_cli("gen proteins " + src + " -o '' --residues 10", out) == 2);
  CHECK(has(out, "-o: the path is empty"));
}

TEST_CASE("bytes quoted from an input are escaped: a NUL no longer cuts the message") {
  lockstep::test::TempDir d;
  const std::string keys = (d.path / "keys.txt").string(), m = (d.path / "m.mtx").string();
  put(keys, std::string("12\n3\0x\x1b[2J\n", 11));
  put(m,
      "%%MatrixMarket matrix coordinate real gen\x7f"
      "eral\n1 1 1\n1 1 1\n");
  std::string out;
  CHECK(run_cli("sort --input " + keys, out) == 1);
  CHECK(has(out, keys + ":2: '3\\x00x\\x1b[2J' is not a u32 key"));
  CHECK(run_cli("info " + m, out) == 1);
  CHECK(has(out, m + ":1: unsupported symmetry 'gen\\x7feral'"));
  CHECK(!has(out, "\x7f"));
}

TEST_CASE("a failed write to standard output says why, also when it failed mid-run") {
  // the hits went to a full standard output before the end; the message was "write error"
  lockstep::test::TempDir d;
  const std::string db = (d.path / "db.fa").string();
  std::string text;
  for (int i = 0; i < 200; ++i) text += ">s" + std::to_string(i) + "\nACDEFGHIKLMNPQRSTVWY\n";
  put(db, text);
  std::string out;
  CHECK(run_shell("(" + lockstep::test::cli_path() + " search " + db + " " + db +
                      " --algorithm cpu --top 5 > /dev/full)",
                  out) == 1);
  CHECK(has(out, "lockstep search: standard output: cannot write: No space left on device"));
}

TEST_CASE("no device under ulimit -v names the limit, not only a missing ICD" *
          doctest::test_suite("device")) {
  if (!only_pocl())
    return lockstep::test::skip("another OpenCL driver than PoCL, which may abort under ulimit -v");
  std::string out;
  const int rc =
      run_shell("(ulimit -v 300000; " + lockstep::test::cli_path() + " sort --n 100)", out);
  if (rc == 0) return lockstep::test::skip("the OpenCL driver starts within 300 MB here");
  // the driver lists no device, or fails listing them (CL_OUT_OF_HOST_MEMORY): either way the
  // message names the limit
  CHECK(rc == 1);
  CHECK((has(out, "no OpenCL device found") ||
         has(out, "listing the OpenCL devices: out of host memory")));
  CHECK(has(out, "(ulimit -v), which may be too little for the OpenCL driver to start"));
}
