// Floyd-Warshall (lockstep::apsp) against a plain serial CPU Floyd-Warshall in double on random
// graphs with fixed seeds: every variant, f32 and i32, sizes around the tile (1, 2, 31, 33, 128,
// 517), negative edges without negative cycles, negative cycles (the error names a vertex on one),
// disconnected graphs, next-hop paths checked hop by hop, generalized K = 1 equal to blocked, and
// the threaded CPU version. Weights are integers (also in f32), so distances compare exactly.
#include <algorithm>
#include <cstdlib>
#include <random>
#include <regex>
#include <set>

#include "lockstep/apsp.hpp"
#include "lockstep/generators.hpp"
#include "support.hpp"

namespace lockstep {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Minimum edge weights as a dense matrix (diagonal min(0, self-loop)), then serial FW.
std::vector<double> edge_matrix(const Graph& g) {
  std::vector<double> w(size_t(g.n) * g.n, kInf);
  for (int32_t i = 0; i < g.n; ++i) w[size_t(i) * g.n + i] = 0;
  for (size_t e = 0; e < g.src.size(); ++e) {
    double& x = w[size_t(g.src[e]) * g.n + g.dst[e]];
    x = std::min(x, g.weight[e]);
  }
  return w;
}
std::vector<double> reference(const Graph& g) {
  const size_t n = g.n;
  std::vector<double> d = edge_matrix(g);
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
  return d;
}

// Random graph with negative edges but no negative cycle: w(u,v) + p(u) - p(v), w >= 1.
Graph with_potentials(Graph g, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pot(0, 60);
  std::vector<int> p(g.n);
  for (auto& x : p) x = pot(rng);
  for (size_t e = 0; e < g.src.size(); ++e) g.weight[e] += p[g.src[e]] - p[g.dst[e]];
  return g;
}

template <typename T>
void check(const Graph& g, const ApspResult<T>& r, const std::string& what) {
  INFO(what);
  const std::vector<double> want = reference(g), w = edge_matrix(g);
  REQUIRE(r.n == g.n);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double got = r.dist[i] == apsp_infinity<T>() ? kInf : double(r.dist[i]);
    if (got != want[i] && bad++ == 0) first = i;
  }
  if (bad)
    FAIL(bad << " distances differ; first (" << first / g.n << ", " << first % g.n << "): got "
             << double(r.dist[first]) << " want " << want[first]);
  if (r.next.empty()) return;
  for (int32_t u = 0; u < g.n; ++u)
    for (int32_t v = 0; v < g.n; ++v) {
      std::vector<int32_t> p = r.path(u, v);
      if (want[size_t(u) * g.n + v] == kInf) {
        REQUIRE(p.empty());
        continue;
      }
      REQUIRE(p.size() >= 1);
      REQUIRE(p.front() == u);
      REQUIRE(p.back() == v);
      double total = 0;
      for (size_t h = 0; h + 1 < p.size(); ++h) {
        const double e = w[size_t(p[h]) * g.n + p[h + 1]];
        REQUIRE_MESSAGE(e != kInf, "hop " << p[h] << " -> " << p[h + 1] << " is not an edge");
        total += e;
      }
      REQUIRE(total == want[size_t(u) * g.n + v]);
    }
}

// The bulk micro-tiles 4 x 4 (fully unrolled), 16 x 4 and 8 x 8 (k loop not unrolled), with and
// without the next multi-tile's phases on a second queue (overlap, the last field); K = 3 at
// tile 16 leaves band edges inside 256-row tiles.
const std::vector<ApspConfig> kSmallConfigs = {
    {ApspAlgorithm::naive, 16, 1, false, 4},
    {ApspAlgorithm::blocked, 16, 1, false, 4, 4, 0, 0},
    {ApspAlgorithm::generalized, 16, 2, true, 4, 4, 0, 1},
    {ApspAlgorithm::generalized, 16, 3, false, 4, 16, 1, 1},
    {ApspAlgorithm::generalized, 64, 2, false, 8, 8, 0, 0},
};

