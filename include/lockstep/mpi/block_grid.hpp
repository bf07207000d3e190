// A structured grid split over the ranks in boxes (a ranks grid px x py x pz), for stencil
// matrices generated on every rank (gen::laplace_rows' Laplacians): each rank's halo is the
// faces of its box, so it shrinks as P grows, where a slab's (partition_by_planes) stays two
// planes.
//
//   auto g = lockstep::mpi::BlockGrid::make(3, 256, 256, 256, ranks);  // 4 ranks: 1 x 2 x 2
//   Csr<double> mine = lockstep::mpi::laplace_block(g, rank);
//   lockstep::mpi::DistributedCsr<double> dA(comm, queue, g.offsets, mine);
//
// The unknowns are numbered box by box (rank r's box holds rows offsets[r] .. offsets[r+1]-1,
// in plane order inside the box), so a DistributedCsr's contiguous row blocks are the boxes.
// The matrix is the grid's Laplacian with its unknowns permuted: CG's iterations and residuals
// are those of the natural numbering, up to rounding, and a vector of ones stays one.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/csr.hpp"

namespace lockstep::mpi {

struct BlockGrid {
  int dims = 3;                       // 3: the 7-point stencil; 2: the 5-point one (nz = 1)
  std::array<int32_t, 3> n{1, 1, 1};  // the grid's sides nx, ny, nz
  std::array<int, 3> p{1, 1, 1};      // the ranks grid px, py, pz (rank (kz py + ky) px + kx)
  std::array<std::vector<int32_t>, 3> cuts;  // per axis, p + 1 ascending coordinates
  std::vector<int32_t> offsets;              // ranks + 1 row offsets: the boxes' first rows

  /// The split of an nx x ny x nz grid over `ranks` ranks: `grid` ({px, py, pz}, product
  /// `ranks`; pz = 1 in 2D) or, with zeros, the ranks grid whose boxes share the fewest faces
  /// (ties: the later axes split first, so 2 ranks split z like planes). Each axis in near-equal
  /// parts. input_error when the grid's product is not `ranks`.
  static BlockGrid make(int dims, int32_t nx, int32_t ny, int32_t nz, int ranks,
                        std::array<int, 3> grid = {0, 0, 0});
  int ranks() const { return p[0] * p[1] * p[2]; }
  int64_t rows() const { return int64_t(n[0]) * n[1] * n[2]; }
  /// The box-numbered row of grid point (x, y, z).
  int32_t index(int32_t x, int32_t y, int32_t z) const;
  /// "1x2x2"
  std::string str() const;
};

/// "PXxPYxPZ" (or "PXxPY" in 2D) as a ranks grid; input_error naming `what` otherwise.
std::array<int, 3> parse_ranks_grid(const std::string& text, const std::string& what);

/// Rank `rank`'s rows of the grid's Laplacian (gen::laplace_rows' values: 6 or 4 on the
/// diagonal, -1 per neighbour) in the box numbering: rows offsets[rank] .. offsets[rank+1]-1,
/// global columns.
Csr<double> laplace_block(const BlockGrid& g, int rank);

}  // namespace lockstep::mpi
