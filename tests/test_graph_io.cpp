// Graph input: the three formats (Matrix Market, SNAP, DIMACS .gr), plain and gzip, --undirected,
// format from the name, malformed files named by file and line; CsrGraph construction (sorted
// rows, symmetry detection, reverse adjacency, degree statistics, R-MAT's symmetric pattern and
// the general path on the same edges); the shared real graphs when
// ../shared/graphs is present.
#include <zlib.h>

#include <fstream>

#include "lockstep/error.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/graph.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

void write_text(const std::string& path, const std::string& text, bool gzip) {
  if (gzip) {
    gzFile gz = gzopen(path.c_str(), "wb");
    REQUIRE(gz != nullptr);
    REQUIRE(gzwrite(gz, text.data(), unsigned(text.size())) == int(text.size()));
    gzclose(gz);
  } else {
    std::ofstream(path) << text;
  }
}

std::filesystem::path shared_graphs() {
  return test::source_dir().parent_path() / "shared" / "graphs";
}

// The same 5-vertex graph (0->1, 1->2, 2->0, 3->3, 1->2 again; vertex 4 isolated) in each format.
const char* kMtx =
    "%%MatrixMarket matrix coordinate pattern general\n5 5 5\n1 2\n2 3\n3 1\n4 4\n2 3\n";
const char* kSnap = "# a comment\n# FromNodeId\tToNodeId\n0\t1\n1 2\n2\t0\n3 3\n1\t2\n4 4\n";
const char* kGr = "c a comment\np sp 5 5\na 1 2 7\na 2 3 1\na 3 1 2\na 4 4 1\na 2 3 5\n";

}  // namespace

TEST_CASE("graph readers: Matrix Market, SNAP and DIMACS, plain and gzip, agree") {
  test::TempDir dir;
  for (bool gz : {false, true}) {
    const std::string ext = gz ? ".gz" : "";
    const std::string mtx = (dir.path / ("g.mtx" + ext)).string(),
                      snap = (dir.path / ("g.txt" + ext)).string(),
                      gr = (dir.path / ("g.gr" + ext)).string();
    write_text(mtx, kMtx, gz), write_text(snap, kSnap, gz), write_text(gr, kGr, gz);

    CsrGraph a(read_graph(mtx)), b(read_graph(snap)), c(read_graph(gr));
    CsrGraph d(read_graph(snap, GraphFormat::snap));

    CHECK(a.n == 5);
    CHECK(b.n == 5);  // the SNAP file names vertex 4 in a self-loop
    CHECK(c.n == 5);
    CHECK(a.offsets == c.offsets);
    CHECK(a.adj == c.adj);
    CHECK(a.adj == std::vector<int32_t>{1, 2, 2, 0, 3});
    CHECK(b.adj == std::vector<int32_t>{1, 2, 2, 0, 3, 4});
    CHECK(d.adj == b.adj);
    CHECK_FALSE(a.symmetric);
    CHECK(a.rev_adj == std::vector<int32_t>{2, 0, 1, 1, 3});  // in-neighbours of 0, 1, 2, 2, 3
    CHECK(a.has_edge(1, 2));
    CHECK_FALSE(a.has_edge(2, 1));
  }
  CHECK(read_graph((dir.path / "g.gr").string()).weight[0] == 7.0);
}

TEST_CASE("graph readers: --undirected adds reverses, format from the name, isolated vertices") {
  test::TempDir dir;
  const std::string snap = (dir.path / "g.edges").string();
  write_text(snap, "0 1\n1 2\n2 2\n", false);
  const std::string odd = (dir.path / "g.data").string();
  write_text(odd, "0 1\n", false);

  CsrGraph u(read_graph(snap, GraphFormat::automatic, true));
  const DegreeStats s = u.stats();

  CHECK(graph_format_of("x.txt.gz") == GraphFormat::snap);
  CHECK(graph_format_of("x.gr") == GraphFormat::dimacs);
  CHECK(graph_format_of("x.mtx.gz") == GraphFormat::matrix_market);
  CHECK(u.symmetric);
  CHECK(u.rev_adj.empty());
  CHECK(u.adj == std::vector<int32_t>{1, 0, 2, 1, 2});  // the self-loop is not doubled
  CHECK(s.min == 1);
  CHECK(s.max == 2);
  CHECK(s.mean == doctest::Approx(5.0 / 3));
  CHECK_THROWS_AS(read_graph(odd), input_error);     // not Matrix Market
  CHECK(read_graph(odd, GraphFormat::snap).n == 2);  // but given
  CHECK_THROWS_AS(parse_graph_format("csv"), input_error);
  CHECK(grid_graph(3).n == 9);
  CHECK(grid_graph(3).symmetric);
}

