// Output files: every file the CLI writes goes through one writer
// (lockstep::OutputFile, include/lockstep/io.hpp; the CLI's Outputs in tools/lockstep/output.hpp).
// A write error (/dev/full, a file-size limit, a path under a regular file) exits 1 naming the
// file and the reason; a failed run leaves every output as it was (no partial file, no truncated
// old one, no temporary file); an output that is the same file as an input, or as another
// output, is refused (exit 2, both options named) and the input stays. Cases in the test suite
// "device" open an OpenCL device; the others are host-only and run in the sanitizer build.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "lockstep/error.hpp"
#include "lockstep/io.hpp"
#include "support.hpp"

using namespace lockstep;
using lockstep::test::has;
namespace fs = std::filesystem;

namespace {

std::string matrix() { return (test::source_dir() / "matrices" / "laplace2d_64.mtx").string(); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

/// The names in `dir`: a temporary file left behind shows here.
std::set<std::string> names(const fs::path& dir) {
  std::set<std::string> s;
  for (const auto& e : fs::directory_iterator(dir)) s.insert(e.path().filename().string());
  return s;
}

/// A graph, a matrix, two FASTA files and a key file, each an input the CLI must not overwrite.
struct Inputs {
  test::TempDir d;
  std::string graph = (d.path / "g.txt").string(), mtx = (d.path / "g.mtx").string();
  std::string a = (d.path / "a.fa").string(), b = (d.path / "b.fa").string();
  std::string keys = (d.path / "k.txt").string();
  Inputs() {
    put(graph, "0 1\n1 2\n2 3\n");
    put(mtx, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.0\n2 3 2.0\n");
    put(a, ">a\nACGTACGTACGTAAGG\n");
    put(b, ">b\nACGTTCGTACGAAAGG\n");
    put(keys, "5\n3\n9\n1\n");
  }
};

}  // namespace

TEST_CASE("OutputFile: the destination changes only at commit, without it nothing remains") {
  test::TempDir d;
  const fs::path f = d.path / "out.txt";
  put(f, "old\n");
  {
    OutputFile o(f.string());
    o.stream() << "new\n";
    CHECK(names(d.path).size() == 1);  // no temporary before the bytes leave the buffer
    o.stream().flush();
    CHECK(slurp(f) == "old\n");
    CHECK(names(d.path).size() == 2);  // the temporary file, beside the destination
  }
  CHECK(slurp(f) == "old\n");
  CHECK(names(d.path) == std::set<std::string>{"out.txt"});
  {
    OutputFile o(f.string());
    o.stream() << "new\n";
    o.commit();
  }
  CHECK(slurp(f) == "new\n");
  CHECK(names(d.path) == std::set<std::string>{"out.txt"});

  chmod(f.c_str(), 0640);  // the mode of a replaced file is kept
  write_output(f.string(), "again\n");
  struct stat st {};
  REQUIRE(stat(f.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);

  const fs::path link = d.path / "link";  // a symbolic link stays a link to the file it names
  fs::create_symlink("out.txt", link);
  write_output(link.string(), "through the link\n");
  CHECK(fs::is_symlink(link));
  CHECK(slurp(f) == "through the link\n");
  CHECK(same_file(f.string(), link.string()));
  CHECK_FALSE(same_file(f.string(), (d.path / "missing").string()));

  write_output((d.path / "new.txt").string(), "fresh\n");
  CHECK(slurp(d.path / "new.txt") == "fresh\n");
}

TEST_CASE("OutputFile: errors name the file and the reason, and leave the old content") {
  test::TempDir d;
  CHECK_THROWS_WITH_AS(write_output("/dev/full", "x\n"),
                       "/dev/full: cannot write: No space left on device", input_error);
  const std::string file = (d.path / "afile").string();
  put(file, "a file\n");
  CHECK_THROWS_WITH_AS(OutputFile(file + "/t.json"),
                       (file + "/t.json: cannot write: Not a directory").c_str(), input_error);
  CHECK_THROWS_WITH_AS(OutputFile("/a/file/as/dir/t.json"),
                       "/a/file/as/dir/t.json: cannot write: No such file or directory",
                       input_error);
  CHECK_THROWS_WITH_AS(OutputFile(d.path.string()), (d.path.string() + ": is a directory").c_str(),
                       input_error);
  if (geteuid() != 0) {  // root writes anyway
    chmod(file.c_str(), 0444);
    CHECK_THROWS_WITH_AS(write_output(file, "x"),
                         (file + ": cannot write: Permission denied").c_str(), input_error);
  }
  CHECK(slurp(file) == "a file\n");
  CHECK(names(d.path) == std::set<std::string>{"afile"});
}

TEST_CASE("a write error on any CLI output exits 1 naming the file and the reason") {
  Inputs in;
  const std::string cmds[] = {
      "gen laplace2d 10 -o /dev/full",
      "bfs --grid 40 --algorithm cpu --levels-out /dev/full",
      "bfs --grid 40 --algorithm cpu --steps-out /dev/full",
      "bfs --grid 40 --algorithm cpu --json /dev/full",
      "apsp --random 20 --cpu --out /dev/full",
      "apsp --random 20 --cpu --json /dev/full",
      "align " + in.a + " " + in.b + " --algorithm cpu --json /dev/full",
      "tune " + matrix() + " --json " + in.graph + "/t.json",  // before any tuning
      "tune " + matrix() + " --json /a/file/as/dir/t.json",
  };
  for (const std::string& args : cmds) {
    std::string out;
    CAPTURE(args);
    CHECK(test::run_cli(args, out) == 1);
    CHECK_MESSAGE((has(out, "/dev/full: cannot write: No space left on device") ||
                   has(out, "t.json: cannot write: Not a directory") ||
                   has(out, "t.json: cannot write: No such file or directory")),
                  out);
    CHECK_MESSAGE(!has(out, "candidates"), out);  // tune refused the path before tuning
  }
  std::string out;  // standard output itself, e.g. info --json
  CHECK(test::run_shell("{ " + test::cli_path() + " info " + matrix() + " --json > /dev/full; }",
                        out) == 1);
  CHECK_MESSAGE(has(out, "standard output: cannot write: No space left on device"), out);
}

TEST_CASE("a write error exits 1 for sort, bench barrier and tune --json" *
          doctest::test_suite("device")) {
  test::TempDir cache;
  const std::string cmds[] = {
      "sort --n 10 --json /dev/full",
      "bench barrier --barrier lock --groups 1 --rounds 10 --json /dev/full",
      "tune " + matrix() + " --budget 0 --repeat 1 --json /dev/full",
  };
  for (const std::string& args : cmds) {
    std::string out;
    CAPTURE(args);
    CHECK(test::run_shell(
              "LOCKSTEP_CACHE_DIR=" + cache.path.string() + " " + test::cli_path() + " " + args,
              out) == 1);
    CHECK_MESSAGE(has(out, "/dev/full: cannot write: No space left on device"), out);
  }
}

TEST_CASE("an output that is the same file as an input is refused and the input stays") {
  Inputs in;
  const std::string link = (in.d.path / "link.txt").string();
  fs::create_symlink(in.graph, link);
  const std::pair<std::string, std::string> cases[] = {
      // (arguments, what the message names)
      {"bfs " + in.graph + " --algorithm cpu --levels-out " + in.graph, "--levels-out"},
      {"bfs " + in.graph + " --algorithm cpu --steps-out " + in.graph, "--steps-out"},
      {"bfs " + in.graph + " --algorithm cpu --levels-out " + link, "--levels-out"},
      {"apsp " + in.mtx + " --cpu --out " + in.mtx, "--out"},
      {"sort --input " + in.keys + " --json " + in.keys, "--input"},
      {"align " + in.a + " " + in.b + " --algorithm cpu --json " + in.a, "--json"},
      {"align " + in.a + " " + in.b + " --algorithm cpu --json " + in.b, "--json"},
      {"tune " + in.mtx + " --json " + in.mtx, "--json"},
  };
  for (const auto& [args, option] : cases) {
    Inputs fresh;  // the same contents, to compare with
    std::string out;
    CAPTURE(args);
    CHECK(test::run_cli(args, out) == 2);
    CHECK_MESSAGE((has(out, "is the same file as") && has(out, option)), out);
    CHECK(slurp(in.graph) == slurp(fresh.graph));
    CHECK(slurp(in.mtx) == slurp(fresh.mtx));
    CHECK(slurp(in.keys) == slurp(fresh.keys));
    CHECK(slurp(in.a) == slurp(fresh.a));
    CHECK(slurp(in.b) == slurp(fresh.b));
  }
  std::string out;  // two outputs naming one new file
  const std::string x = (in.d.path / "x.txt").string();
  CHECK(test::run_cli("bfs --grid 3 --algorithm cpu --levels-out " + x + " --steps-out " +
                          in.d.path.string() + "/./x.txt",
                      out) == 2);
  CHECK_MESSAGE((has(out, "--steps-out") && has(out, "--levels-out")), out);
  CHECK_FALSE(fs::exists(x));
}

TEST_CASE("a failed run leaves every output file as it was") {
  Inputs in;
  const std::string st = (in.d.path / "st.txt").string(), lt = (in.d.path / "lt.txt").string();
  put(st, "keep\n");
  std::string out;
  // the levels fail at the end: the steps, written by then, must not replace the old file
  CHECK(test::run_cli(
            "bfs " + in.graph + " --algorithm cpu --steps-out " + st + " --levels-out /dev/full",
            out) == 1);
  CHECK(slurp(st) == "keep\n");
  CHECK(test::run_cli("bfs " + in.graph + " --algorithm cpu --steps-out " + st + " --source 99",
                      out) == 2);
  CHECK(slurp(st) == "keep\n");

  // under a 1 KiB file-size limit: exit 1, no partial file and no temporary file
  const std::string limit = "trap '' XFSZ; ulimit -f 1; exec " + test::cli_path();
  CHECK(test::run_shell(
            "bash -c \"" + limit + " bfs --grid 30 --algorithm cpu --levels-out " + lt + "\"",
            out) == 1);
  CHECK_MESSAGE(has(out, lt + ": cannot write: File too large"), out);
  CHECK(test::run_shell("bash -c \"" + limit + " gen laplace2d 30 -o " + lt + "\"", out) == 1);
  CHECK_MESSAGE(has(out, lt + ": cannot write: File too large"), out);
  CHECK_FALSE(fs::exists(lt));
  CHECK(test::run_shell(
            "bash -c \"" + limit + " bfs --grid 30 --algorithm cpu --steps-out " + st + "\"",
            out) == 1);
  CHECK(slurp(st) == "keep\n");
  CHECK(names(in.d.path) ==
        std::set<std::string>{"g.txt", "g.mtx", "a.fa", "b.fa", "k.txt", "st.txt"});

  // written directly: '-' is standard output, in order with the summary line
  CHECK(test::run_cli("bfs --grid 3 --algorithm cpu --json -", out) == 0);
  CHECK_MESSAGE(out.find("\"reached\": 9") < out.rfind("reached=9"), out);
}

TEST_CASE("a run that fails after its outputs were opened leaves them as they were" *
          doctest::test_suite("device")) {
  Inputs in;
  const std::string st = (in.d.path / "st.txt").string();
  put(st, "keep\n");
  std::string out;
  CHECK(test::run_cli("bfs " + in.graph + " --algorithm single --local-size 33 --steps-out " + st,
                      out) != 0);
  CHECK(slurp(st) == "keep\n");
  CHECK(names(in.d.path).size() == 6);
}
