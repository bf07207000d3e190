// The tuner end to end through the CLI (every candidate verified; the best stored; a later
// `spmv --algorithm auto` uses it; --show lists it), and conjugate gradients on an SPD matrix
// verified against the CPU solve; a tune whose database write fails.
#include <fstream>
#include <nlohmann/json.hpp>

#include "lockstep/version.hpp"
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

TEST_CASE("lockstep tune stores the best configuration and spmv --algorithm auto uses it") {
  test::TempDir cache;
  test::ScopedEnv env("LOCKSTEP_CACHE_DIR", cache.path.string());
  std::string m = (test::source_dir() / "matrices" / "banded_1000_3.mtx").string(), out,
              json = (cache.path / "t.json").string();

  int rc = test::run_cli("tune " + m + " --budget 30 --repeat 3 --json " + json, out);
  // stderr is a pipe here, not a terminal: no carriage-return progress bar in a log
  const bool carriage_returns = out.find('\r') != std::string::npos;
  std::string best = out.substr(out.rfind("best "));
  int rc_auto = test::run_cli("spmv " + m + " --algorithm auto --verify --repeat 3", out);
  std::string auto_line = out;
  int rc_show = test::run_cli("tune --show", out);

  REQUIRE(rc == 0);
  CHECK_FALSE(carriage_returns);
  CHECK(value_of(best, "family") == "spmv");
  CHECK(value_of(best, "algorithm") != "");
  CHECK(value_of(best, "stored") == "1");
  CHECK(std::stoi(value_of(best, "candidates")) * 4 <=
        std::stoi(value_of(best, "search_space")) + 4);
  CHECK(std::filesystem::file_size(json) > 100);
  CHECK(rc_auto == 0);
  CHECK(value_of(auto_line, "algorithm") == value_of(best, "algorithm"));
  CHECK(value_of(auto_line, "local_size") == value_of(best, "local_size"));
  CHECK(value_of(auto_line, "verified") == "1");
  CHECK(rc_show == 0);
  CHECK(out.find("routine=spmv") != std::string::npos);
}

// A `tune` whose database write fails (a full disk) must say so, exit non-zero and leave the
// previous database whole and no `*.json.tmp*` beside it (a partial temporary would be left
// for every later run to trip over). The disk is "full" above 4 MiB (RLIMIT_FSIZE, so PoCL's own
// small files still fit) and the database to rewrite holds 8 MiB of other entries. (A fresh
// database whose write fails is test_tuning_db.cpp's "a failed write throws" case.)
TEST_CASE("lockstep tune whose database write fails exits 1 and leaves no file behind") {
  test::TempDir cache;
  std::string db = (cache.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_CACHE_DIR", cache.path.string()), env_db("LOCKSTEP_TUNING_DB", db);
  std::string m = (test::source_dir() / "matrices" / "laplace2d_64.mtx").string(), out;
  nlohmann::json j = {{"lockstep_version", version}, {"entries", nlohmann::json::array()}};
  for (int i = 0; i < 8192; ++i)
    j["entries"].push_back({{"routine", "other"},
                            {"key", std::to_string(i) + std::string(1000, 'k')},
                            {"params", nlohmann::json::object()}});
  std::ofstream(db) << j.dump();
  auto size = std::filesystem::file_size(db);

  int rc;
  {
    test::DiskFull full(4 << 20);
    rc = test::run_cli("tune " + m + " --budget 1 --repeat 1", out);
  }

  INFO(out);
  CHECK(rc == 1);
  CHECK(out.find("cannot write tuning database " + db) != std::string::npos);
  CHECK(std::filesystem::file_size(db) == size);
  CHECK(test::count_files(cache.path, ".tmp") == 0);
  CHECK(test::run_cli("tune --show", out) == 0);
  CHECK(out.find("routine=other") != std::string::npos);
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
  CHECK(out.find("lockstep cg: " + m +
                 ": breakdown at iteration 0: p'Ap = 0 <= 0: the matrix is "
                 "not positive definite") != std::string::npos);
}
