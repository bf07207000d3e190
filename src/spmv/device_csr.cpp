// DeviceCsr: upload, the matrix fingerprint (the tuning database's key) and the adaptive
// kernel's row blocks: short rows packed into blocks of at most 2*LOCAL_SIZE entries and
// LOCAL_SIZE rows; a row longer than that gets its own block, split into chunks of
// 32*LOCAL_SIZE entries when longer still.
#include <cstdio>

#include "lockstep/spmv.hpp"
#include "runtime/disk_cache.hpp"

namespace lockstep {
using disk_cache::fnv1a_bytes;

template <typename T>
DeviceCsr<T>::DeviceCsr(cl::CommandQueue& queue, const Csr<T>& a)
    : rows_(a.rows),
      cols_(a.cols),
      nnz_(a.nnz()),
      stats_(row_stats(a)),
      contiguity_(column_contiguity(a)),
      host_row_ptr_(a.row_ptr) {
  if (a.row_ptr.size() != size_t(a.rows) + 1 || a.values.size() != a.col_idx.size() ||
      size_t(a.row_ptr.back()) != a.col_idx.size())
    throw input_error("DeviceCsr: inconsistent CSR arrays");
  row_ptr_ = upload(queue, a.row_ptr, CL_MEM_READ_ONLY);
  col_idx_ = upload(queue, a.col_idx, CL_MEM_READ_ONLY);
  values_ = upload(queue, a.values, CL_MEM_READ_ONLY);
  uint64_t h = fnv1a_bytes(a.row_ptr.data(), a.row_ptr.size() * 4);
  h = fnv1a_bytes(a.col_idx.data(), a.col_idx.size() * 4, h);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%dx%d:%zu:%016llx", a.rows, a.cols, a.nnz(),
                static_cast<unsigned long long>(h));
  fingerprint_ = buf;
  device_ = describe(queue.getInfo<CL_QUEUE_DEVICE>());
}

template <typename T>
const typename DeviceCsr<T>::Blocks& DeviceCsr<T>::blocks(cl::CommandQueue& queue,
                                                          int local_size) const {
  auto it = blocks_.find(local_size);
  if (it != blocks_.end()) return it->second;
  if (local_size < 1 || local_size > 4096) throw input_error("adaptive blocks: bad local size");
  const int64_t wg = local_size, block_nnz = 2 * wg, chunk = 32 * wg;
  const auto& rp = host_row_ptr_;
  std::vector<int32_t> blocks, split;
  int32_t slots = 0;
  auto add = [&](int32_t rb, int32_t re, int32_t kb, int32_t ke, int32_t s) {
    blocks.insert(blocks.end(), {rb, re, kb, ke, s});
  };
  for (int32_t r = 0; r < rows_;) {
    int64_t len = rp[r + 1] - rp[r];
    if (len > block_nnz) {
      if (len <= chunk) {
        add(r, r + 1, rp[r], rp[r + 1], -1);
      } else {
        int32_t first = slots;
        for (int64_t k = rp[r]; k < rp[r + 1]; k += chunk)
          add(r, r + 1, int32_t(k), int32_t(std::min<int64_t>(k + chunk, rp[r + 1])), slots++);
        split.insert(split.end(), {r, first, slots - first});
      }
      ++r;
      continue;
    }
    int32_t start = r;
    int64_t nnz = 0;
    while (r < rows_ && r - start < wg && nnz + (rp[r + 1] - rp[r]) <= block_nnz)
      nnz += rp[r + 1] - rp[r], ++r;
    add(start, r, rp[start], rp[r], -1);
  }
  Blocks b;
  b.count = int(blocks.size() / 5);
  b.n_split = int(split.size() / 3);
  b.blocks = upload(queue, blocks, CL_MEM_READ_ONLY);
  b.split = upload(queue, split, CL_MEM_READ_ONLY);
  b.partials = make_buffer(queue.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                           std::max<size_t>(1, size_t(slots)) * sizeof(T));
  return blocks_.emplace(local_size, std::move(b)).first->second;
}

template class DeviceCsr<float>;
template class DeviceCsr<double>;

}  // namespace lockstep
