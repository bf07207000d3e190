// SpMV property tests against the double CPU reference: every kernel, fp32 and fp64, a few
// configurations from the declared parameter table (each one costs a PoCL compile), on random
// matrices with empty rows, one full row and rows longer than a work-group (spanning many
// merge-path tiles), n = 0, 1, 7, 93, 4099; beta = 0 with NaN in y; the real shared matrices
// with the automatic choice; the untuned rule's choices on an H100-like device description.
#include <algorithm>
#include <random>

#include "lockstep/matrix_market.hpp"
#include "lockstep/spmv.hpp"
#include "lockstep/spmv_tuner.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

// Row lengths: mostly short, some empty, row 1 full (n entries), row 2 longer than 256.
Csr<double> random_matrix(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Csr<double> a;
  a.rows = a.cols = n;
  for (int r = 0; r < n; ++r) {
    int len = int(rng() % 9) - 2;  // -2..6, negatives mean empty
    if (r == 1) len = n;
    if (r == 2) len = std::min(n, 300);
    std::vector<int> cols;
    for (int c = 0; c < n && len > 0; ++c)
      if (int(rng() % uint32_t(n - c)) < len) cols.push_back(c), --len;
    for (int c : cols) a.col_idx.push_back(c), a.values.push_back(u(rng));
    a.row_ptr.push_back(int(a.col_idx.size()));
  }
  return a;
}

// On devices where warp shuffles are valid (NVIDIA), the two multi-item vector configurations
// also run with shuffle=1: TPR 64 (local-memory levels, then shuffles) and TPR 8 (shuffles only).
std::vector<SpmvConfig> test_configs(const DeviceInfo& d, size_t value_bytes) {
  std::vector<SpmvConfig> c(5);
  c[0].algorithm = SpmvAlgorithm::scalar, c[0].local_size = 128;
  c[1].algorithm = SpmvAlgorithm::vector, c[1].local_size = 64,
  c[1].rows_bits = 0;  // 64 items per row
  c[2].algorithm = SpmvAlgorithm::vector, c[2].local_size = 256,
  c[2].rows_bits = 5;  // 8 items per row
  c[3].algorithm = SpmvAlgorithm::vector, c[3].local_size = 128,
  c[3].rows_bits = 7;                                               // 1 item per row
  c[4].algorithm = SpmvAlgorithm::adaptive, c[4].local_size = 128;  // rows > 4096 entries are split
  // merge-path: tiles of 64 * 7 = 448 rows + nonzeros, so row 1 (n entries) spans many groups
  // and the carry-out fix-up adds runs of several groups' partial sums
  SpmvConfig m;
  m.algorithm = SpmvAlgorithm::merge, m.local_size = 64, m.items = 7;
  c.push_back(m);
  for (int i : {1, 2}) {
    SpmvConfig s = c[size_t(i)];
    s.shuffle = 1;
    if (spmv_valid(s, d, value_bytes)) c.push_back(s);
  }
  return c;
}

template <typename T>
void check_spmv(const Csr<double>& a64, const SpmvConfig& c, double alpha, double beta) {
  Context& ctx = test::context();
  Csr<T> a = a64.cast<T>();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> x(size_t(a.cols)), y(size_t(a.rows));
  for (auto& v : x) v = T(u(rng));
  for (auto& v : y) v = beta == 0 ? std::numeric_limits<T>::quiet_NaN() : T(u(rng));
  std::vector<double> want = spmv_reference(a, x, y, alpha, beta);
  const std::vector<T> y_in = y;
  DeviceCsr<T> d(ctx.queue(), a);

  spmv<T>(ctx.queue(), d, x, y, T(alpha), T(beta), c);

  std::vector<double> tol(want.size()), scale(want.size());
  for (int r = 0; r < a.rows; ++r) {
    double s = beta == 0 ? 0.0 : std::fabs(beta * double(y_in[r]));
    for (int k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      s += std::fabs(alpha * double(a.values[k]) * double(x[a.col_idx[k]]));
    tol[r] = tolerance<T>(size_t(a.row_ptr[r + 1] - a.row_ptr[r]) + 1);
    scale[r] = std::max(s, 1e-30);
  }
  test::check_close(y, want, tol, scale);
}

}  // namespace

