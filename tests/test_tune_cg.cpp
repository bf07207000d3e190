// The tuner end to end through the CLI (every candidate verified; the best stored; a later
// `spmv --kernel auto` uses it; --show lists it), and conjugate gradients on an SPD matrix
// verified against the CPU solve.
#include <fstream>

#include "support.hpp"

using namespace lockstep;

namespace {
std::string value_of(const std::string& out, const std::string& key) {
  auto p = out.rfind(" " + key + "=");
  if (p == std::string::npos) return "";
  p += key.size() + 2;
  return out.substr(p, out.find_first_of(" \n", p) - p);
}
}  // namespace

TEST_CASE("lockstep tune stores the best configuration and spmv --kernel auto uses it") {
  test::TempDir cache;
  setenv("LOCKSTEP_CACHE_DIR", cache.path.c_str(), 1);
  std::string m = (test::source_dir() / "matrices" / "banded_1000_3.mtx").string(), out, json = (cache.path / "t.json").string();

  int rc = test::run_cli("tune " + m + " --budget 30 --repeat 3 --json " + json, out);
  std::string best = out.substr(out.rfind("best "));
  int rc_auto = test::run_cli("spmv " + m + " --kernel auto --verify --repeat 3", out);
  std::string auto_line = out;
  int rc_show = test::run_cli("tune --show", out);
  unsetenv("LOCKSTEP_CACHE_DIR");

  REQUIRE(rc == 0);
  CHECK(value_of(best, "kernel") != "");
  CHECK(std::stoi(value_of(best, "candidates")) * 4 <= std::stoi(value_of(best, "search_space")) + 4);
  CHECK(std::filesystem::file_size(json) > 100);
  CHECK(rc_auto == 0);
  CHECK(value_of(auto_line, "kernel") == value_of(best, "kernel"));
  CHECK(value_of(auto_line, "wg_bits") == value_of(best, "wg_bits"));
  CHECK(value_of(auto_line, "verified") == "1");
  CHECK(rc_show == 0);
  CHECK(out.find("routine=spmv") != std::string::npos);
}

TEST_CASE("lockstep cg solves laplace2d and matches the CPU solve") {
  std::string m = (test::source_dir() / "matrices" / "laplace2d_64.mtx").string(), out;

  int rc = test::run_cli("cg " + m + " --tol 1e-10", out);

  CHECK(rc == 0);
  CHECK(value_of(out, "verified") == "1");
  CHECK(std::stod(value_of(out, "residual")) <= 1e-10);
  CHECK(value_of(out, "iterations") == value_of(out, "cpu_iterations"));
  CHECK(std::stod(value_of(out, "rms_err_vs_cpu")) < 1e-9);
  CHECK(test::run_cli("cg " + m + " --tol", out) == 2);
}

TEST_CASE("lockstep cg on an indefinite matrix says breakdown on stderr") {
  test::TempDir d;
  const std::string m = (d.path / "indefinite.mtx").string();
  // diag(1, -1): b = (1, -1), p'Ap = 1 - 1 = 0 at the first step
  std::ofstream(m) << "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 -1\n";
  std::string out;
  CHECK(test::run_cli("cg " + m, out) == 1);  // was: exit 1, nothing on stderr
  CHECK(out.find("lockstep cg: " + m + ": breakdown at iteration 0: p'Ap = 0 <= 0: the matrix is "
                 "not positive definite") != std::string::npos);
}
