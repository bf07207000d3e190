// Interrupted runs: SIGINT, SIGTERM or SIGHUP during a run leaves no output file and
// no hidden temporary (.NAME.tmpPID-N) behind, and the process still ends as killed by the
// signal (a shell's 130 or 143). Two halves: (1) the CLI, stopped while it waits for its input
// on a FIFO after its outputs were opened (the temporaries are made only when a result is
// written, so none exists yet); (2) the writer itself, stopped while its temporary exists (the
// signal handler of src/io/temporaries.cpp removes it). Both are deterministic: the test knows
// where the process stands (the FIFO's reader opened; the child said so on a pipe).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "io/temporaries.hpp"
#include "lockstep/io.hpp"
#include "support.hpp"

extern char** environ;
namespace fs = std::filesystem;

namespace {

std::set<std::string> names(const fs::path& dir) {
  std::set<std::string> s;
  for (const auto& e : fs::directory_iterator(dir)) s.insert(e.path().filename().string());
  return s;
}

/// Starts the CLI with `args` (stdout to `out_fd` when not -1, else to /dev/null, and stderr to
/// /dev/null); returns its pid.
pid_t spawn_cli(const std::vector<std::string>& args, int out_fd = -1) {
  std::vector<std::string> argv_s{lockstep::test::cli_path()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out_fd >= 0)
    posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  else
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  // The signals the test sends take their default action in the CLI, whatever this process
  // inherited: under nohup SIGHUP is ignored, and an exec keeps an ignored signal ignored (the
  // CLI then kept waiting on its FIFO and the test waited for it forever).
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGXFSZ}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &defaults);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &fa, &at, argv.data(), environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

/// Opens `fifo` for writing once the CLI has opened it for reading: then the CLI is past its
/// option checks and its Outputs, waiting for input. -1 when the CLI exited first (or 60 s).
int open_when_read(const std::string& fifo, pid_t pid) {
  for (int i = 0; i < 6000; ++i) {
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) return fd;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

/// A pipe whose buffer is full (the test never reads it): a process writing to it blocks.
/// Returns its write end (blocking again); the read end goes to `read_end`.
int full_pipe(int& read_end) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return -1;
  ::fcntl(p[1], F_SETFL, O_NONBLOCK);
  const std::string junk(4096, 'j');
  while (::write(p[1], junk.data(), junk.size()) > 0) {
  }
  ::fcntl(p[1], F_SETFL, 0);
  read_end = p[0];
  return p[1];
}

/// The name in `dir` that starts with `prefix`, once one exists; "" when `pid` exited first.
std::string wait_for_name(const fs::path& dir, const std::string& prefix, pid_t pid) {
  for (;;) {
    for (const std::string& n : names(dir))
      if (n.rfind(prefix, 0) == 0) return n;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return "";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void write_fasta(const std::string& path, const std::string& stem, int records, unsigned seed) {
  std::string text;
  const char* aa = "ACDEFGHIKLMNPQRSTVWY";
  for (int r = 0; r < records; ++r) {
    text += ">" + stem + std::to_string(r) + "\n";
    for (int i = 0; i < 40; ++i) text += aa[(seed = seed * 1103515245u + 12345u) >> 16 & 15];
    text += "\n";
  }
  lockstep::write_output(path, text);
}

}  // namespace

TEST_CASE("a signal while a device run's output is half written removes its temporary" *
          doctest::test_suite("device")) {
  // The run loads the OpenCL platform (PoCL's LLVM then has its own handlers on these signals),
  // writes its --out file past the writer's buffer (the temporary exists), and blocks writing
  // its JSON to a standard output whose pipe is full; the test sends the signal then.
  lockstep::test::TempDir d;
  const std::string q = (d.path / "q.fa").string(), db = (d.path / "db.fa").string();
  write_fasta(q, "q", 20, 1);
  write_fasta(db, "s", 300, 2);
  struct Case {
    std::vector<std::string> args;
    std::string temp;
    int sig;
  };
  const std::string tsv = (d.path / "s.tsv").string(), mtx = (d.path / "d.mtx").string();
  const std::vector<Case> cases{
      {{"search", q, db, "--top", "300", "--out", tsv, "--json", "-"}, ".s.tsv.tmp", SIGTERM},
      {{"apsp", "--random", "300", "--out", mtx, "--json", "-"}, ".d.mtx.tmp", SIGINT},
      {{"search", q, db, "--top", "300", "--out", tsv, "--json", "-"}, ".s.tsv.tmp", SIGHUP},
  };
  const std::set<std::string> inputs{"q.fa", "db.fa"};
  for (const Case& c : cases) {
    CAPTURE(c.args[0]);
    CAPTURE(c.sig);
    int read_end = -1;
    const int out = full_pipe(read_end);
    REQUIRE(out >= 0);
    const pid_t pid = spawn_cli(c.args, out);
    ::close(out);
    REQUIRE(pid > 0);
    const std::string temp = wait_for_name(d.path, c.temp, pid);
    REQUIRE(!temp.empty());  // (the run ended before its temporary was made)
    REQUIRE(::kill(pid, c.sig) == 0);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    ::close(read_end);
    CHECK(WIFSIGNALED(status));
    if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == c.sig);
    CHECK(names(d.path) == inputs);  // no s.tsv, no .s.tsv.tmpPID-N
  }
}

