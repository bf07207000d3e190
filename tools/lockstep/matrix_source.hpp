// The matrix of `lockstep cg` and the distributed commands: a Matrix Market file, or one
// generated in memory ("gen:laplace3d:N", "gen:laplace2d:N", or a box: "gen:laplace3d:NXxNYxNZ",
// "gen:laplace2d:NXxNY"), so that large benchmark matrices need no multi-gigabyte file.
#pragma once
#include <lockstep/lockstep.hpp>
#include <optional>
#include <string>

namespace lockstep::cli {

/// A generated grid: the stencil's dimension and sides (nz = 1 in 2D).
struct Grid {
  int dims = 3;
  int32_t nx = 1, ny = 1, nz = 1;
  int64_t rows() const { return int64_t(nx) * ny * nz; }
  int32_t plane() const { return dims == 3 ? nx * ny : nx; }  // rows per plane (slab unit)
};

/// The grid of "gen:..." (nullopt for a file); a bad spec is an input_error.
inline std::optional<Grid> parse_grid(const std::string& file) {
  if (file.rfind("gen:", 0) != 0) return std::nullopt;
  const std::string usage =
      file + ": generated matrices are gen:laplace2d:N[xNY] or gen:laplace3d:N[xNYxNZ]";
  const size_t colon = file.find(':', 4);
  const std::string kind = file.substr(4, colon == std::string::npos ? colon : colon - 4);
  if (kind != "laplace3d" && kind != "laplace2d")
    throw input_error(file + ": unknown generated matrix '" + kind + "' (" +
                      usage.substr(file.size() + 2) + ")");
  Grid g;
  g.dims = kind == "laplace3d" ? 3 : 2;
  std::vector<long> sides;
  const std::string rest = colon == std::string::npos ? "" : file.substr(colon + 1);
  for (size_t at = 0; at <= rest.size();) {
    size_t x = rest.find('x', at);
    std::string part = rest.substr(at, x == std::string::npos ? x : x - at);
    // The whole text is N (or NxNYxNZ): "8abc" or "8:9" is refused, not read as 8.
    if (part.empty() || part.size() > 9 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      throw input_error(file + ": N '" + rest + "' is not a whole number (" +
                        usage.substr(file.size() + 2) + ")");
    const long v = std::stol(part);
    if (v < 1 || v > 65536) throw input_error(file + ": N = " + part + " out of range [1, 65536]");
    sides.push_back(v);
    if (x == std::string::npos) break;
    at = x + 1;
  }
  if (sides.size() != 1 && sides.size() != size_t(g.dims)) throw input_error(usage);
  g.nx = int32_t(sides[0]);
  g.ny = int32_t(sides.size() > 1 ? sides[1] : sides[0]);
  g.nz = g.dims == 2 ? 1 : int32_t(sides.size() > 2 ? sides[2] : sides[0]);
  if (g.rows() >= (1ll << 31)) throw input_error(file + ": more than 2^31 - 1 rows");
  return g;
}

/// Rows begin .. end-1 of a generated grid (global columns).
template <typename T>
Csr<T> grid_rows(const Grid& g, int32_t begin, int32_t end) {
  return gen::laplace_rows(g.dims, g.nx, g.ny, g.nz, begin, end).cast<T>();
}

template <typename T>
Csr<T> matrix_source(const std::string& file) {
  const std::optional<Grid> g = parse_grid(file);
  if (!g) return read_matrix_market<T>(file);
  if (g->rows() * (g->dims == 3 ? 7 : 5) >= (1ll << 31))
    throw input_error(file + ": more than 2^31 nonzeros in one process (run it --distributed)");
  return grid_rows<T>(*g, 0, int32_t(g->rows()));
}

}  // namespace lockstep::cli
