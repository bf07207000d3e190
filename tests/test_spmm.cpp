// lockstep::spmm against a host product in double (the one tolerance rule): both layouts, k that
// do and do not fill the lanes, alpha/beta, empty rows, a tuned shape through the engine (stored
// under its key and chosen by `automatic`), and the configuration checks; the merge algorithm on
// R-MAT hub rows split over many teams (the rule's choice there), bit-identical on a rerun. Few
// builds (PoCL).
#include <cstring>
#include <optional>
#include <random>

#include "lockstep/generators.hpp"
#include "lockstep/spmm.hpp"
#include "lockstep/tolerance.hpp"
#include "lockstep/tuning.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

Csr<float> random_matrix(int rows, int cols, double density, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Csr<float> a;
  a.rows = rows, a.cols = cols;
  for (int i = 0; i < rows; ++i) {
    if (i % 7 != 3)  // every 7th row empty
      for (int j = 0; j < cols; ++j)
        if (u(rng) < density) a.col_idx.push_back(j), a.values.push_back(float(u(rng) * 2 - 1));
    a.row_ptr.push_back(int32_t(a.col_idx.size()));
  }
  return a;
}

// R-MAT rows (a few hubs, many short or empty rows) with values uniform in [-1, 1].
Csr<float> rmat_matrix(int scale) {
  Csr<float> a = gen::rmat(scale, 16, 5).cast<float>();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& v : a.values) v = u(rng);
  return a;
}

void check_spmm(Context& ctx, const Csr<float>& a, int k, DenseLayout layout, float alpha,
                float beta, SpmmConfig c = {}, const DeviceCsr<float>* dev = nullptr) {
  std::mt19937_64 rng(uint64_t(k) * 31 + int(layout));
  std::uniform_real_distribution<float> u(-1, 1);
  const size_t m = size_t(a.rows), n = size_t(a.cols), kk = size_t(k);
  std::vector<float> X(n * kk), Y(m * kk);
  for (auto& v : X) v = u(rng);
  for (auto& v : Y) v = u(rng);
  const std::vector<float> Y0 = Y;
  std::optional<DeviceCsr<float>> own;
  if (!dev) dev = &own.emplace(ctx, a);
  spmm(ctx, *dev, X, Y, k, layout, alpha, beta, c);
  const bool row = layout == DenseLayout::row_major;
  size_t bad = 0;
  for (size_t i = 0; i < m; ++i)
    for (size_t col = 0; col < kk; ++col) {
      double want = 0, scale = 0;
      for (int32_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
        const size_t j = size_t(a.col_idx[size_t(p)]);
        const double t = double(a.values[size_t(p)]) * (row ? X[j * kk + col] : X[col * n + j]);
        want += t, scale += std::fabs(t);
      }
      const size_t at = row ? i * kk + col : col * m + i;
      want = alpha * want + beta * double(Y0[at]);
      scale = std::fabs(alpha) * scale + std::fabs(beta * Y0[at]);
      bad += !close(Y[at], want, tolerance<float>(n), scale);
    }
  CHECK_MESSAGE(bad == 0, bad, " wrong entries, k=", k, " layout=", std::string(to_string(layout)),
                " ", c.str());
}

}  // namespace

TEST_CASE("spmm: both layouts, k filling and not filling the lanes, alpha/beta, empty rows" *
          doctest::test_suite("portable")) {
  Context& ctx = test::context();
  const Csr<float> a = random_matrix(301, 257, 0.03, 7);
  check_spmm(ctx, a, 8, DenseLayout::row_major, 1.0f, 0.0f);   // the rule: vec 4, team 1
  check_spmm(ctx, a, 8, DenseLayout::col_major, 2.0f, -0.5f);  // one work-item per row
  SpmmConfig c;
  c.local_size = 64, c.team = 4, c.vec = 1;  // 3 columns over 4 lanes
  check_spmm(ctx, a, 3, DenseLayout::row_major, 1.5f, 1.0f, c);
  Csr<float> empty;
  empty.rows = 0, empty.cols = 5, empty.row_ptr = {0};
  std::vector<float> X(5 * 4, 1.0f), Y;
  spmm(ctx, DeviceCsr<float>(ctx, empty), X, Y, 4, DenseLayout::row_major);  // nothing to do
}

