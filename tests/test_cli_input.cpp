// Hostile input, one case each, host-only (every refusal comes before a device is opened, so
// these run in the sanitizer build too): input that must not be silently wrong or silently
// changed, sizes checked before allocating, and messages that say what is wrong and which
// option.
#include <cstdlib>
#include <fstream>

#include "lockstep/apsp.hpp"
#include "lockstep/error.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {
using lockstep::test::write;

bool has(const std::string& out, const std::string& what) {
  return out.find(what) != std::string::npos;
}

const char* kBanner = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

TEST_CASE("apsp: a weight the type cannot hold is an input error naming file:line") {
  test::TempDir d;
  const std::string big = write(d, "big.mtx", std::string(kBanner) + "3 3 2\n1 2 1e39\n2 3 1\n");
  const std::string nan = write(d, "nan.mtx", std::string(kBanner) + "3 3 2\n1 2 1\n2 3 nan\n");
  const std::string frac = write(d, "frac.gr", "p sp 3 2\na 1 2 1\na 2 3 2.5\n");
  const std::string snap = write(d, "e.txt", "0 1 1\n1 2 -inf\n");
  std::string out;
  CHECK(test::run_cli("apsp " + big + " --cpu --path 1,3", out) == 1);  // was: distance=inf, 0
  CHECK(has(out, big + ":3: value 1e+39: overflows f32"));
  CHECK(test::run_cli("apsp " + big + " --cpu --path 1,3 --type i32", out) == 1);
  CHECK(has(out, big + ":3:"));
  CHECK(test::run_cli("apsp " + nan + " --cpu", out) == 1);
  CHECK(has(out, nan + ":4:"));
  CHECK(test::run_cli("apsp " + frac + " --cpu --type i32", out) == 1);
  CHECK(has(out, frac + ":3: weight 2.5: is not an integer"));
  CHECK(test::run_cli("apsp " + frac + " --cpu", out) == 0);  // f32 holds 2.5
  CHECK(test::run_cli("apsp " + snap + " --cpu", out) == 1);
  CHECK(has(out, snap + ":2: weight -inf"));

  // The library refuses the same for graphs built in code (no file to name).
  Graph g;
  g.n = 2;
  g.add_edge(0, 1, 1e39);
  CHECK_THROWS_WITH_AS(apsp_cpu<float>(g), doctest::Contains("overflows f32"), input_error);
}

TEST_CASE("bfs --format snap on a Matrix Market file is refused, not read as edges") {
  test::TempDir d;
  const std::string g =
      write(d, "g.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n3 1\n");
  std::string out;
  CHECK(test::run_cli("bfs " + g + " --format snap --algorithm cpu", out) == 1);  // was: exit 0
  CHECK(has(out, g + ":1: a Matrix Market banner in a SNAP edge list"));
  CHECK(has(out, "--format mtx"));
  CHECK(test::run_cli("bfs " + g + " --algorithm cpu", out) == 0);
}

TEST_CASE("align: a slice past the end, and DNA scoring of non-nucleotide letters, are refused") {
  test::TempDir d;
  const std::string a = write(d, "a.fa", ">s\nACGTACGTACGTACGT\n");
  const std::string p = write(d, "p.fa", ">p1 protein\nMJEQKLAAAGGG\n");
  std::string out;
  CHECK(test::run_cli("align " + a + " " + a + " --algorithm cpu --slice-a 10,100", out) == 1);
  CHECK(has(out, "--slice-a 10,100 runs past the end of its 16 residues"));
  CHECK(test::run_cli("align " + a + " " + a + " --algorithm cpu --slice-a 10,6", out) == 0);
  CHECK(test::run_cli("align " + a + " " + p + " --algorithm cpu", out) == 1);  // was: exit 0
  CHECK(has(out, p + ":2: record 1 ('p1 protein'): residue 1: 'J' is not an IUPAC nucleotide"));
  CHECK(has(out, "--matrix blosum62"));
  CHECK(test::run_cli("align " + a + " " + p + " --algorithm cpu --matrix blosum62", out) == 0);
  const std::string x = write(d, "x.fa", ">s\nAC\x7fGT\n");
  CHECK(test::run_cli("align " + x + " " + a + " --algorithm cpu", out) == 1);
  CHECK(has(out, x + ":2: invalid character '\\x7f'"));  // was '\x127'
}

TEST_CASE("option combinations and lists that were silently accepted are usage errors") {
  test::TempDir d;
  const std::string a = write(d, "a.fa", ">s\nACGTACGT\n");
  std::string out;
  CHECK(test::run_cli("bench barrier --groups 1,,2", out) == 2);
  CHECK(has(out, "--groups has an empty item in '1,,2'"));
  CHECK(test::run_cli("bench barrier --groups 1,x", out) == 2);
  CHECK(has(out, "--groups expects"));
  CHECK(test::run_cli("sort --n 100 --algorithm radix --barrier lock", out) == 2);
  CHECK(
      has(out,
          "--barrier lock applies to --algorithm bitonic and radix-persistent; --algorithm radix"));
  CHECK(test::run_cli("align " + a + " " + a + " --algorithm pipeline --barrier tree", out) == 2);
  CHECK(has(out, "--barrier tree applies to --algorithm barrier only; --algorithm pipeline"));
  CHECK(test::run_cli("cg gen:laplace2d:8 --separate-spmv", out) == 2);
  CHECK(has(out, "--separate-spmv needs --algorithm pipelined"));
}