std::string describe(int32_t n, const ApspConfig& c) {
  return "n=" + std::to_string(n) + " " + to_string(c.algorithm) +
         " tile=" + std::to_string(c.tile) + " K=" + std::to_string(c.K) +
         " paths=" + std::to_string(c.paths) + " micro=" + std::to_string(c.thread_rows) + "x" +
         std::to_string(c.thread_tile) + " unroll=" + std::to_string(c.unroll) +
         " overlap=" + std::to_string(c.overlap);
}

template <typename T>
void small_sizes(uint64_t seed) {
  auto& ctx = test::context();
  for (int32_t n : {1, 2, 31, 33, 70, 128})  // 128, K = 3: the last band reaches past N
    for (const ApspConfig& c : kSmallConfigs) {
      Graph g = with_potentials(random_graph(n, 0.15, seed + n, 1, 100), seed);

      ApspResult<T> r = apsp<T>(ctx, g, c);

      check(g, r, describe(n, c));
    }
}

}  // namespace

TEST_CASE("apsp: every variant equals CPU Floyd-Warshall, f32, negative edges, n = 1..128") {
  small_sizes<float>(11);
}

TEST_CASE("apsp: every variant equals CPU Floyd-Warshall, i32, negative edges, n = 1..128") {
  small_sizes<int32_t>(23);
}

TEST_CASE(
    "apsp: n = 517, blocked tile 32 (4 x 8, overlap) and generalized K = 4 (8 x 8) with paths") {
  auto& ctx = test::context();
  Graph g = with_potentials(random_graph(517, 0.01, 517, 1, 100), 5);

  auto blocked = apsp<float>(ctx, g, {ApspAlgorithm::blocked, 32, 1, false, 8, 4, 2, 1});
  auto general = apsp<int32_t>(ctx, g, {ApspAlgorithm::generalized, 32, 4, true, 8});

  check(g, blocked, "blocked 517 f32");
  check(g, general, "generalized 517 i32 paths");
}

TEST_CASE("apsp: generalized with K = 1 equals blocked bit for bit (fractional f32 weights)") {
  auto& ctx = test::context();
  Graph g = random_graph(100, 0.1, 42, 1, 1000);
  for (auto& w : g.weight) w *= 0.0137;

  auto blocked = apsp<float>(ctx, g, {ApspAlgorithm::blocked, 16, 1, true, 4});
  auto general = apsp<float>(ctx, g, {ApspAlgorithm::generalized, 16, 1, true, 4});

  CHECK(blocked.dist == general.dist);
  CHECK(blocked.next == general.next);
  const auto want = reference(g);
  for (size_t i = 0; i < want.size(); ++i)
    REQUIRE(test::close(blocked.dist[i], want[i], 1e-5, 1.0));
}

TEST_CASE("apsp: a negative cycle is reported, naming a vertex on it, by every variant") {
  auto& ctx = test::context();
  Graph g = random_graph(33, 0.1, 7, 1, 100);
  g.add_edge(5, 9, 2);  // the only negative cycle: 5 -> 9 -> 20 -> 5, weight -1
  g.add_edge(9, 20, 2);
  g.add_edge(20, 5, -5);
  const std::set<int> on_cycle{6, 10, 21};  // 1-based, as the message names them
  for (ApspConfig c : kSmallConfigs) {
    INFO(describe(g.n, c));
    std::string message;

    try {
      (void)apsp<int32_t>(ctx, g, c);
    } catch (const input_error& e) {
      message = e.what();
    }

    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(message, m, std::regex("vertex (\\d+)")), message);
    CHECK(on_cycle.count(std::stoi(m[1])) == 1);
  }
}

TEST_CASE("apsp: a negative self-loop is a negative cycle, a zero one changes nothing" *
          doctest::test_suite("portable")) {
  auto& ctx = test::context();
  Graph g = random_graph(20, 0.2, 3, 1, 9);
  g.add_edge(4, 4, 0);

  Graph bad = g;
  bad.add_edge(12, 12, -1);

  auto ok = apsp<float>(ctx, g, {ApspAlgorithm::blocked, 16, 1, false, 4});

  check(g, ok, "self-loop 0");
  CHECK_THROWS_WITH_AS(apsp<float>(ctx, bad, {ApspAlgorithm::blocked, 16, 1, false, 4}),
                       doctest::Contains("vertex 13"), input_error);
}

