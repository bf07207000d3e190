// The CLI's error contract, one case per failure the mutation campaign found: a
// directory, a missing or an unreadable path as the input (exit 1 naming it, for every command
// that reads a file); a pipe, FIFO, stdin or .gz as the input (read as a stream); numeric
// options out of range (exit 2 naming the option); --tile/--K 0 meaning automatic; a
// LOCKSTEP_CACHE_DIR that is a regular file (one warning, uncached run); and the exception to
// exit code mapping itself (4 for anything unexpected, never an abort). Cases in the test suite
// "device" open an OpenCL device; the others are host-only and run in the sanitizer build.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "exit_codes.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/runtime.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

std::string matrix() { return (test::source_dir() / "matrices" / "laplace2d_64.mtx").string(); }

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

using test::ScopedEnv;

}  // namespace

TEST_CASE(
    "a directory, a missing or an unreadable input: exit 1 naming it, for every reading command") {
  test::TempDir d;
  const std::string dir = d.path.string(), missing = dir + "/missing.mtx";
  std::string out;

  for (std::string cmd : {"info", "spmv", "cg", "tune", "apsp", "tune apsp", "bench parse"}) {
    CAPTURE(cmd);
    CHECK(test::run_cli(cmd + " " + dir, out) == 1);
    CHECK(out.find(dir + ": is a directory") != std::string::npos);
    CHECK(out.find("internal error") == std::string::npos);
    CHECK(test::run_cli(cmd + " " + missing, out) == 1);
    CHECK(out.find(missing + ": cannot open") != std::string::npos);
  }
  if (geteuid() != 0) {  // root reads everything
    const std::string locked = dir + "/locked.mtx";
    std::ofstream(locked) << "%%MatrixMarket matrix coordinate real general\n1 1 0\n";
    chmod(locked.c_str(), 0);
    CHECK(test::run_cli("info " + locked, out) == 1);
    CHECK(out.find(locked + ": cannot open") != std::string::npos);
  }
}

TEST_CASE("inputs from a pipe, a FIFO, standard input and gzip read as streams") {
  test::TempDir d;
  const std::string good = (d.path / "g.mtx").string(), fifo = (d.path / "fifo").string();
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\n2 3 3\n1 1 1\n1 3 1\n2 2 1\n";
  std::ofstream(good) << text;
  const std::string want = "rows=2 cols=3 nnz=3";
  const std::string cli = test::cli_path();
  std::string out;

  CHECK(test::run_cli("info - < " + good, out) == 0);
  CHECK(out.find(want) != std::string::npos);
  if (std::system("command -v bash >/dev/null 2>&1") == 0) {  // the issue's own command line
    FILE* p = popen(("bash -c '" + cli + " info <(cat " + good + ")' 2>&1").c_str(), "r");
    REQUIRE(p);
    char buf[512];
    out.clear();
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    CHECK(pclose(p) == 0);
    CHECK_MESSAGE(out.find(want) != std::string::npos, out);
  }
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  for (int round = 0; round < 2; ++round) {  // a FIFO through the CLI, then through the library
    std::thread writer([&] { std::ofstream(fifo) << text; });
    if (round == 0) {
      CHECK(test::run_cli("info " + fifo, out) == 0);
      CHECK(out.find(want) != std::string::npos);
    } else {
      Triplets t = read_triplets(fifo);
      CHECK(t.row.size() == 3);
    }
    writer.join();
  }
  if (std::system(("gzip -c " + good + " > " + good + ".gz 2>/dev/null").c_str()) == 0) {
    CHECK(test::run_cli("info " + good + ".gz", out) == 0);
    CHECK(out.find(want) != std::string::npos);
  }
}

TEST_CASE("numeric options out of range are usage errors (exit 2) that name the option") {
  const std::string m = matrix();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"spmv " + m + " --repeat -1", "--repeat must be in [1, 1000000], got -1"},
      {"spmv " + m + " --repeat 0", "--repeat must be in"},
      {"spmv " + m + " --wg-bits 40", "--wg-bits must be in [0, 12]"},  // deprecated spelling
      {"spmv " + m + " --local-size 5000", "--local-size must be in [1, 4096]"},
      {"spmv " + m + " --local-size 48", "--local-size must be a power of two"},
      {"spmv " + m + " --shuffle 2", "--shuffle must be in [0, 1]"},
      {"spmv " + m + " --repeat abc", "--repeat"},
      {"tune " + m + " --budget -5", "--budget must be in [0, 1000000], got -5"},
      {"tune " + m + " --budget nan", "--budget must be in"},
      {"tune " + m + " --repeat 0", "--repeat must be in"},
      {"cg " + m + " --tol -1", "--tol must be in [0, 1]"},
      {"cg " + m + " --maxit 0", "--maxit must be in"},
      {"apsp --random 10 --tile -16", "--tile must be in [0, 64]"},
      {"apsp --random 10 --tile 7", "--tile must be 16, 32 or 64"},
      {"apsp --random 10 --K -1", "--K must be in [0, 64]"},
      {"apsp --random 10 --K 65", "--K must be in [0, 64]"},
      {"apsp --random 10 --thread-tile 3", "--thread-tile must be 4 or 8"},
      {"apsp --random 10 --cpu --threads -1", "--threads must be in [0, 4096]"},
      {"apsp --random 10 --repeat 0", "--repeat must be in"},
      {"apsp --random 10,2", "--random expects"},
      {"apsp --random 10,0.1,-1", "--random expects"},
      {"apsp --random 99999999999999999999", "--random expects"},
      {"tune apsp --random 10 --repeat 0", "--repeat must be in [1, 1000]"},
      {"gen laplace2d -5 -o /dev/null", "'-5'"},  // read as an option: still a usage error
      {"gen laplace2d 4.5 -o /dev/null", "N must be an integer"},
      {"gen laplace2d 1e12 -o /dev/null", "N must be an integer"},
      {"gen uniform 10 2.5 -o /dev/null", "k must be an integer"},
      {"gen powerlaw 10 nan -o /dev/null", "alpha must be finite"},
      {"gen laplace2d 4 -o /dev/null --seed -1", "--seed must be in"},
      {"bench parse " + m + " --repeat 0", "--repeat must be in"},
      {"bench barrier --rounds 0", "--rounds must be in"},
      {"bench barrier --local-size -1", "--local-size must be in"},
      {"bench barrier --branch -2", "--branch must be in"},
  };
  for (auto& [args, message] : cases) {
    std::string out;
    CAPTURE(args);

    const int rc = test::run_cli(args, out);

    CHECK(rc == 2);
    CHECK_MESSAGE(out.find(message) != std::string::npos, out);
  }
  std::string help;
  CHECK(test::run_cli("spmv --help", help) == 0);
  CHECK(help.find("--repeat arg (=20) in [1, 1000000]") != std::string::npos);
}