TEST_CASE("spmm column-major through the layout copies: tails of a tile, alpha/beta, the rule") {
  Context& ctx = test::context();
  const Csr<float> a = random_matrix(301, 257, 0.03, 7);
  SpmmConfig c;
  c.local_size = 64, c.team = 4, c.vec = 1, c.transpose = true;  // 3 columns: 256-row tiles
  check_spmm(ctx, a, 3, DenseLayout::col_major, 1.5f, 1.0f, c);
  c.team = 2, c.vec = 4;  // 40 columns: 102-row tiles, the last one short
  check_spmm(ctx, a, 40, DenseLayout::col_major, 2.0f, -0.5f, c);
  check_spmm(ctx, a, 40, DenseLayout::col_major, 1.0f, 0.0f, c);
  CHECK_FALSE(spmm_valid(c, ctx.info(), 40, DenseLayout::row_major));         // column-major only
  CHECK(c.str() == "algorithm=team local_size=64 team=2 vec=4 transpose=1");  // said in messages
  DeviceInfo gpu = ctx.info();
  gpu.type = "GPU";
  for (int k : {4, 8, 16, 32}) {  // GPUs: the row-major shape between the copies
    const SpmmConfig r = spmm_rule(gpu, k, DenseLayout::col_major);
    CHECK_MESSAGE(r.transpose, "k=", k, " ", r.str());
    SpmmConfig row = r;
    row.transpose = false;
    CHECK(row.str() == spmm_rule(gpu, k, DenseLayout::row_major).str());
  }
}

TEST_CASE("spmm: the rule, the validity checks and the tuned shape that automatic chooses") {
  const DeviceInfo& d = test::context().info();
  for (int k : {1, 3, 4, 8, 16, 32, 100})
    for (DenseLayout l : {DenseLayout::row_major, DenseLayout::col_major})
      CHECK_MESSAGE(spmm_valid(spmm_rule(d, k, l), d, k, l), "k=", k, " ", to_string(l));
  {  // a GPU's rule (the merge shape differs there), valid for every k on this device's limits
    DeviceInfo gpu = d;
    gpu.type = "GPU";
    RowStats hubs;
    hubs.max = 100000, hubs.mean = 30, hubs.std = 300;
    for (int k : {1, 3, 4, 8, 16, 32, 100, 256})
      for (DenseLayout l : {DenseLayout::row_major, DenseLayout::col_major})
        for (const RowStats& s : {RowStats{}, hubs})
          CHECK_MESSAGE(spmm_valid(spmm_rule(gpu, k, l, s), gpu, k, l), "gpu k=", k, " ",
                        to_string(l), " ", spmm_rule(gpu, k, l, s).str());
    const SpmmConfig m = spmm_rule(gpu, 16, DenseLayout::row_major, hubs);
    CHECK(m.algorithm == SpmmAlgorithm::merge);
    CHECK(m.vec == 1);
    CHECK(m.team == 16);
    CHECK(m.items == 4 * spmm_merge_items);
  }
  const SpmmConfig c{64, 4, 4};
  CHECK_FALSE(spmm_valid(c, d, 6, DenseLayout::row_major));  // 6 % 4 != 0
  CHECK_FALSE(spmm_valid(c, d, 8, DenseLayout::col_major));  // vec > 1 in column-major
  CHECK_FALSE(spmm_valid(SpmmConfig{64, 32, 1}, d, 4, DenseLayout::row_major));  // idle lanes
  CHECK_FALSE(spmm_valid(SpmmConfig{64, 1, 1}, d, 64, DenseLayout::row_major));  // 64 accumulators
  CHECK_THROWS_AS(parse_dense_layout("diag"), input_error);

  test::TempDir dir;
  test::ScopedEnv db("LOCKSTEP_TUNING_DB", (dir.path / "db.json").string());
  Context& ctx = test::context();
  const Csr<float> a = random_matrix(200, 200, 0.05, 9);
  auto family = spmm_family<float>(ctx, a, 4, DenseLayout::row_major, 2);
  tuning::Options o;
  o.candidates = {{{"local_size", 64}, {"team", 2}, {"vec", 2}}};  // one build
  const tuning::Outcome r = tuning::tune(ctx, *family, o);
  CHECK(r.best.verified);
  CHECK(r.stored);
  DeviceCsr<float> dA(ctx, a);
  const SpmmConfig chosen = choose_spmm_config(ctx.info(), dA, 4, DenseLayout::row_major);
  CHECK(chosen.local_size == 64);
  CHECK(chosen.team == 2);
  CHECK(chosen.vec == 2);
  check_spmm(ctx, a, 4, DenseLayout::row_major, 1.0f, 0.0f);  // automatic: the tuned shape
}

