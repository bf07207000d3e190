// Matrix Market files as graphs: coordinate entries (i, j, w) are edges i -> j, pattern entries
// weight 1, an `array` file a dense weight matrix (every entry an edge).
#include "lockstep/apsp.hpp"
#include "lockstep/matrix_market.hpp"

namespace lockstep {

Graph read_graph(const std::string& path) {
  Triplets t = read_triplets(path);
  if (t.rows != t.cols)
    throw input_error(path + ": a graph needs a square matrix, got " + std::to_string(t.rows) +
                      " x " + std::to_string(t.cols));
  Graph g;
  g.n = t.rows;
  g.src = std::move(t.row);
  g.dst = std::move(t.col);
  g.weight = std::move(t.value);
  return g;
}

}  // namespace lockstep