TEST_CASE("apsp: disconnected graph: infinities, empty paths, no path across") {
  auto& ctx = test::context();
  Graph g;
  g.n = 40;
  Graph a = random_graph(20, 0.2, 1, 1, 50);
  for (size_t e = 0; e < a.src.size(); ++e) {
    g.add_edge(a.src[e], a.dst[e], a.weight[e]);
    g.add_edge(a.src[e] + 20, a.dst[e] + 20, a.weight[e]);
  }

  auto r = apsp<int32_t>(ctx, g, {ApspAlgorithm::generalized, 16, 2, true, 4});

  check(g, r, "two components");
  CHECK_FALSE(r.reachable(3, 25));
  CHECK(r.path(3, 25).empty());
  CHECK(r.path(7, 7) == std::vector<int32_t>{7});
}

TEST_CASE("apsp: bad configurations and weights are input errors") {
  auto& ctx = test::context();
  Graph g = random_graph(10, 0.3, 1);
  Graph frac = g;
  frac.weight[0] = 1.5;
  Graph huge = g;
  huge.weight[0] = 1e8;

  CHECK_THROWS_AS(apsp<float>(ctx, g, {ApspAlgorithm::blocked, 24, 1, false, 4}), input_error);
  CHECK_THROWS_AS(apsp<float>(ctx, g, {ApspAlgorithm::blocked, 64, 1, true, 4}), input_error);
  CHECK_THROWS_AS(apsp<float>(ctx, g, {ApspAlgorithm::blocked, 16, 2, false, 4}), input_error);
  CHECK_THROWS_WITH_AS(apsp<int32_t>(ctx, frac, {}), doctest::Contains("not an integer"),
                       input_error);
  CHECK_THROWS_WITH_AS(apsp<int32_t>(ctx, huge, {}), doctest::Contains("2^28"), input_error);
  CHECK(apsp<float>(ctx, Graph{}, {}).dist.empty());
}

TEST_CASE("apsp: correct with every kernel's local memory poisoned first (LOCKSTEP_POISON=1)") {
  // Regression for a PoCL 5.0 miscompile (on a 16-core AVX-512 CPU it gave too-short distances and
  // spurious negative cycles): with local memory pre-filled with -12345, any local read before the
  // group wrote it would make distances too short here too, on any device. The configurations
  // cover fw_lead, fw_panel, fw_rest (blocked, f32), fw_diag with next hops (generalized, K x tile
  // <= 128) and fw_cross (generalized K x tile = 144: the diagonal block one tile of k at a time),
  // both i32 with paths: one program pair (each -D set is a PoCL compile).
  auto& ctx = test::context();
  Graph g = with_potentials(random_graph(70, 0.1, 1307, 1, 100), 13);
  Graph wide = with_potentials(random_graph(150, 0.05, 1309, 1, 100), 7);
  test::ScopedEnv poison("LOCKSTEP_POISON", "1");

  auto blocked = apsp<float>(ctx, g, {ApspAlgorithm::blocked, 16, 1, false, 4});
  auto general = apsp<int32_t>(ctx, g, {ApspAlgorithm::generalized, 16, 2, true, 4});
  // i32 as `general`: the same two programs (fw_cross is in them), no third pair to compile
  auto deep = apsp<int32_t>(ctx, wide, {ApspAlgorithm::generalized, 16, 9, true, 4});

  check(g, blocked, "poisoned blocked tile 16 f32");
  check(g, general, "poisoned generalized tile 16 K=2 i32 paths");
  check(wide, deep, "poisoned generalized tile 16 K=9 i32 paths");
  CHECK(general.kernel_ms.count("diag") == 1);
  CHECK(deep.kernel_ms.count("diag") == 0);
  CHECK(deep.kernel_ms.count("cross") == 1);
}

TEST_CASE("apsp: threaded CPU blocked Floyd-Warshall equals the reference, with paths") {
  for (int32_t n : {1, 33, 130}) {
    Graph g = with_potentials(random_graph(n, 0.05, 99 + n), 4);

    auto f = apsp_cpu<float>(g, 2, true);
    auto i = apsp_cpu<int32_t>(g, 3, false);

    check(g, f, "cpu f32 n=" + std::to_string(n));
    check(g, i, "cpu i32 n=" + std::to_string(n));
  }
}

}  // namespace lockstep