TEST_CASE_TEMPLATE("spmv matches the reference for every kernel and shape" *
                       doctest::test_suite("portable"),
                   T, float, double) {
  if (std::is_same_v<T, double> && !test::context().info().fp64)
    return test::skip("no fp64 on this device");
  for (int n : {0, 1, 7, 93, 4099}) {
    Csr<double> a = random_matrix(n, uint32_t(n) + 11);
    for (const SpmvConfig& c : test_configs(test::context().info(), sizeof(T))) {
      CAPTURE(n);
      CAPTURE(c.str());
      check_spmv<T>(a, c, 1.0, 0.0);
      check_spmv<T>(a, c, -0.5, 2.0);
    }
  }
}

// Merge-path fix-up: rows over more than 32 tiles of 448 (a whole group adds their carries),
// rows over a few tiles (one item adds them), empty rows between, and beta != 0.
TEST_CASE_TEMPLATE("merge-path: rows over many tiles, empty rows, beta", T, float, double) {
  if (std::is_same_v<T, double> && !test::context().info().fp64)
    return test::skip("no fp64 on this device");
  const int cols = 20000;
  Csr<double> a;
  a.rows = 300, a.cols = cols;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int r = 0; r < a.rows; ++r) {
    int len = r == 5 ? cols : r == 100 ? 15000 : r == 101 ? 3000 : r % 7 == 0 ? 0 : int(rng() % 5);
    for (int k = 0; k < len; ++k)
      a.col_idx.push_back(len == cols ? k : int(rng() % uint32_t(cols / len)) + k * (cols / len));
    for (int k = 0; k < len; ++k) a.values.push_back(u(rng));
    a.row_ptr.push_back(int(a.col_idx.size()));
  }
  SpmvConfig m;
  m.algorithm = SpmvAlgorithm::merge, m.local_size = 64, m.items = 7;

  check_spmv<T>(a, m, 1.0, 0.0);
  check_spmv<T>(a, m, 0.75, -1.5);
}

// CSR-adaptive at 128 items (stream blocks of <= 256 nonzeros): blocks of two rows (64 items per
// row: more than a warp, so on NVIDIA the warps' totals meet in local memory), of three and four
// rows (32 items per row), rows of one group (257, 600: the four-sum loop and its remainder) and a
// row split into chunks (5000), among empty and short rows.
TEST_CASE_TEMPLATE("adaptive: few-row blocks, long rows and remainders", T, float, double) {
  if (std::is_same_v<T, double> && !test::context().info().fp64)
    return test::skip("no fp64 on this device");
  const int cols = 6000;
  const std::vector<int> lens = {100, 100, 100, 80,  80, 80,   0, 60, 60,  60,
                                 60,  257, 3,   600, 0,  5000, 1, 2,  100, 100};
  Csr<double> a;
  a.rows = int(lens.size()), a.cols = cols;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int len : lens) {
    for (int k = 0; k < len; ++k)
      a.col_idx.push_back(k * (cols / len) + int(rng() % uint32_t(cols / len)));
    for (int k = 0; k < len; ++k) a.values.push_back(u(rng));
    a.row_ptr.push_back(int(a.col_idx.size()));
  }
  SpmvConfig c;
  c.algorithm = SpmvAlgorithm::adaptive, c.local_size = 128;

  check_spmv<T>(a, c, 1.0, 0.0);
  check_spmv<T>(a, c, 0.75, -1.5);
}

