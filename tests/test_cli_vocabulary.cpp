// The CLI's one vocabulary: every command's --help shows --algorithm, --barrier and
// --local-size where it has them and none of the old spellings; each old spelling (spmv --kernel
// and --wg-bits, apsp and search --variant, bfs --strategy, sort/align/bench barrier --strategy)
// still works, with exactly one deprecation line on stderr, and its value takes effect; giving an
// old and its new spelling together is a usage error. The runs are small and open the device.
#include <fstream>

#include "support.hpp"

using namespace lockstep;

namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

std::string matrix() { return (test::source_dir() / "matrices" / "laplace2d_64.mtx").string(); }

}  // namespace

TEST_CASE("cli vocabulary: --help shows --algorithm, --barrier, --local-size, no old spelling") {
  struct Help {
    std::string command;
    bool algorithm, barrier, local_size;
  };
  const Help cases[] = {{"spmv", true, false, true},  {"apsp", true, false, false},
                        {"bfs", true, true, true},    {"sort", true, true, true},
                        {"align", true, true, true},  {"bench barrier", false, true, true},
                        {"cg", true, false, false},   {"tune align", true, false, false},
                        {"search", true, false, true}};
  for (const Help& h : cases) {
    CAPTURE(h.command);
    std::string out;
    REQUIRE(test::run_cli(h.command + " --help", out) == 0);
    CHECK((out.find("--algorithm") != std::string::npos) == h.algorithm);
    CHECK((out.find("--barrier") != std::string::npos) == h.barrier);
    CHECK((out.find("--local-size") != std::string::npos) == h.local_size);
    for (const char* old : {"--kernel", "--variant", "--strategy", "--wg-bits", "deprecated"})
      CHECK_MESSAGE(out.find(old) == std::string::npos, old);
  }
  std::string out;  // the barrier names come from the library's list
  REQUIRE(test::run_cli("sort --help", out) == 0);
  CHECK(out.find("auto|relaunch|lock|grouped-lock|lock-free|tree") != std::string::npos);
}

TEST_CASE("cli vocabulary: each old spelling works with exactly one deprecation line") {
  test::TempDir d;
  const std::string fa = (d.path / "a.fa").string();
  std::ofstream(fa) << ">a\nACGTTGCAACGTAGCTAGCTAGGATCCA\n";
  struct Old {
    std::string args, old_name, new_name, key, value;
  };
  const Old cases[] = {
      {"spmv " + matrix() + " --kernel scalar --repeat 1", "kernel", "algorithm", "algorithm",
       "scalar"},
      {"spmv " + matrix() + " --algorithm scalar --wg-bits 6 --repeat 1", "wg-bits", "local-size",
       "local_size", "64"},
      {"apsp --random 40,0.1,3 --variant blocked", "variant", "algorithm", "algorithm", "blocked"},
      {"bfs --grid 8 --strategy cpu", "strategy", "algorithm", "algorithm", "cpu"},
      {"sort --n 1000 --algorithm bitonic --strategy lock", "strategy", "barrier", "barrier",
       "lock"},
      {"align " + fa + " " + fa + " --algorithm barrier --strategy lock", "strategy", "barrier",
       "barrier", "lock"},
      {"bench barrier --strategy lock --groups 1 --rounds 10", "strategy", "barrier", "barrier",
       "lock"},
      {"search " + fa + " " + fa + " --variant prof2 --local-size 8 --stripe 4", "variant",
       "algorithm", "algorithm", "inter+prof2"}};
  for (const Old& c : cases) {
    CAPTURE(c.args);
    std::string out;
    REQUIRE_MESSAGE(test::run_cli(c.args, out) == 0, out);
    CHECK(count(out, "deprecated") == 1);
    CHECK(count(out, "lockstep: --" + c.old_name + " is deprecated, use --" + c.new_name + "\n") ==
          1);
    std::string words = " " + out;  // it took effect: KEY=VALUE as a whole word of some line
    for (char& ch : words) ch = ch == '\n' ? ' ' : ch;
    CHECK(words.find(" " + c.key + "=" + c.value + " ") != std::string::npos);
    for (const char* old_key : {" kernel=", " wg_bits=", " strategy=", " variant="})
      CHECK_MESSAGE(words.find(old_key) == std::string::npos, old_key);  // output: the new words
  }
}

TEST_CASE("cli vocabulary: an old and its new spelling together are a usage error") {
  std::string out;
  CHECK(test::run_cli("sort --n 10 --barrier lock --strategy tree", out) == 2);
  CHECK(out.find("--strategy is the deprecated spelling of --barrier: give only --barrier") !=
        std::string::npos);
  CHECK(test::run_cli("bfs --grid 4 --algorithm cpu --strategy cpu", out) == 2);
  CHECK(test::run_cli("search - - --algorithm inter --variant skew", out) == 2);
  CHECK(out.find("--variant is the deprecated spelling of --algorithm: give only --algorithm") !=
        std::string::npos);
  CHECK(test::run_cli("sort --n 10 --barrier spin", out) == 2);  // the new name in the message
  CHECK(out.find("--barrier: unknown barrier 'spin' (expected auto, relaunch, lock, grouped-lock, "
                 "lock-free, tree)") != std::string::npos);
}