TEST_CASE("past ulimit -f (SIGXFSZ) no temporary stays, on the host and on the device" *
          doctest::test_suite("device")) {
  lockstep::test::TempDir d;
  const std::string mtx = (d.path / "gg.mtx").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"gen", "laplace2d", "200", "-o", mtx},
        std::vector<std::string>{"apsp", "--random", "300", "--out", mtx}}) {
    CAPTURE(args[0]);
    std::vector<std::string> argv_s{lockstep::test::cli_path()};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1), ::dup2(null, 2);
      ::signal(SIGXFSZ, SIG_DFL);
      struct rlimit lim {
        64 << 10, 64 << 10
      };
      ::setrlimit(RLIMIT_FSIZE, &lim);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    // killed by the signal; or, where the OpenCL platform's LLVM handles SIGXFSZ (and returns),
    // the write fails with EFBIG and the run ends with its "cannot write: File too large"
    const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ;
    CHECK((killed || (WIFEXITED(status) && WEXITSTATUS(status) == 1)));
    if (args[0] == "gen") CHECK(killed);  // no OpenCL platform there
    CHECK(names(d.path).empty());
  }
}

TEST_CASE("SIGTERM, SIGINT or SIGHUP while a command waits for its input leaves no file behind") {
  lockstep::test::TempDir d;
  const std::string fifo = (d.path / "in.fifo").string(), out = (d.path / "out.json").string();
  const std::string levels = (d.path / "levels.txt").string(), dist = (d.path / "d.mtx").string();
  struct Case {
    std::vector<std::string> args;
    int sig;
  };
  const std::vector<Case> cases{
      {{"bfs", fifo, "--algorithm", "cpu", "--levels-out", levels, "--json", out}, SIGTERM},
      {{"apsp", fifo, "--cpu", "--out", dist, "--json", out}, SIGTERM},
      {{"sort", "--input", fifo, "--json", out}, SIGINT},
      {{"bfs", fifo, "--algorithm", "cpu", "--steps-out", levels, "--json", out}, SIGHUP},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args[0]);
    CAPTURE(c.sig);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const pid_t pid = spawn_cli(c.args);
    REQUIRE(pid > 0);
    const int fd = open_when_read(fifo, pid);
    REQUIRE(fd >= 0);
    REQUIRE(::kill(pid, c.sig) == 0);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    ::close(fd);
    CHECK(WIFSIGNALED(status));  // a shell shows 128 + the signal: 143, 130, 129
    if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == c.sig);
    fs::remove(fifo);
    CHECK(names(d.path).empty());  // no output, no .out.json.tmpPID-N
  }
}

TEST_CASE("SIGTERM while the writer's temporary exists removes it and still ends the process") {
  lockstep::test::TempDir d;
  const std::string path = (d.path / "big.txt").string();
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // the child: a temporary of 256 KiB (past the writer's buffer), then wait
    ::close(ready[0]);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);  // not doctest's
    lockstep::temporaries::install_handlers();  // add() did it once, maybe in the parent
    try {
      lockstep::OutputFile f(path);
      f.stream() << std::string(256 << 10, 'x');
      f.stream().flush();
      (void)!::write(ready[1], "1", 1);
      for (;;) ::pause();
    } catch (...) {
    }
    ::_exit(3);
  }
  ::close(ready[1]);
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  ::close(ready[0]);
  const std::set<std::string> before = names(d.path);
  REQUIRE(before.size() == 1);  // the temporary, hidden beside the destination
  CHECK(before.begin()->rfind(".big.txt.tmp", 0) == 0);
  REQUIRE(::kill(pid, SIGTERM) == 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(names(d.path).empty());
}