// spmv_valid against limits stated here, not against its own filter: a made-up device of
// 256 items per group and 4 KiB of local memory, not NVIDIA (no shuffles).
TEST_CASE("spmv_valid: each kernel within a device's limits; the model's choice in the space") {
  DeviceInfo d;
  d.type = "GPU", d.vendor = "Advanced Micro Devices, Inc.", d.platform = "AMD";
  d.max_work_group_size = 256, d.local_mem_bytes = 4096, d.wave_width = 64, d.compute_units = 8;
  auto cfg = [](SpmvAlgorithm k, int local_size, int rows_bits = 5, int shuffle = 0,
                int items = 7) {
    SpmvConfig c;
    c.algorithm = k, c.local_size = local_size, c.rows_bits = rows_bits, c.shuffle = shuffle,
    c.items = items;
    return c;
  };
  CHECK(spmv_valid(cfg(SpmvAlgorithm::scalar, 256), d, 8));
  CHECK_FALSE(spmv_valid(cfg(SpmvAlgorithm::scalar, 512), d, 8));        // 512 items > 256
  CHECK(spmv_valid(cfg(SpmvAlgorithm::vector, 256, 8), d, 8));           // 256 * 8 B = 2 KiB
  CHECK_FALSE(spmv_valid(cfg(SpmvAlgorithm::vector, 128, 8), d, 8));     // more rows than items
  CHECK_FALSE(spmv_valid(cfg(SpmvAlgorithm::vector, 256, 5, 1), d, 8));  // shuffles: NVIDIA only
  CHECK(spmv_valid(cfg(SpmvAlgorithm::adaptive, 256), d, 8));            // 2 * 256 * 8 = 4 KiB
  d.local_mem_bytes = 4095;
  CHECK_FALSE(spmv_valid(cfg(SpmvAlgorithm::adaptive, 256), d, 8));  // one byte short
  d.local_mem_bytes = 4096;
  CHECK(spmv_valid(cfg(SpmvAlgorithm::merge, 64, 5, 0, 4), d, 4));        // 64*4*8+4+64*8 = 2564 B
  CHECK_FALSE(spmv_valid(cfg(SpmvAlgorithm::merge, 64, 5, 0, 7), d, 8));  // 64*7*12+4+64*12 > 4 KiB
  CHECK_FALSE(spmv_valid(cfg(SpmvAlgorithm::merge, 64, 5, 0, 0), d, 4));  // no items
  // The search space holds every declared kernel, within the limits, and nothing past them.
  const auto space = spmv_search_space(d, 8);
  for (const tuning::Space& declared : spmv_spaces()) {
    const std::string name = declared.front().values.front();
    CAPTURE(name);
    CHECK(std::any_of(space.begin(), space.end(),
                      [&](const SpmvConfig& c) { return to_string(c.algorithm) == name; }));
  }
  for (const auto& c : space) {
    CAPTURE(c.str());
    CHECK(c.local_size <= 256);
    CHECK(c.shuffle == 0);
  }
  // On the device under test: the model's choice is one of the space's configurations.
  const DeviceInfo& here = test::context().info();
  const auto mine = spmv_search_space(here, 8);
  RowStats regular{5, 5, 5.0, 0.0}, irregular{1, 100000, 4.0, 120.0};
  const std::string chosen = predict_spmv_config(here, regular, 1000, 8).str();
  CAPTURE(chosen);
  CHECK(std::any_of(mine.begin(), mine.end(),
                    [&](const SpmvConfig& c) { return c.str() == chosen; }));
  CHECK(predict_spmv_config(here, irregular, 1000000, 8).algorithm == SpmvAlgorithm::adaptive);
  CHECK_THROWS_AS(parse_spmv_algorithm("fastest"), input_error);
}

// The algorithms' names are one table: each parses back from its name, and the parser's message
// lists them all.
TEST_CASE("spmv algorithms: every name parses back and the message lists them") {
  CHECK(all_spmv_algorithms().size() == size_t(SpmvAlgorithm::automatic));
  for (SpmvAlgorithm a : all_spmv_algorithms()) CHECK(parse_spmv_algorithm(to_string(a)) == a);
  CHECK(parse_spmv_algorithm("auto") == SpmvAlgorithm::automatic);
  CHECK(to_string(SpmvAlgorithm::automatic) == "auto");
  CHECK_THROWS_WITH_AS(parse_spmv_algorithm("fastest"),
                       "unknown SpMV algorithm 'fastest' (expected scalar, vector, adaptive, "
                       "merge or auto)",
                       input_error);
}