TEST_CASE("apsp --tile 0, --K 0 and --thread-tile 0 mean automatic, as --help says" *
          doctest::test_suite("device")) {
  std::string out;
  REQUIRE(test::run_cli("apsp --help", out) == 0);
  CHECK(out.find("0 = automatic") != std::string::npos);

  REQUIRE(test::run_cli("apsp --random 40,0.2,3 --tile 0 --K 0 --thread-tile 0", out) == 0);

  const size_t at = out.find(" tile=");
  REQUIRE(at != std::string::npos);
  const int tile = std::atoi(out.c_str() + at + 6);
  CHECK((tile == 16 || tile == 32 || tile == 64));
  CHECK(out.find(" K=0") == std::string::npos);
}

TEST_CASE(
    "cache_directory: a regular file or an unwritable directory gives \"\", a new one is created") {
  test::TempDir d;
  const std::string file = (d.path / "file").string(), fresh = (d.path / "a" / "b").string();
  std::ofstream(file) << "not a directory\n";

  {
    ScopedEnv env("LOCKSTEP_CACHE_DIR", file);
    CHECK(cache_directory().empty());
    CHECK(cache_directory().empty());  // and warns only once (checked through the CLI below)
  }
  {
    ScopedEnv env("LOCKSTEP_CACHE_DIR", fresh);
    CHECK(cache_directory() == fresh);
    CHECK(std::filesystem::is_directory(fresh));
  }
  {  // each root is checked once per process, and answered by its own check after that
    ScopedEnv env("LOCKSTEP_CACHE_DIR", file);
    CHECK(cache_directory().empty());
    ScopedEnv again("LOCKSTEP_CACHE_DIR", fresh);
    CHECK(cache_directory() == fresh);
  }
  if (geteuid() != 0) {
    const std::string ro = (d.path / "ro").string();
    std::filesystem::create_directory(ro);
    chmod(ro.c_str(), 0555);
    ScopedEnv env("LOCKSTEP_CACHE_DIR", ro);
    CHECK(cache_directory().empty());
  }
}

TEST_CASE("LOCKSTEP_CACHE_DIR naming a regular file: one warning line, then an uncached run" *
          doctest::test_suite("device")) {
  test::TempDir d;
  const std::string file = (d.path / "not-a-dir").string();
  std::ofstream(file) << "x";
  ScopedEnv env("LOCKSTEP_CACHE_DIR", file);
  std::string out;

  const int rc = test::run_cli("spmv " + matrix() + " --algorithm scalar --repeat 1 --verify", out);

  CHECK(rc == 0);
  CHECK_MESSAGE(count(out, "warning: cache directory " + file) == 1, out);
  CHECK(out.find("verified=1") != std::string::npos);
  std::ifstream in(file);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  CHECK(content == "x");
}

TEST_CASE("exit codes: each exception kind maps to its code, anything else to 4 with its message") {
  auto code = [](auto thrower, std::string& message) {
    std::ostringstream err;
    int rc = -1;
    try {
      thrower();
    } catch (...) {
      rc = cli::exit_code_of_current_exception("lockstep x", err);
    }
    message = err.str();
    return rc;
  };
  std::string m;

  CHECK(code([] { throw cli::usage_error("bad option"); }, m) == 2);
  CHECK(m == "lockstep x: bad option\n");
  CHECK(code([] { throw input_error("f.mtx:3: bad index"); }, m) == 1);
  CHECK(m == "lockstep x: f.mtx:3: bad index\n");
  CHECK(code([] { throw input_error("x: stripe must be even"); }, m) == 1);
  CHECK(m == "lockstep x: stripe must be even\n");  // the command's name said once
  CHECK(code([] { throw opencl_error("clFinish", CL_OUT_OF_RESOURCES); }, m) == 3);
  CHECK(m.find("OpenCL error") != std::string::npos);
  CHECK(code([] { throw std::bad_alloc(); }, m) == 1);
  CHECK(code([] { throw std::length_error("basic_string::_M_create"); }, m) == 4);
  CHECK(m == "lockstep x: internal error: basic_string::_M_create\n");
  CHECK(code([] { throw 42; }, m) == 4);
  CHECK(m == "lockstep x: internal error: unknown exception\n");
}
