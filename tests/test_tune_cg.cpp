// The tuner end to end through the CLI (every candidate verified; the best stored; a later
// `spmv --kernel auto` uses it; --show lists it), and conjugate gradients on an SPD matrix
// verified against the CPU solve.
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
  test::ScopedEnv env("LOCKSTEP_CACHE_DIR", cache.path.string());
  std::string m = (test::source_dir() / "matrices" / "banded_1000_3.mtx").string(), out, json = (cache.path / "t.json").string();

  int rc = test::run_cli("tune " + m + " --budget 30 --repeat 3 --json " + json, out);
  std::string best = out.substr(out.rfind("best "));
  int rc_auto = test::run_cli("spmv " + m + " --kernel auto --verify --repeat 3", out);
  std::string auto_line = out;
  int rc_show = test::run_cli("tune --show", out);

  REQUIRE(rc == 0);
  CHECK(value_of(best, "family") == "spmv");
  CHECK(value_of(best, "algorithm") != "");
  CHECK(value_of(best, "stored") == "1");
  CHECK(std::stoi(value_of(best, "candidates")) * 4 <= std::stoi(value_of(best, "search_space")) + 4);
  CHECK(std::filesystem::file_size(json) > 100);
  CHECK(rc_auto == 0);
  CHECK(value_of(auto_line, "kernel") == value_of(best, "algorithm"));
  CHECK(std::to_string(1 << std::stoi(value_of(auto_line, "wg_bits"))) == value_of(best, "local_size"));
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