// Entries stored before the rename ("kernel", "wg_bits" = log2 of the group size) still read, as
// the same configuration the new words give; parameters without an algorithm are refused.
TEST_CASE("spmv_config reads the old tuning words kernel and wg_bits") {
  const SpmvConfig old = spmv_config({{"kernel", "vector"}, {"wg_bits", 7}, {"rows_bits", 5}});
  const SpmvConfig now =
      spmv_config({{"algorithm", "vector"}, {"local_size", 128}, {"rows_bits", 5}});
  CHECK(old.str() == now.str());
  CHECK(now.str() == "algorithm=vector local_size=128 rows_bits=5 shuffle=0");
  CHECK(spmv_params(old) == spmv_params(now));
  CHECK_THROWS_AS(spmv_config({{"local_size", 128}}), input_error);
  CHECK_THROWS_AS(spmv_config({{"algorithm", "scalar"}, {"local_size", 96}}), input_error);
}

// A made-up H100-like device: the rule's choices for the shapes it was fitted on.
TEST_CASE(
    "the untuned rule: stencils get one item per row, scattered rows more, irregular rows "
    "balance") {
  DeviceInfo h;
  h.type = "GPU", h.vendor = "NVIDIA Corporation", h.platform = "NVIDIA CUDA";
  h.max_work_group_size = 1024, h.local_mem_bytes = 48 * 1024, h.wave_width = 32,
  h.compute_units = 132;
  RowStats laplace2d{3, 5, 5.0, 0.04}, banded{9, 17, 17.0, 0.02}, uniform{16, 16, 16.0, 0.0};
  RowStats dense{1000, 1000, 1000.0, 0.0}, powerlaw{1, 1048576, 76.0, 5460.0};

  SpmvConfig l = predict_spmv_config(h, laplace2d, 4194304, 8, 0.5);
  SpmvConfig b = predict_spmv_config(h, banded, 1048576, 8, 1.0);
  SpmvConfig u = predict_spmv_config(h, uniform, 1048576, 8, 0.0);
  SpmvConfig d = predict_spmv_config(h, dense, 10000, 8, 0.1);

  CHECK(l.algorithm == SpmvAlgorithm::scalar);
  CHECK(b.algorithm == SpmvAlgorithm::vector);
  CHECK((b.local_size >> b.rows_bits) == 4);  // 4 items per row
  CHECK(b.shuffle == 1);
  CHECK((u.local_size >> u.rows_bits) == 16);  // 16 items per row
  CHECK((d.local_size >> d.rows_bits) == 16);  // capped at 16
  CHECK(predict_spmv_config(h, powerlaw, 1048576, 8, 0.38).algorithm == SpmvAlgorithm::adaptive);
  SpmvConfig small = predict_spmv_config(h, RowStats{1, 90, 2.2, 5.9}, 4000, 8, 0.32);  // tols4000
  CHECK((small.local_size >> small.rows_bits) ==
        32);  // launch-bound: ceil_pow2(90 / 2) = 64 -> a wave
  for (const SpmvConfig& c : {l, b, u, d}) CHECK(spmv_valid(c, h, 8));
}

TEST_CASE("shared real matrices: automatic configuration matches the reference") {
  auto dir = test::shared_matrices();
  if (!std::filesystem::exists(dir)) {
    return test::skip("no " + dir.string());
  }
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".mtx") continue;
    CAPTURE(e.path().string());
    check_spmv<double>(read_matrix_market<double>(e.path().string()), SpmvConfig{}, 1.0, 0.0);
  }
}

TEST_CASE("lockstep spmv --verify reports verified=1 and a bad option exits 2, spmv-model") {
  std::string out;
  std::string m = (test::source_dir() / "matrices" / "laplace2d_64.mtx").string();

  CHECK(test::run_cli("spmv " + m + " --verify --repeat 3", out) == 0);
  CHECK(out.find("verified=1") != std::string::npos);
  CHECK(out.find("median_ms=") != std::string::npos);
  CHECK(test::run_cli("spmv " + m + " --precision half", out) == 2);
  CHECK(test::run_cli("spmv " + m + " --algorithm fastest", out) == 2);
  CHECK(test::run_cli("spmv-model " + m, out) == 0);  // laplace2d: 2 of 4 neighbour pairs adjacent
  CHECK(out.find("rows=4096 nnz=20224") != std::string::npos);
  CHECK(out.find("contiguity=0.5 ") != std::string::npos);
  CHECK(out.find("choice=\"algorithm=") != std::string::npos);
}