TEST_CASE("bad option values are usage errors naming the option and what it accepts") {
  test::TempDir d;
  const std::string m = (test::source_dir() / "matrices" / "laplace2d_64.mtx").string();
  std::string out;
  CHECK(test::run_cli("bfs --grid 4 --local-size 33", out) == 2);
  CHECK(has(out, "--local-size 33 must be a multiple of the wave width 32"));
  CHECK(test::run_cli("bfs --grid 4 --algorithm wave --wave-width 3", out) == 2);
  CHECK(has(out, "--wave-width must be 0 (the device's) or a power of two"));
  CHECK(test::run_cli("bfs --grid 4 --barrier spin", out) == 2);
  CHECK(has(out, "--barrier: unknown barrier 'spin' (expected auto, relaunch, lock"));
  CHECK(test::run_cli("sort --n 100 --local-size 3", out) == 2);
  CHECK(has(out, "--local-size must be 0 (the rule) or a power of two"));
  CHECK(test::run_cli("sort --n 100 --tile 3", out) == 2);
  CHECK(has(out, "--tile must be 0 (the rule) or a power of two"));
  CHECK(test::run_cli("spmv " + m + " --algorithm cusparse", out) == 2);
  CHECK(has(out, "--algorithm: unknown SpMV algorithm 'cusparse' (expected scalar, vector"));
}

TEST_CASE("sizes are checked before allocation, naming the file and line or the option") {
  test::TempDir d;
  const std::string mtx =
      write(d, "huge.mtx",
            "%%MatrixMarket matrix coordinate pattern general\n2147483647 2147483647 1\n1 1\n");
  const std::string gr = write(d, "huge.gr", "c\np sp 2000000000 1\na 1 2 1\n");
  const std::string snap = write(d, "huge.txt", "0 1\n0 2000000000\n");
  std::string out;
  {  // a memory budget for the CLI runs, so that a size refused here is refused on any machine
    test::ScopedEnv budget("LOCKSTEP_HOST_MEMORY_MIB", "1024");
    CHECK(test::run_cli("bfs " + mtx + " --algorithm cpu", out) == 1);  // was: out of host memory
    CHECK(has(out, mtx + ":2: a matrix of 2147483647 x 2147483647 needs 24576 MiB of host memory"));
    CHECK(test::run_cli("bfs " + gr + " --algorithm cpu", out) == 1);
    CHECK(has(out, gr + ":2: a graph of 2000000000 vertices needs"));
    CHECK(test::run_cli("bfs " + snap + " --algorithm cpu", out) == 1);
    CHECK(has(out, snap + ":2: a graph of 2000000001 vertices needs"));
    CHECK(test::run_cli("apsp --random 70000", out) == 1);  // was: 3.9 GB of edges first
    CHECK(has(out, "--random 70000: all-pairs shortest paths of 70000 vertices (f32"));
  }
  {  // past the reader's lower bound (12 bytes a vertex), BFS's own need (24) is checked
    test::ScopedEnv budget("LOCKSTEP_HOST_MEMORY_MIB", "35000");
    CHECK(test::run_cli("bfs " + gr + " --strategy cpu", out) == 1);  // was: killed, 23 GB RSS
    CHECK(has(out, gr + ": a BFS of 2000000000 vertices and 1 edges needs 45776 MiB"));
  }
  CHECK(test::run_cli("apsp --random 1048576 --cpu", out) == 1);  // was: unbounded
  CHECK(has(out, "MiB of host memory"));
}

TEST_CASE("messages say what is wrong: an empty graph, cg on a zero or NaN matrix") {
  test::TempDir d;
  const std::string empty = write(d, "empty.txt", "# no edges\n");
  const std::string zero = write(d, "zero.mtx", std::string(kBanner) + "2 2 1\n1 1 0\n");
  const std::string nan = write(d, "nan.mtx", std::string(kBanner) + "2 2 2\n1 1 1\n2 2 nan\n");
  std::string out;
  CHECK(test::run_cli("bfs " + empty + " --algorithm cpu", out) == 1);  // was: source 0 outside
  CHECK(has(out, empty + ": the graph is empty"));
  CHECK(test::run_cli("cg " + zero, out) == 1);  // was: empty stderr
  CHECK(has(out, zero + ": the matrix is zero"));
  CHECK(test::run_cli("cg " + nan, out) == 1);
  CHECK(has(out, nan + ": entry (2, 2) is NaN"));
}
