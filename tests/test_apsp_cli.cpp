// `lockstep apsp` end to end: the summary line against the library on a generated graph, a
// Matrix Market file with duplicate and negative edges (--path, --out array with inf), a negative
// cycle (exit 1, the vertex named) and usage errors (exit 2); apsp_choose reading a tuned entry.
#include <fstream>
#include <map>

#include "lockstep/apsp.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/tuning.hpp"
#include "support.hpp"

namespace lockstep {
namespace {

using test::last_line;

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

}  // namespace

TEST_CASE("apsp cli: --random summary matches the library") {
  std::string out;
  Graph g = random_graph(45, 0.1, 9);
  auto want = apsp<int32_t>(test::context(), g, {ApspAlgorithm::blocked, 16, 1, false, 4});
  long long reachable = 0, sum = 0;
  for (int32_t d : want.dist)
    if (d != apsp_infinity<int32_t>()) ++reachable, sum += d;

  int rc = test::run_cli("apsp --random 45,0.1,9 --type i32 --algorithm blocked --tile 16", out);

  REQUIRE_MESSAGE(rc == 0, out);
  auto kv = last_line(out);
  CHECK(kv["n"] == "45");
  CHECK(std::stoll(kv["reachable_pairs"]) == reachable);
  CHECK(std::stod(kv["sum_dist"]) == doctest::Approx(double(sum)));
  CHECK(kv["min_dist"] == "0");
  CHECK(kv.count("ms") == 1);
  CHECK(kv.count("gupdates_per_s") == 1);
}

TEST_CASE(
    "apsp cli: Matrix Market graph, duplicates keep the minimum, --path, --out array read back") {
  test::TempDir dir;
  write(dir.path / "g.mtx",
        "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 5\n1 2 3\n2 3 -1\n1 3 4\n"
        "3 1 2\n");
  std::string out;

  int rc = test::run_cli("apsp " + (dir.path / "g.mtx").string() +
                             " --algorithm naive --path 1,3 --out " + (dir.path / "d.mtx").string(),
                         out);

  REQUIRE_MESSAGE(rc == 0, out);
  CHECK(out.find("distance=2 path=1,2,3") != std::string::npos);
  auto kv = last_line(out);
  CHECK(kv["reachable_pairs"] == "10");  // 3x3 among 1..3, plus vertex 4 to itself
  CHECK(kv["min_dist"] == "-1");         // 2 -> 3
  CHECK(kv["max_dist"] == "5");          // 3 -> 1 -> 2 = 2 + 3
  CHECK(kv["sum_dist"] == "12");
  std::ifstream d(dir.path / "d.mtx");
  std::string banner, comment, size, first;
  std::getline(d, banner), std::getline(d, comment), std::getline(d, size), std::getline(d, first);
  CHECK(banner == "%%MatrixMarket matrix array real general");
  CHECK(size == "4 4");
  CHECK(first == "0");
  std::string rest((std::istreambuf_iterator<char>(d)), {});
  CHECK(rest.find("inf") != std::string::npos);
  // The distance array read back as a dense graph is its own closure.
  REQUIRE(test::run_cli("apsp " + (dir.path / "d.mtx").string() + " --algorithm blocked", out) ==
          0);
  CHECK(last_line(out)["sum_dist"] == "12");
  CHECK(last_line(out)["reachable_pairs"] == "10");
}

TEST_CASE("apsp cli: negative cycle is exit 1 naming the vertex, bad options are exit 2") {
  test::TempDir dir;
  write(dir.path / "neg.mtx",
        "%%MatrixMarket matrix coordinate integer general\n3 3 3\n1 2 1\n2 3 1\n3 2 -4\n");
  std::string out;

  int neg = test::run_cli("apsp " + (dir.path / "neg.mtx").string() + " --type i32", out);
  std::string neg_out = out;
  int tile = test::run_cli("apsp --random 10 --tile 24", out);
  int both = test::run_cli("apsp " + (dir.path / "neg.mtx").string() + " --random 10", out);
  int type = test::run_cli("apsp --random 10 --type f64", out);

  CHECK_MESSAGE(neg == 1, neg_out);
  CHECK((neg_out.find("vertex 2") != std::string::npos ||
         neg_out.find("vertex 3") != std::string::npos));
  CHECK(tile == 2);
  CHECK(both == 2);
  CHECK(type == 2);
}

TEST_CASE("apsp: apsp_choose uses a stored tuning entry of the same size class, else the rule") {
  test::TempDir dir;
  const std::string db = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", db);
  const DeviceInfo& dev = test::context().info();
  tuning::store(
      dev, {"apsp", "f32/dist/n1024", {}, {{"tile", 16}, {"K", 8}, {"thread_tile", 4}}, {}, ""});

  ApspConfig tuned = apsp_choose<float>(dev, 1000, {});
  ApspConfig other_class = apsp_choose<float>(dev, 1100, {});
  ApspConfig explicit_tile =
      apsp_choose<float>(dev, 1000, {ApspAlgorithm::generalized, 32, 0, false, 0});

  CHECK(tuned.tile == 16);
  CHECK(tuned.K == 8);
  CHECK(other_class.tile == apsp_rule(dev, 1100, {}).tile);
  CHECK(other_class.K == apsp_rule(dev, 1100, {}).K);
  CHECK(explicit_tile.tile == 32);
  CHECK(explicit_tile.K == 4);
}

}  // namespace lockstep
