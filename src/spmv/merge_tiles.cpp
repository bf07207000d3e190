// The merge-path kernel's tiles (Merrill & Garland, "Merge-based parallel sparse matrix-vector
// multiplication", SC 2016): the merge of the row ends (row_ptr[1..rows]) with the nonzero
// indices 0..nnz-1 is a path of rows + nnz steps; group g takes steps [g*W*I, (g+1)*W*I) for W
// work-items of I items. Its start (row, nonzero) is found here, on the host, once per tile
// size, by the same binary search on the path's diagonal that the kernel does inside a tile.
#include <algorithm>

#include "lockstep/spmv.hpp"

namespace lockstep {

/// The path coordinate (rows finished, nonzeros consumed) where diagonal d crosses the path.
std::pair<int64_t, int64_t> merge_path_coordinate(const std::vector<int32_t>& row_ptr, int64_t d) {
  const int64_t rows = int64_t(row_ptr.size()) - 1, nnz = row_ptr.back();
  int64_t lo = std::max<int64_t>(0, d - nnz), hi = std::min(d, rows);
  while (lo < hi) {  // the first row i whose end lies past nonzero d - i - 1
    int64_t mid = (lo + hi) / 2;
    if (row_ptr[size_t(mid) + 1] <= d - mid - 1)
      lo = mid + 1;
    else
      hi = mid;
  }
  return {lo, d - lo};
}

template <typename T>
const typename DeviceCsr<T>::MergeTiles& DeviceCsr<T>::merge_tiles(cl::CommandQueue& queue,
                                                                   int wg_bits, int items) const {
  if (items < 1 || wg_bits < 0 || wg_bits > 12) throw input_error("merge tiles: bad tile size");
  auto it = merge_.find(wg_bits << 16 | items);
  if (it != merge_.end()) return it->second;
  const int64_t tile = (int64_t(1) << wg_bits) * items, total = int64_t(rows_) + int64_t(nnz_);
  const int64_t count = std::max<int64_t>(1, (total + tile - 1) / tile);
  if (count > INT32_MAX / 2) throw input_error("merge tiles: too many tiles for 32-bit indices");
  std::vector<int32_t> coords;  // 2 * (count + 1): row, nonzero of each tile's start, then the end
  for (int64_t g = 0; g <= count; ++g) {
    auto [i, j] = merge_path_coordinate(host_row_ptr_, std::min(g * tile, total));
    coords.push_back(int32_t(i));
    coords.push_back(int32_t(j));
  }
  MergeTiles m;
  m.count = int(count);
  m.coords = upload(queue, coords, CL_MEM_READ_ONLY);
  cl::Context ctx = queue.getInfo<CL_QUEUE_CONTEXT>();
  m.carry_row = make_buffer(ctx, CL_MEM_READ_WRITE, size_t(count) * sizeof(int32_t));
  m.carry_val = make_buffer(ctx, CL_MEM_READ_WRITE, size_t(count) * sizeof(T));
  return merge_.emplace(wg_bits << 16 | items, std::move(m)).first->second;
}

template const DeviceCsr<float>::MergeTiles& DeviceCsr<float>::merge_tiles(cl::CommandQueue&, int,
                                                                           int) const;
template const DeviceCsr<double>::MergeTiles& DeviceCsr<double>::merge_tiles(cl::CommandQueue&, int,
                                                                             int) const;

}  // namespace lockstep
