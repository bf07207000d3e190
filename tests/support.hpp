// Shared test support: the device under test (LOCKSTEP_DEVICE, else the default), the one
// floating-point comparison used by every test, paths to project and shared matrices, and
// a runner for the CLI.
#pragma once
#include <doctest/doctest.h>
#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "lockstep/error.hpp"
#include "lockstep/runtime.hpp"
#include "lockstep/tolerance.hpp"

namespace lockstep::test {

/// Whether the running test case called skip(); tests/main.cpp's listener resets it per case
/// and counts a case as skipped when it called skip() and checked nothing.
inline bool& skip_called() {
  static bool called = false;
  return called;
}

/// A test case (or a part of it) that cannot run here says so, instead of passing silently:
/// `if (!ctx.info().fp64) return test::skip("no fp64");`. The line "skipped: REASON" is printed;
/// a case that called skip() and checked nothing is counted as skipped in the summary, and a
/// run in which every case was skipped exits 77, which CTest shows as "Skipped"
/// (SKIP_RETURN_CODE in tests/CMakeLists.txt). doctest 2.4 has no run-time skip of its own.
inline void skip(const std::string& reason) {
  MESSAGE("skipped: " << reason);
  skip_called() = true;
}

/// One context per test process, on the device LOCKSTEP_DEVICE names.
inline Context& context() {
  static Context ctx;
  return ctx;
}

using lockstep::close;
using lockstep::tolerance;

/// Checks every element; on failure reports the first bad index (and the whole vectors when
/// they are small enough to read).
template <typename G>
void check_close(const std::vector<G>& got, const std::vector<double>& want,
                 const std::vector<double>& tol, const std::vector<double>& scale) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0, first = want.size();
  for (size_t i = 0; i < want.size(); ++i)
    if (!close(double(got[i]), want[i], tol[i], scale[i])) {
      if (first == want.size()) first = i;
      ++bad;
    }
  if (bad) {
    std::ostringstream s;
    s.precision(17);
    s << bad << " of " << want.size() << " values differ; first at " << first << ": got "
      << double(got[first]) << " want " << want[first] << " tol " << tol[first];
    if (want.size() <= 16) {
      s << "\n got:";
      for (auto g : got) s << " " << double(g);
      s << "\nwant:";
      for (auto w : want) s << " " << w;
    }
    FAIL(s.str());
  }
}

/// The source tree (LOCKSTEP_SOURCE_DIR in the environment overrides the build's path, so the
/// suite can run from a copy on another machine).
inline std::filesystem::path source_dir() {
  const char* env = std::getenv("LOCKSTEP_SOURCE_DIR");  // in src/runtime/environment.cpp's table
  return env && *env ? env : LOCKSTEP_SOURCE_DIR;
}
/// ../shared/matrices beside the checkout, when present (tests skip cleanly otherwise).
inline std::filesystem::path shared_matrices() {
  return source_dir().parent_path() / "shared" / "matrices";
}

/// The CLI under test: LOCKSTEP_CLI from the environment, else the build's, else a `lockstep`
/// beside this test binary or in its parent folder (a copied build: tools/gpu/prepare.sh puts
/// both in .carry/), else the build's path, which then fails with the shell's "not found".
inline std::string cli_path() {
  const char* env = std::getenv("LOCKSTEP_CLI");  // in src/runtime/environment.cpp's table
  if (env && *env) return env;
  std::error_code ec;
  if (std::filesystem::exists(LOCKSTEP_CLI, ec)) return LOCKSTEP_CLI;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec)
    for (const auto& dir : {self.parent_path(), self.parent_path().parent_path()})
      if (std::filesystem::exists(dir / "lockstep", ec) &&
          !std::filesystem::is_directory(dir / "lockstep", ec))
        return (dir / "lockstep").string();
  return LOCKSTEP_CLI;
}

/// Runs a shell command line; returns its exit code and fills `out` (stdout+stderr).
inline int run_shell(const std::string& command, std::string& out) {
  const std::string cmd = command + " 2>&1";
  out.clear();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Whether `text` holds `what` (the CLI tests' checks of a message or an output line).
/// The message of the input_error that f throws; "" when it throws none.
inline std::string input_error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

inline bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

/// Runs the CLI with the given arguments; returns its exit code and fills `out` (stdout+stderr).
inline int run_cli(const std::string& args, std::string& out) {
  return run_shell(cli_path() + " " + args, out);
}

/// The key=value pairs of the last line of a command's output (the CLI's summary line).
inline std::map<std::string, std::string> last_line(const std::string& out) {
  std::string s = out.substr(0, out.find_last_not_of('\n') + 1);
  std::istringstream in(s.substr(s.rfind('\n') == std::string::npos ? 0 : s.rfind('\n') + 1));
  std::map<std::string, std::string> kv;
  for (std::string tok; in >> tok;)
    if (auto eq = tok.find('='); eq != std::string::npos)
      kv[tok.substr(0, eq)] = tok.substr(eq + 1);
  return kv;
}

/// A fresh temporary directory, removed by the destructor.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/lockstep-test-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

/// Writes `text` to the file `name` in `d` (binary); returns its path.
inline std::string write(const TempDir& d, const std::string& name, const std::string& text) {
  const std::string path = (d.path / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// A file's whole content (binary; "" when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Sets (or, with nullptr, unsets) an environment variable for one scope; restores it after.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const std::string& n, const char* value) : name(n) {
    if (const char* o = std::getenv(n.c_str())) old = o;
    value ? setenv(n.c_str(), value, 1) : unsetenv(n.c_str());
  }
  ScopedEnv(const std::string& n, const std::string& value) : ScopedEnv(n, value.c_str()) {}
  ~ScopedEnv() { old ? setenv(name.c_str(), old->c_str(), 1) : unsetenv(name.c_str()); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
};

/// A full disk, as the kernel reports it to a writer: RLIMIT_FSIZE = `bytes` with SIGXFSZ
/// ignored, so write() fails with EFBIG past it. Child processes (run_cli) inherit both.
struct DiskFull {
  rlimit old{};
  void (*old_handler)(int) = nullptr;
  explicit DiskFull(rlim_t bytes = 0) {
    getrlimit(RLIMIT_FSIZE, &old);
    old_handler = signal(SIGXFSZ, SIG_IGN);
    rlimit lim = old;
    lim.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &lim);
  }
  ~DiskFull() {
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
  }
};

/// Files in `dir` whose name contains `part` (e.g. ".tmp": temporaries left behind).
inline int count_files(const std::filesystem::path& dir, const std::string& part) {
  int n = 0;
  std::error_code ec;
  for (auto& e : std::filesystem::recursive_directory_iterator(dir, ec))
    n += e.path().filename().string().find(part) != std::string::npos;
  return n;
}

}  // namespace lockstep::test