TEST_CASE("spmm merge: R-MAT hub rows split over many teams, both layouts, k = 1, 3, 8") {
  Context& ctx = test::context();
  const Csr<float> a = rmat_matrix(11);  // 2048 rows; the largest hub ~ 50x the mean
  const RowStats s = row_stats(a);
  REQUIRE_MESSAGE(irregular_rows(s), "max ", s.max, " mean ", s.mean, " std ", s.std);
  REQUIRE(s.max > 32 * 16);  // the hub spans more than 32 teams of 16 steps: the fix-up's groups
  const DeviceInfo& d = ctx.info();
  for (DenseLayout l : {DenseLayout::row_major, DenseLayout::col_major}) {
    const SpmmConfig r = spmm_rule(d, 8, l, s);
    CHECK(r.algorithm == SpmmAlgorithm::merge);
    CHECK(spmm_valid(r, d, 8, l));
    CHECK(spmm_rule(d, 8, l).algorithm == SpmmAlgorithm::team);  // regular rows
  }
  check_spmm(ctx, a, 8, DenseLayout::row_major, 1.0f, 0.0f);   // automatic: the rule's merge
  check_spmm(ctx, a, 8, DenseLayout::col_major, 2.0f, -0.5f);  // the same, column-major
  SpmmConfig c;
  c.algorithm = SpmmAlgorithm::merge, c.local_size = 64, c.team = 4, c.vec = 1, c.items = 16;
  check_spmm(ctx, a, 3, DenseLayout::row_major, 1.5f, 1.0f, c);  // 3 columns over 4 lanes
  check_spmm(ctx, random_matrix(301, 257, 0.03, 7), 3, DenseLayout::row_major, 1.0f, 0.5f, c);
  {  // one matrix, k = 1 then 3 with the same tiles: the carry buffer grows to 3 values a team
    const DeviceCsr<float> dA(ctx, a);
    SpmmConfig one = c;
    one.team = 1;
    check_spmm(ctx, a, 1, DenseLayout::col_major, 1.0f, 0.0f, one, &dA);  // SpMV's shape
    check_spmm(ctx, a, 3, DenseLayout::row_major, 1.0f, 0.0f, c, &dA);
  }
  c.team = 1;

  // deterministic: no atomics, the carries added in a fixed order
  const int k = 8;
  std::vector<float> X(size_t(a.cols) * k), Y1(size_t(a.rows) * k), Y2;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& v : X) v = u(rng);
  Y2 = Y1;
  DeviceCsr<float> dA(ctx, a);
  spmm(ctx, dA, X, Y1, k, DenseLayout::row_major);
  spmm(ctx, dA, X, Y2, k, DenseLayout::row_major);
  CHECK(std::memcmp(Y1.data(), Y2.data(), Y1.size() * sizeof(float)) == 0);

  SpmmConfig bad = c;
  bad.local_size = 96;  // the fix-up's tree needs a power of two
  CHECK_FALSE(spmm_valid(bad, d, 1, DenseLayout::row_major));
  CHECK(parse_spmm_algorithm("merge") == SpmmAlgorithm::merge);
  CHECK_THROWS_AS(parse_spmm_algorithm("vector"), input_error);
}

TEST_CASE("lockstep spmm: gen:laplace specs, --algorithm merge with its shape, refusals") {
  test::TempDir dir;
  test::ScopedEnv db("LOCKSTEP_TUNING_DB", (dir.path / "db.json").string());
  std::string out;
  // the merge shape of the case above (no new build); a generated matrix, no file
  REQUIRE(test::run_cli("spmm gen:laplace2d:8 --k 3 --algorithm merge --local-size 64 --team 4 "
                        "--vec 1 --items 16 --repeat 1",
                        out) == 0);
  CHECK(out.find("algorithm=merge local_size=64 team=4 vec=1 items=16") != std::string::npos);
  CHECK(out.find("rows=64 nnz=288") != std::string::npos);
  CHECK(out.find("verified=1") != std::string::npos);
  CHECK(test::run_cli("spmm gen:laplace2d:8 --k 3 --algorithm team --items 16", out) == 2);
  CHECK(out.find("--items needs --algorithm merge") != std::string::npos);
  CHECK(test::run_cli("spmm gen:laplace2d:8 --algorithm vector", out) == 2);
  CHECK(out.find("--algorithm: unknown SpMM algorithm 'vector'") != std::string::npos);
  CHECK(test::run_cli("spmm gen:laplace5d:8", out) == 1);
  CHECK(out.find("unknown generated matrix 'laplace5d'") != std::string::npos);
}
