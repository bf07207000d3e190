// Matrix Market reading and writing: tiny hand-checkable files with exact equality, every
// symmetry and field, CRLF/comments/blank lines, duplicates, one test per malformed-file kind
// asserting the message (file and line), the 32-bit limit, the shared real matrices, the CLI.
#include <fstream>

#include "lockstep/matrix_market.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {
using lockstep::test::write;
}  // namespace

TEST_CASE("coordinate general with comments, blank lines, CRLF and duplicates") {
  test::TempDir d;
  auto p = write(d, "a.mtx",
                 "%%MatrixMarket MATRIX Coordinate REAL General\r\n% comment\r\n\r\n3 4 5\r\n"
                 "1 1 1.5\r\n3 4 -2e1\r\n1 1 0.25\r\n2 3 7\r\n\r\n1 2 +3\r\n");

  auto a = read_matrix_market<double>(p);

  CHECK(a.rows == 3);
  CHECK(a.cols == 4);
  CHECK(a.row_ptr == std::vector<int32_t>{0, 2, 3, 4});
  CHECK(a.col_idx == std::vector<int32_t>{0, 1, 2, 3});
  CHECK(a.values == std::vector<double>{1.75, 3, 7, -20});
}

TEST_CASE("symmetric, skew-symmetric, pattern, integer and array files") {
  test::TempDir d;
  auto sym = read_matrix_market<double>(
      write(d, "s.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 1 -1\n"));
  auto skew = read_matrix_market<double>(
      write(d, "k.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n"));
  auto pat = read_matrix_market<float>(
      write(d, "p.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n"));
  auto arr = read_matrix_market<double>(
      write(d, "a.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"));
  auto arrs = read_matrix_market<double>(
      write(d, "as.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n"));

  CHECK(sym.values == std::vector<double>{4, -1, -1});
  CHECK(sym.col_idx == std::vector<int32_t>{0, 1, 0});
  CHECK(skew.values == std::vector<double>{-3, 3});
  CHECK(pat.values == std::vector<float>{1, 1});
  CHECK(arr.values == std::vector<double>{1, 3, 2, 4});  // column-major in the file
  CHECK(arrs.values == std::vector<double>{1, 2, 2, 3});
}

TEST_CASE("malformed files: each kind names the file, the line and what was expected") {
  test::TempDir d;
  struct Case {
    const char* text;
    const char* line;
    const char* message;
  };
  const Case cases[] = {
      {"", ":1:", "empty file"},
      {"%%MatrixMarket matrix coordinate\n", ":1:", "expected the banner"},
      {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
       ":1:", "unsupported field 'complex'"},
      {"%%MatrixMarket matrix coordinate real hermitian\n",
       ":1:", "unsupported symmetry 'hermitian'"},
      {"%%MatrixMarket matrix coordinate real general\n% c\n3 x 1\n", ":3:", "bad size line"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n",
       ":4:", "truncated file: 2 of 3"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n",
       ":4:", "extra entry"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 abc\n", ":3:", "bad real value"},
      {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
       ":3:", "bad integer value"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", ":3:", "out of range"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1\n", ":3:", "out of range"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n",
       ":3:", "above the diagonal"},
      {"%%MatrixMarket matrix coordinate real general\n3000000000 3000000000 1\n",
       ":2:", "32-bit index limit"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 4000000000\n",
       ":2:", "32-bit index limit"},
  };
  int i = 0;
  for (auto& c : cases) {
    std::string p = write(d, "bad" + std::to_string(i++) + ".mtx", c.text);
    CAPTURE(c.text);
    CHECK_THROWS_WITH_AS(read_triplets(p), doctest::Contains((p + c.line).c_str()), input_error);
    CHECK_THROWS_WITH_AS(read_triplets(p), doctest::Contains(c.message), input_error);
  }
  CHECK_THROWS_WITH_AS(read_triplets((d.path / "missing.mtx").string()),
                       doctest::Contains("cannot open"), input_error);
}

TEST_CASE("write then read gives the same matrix, bit for bit") {
  test::TempDir d;
  Csr<double> a;
  a.rows = 3, a.cols = 3;
  a.row_ptr = {0, 2, 2, 3};
  a.col_idx = {0, 2, 1};
  a.values = {0.1, -1e-300, 3.141592653589793};
  std::string p = (d.path / "w.mtx").string();

  write_matrix_market(p, a);
  auto b = read_matrix_market<double>(p);

  CHECK(b.row_ptr == a.row_ptr);
  CHECK(b.col_idx == a.col_idx);
  CHECK(b.values == a.values);
}

TEST_CASE("shared real matrices read with their documented shapes") {
  auto dir = test::shared_matrices();
  if (!std::filesystem::exists(dir / "abb313.mtx")) {
    return test::skip("no " + dir.string());
  }
  struct M {
    const char* name;
    int rows, cols;
    size_t stored;
  };
  for (M m : {M{"abb313.mtx", 313, 176, 1557}, M{"qh1484.mtx", 1484, 1484, 6110},
              M{"tols4000.mtx", 4000, 4000, 8784}, M{"well1850.mtx", 1850, 712, 8758},
              M{"west2021.mtx", 2021, 2021, 7353}}) {
    auto t = read_triplets((dir / m.name).string());
    CAPTURE(m.name);
    CHECK(t.rows == m.rows);
    CHECK(t.cols == m.cols);
    CHECK(t.row.size() >= m.stored);
  }
}

TEST_CASE("lockstep info: key=value, JSON, and exit 1 naming file:line on bad input") {
  test::TempDir d;
  auto good = write(d, "g.mtx",
                    "%%MatrixMarket matrix coordinate real general\n2 3 3\n1 1 1\n1 3 1\n2 2 1\n");
  auto bad = write(d, "b.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 9 1\n");
  std::string out;

  CHECK(test::run_cli("info " + good, out) == 0);
  CHECK(out.find("rows=2 cols=3 nnz=3 row_min=1 row_max=2 row_mean=1.5 row_std=0.5") !=
        std::string::npos);
  CHECK(test::run_cli("info " + good + " --json", out) == 0);
  CHECK(out.find("\"nnz\":3") != std::string::npos);
  CHECK(test::run_cli("info " + bad, out) == 1);
  CHECK(out.find(bad + ":3:") != std::string::npos);
  CHECK(test::run_cli("info", out) == 2);
  CHECK(test::run_cli("no-such-command", out) == 2);
}
