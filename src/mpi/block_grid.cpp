// BlockGrid (lockstep/mpi/block_grid.hpp): the ranks grid of a structured grid, the box
// numbering and each rank's rows of the Laplacian in it.
#include "lockstep/mpi/block_grid.hpp"

#include <algorithm>
#include <limits>

#include "lockstep/error.hpp"

namespace lockstep::mpi {

BlockGrid BlockGrid::make(int dims, int32_t nx, int32_t ny, int32_t nz, int ranks,
                          std::array<int, 3> grid) {
  BlockGrid g;
  g.dims = dims == 2 ? 2 : 3;
  g.n = {nx, ny, g.dims == 2 ? 1 : nz};
  if (ranks < 1 || nx < 1 || ny < 1 || g.n[2] < 1)
    throw input_error("block partition: needs sides >= 1 and ranks >= 1");
  if (grid == std::array<int, 3>{0, 0, 0}) {
    // The fewest shared faces: sum over the axes of (cuts) x (the other two sides).
    double best = std::numeric_limits<double>::infinity();
    for (int pz = g.dims == 2 ? 1 : ranks; pz >= 1; --pz)
      for (int py = ranks / pz; py >= 1; --py) {
        if (ranks % (pz * py) || pz > g.n[2] || py > ny) continue;
        const int px = ranks / (pz * py);
        if (px > nx) continue;
        const double faces = double(px - 1) * ny * g.n[2] + double(py - 1) * nx * g.n[2] +
                             double(pz - 1) * double(nx) * ny;
        if (faces < best) best = faces, grid = {px, py, pz};
      }
    if (grid[0] == 0)
      throw input_error("block partition: " + std::to_string(ranks) + " ranks do not fit a " +
                        std::to_string(nx) + "x" + std::to_string(ny) + "x" +
                        std::to_string(g.n[2]) + " grid");
  }
  g.p = grid;
  if (int64_t(g.p[0]) * g.p[1] * g.p[2] != ranks || g.p[0] < 1 || g.p[1] < 1 || g.p[2] < 1 ||
      (g.dims == 2 && g.p[2] != 1))
    throw input_error("block partition: the ranks grid " + g.str() + " is not " +
                      std::to_string(ranks) + " ranks" + (g.dims == 2 ? " (2D: PXxPY)" : ""));
  for (int d = 0; d < 3; ++d) {
    if (g.p[size_t(d)] > g.n[size_t(d)])
      throw input_error("block partition: " + std::to_string(g.p[size_t(d)]) +
                        " ranks along an axis of " + std::to_string(g.n[size_t(d)]) + " points");
    auto& c = g.cuts[size_t(d)];
    for (int k = 0; k <= g.p[size_t(d)]; ++k)
      c.push_back(int32_t(int64_t(g.n[size_t(d)]) * k / g.p[size_t(d)]));
  }
  g.offsets.assign(1, 0);
  for (int kz = 0; kz < g.p[2]; ++kz)
    for (int ky = 0; ky < g.p[1]; ++ky)
      for (int kx = 0; kx < g.p[0]; ++kx) {
        const int64_t box = int64_t(g.cuts[0][size_t(kx) + 1] - g.cuts[0][size_t(kx)]) *
                            (g.cuts[1][size_t(ky) + 1] - g.cuts[1][size_t(ky)]) *
                            (g.cuts[2][size_t(kz) + 1] - g.cuts[2][size_t(kz)]);
        g.offsets.push_back(int32_t(g.offsets.back() + box));
      }
  return g;
}

int32_t BlockGrid::index(int32_t x, int32_t y, int32_t z) const {
  const int32_t c[3] = {x, y, z};
  int k[3];
  for (int d = 0; d < 3; ++d) {
    const auto& v = cuts[size_t(d)];
    k[d] = int(std::upper_bound(v.begin(), v.end(), c[d]) - v.begin()) - 1;
  }
  const int r = (k[2] * p[1] + k[1]) * p[0] + k[0];
  const int32_t bx = cuts[0][size_t(k[0]) + 1] - cuts[0][size_t(k[0])];
  const int32_t by = cuts[1][size_t(k[1]) + 1] - cuts[1][size_t(k[1])];
  return offsets[size_t(r)] +
         ((z - cuts[2][size_t(k[2])]) * by + (y - cuts[1][size_t(k[1])])) * bx +
         (x - cuts[0][size_t(k[0])]);
}

std::string BlockGrid::str() const {
  std::string s = std::to_string(p[0]) + "x" + std::to_string(p[1]);
  return dims == 2 ? s : s + "x" + std::to_string(p[2]);
}

std::array<int, 3> parse_ranks_grid(const std::string& text, const std::string& what) {
  std::array<int, 3> g{1, 1, 1};
  size_t at = 0;
  for (int d = 0; d < 3; ++d) {
    const size_t x = text.find('x', at);
    const std::string part = text.substr(at, x == std::string::npos ? x : x - at);
    if (part.empty() || part.size() > 6 ||
        part.find_first_not_of("0123456789") != std::string::npos || std::stoi(part) < 1)
      throw input_error(what + ": the ranks grid '" + text + "' is not PXxPYxPZ (or PXxPY)");
    g[size_t(d)] = std::stoi(part);
    if (x == std::string::npos) {
      if (d == 0) throw input_error(what + ": the ranks grid '" + text + "' is not PXxPYxPZ");
      return g;
    }
    at = x + 1;
  }
  throw input_error(what + ": the ranks grid '" + text + "' has more than 3 sides");
}

Csr<double> laplace_block(const BlockGrid& g, int rank) {
  if (rank < 0 || rank >= g.ranks())
    throw input_error("laplace_block: no rank " + std::to_string(rank));
  const int kx = rank % g.p[0], ky = rank / g.p[0] % g.p[1], kz = rank / (g.p[0] * g.p[1]);
  const int32_t x0 = g.cuts[0][size_t(kx)], x1 = g.cuts[0][size_t(kx) + 1];
  const int32_t y0 = g.cuts[1][size_t(ky)], y1 = g.cuts[1][size_t(ky) + 1];
  const int32_t z0 = g.cuts[2][size_t(kz)], z1 = g.cuts[2][size_t(kz) + 1];
  const int32_t bx = x1 - x0, bxy = bx * (y1 - y0);
  const int32_t rows = g.offsets[size_t(rank) + 1] - g.offsets[size_t(rank)];
  const auto [nx, ny, nz] = g.n;
  Csr<double> a;
  a.rows = rows, a.cols = int32_t(g.rows());
  a.row_ptr.assign(1, 0);
  a.row_ptr.reserve(size_t(rows) + 1);
  const size_t per_row = g.dims == 3 ? 7 : 5;
  a.col_idx.reserve(size_t(rows) * per_row), a.values.reserve(size_t(rows) * per_row);
  auto put = [&](int32_t c, double v) { a.col_idx.push_back(c), a.values.push_back(v); };
  int32_t r = g.offsets[size_t(rank)];
  // A neighbour inside the box is r -+ 1, bx or bxy; outside, g.index finds its box. Columns
  // ascend within a row only inside the box: DistributedCsr sorts each row's local columns.
  for (int32_t z = z0; z < z1; ++z)
    for (int32_t y = y0; y < y1; ++y)
      for (int32_t x = x0; x < x1; ++x, ++r) {
        if (z > 0) put(z > z0 ? r - bxy : g.index(x, y, z - 1), -1);
        if (y > 0) put(y > y0 ? r - bx : g.index(x, y - 1, z), -1);
        if (x > 0) put(x > x0 ? r - 1 : g.index(x - 1, y, z), -1);
        put(r, g.dims == 3 ? 6 : 4);
        if (x + 1 < nx) put(x + 1 < x1 ? r + 1 : g.index(x + 1, y, z), -1);
        if (y + 1 < ny) put(y + 1 < y1 ? r + bx : g.index(x, y + 1, z), -1);
        if (z + 1 < nz) put(z + 1 < z1 ? r + bxy : g.index(x, y, z + 1), -1);
        a.row_ptr.push_back(int32_t(a.col_idx.size()));
      }
  return a;
}

}  // namespace lockstep::mpi