TEST_CASE("graph construction: R-MAT is gen::rmat's pattern, symmetric; a large edge list") {
  const CsrGraph r = rmat_graph(10, 8, 4);
  const Csr<double> a = gen::rmat(10, 8, 4);
  // the general path on the same edges (a Graph with every entry of the matrix)
  Graph g;
  g.n = a.rows;
  for (int32_t v = a.rows - 1; v >= 0; --v)  // rows in reverse: the placement order must not matter
    for (int32_t k = a.row_ptr[size_t(v)]; k < a.row_ptr[size_t(v) + 1]; ++k)
      g.add_edge(v, a.col_idx[size_t(k)], 1);
  const CsrGraph c(g);

  CHECK(r.symmetric);
  CHECK(r.rev_adj.empty());
  CHECK(r.offsets == a.row_ptr);
  CHECK(r.adj == a.col_idx);
  CHECK(c.symmetric);  // found by the transpose
  CHECK(c.offsets == r.offsets);
  CHECK(c.adj == r.adj);
  CHECK_THROWS_AS(rmat_graph(27, 1, 1), input_error);
  CHECK_THROWS_AS(rmat_graph(25, 32, 1), input_error);  // 2^31 entries: past 32-bit offsets
}

TEST_CASE("graph readers: malformed files name the file and the line") {
  test::TempDir dir;
  struct Bad {
    const char* name;
    const char* text;
    const char* where;
  };
  const Bad bad[] = {
      {"a.txt", "0 1\n1 x\n", ":2:"},
      {"b.txt", "0 1\n\n1 2 3 4\n", ":3:"},
      {"c.txt", "-1 2\n", ":1:"},
      {"d.txt", "0 99999999999\n", ":1:"},
      {"e.gr", "p sp 3 1\na 1 4 1\n", ":2:"},
      {"f.gr", "a 1 2 1\n", ":1:"},
      {"g.gr", "p sp 3 2\na 1 2 1\n", ":2:"},
      {"h.gr", "p sp 3 1\nx 1 2\n", ":2:"},
      {"i.gr", "p sp 3 1\na 0 2 1\n", ":2:"},
      {"j.gr", "p sp 3 1\np sp 3 1\n", ":2:"},
      {"k.gr", "p max 3 1\n", ":1:"},
      {"l.gr", "p sp 3 1\na 1 2 w\n", ":2:"},
      {"m.txt", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n", ":1:"},
      {"n.txt", "0 1 1e999\n", ":1:"},
  };
  for (const Bad& b : bad) {
    const std::string path = (dir.path / b.name).string();
    write_text(path, b.text, false);
    std::string message;
    try {
      read_graph(path);
    } catch (const input_error& e) {
      message = e.what();
    }
    CHECK_MESSAGE(message.find(path + b.where) == 0, b.name, ": '", message, "'");
  }
}

TEST_CASE("graph readers: the shared real graphs (skipped when absent)") {
  const auto dir = shared_graphs();
  if (!std::filesystem::exists(dir / "facebook_combined.txt.gz")) {
    return test::skip("no " + dir.string());
  }
  CsrGraph fb(
      read_graph((dir / "facebook_combined.txt.gz").string(), GraphFormat::automatic, true));
  CsrGraph wiki(read_graph((dir / "wiki-Vote.txt.gz").string()));

  CHECK(fb.n == 4039);
  CHECK(fb.edges() == 2 * 88234);
  CHECK(fb.symmetric);
  CHECK(wiki.edges() == 103689);
  CHECK_FALSE(wiki.symmetric);
  CHECK(wiki.rev_adj.size() == wiki.adj.size());
  if (std::filesystem::exists(dir / "copter2.gr.gz")) {
    CsrGraph copter(read_graph((dir / "copter2.gr.gz").string()));
    CHECK(copter.n == 55476);
    CHECK(copter.edges() == 704476);
    CHECK(copter.symmetric);
  }
}

TEST_CASE("graph readers: weights read for f32 or i32 refuse what the type cannot hold") {
  test::TempDir dir;
  struct Case {
    const char* name;
    const char* text;
    WeightType type;
    const char* want;  // "" when the file is accepted
  };
  const Case cases[] = {
      {"a.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e39\n", WeightType::f32,
       ":3: value 1e+39: overflows f32"},
      {"b.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n", WeightType::f32,
       ":3: value nan: a weight must be a number"},
      {"c.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 inf\n", WeightType::f32,
       ""},  // +inf: an explicit missing edge
      {"d.txt", "0 1 3e38\n1 0 -3.5e38\n", WeightType::f32, ":2: weight -3.5e38: overflows f32"},
      {"e.gr", "p sp 2 1\na 1 2 0.5\n", WeightType::i32, ":2: weight 0.5: is not an integer"},
      {"f.gr", "p sp 2 1\na 1 2 268435456\n", WeightType::i32, ":2: weight 268435456: is 2^28"},
      {"g.gr", "p sp 2 1\na 1 2 1e39\n", WeightType::any, ""},  // BFS reads no weights
  };
  for (const Case& c : cases) {
    const std::string path = (dir.path / c.name).string();
    write_text(path, c.text, false);
    std::string message;
    try {
      read_graph(path, GraphFormat::automatic, false, c.type);
    } catch (const input_error& e) {
      message = e.what();
    }
    if (*c.want)
      CHECK_MESSAGE(message.find(path + c.want) == 0, c.name, ": '", message, "'");
    else
      CHECK_MESSAGE(message.empty(), c.name, ": '", message, "'");
  }
}
