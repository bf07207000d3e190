// The tuning database's path as hostile input, and concurrent `tune` runs. A FIFO,
// /dev/full or any other file that is not a regular one is refused (exit 1, named) before a
// byte is read (it used to block forever, or read /dev/full until the OOM killer came); an
// output naming the database is refused (exit 2) and the database stays; `stored=1` only when
// the entry is in the file (no usable cache: stored=0 and one line saying why); and four `tune`
// processes on one database keep all four entries (an advisory lock around read-merge-rename).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "support.hpp"

namespace fs = std::filesystem;
using lockstep::test::has;
using lockstep::test::run_cli;
using lockstep::test::run_shell;

namespace {

/// An n x n diagonal matrix: n makes its fingerprint (the tuning key) its own.
std::string diagonal(const fs::path& dir, int n) {
  const std::string p = (dir / ("diag" + std::to_string(n) + ".mtx")).string();
  std::ofstream f(p);
  f << "%%MatrixMarket matrix coordinate real general\n" << n << " " << n << " " << n << "\n";
  for (int i = 1; i <= n; ++i) f << i << " " << i << " " << i << "\n";
  return p;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

}  // namespace

TEST_CASE("a tuning database that is a FIFO or /dev/full is refused before it is read" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string fifo = (d.path / "db.fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string out;
  // `timeout` and a memory cap stop the old behaviour (a hang; reading /dev/full to the OOM
  // killer) instead of hanging the suite
  CHECK(run_shell("LOCKSTEP_TUNING_DB=" + fifo + " timeout 120 " + lockstep::test::cli_path() +
                      " tune --show",
                  out) == 1);
  CHECK(has(out, "tuning database " + fifo + ": a FIFO, not a regular file"));
  CHECK(run_shell("(ulimit -v 16000000; LOCKSTEP_TUNING_DB=/dev/full timeout 120 " +
                      lockstep::test::cli_path() + " tune --show)",
                  out) == 1);
  CHECK(has(out, "tuning database /dev/full: a character device, not a regular file"));
}

TEST_CASE("an output that names the tuning database is refused and the database stays") {
  lockstep::test::TempDir d;
  const std::string db = (d.path / "db.json").string(), m = diagonal(d.path, 1);
  std::ofstream(db) << "{\"precious\": 1}\n";
  lockstep::test::ScopedEnv env("LOCKSTEP_TUNING_DB", db);
  std::string out;
  CHECK(run_cli("tune " + m + " --budget 0 --json " + db, out) == 2);
  CHECK(has(out, "--json " + db + " is the tuning database (LOCKSTEP_TUNING_DB=" + db + ")"));
  CHECK(run_cli("sort --n 8 --json " + db, out) == 2);
  CHECK(slurp(db) == "{\"precious\": 1}\n");
}

TEST_CASE("tune with no usable cache prints stored=0 and says why" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string m = diagonal(d.path, 5);
  // PoCL keeps its own kernel cache where it always does; lockstep's cache root is unusable
  const char* home = std::getenv("HOME");
  const std::string pocl = std::getenv("POCL_CACHE_DIR") ? std::getenv("POCL_CACHE_DIR")
                           : home                        ? std::string(home) + "/.cache/pocl"
                                                         : (d.path / "pocl").string();
  std::string out;
  REQUIRE(run_shell("env -u LOCKSTEP_TUNING_DB -u LOCKSTEP_CACHE_DIR -u LOCKSTEP_DISK_CACHE "
                    "XDG_CACHE_HOME=/dev/null/cache POCL_CACHE_DIR=" +
                        pocl + " " + lockstep::test::cli_path() + " tune " + m +
                        " --budget 0 --repeat 1",
                    out) == 0);
  CHECK(has(out, " stored=0 "));
  CHECK(!has(out, "stored=1"));
  CHECK(has(out, "tuning result not stored: no tuning database (the cache directory is unusable"));
}

TEST_CASE("four concurrent tune runs on one database keep every entry" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string db = (d.path / "db.json").string();
  std::string cmd = "export LOCKSTEP_TUNING_DB=" + db + "; ";
  for (int k = 1; k <= 4; ++k)
    cmd += lockstep::test::cli_path() + " tune " + diagonal(d.path, 10 + k) +
           " --budget 0 --repeat 1 > " + (d.path / ("out" + std::to_string(k))).string() +
           " 2>&1 & ";
  cmd += "wait";
  std::string out;
  REQUIRE(run_shell(cmd, out) == 0);
  std::set<std::string> printed;  // the keys each run says it stored
  for (int k = 1; k <= 4; ++k) {
    const std::string o = slurp(d.path / ("out" + std::to_string(k)));
    CAPTURE(o);
    const size_t at = o.find("best ");
    REQUIRE(at != std::string::npos);
    const auto kv = lockstep::test::last_line(o.substr(at, o.find('\n', at) - at));
    CHECK(kv.count("stored"));
    if (kv.count("stored") && kv.at("stored") == "1") printed.insert(kv.at("key"));
  }
  CHECK(printed.size() == 4);
  const nlohmann::json j = nlohmann::json::parse(slurp(db));
  std::set<std::string> kept;
  for (const auto& e : j.at("entries")) kept.insert(e.at("key").get<std::string>());
  CHECK(kept == printed);
}

TEST_CASE("a tuning database that names an input or a file lockstep did not write is refused" *
          doctest::test_suite("device")) {
  // It used to be read as a corrupt database and replaced: `LOCKSTEP_TUNING_DB=m.mtx lockstep
  // tune m.mtx` overwrote the matrix (exit 0), a FASTA file was "corrupt" and replaced.
  lockstep::test::TempDir d;
  const std::string m = diagonal(d.path, 3), fa = (d.path / "q.fa").string();
  std::ofstream(fa) << ">q1\nACDEFG\n";
  const std::string matrix = slurp(m);
  std::string out;
  const std::string tune = lockstep::test::cli_path() + " tune " + m + " --budget 0 --repeat 1";
  CHECK(run_shell("LOCKSTEP_TUNING_DB=" + m + " " + tune, out) == 2);
  CHECK(has(out, "LOCKSTEP_TUNING_DB=" + m + " is the same file as FILE " + m));
  CHECK(slurp(m) == matrix);
  CHECK(run_shell("LOCKSTEP_TUNING_DB=" + fa + " " + tune, out) == 1);
  CHECK(has(out, "tuning database " + fa + ": not JSON, so not a tuning database lockstep wrote"));
  CHECK(slurp(fa) == ">q1\nACDEFG\n");
  CHECK(slurp(m) == matrix);
  // a database that was damaged is moved aside (one line, no parser jargon), then written anew
  const std::string db = (d.path / "db.json").string();
  const std::string damaged = "{\n \"lockstep_version\": \"0.1\",\n \"entries\": [\n";
  std::ofstream(db) << damaged;
  CHECK(run_shell("LOCKSTEP_TUNING_DB=" + db + " " + tune, out) == 0);
  CHECK(has(out, "corrupt tuning database " + db));
  CHECK(has(out, "moved aside to " + db + ".corrupt"));
  CHECK(!has(out, "json.exception"));
  CHECK(slurp(db + ".corrupt") == damaged);
  CHECK(nlohmann::json::parse(slurp(db)).at("entries").size() == 1);
}

TEST_CASE("an error after tune's progress starts on a line of its own" *
          doctest::test_suite("device")) {
  // the store fails (no such folder) after the candidates ran: the message was glued to the
  // last '\r' progress line
  lockstep::test::TempDir d;
  const std::string m = diagonal(d.path, 4);
  std::string out;
  CHECK(run_shell("LOCKSTEP_TUNING_DB=/proc/no-such-folder/db.json " + lockstep::test::cli_path() +
                      " tune " + m + " --budget 0 --repeat 1",
                  out) == 1);
  // (the progress bar is drawn on a terminal only; here the message is the first thing said)
  const std::string msg =
      "lockstep tune: cannot write tuning database /proc/no-such-folder/db.json";
  CHECK((out.rfind(msg, 0) == 0 || has(out, "\n" + msg)));
}
