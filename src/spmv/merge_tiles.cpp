// The merge-path kernel's tiles (Merrill & Garland, "Merge-based parallel sparse matrix-vector
// multiplication", SC 2016): the merge of the row ends (row_ptr[1..rows]) with the nonzero
// indices 0..nnz-1 is a path of rows + nnz steps; group g takes steps [g*W*I, (g+1)*W*I) for W
// work-items of I items. Its start (row, nonzero) is found here, on the host, once per tile
// size, by the same binary search on the path's diagonal that the kernel does inside a tile;
// so is the plan of the carry-out fix-up (which rows are open at which tiles' ends).
#include <algorithm>

#include "lockstep/spmv.hpp"

namespace lockstep {
namespace {
constexpr int64_t kLongRun = 32;  // runs of more tiles get a whole group in the fix-up
}  // namespace

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
                                                                   int local_size, int items,
                                                                   size_t width) const {
  if (items < 1 || local_size < 1 || local_size > 4096)
    throw input_error("merge tiles: bad tile size");
  width = std::max<size_t>(1, width);
  auto it = merge_.find(local_size << 16 | items);
  if (it != merge_.end()) {
    MergeTiles& m = it->second;
    if (m.width < width) {  // the old buffer lives on while queued kernels hold it
      m.carry = make_buffer(queue.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                            size_t(m.count) * width * sizeof(T));
      m.width = width;
    }
    return m;
  }
  const int64_t tile = int64_t(local_size) * items, total = int64_t(rows_) + int64_t(nnz_);
  const int64_t count = std::max<int64_t>(1, (total + tile - 1) / tile);
  if (count > INT32_MAX / 2) throw input_error("merge tiles: too many tiles for 32-bit indices");
  std::vector<int32_t> coords;  // 2 * (count + 1): row, nonzero of each tile's start, then the end
  for (int64_t g = 0; g <= count; ++g) {
    auto [i, j] = merge_path_coordinate(host_row_ptr_, std::min(g * tile, total));
    coords.push_back(int32_t(i));
    coords.push_back(int32_t(j));
  }
  // Group g's carry-out belongs to the row open at its tile's end, coords[2g + 2]; runs of
  // groups with the same open row (a row over many tiles) become one plan entry.
  std::vector<int32_t> long_runs, short_runs;
  for (int64_t g = 0; g < count;) {
    const int32_t row = coords[size_t(2 * g + 2)];
    int64_t e = g + 1;
    while (e < count && coords[size_t(2 * e + 2)] == row) ++e;
    auto& runs = e - g > kLongRun ? long_runs : short_runs;
    if (row < rows_) runs.insert(runs.end(), {row, int32_t(g), int32_t(e - g)});
    g = e;
  }
  MergeTiles m;
  m.count = int(count);
  m.n_long = int(long_runs.size() / 3);
  m.n_plan = int((long_runs.size() + short_runs.size()) / 3);
  long_runs.insert(long_runs.end(), short_runs.begin(), short_runs.end());
  long_runs.push_back(0);  // never empty
  m.coords = upload(queue, coords, CL_MEM_READ_ONLY);
  m.plan = upload(queue, long_runs, CL_MEM_READ_ONLY);
  m.width = width;
  m.carry = make_buffer(queue.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                        size_t(count) * width * sizeof(T));
  return merge_.emplace(local_size << 16 | items, std::move(m)).first->second;
}

template const DeviceCsr<float>::MergeTiles& DeviceCsr<float>::merge_tiles(cl::CommandQueue&, int,
                                                                           int, size_t) const;
template const DeviceCsr<double>::MergeTiles& DeviceCsr<double>::merge_tiles(cl::CommandQueue&, int,
                                                                             int, size_t) const;

}  // namespace lockstep
