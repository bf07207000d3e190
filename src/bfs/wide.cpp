// LbPartition and BfsWide: the kernels of cl/bfs_lb.cl and cl/bfs_bitmap.cl and their scratch.
// lb() is four launches (group scans of the frontier's degrees, one scan of the group sums, the
// merge-path partition, the expand over ceil((count + edges) / tile) groups); the bitmap steps keep
// the frontier as two swapped bitmaps and the visited set as a third.
#include <algorithm>

#include "bfs/steps.hpp"
#include "lockstep/error.hpp"

namespace lockstep::detail {

int BfsWide::tile(int local) { return std::max(local, 1024); }

Defines BfsWide::defines(const Defines& base, int local) {
  Defines d = base;
  d.set("LOCAL_SIZE", local).set("LB_ITEMS", tile(local) / local);
  return d;
}

namespace {
size_t round_up(int64_t items, int local) {
  return size_t((std::max<int64_t>(items, 1) + local - 1) / local) * size_t(local);
}
}  // namespace

LbPartition::LbPartition(Context& ctx, int64_t vertices, int64_t items, int local, const Defines& d)
    : ctx_(ctx), local_(local) {
  scan_ = ctx.kernel("bfs_lb.cl", "bfs_lb_scan", d);
  sums_ = ctx.kernel("bfs_lb.cl", "bfs_lb_sums", d);
  path_ = ctx.kernel("bfs_lb.cl", "bfs_lb_path", d);
  const size_t nn = size_t(std::max<int64_t>(1, vertices));
  ends = make_buffer(ctx.context(), CL_MEM_READ_WRITE, nn * 4);
  sums = make_buffer(ctx.context(), CL_MEM_READ_WRITE, (nn / size_t(local) + 1) * 4);
  const size_t tiles = size_t(std::max<int64_t>(1, items)) / size_t(BfsWide::tile(local)) + 2;
  path = make_buffer(ctx.context(), CL_MEM_READ_WRITE, tiles * 4);
}

int64_t LbPartition::run(const cl::Buffer& off, const cl::Buffer& in, int64_t count, int64_t edges,
                         cl::Event* first) {
  auto& q = ctx_.queue();
  const int64_t groups = (count + local_ - 1) / local_, tile = BfsWide::tile(local_);
  set_args(scan_, off, in, int32_t(count), ends, sums);
  cl::Event e = launch(q, scan_, round_up(count, local_), size_t(local_));
  if (first) *first = e;
  set_args(sums_, sums, int32_t(groups));
  launch(q, sums_, size_t(local_), size_t(local_));
  const int64_t tiles = std::max<int64_t>(1, (count + edges + tile - 1) / tile);
  set_args(path_, ends, sums, int32_t(count), int32_t(edges), int32_t(tiles), path);
  launch(q, path_, round_up(tiles + 1, local_), size_t(local_));
  return tiles;
}

BfsWide::BfsWide(Context& ctx, int32_t n, size_t edges, int local, const Defines& defines)
    // tiles of count + edges <= n + m items (the graph's n + m < 2^31 is checked by Bfs)
    : ctx_(ctx),
      n_(n),
      local_(local),
      part_(ctx, n, int64_t(std::max<int32_t>(1, n)) + int64_t(std::max<size_t>(1, edges)), local,
            BfsWide::defines(defines, local)) {
  if (local % 32 != 0)
    throw input_error("bfs: the work-group size " + std::to_string(local) +
                      " must be a multiple of 32 (bitmap words)");
  const Defines d = BfsWide::defines(defines, local);
  expand_ = ctx.kernel("bfs_lb.cl", "bfs_lb_expand", d);
  begin_ = ctx.kernel("bfs_bitmap.cl", "bfs_bu_begin", d);
  step_ = ctx.kernel("bfs_bitmap.cl", "bfs_bu_step", d);
  to_queue_ = ctx.kernel("bfs_bitmap.cl", "bfs_bits_to_queue", d);
  const size_t nn = std::max<size_t>(1, size_t(n));
  const size_t words = (nn + 31) / 32 + size_t(local);  // whole groups of words
  visited_ = make_buffer(ctx.context(), CL_MEM_READ_WRITE, words * 4);
  cur_ = make_buffer(ctx.context(), CL_MEM_READ_WRITE, words * 4);
  next_ = make_buffer(ctx.context(), CL_MEM_READ_WRITE, words * 4);
}

std::pair<cl::Event, cl::Event> BfsWide::lb(const BfsBuffers& b, const cl::Buffer& in,
                                            int64_t count, int64_t edges, const cl::Buffer& out,
                                            int32_t level) {
  cl::Event first;
  const int64_t tiles = part_.run(b.off, in, count, edges, &first);
  set_args(expand_, b.off, b.adj, b.levels, b.parents, in, int32_t(count), int32_t(edges),
           part_.ends, part_.sums, part_.path, out, b.ctr, level);
  cl::Event last = launch(ctx_.queue(), expand_, size_t(tiles) * size_t(local_), size_t(local_));
  return {first, last};
}

cl::Event BfsWide::begin(const BfsBuffers& b, int32_t level) {
  set_args(begin_, b.levels, n_, level, visited_, cur_);
  return launch(ctx_.queue(), begin_, round_up((int64_t(n_) + 31) / 32, local_), size_t(local_));
}

cl::Event BfsWide::bottom_up(const BfsBuffers& b, int32_t level) {
  set_args(step_, b.in_off, b.in_adj, b.off, b.levels, b.parents, visited_, cur_, next_, n_, b.ctr,
           level);
  cl::Event e = launch(ctx_.queue(), step_, round_up(n_, local_), size_t(local_));
  std::swap(cur_, next_);
  return e;
}

cl::Event BfsWide::to_queue(const BfsBuffers& b, const cl::Buffer& out) {
  set_args(to_queue_, b.off, cur_, n_, out, b.ctr);
  return launch(ctx_.queue(), to_queue_, round_up(n_, local_), size_t(local_));
}

}  // namespace lockstep::detail
