// Graphs, the one home: `Graph`, a weighted edge list (what APSP consumes and every reader
// produces), and `CsrGraph`, compressed adjacency for traversals (BFS), built from a Graph or a
// generated matrix's pattern, with an optional reverse adjacency and degree statistics (the
// generated graphs, grid_graph and rmat_graph, are in lockstep/generators.hpp).
// read_graph() reads Matrix Market (entry (i, j) is the edge i -> j), SNAP edge lists (`#`
// comments, 0-based ids, tab or space) and DIMACS 9th challenge .gr files (1-based `a u v w`
// lines), each optionally gzip-compressed; the format comes from the extension (.mtx, .txt/.el/
// .edges/.snap, .gr, each with or without .gz) or is given. Vertices are 0-based internally.
//
//   auto g = lockstep::read_graph("soc-Slashdot0902.txt.gz", lockstep::GraphFormat::automatic,
//   true); lockstep::CsrGraph c(g);  // c.offsets, c.adj; c.degree(v); c.stats().mean
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace lockstep {
namespace detail {
struct SymmetricRows {};  // the generators' promise: rows sorted and symmetric by construction
}  // namespace detail

/// A weighted directed graph as an edge list: edge e goes src[e] -> dst[e] with weight[e].
struct Graph {
  int32_t n = 0;
  std::vector<int32_t> src, dst;
  std::vector<double> weight;
  void add_edge(int32_t u, int32_t v, double w) {
    src.push_back(u);
    dst.push_back(v);
    weight.push_back(w);
  }
  /// Adds v -> u for every edge u -> v (self-loops are not doubled).
  void add_reverse_edges();
};

enum class GraphFormat { automatic, matrix_market, snap, dimacs };
GraphFormat parse_graph_format(const std::string& name);  // auto|mtx|snap|dimacs; input_error
const char* to_string(GraphFormat f);
/// The format a file name implies (a trailing .gz is ignored); Matrix Market for other names.
GraphFormat graph_format_of(const std::string& path);

/// The weight type a graph is read for: `any` keeps every number; `f32` and `i32` refuse, with
/// PATH:LINE, NaN, -inf and a weight the type cannot hold (1e39 in f32 would become infinite,
/// i.e. a missing edge; i32 takes integers below 2^28). +inf is an explicit missing edge.
enum class WeightType { any, f32, i32 };

/// Reads a graph. Matrix Market: coordinate (i, j, w) is the edge i -> j (pattern: weight 1); an
/// `array` file is a dense matrix, every entry an edge; the matrix must be square. SNAP: one
/// "u v" pair a line, 0-based, n = largest id + 1, weight 1 (a Matrix Market banner is refused).
/// DIMACS: "p sp n m" then "a u v w" lines (1-based). With `undirected`, every edge also goes the
/// other way. Malformed input throws input_error "PATH:LINE: what", as does a vertex count whose
/// row pointers alone would not fit in host memory (check_host_memory, before any allocation).
Graph read_graph(const std::string& path, GraphFormat format = GraphFormat::automatic,
                 bool undirected = false, WeightType weights = WeightType::any);

struct DegreeStats {
  int32_t min = 0, max = 0;
  double mean = 0, stddev = 0;
};

/// Compressed sparse rows of a graph's pattern: the out-neighbours of v are
/// adj[offsets[v] .. offsets[v+1]), sorted (duplicates and self-loops kept). `symmetric` when
/// every edge has its reverse (then the in-neighbours are the out-neighbours); otherwise, with
/// `reverse`, rev_offsets/rev_adj hold the in-neighbours (for bottom-up BFS).
struct CsrGraph {
  int32_t n = 0;
  std::vector<int32_t> offsets{0}, adj;
  std::vector<int32_t> rev_offsets, rev_adj;  // empty when symmetric or not built
  bool symmetric = false;

  CsrGraph() = default;
  explicit CsrGraph(const Graph& g, bool reverse = true);
  /// From a pattern already in CSR form (e.g. a generated matrix's row_ptr/col_idx).
  CsrGraph(int32_t n, std::vector<int32_t> offsets, std::vector<int32_t> adj, bool reverse = true);

  size_t edges() const { return adj.size(); }
  int32_t degree(int32_t v) const { return offsets[size_t(v) + 1] - offsets[size_t(v)]; }
  bool has_in_edges() const { return symmetric || !rev_offsets.empty(); }
  const std::vector<int32_t>& in_offsets() const { return symmetric ? offsets : rev_offsets; }
  const std::vector<int32_t>& in_adj() const { return symmetric ? adj : rev_adj; }
  /// Whether u -> v is an edge (binary search in u's sorted row).
  bool has_edge(int32_t u, int32_t v) const;
  DegreeStats stats() const;
  /// Internal (src/generators): rows already sorted and symmetric, taken as they are.
  CsrGraph(int32_t n, std::vector<int32_t> offsets, std::vector<int32_t> adj,
           detail::SymmetricRows);

 private:
  void finish(bool reverse);
};

}  // namespace lockstep
