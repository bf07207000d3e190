// BfsDevice: the graph, levels, parents and two frontier queues on the device, and one method per
// kernel step of cl/bfs.cl and cl/bfs_persistent.cl. Each step zeroes the counters, launches,
// and reads the counters back (one small blocking read: the host needs the next frontier's size
// to choose the next step). The frontier always ends in queue a (the queues swap after a step
// that ran an odd number of levels), except after bottom-up steps, which keep it as a bitmap in
// BfsWide until a queue step needs it (to_queue()).
#include <algorithm>
#include <array>
#include <optional>

#include "bfs/steps.hpp"
#include "lockstep/error.hpp"
#include "lockstep/kernel_builds.hpp"

namespace lockstep::detail {

Defines bfs_defines(int local, int wave) {
  Defines d;
  d.set("LOCAL_QUEUE", 4 * local).set("WAVE_WIDTH", wave);
  return d;
}

Defines bfs_dist_defines(int local, int wave) {
  Defines d = BfsWide::defines(bfs_defines(local, wave), local);
  d.set("BFS_OFFSET", "long").set("BFS_EDGES_64", 1);
  return d;
}

// The default work-group size under every barrier strategy, and the largest (1024, where the
// device allows it) under the lock barrier; the device rule's wave width (BfsOptions 0).
void bfs_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  const int wave = bfs_wave_width(d, 0), def = BfsOptions{}.local_size;
  for (int local : {def, int(std::min<size_t>(1024, d.max_work_group_size))}) {
    if (local % wave || local % 32) continue;
    const Defines base = bfs_defines(local, wave);
    persistent_kernel_builds(d, "bfs", "bfs_persistent.cl", base, local, out, local == def);
    Defines steps = base;
    steps.set("LOCAL_SIZE", local);
    out.push_back({"bfs", "bfs.cl", steps.options()});
    const std::string wide = BfsWide::defines(steps, local).options();
    out.push_back({"bfs", "bfs_lb.cl", wide});
    out.push_back({"bfs", "bfs_bitmap.cl", wide});
  }
}

struct BfsDevice::Impl {
  Context& ctx;
  const CsrGraph& g;
  int local, wave;
  cl::Buffer off, adj, in_off, in_adj, levels, parents, qa, qb, ctr, hist, lev, par;
  cl::Kernel k_queue, k_wave, k_scatter, k_single;
  std::optional<PersistentKernel> multi;
  std::optional<BfsWide> wide;
  bool in_bitmap = false;         // the frontier is BfsWide's bitmap, not queue a
  std::array<int32_t, 9> zero{};  // the counters' reset value (kept alive for the async write)
  std::array<int32_t, 9> host_ctr{};
  std::array<int32_t, 2> source_level{};  // start()'s level 0 and source (async writes)
  std::vector<int32_t> host_hist;         // hist as read after a launch (see levels_run)
  size_t hist_early = 0;                  // hist entries read before the counters
  int32_t max_levels;

  Impl(Context& c, const CsrGraph& graph, const BfsOptions& o, bool bottom_up)
      : ctx(c), g(graph), local(o.local_size) {
    wave = bfs_wave_width(c.info(), o.wave_width);
    if (local % wave != 0)
      throw input_error("bfs: the work-group size " + std::to_string(local) +
                        " must be a multiple of the wave width " + std::to_string(wave));
    Defines d = bfs_defines(local, wave);
    PersistentConfig pc;
    pc.barrier = o.barrier;
    pc.local_size = local;
    multi.emplace(c, "bfs_persistent.cl", "bfs_multi", d, pc);
    k_single = multi->sibling("bfs_single");  // the persistent program's options
    d.set("LOCAL_SIZE", local);
    k_queue = c.kernel("bfs.cl", "bfs_queue", d);
    k_wave = c.kernel("bfs.cl", "bfs_wave", d);
    k_scatter = c.kernel("bfs.cl", "bfs_scatter", d);
    wide.emplace(c, g.n, g.edges(), local, d);

    auto& q = c.queue();
    off = upload(q, g.offsets, CL_MEM_READ_ONLY);
    adj = upload(q, g.adj, CL_MEM_READ_ONLY);
    if (bottom_up && !g.symmetric) {
      in_off = upload(q, g.rev_offsets, CL_MEM_READ_ONLY);
      in_adj = upload(q, g.rev_adj, CL_MEM_READ_ONLY);
    } else {
      in_off = off, in_adj = adj;
    }
    const size_t n = std::max<size_t>(1, size_t(g.n));
    levels = make_buffer(c.context(), CL_MEM_READ_WRITE, n * 4);
    parents = make_buffer(c.context(), CL_MEM_READ_WRITE, n * 4);
    qa = make_buffer(c.context(), CL_MEM_READ_WRITE, n * 4);
    qb = make_buffer(c.context(), CL_MEM_READ_WRITE, n * 4);
    lev = make_buffer(c.context(), CL_MEM_READ_WRITE, n * 4);
    par = make_buffer(c.context(), CL_MEM_READ_WRITE, n * 4);
    ctr = make_buffer(c.context(), CL_MEM_READ_WRITE, zero.size() * 4);
    max_levels = int32_t(std::min<size_t>(n + 1, 1 << 22));
    hist = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(max_levels) * 8);
    hist_early = 2 * std::min<size_t>(size_t(max_levels), 256);
    host_hist.resize(hist_early);
  }

  BfsBuffers buffers() const { return {off, adj, in_off, in_adj, levels, parents, ctr}; }
  // A queue step follows bottom-up steps: the frontier bitmap becomes queue a.
  void to_queue() {
    if (!in_bitmap) return;
    write_ctr(zero);
    wide->to_queue(buffers(), qa);
    in_bitmap = false;
  }

  void write_ctr(std::array<int32_t, 9>& v) {
    check(ctx.queue().enqueueWriteBuffer(ctr, CL_FALSE, 0, v.size() * 4, v.data()),
          "clEnqueueWriteBuffer");
  }
  void read_ctr() {
    check(ctx.queue().enqueueReadBuffer(ctr, CL_TRUE, 0, host_ctr.size() * 4, host_ctr.data()),
          "clEnqueueReadBuffer");
  }
  size_t round_up(int64_t items) const {
    return size_t((std::max<int64_t>(items, 1) + local - 1) / local) * size_t(local);
  }
  // The frontiers after each level of a multi-level launch (hist), queues swapped to end in qa.
  // One round trip where the launch ran at most 256 levels: hist's first 256 levels are read
  // without waiting, then the counters (blocking; the in-order queue has finished both).
  Run levels_run(const cl::Event& e, bool from_counters) {
    const size_t early = hist_early;
    check(ctx.queue().enqueueReadBuffer(hist, CL_FALSE, 0, early * 4, host_hist.data()),
          "clEnqueueReadBuffer");
    read_ctr();
    const int done = host_ctr[8];
    if (size_t(2 * done) > early) {
      host_hist.resize(size_t(2 * done));
      check(ctx.queue().enqueueReadBuffer(hist, CL_TRUE, early * 4, (host_hist.size() - early) * 4,
                                          host_hist.data() + early),
            "clEnqueueReadBuffer");
    }
    const std::vector<int32_t>& h = host_hist;
    Run r;
    for (int i = 0; i < done; ++i) r.next.push_back({h[size_t(2 * i)], h[size_t(2 * i + 1)]});
    if (from_counters && done > 0)  // the counters after the launch (under relaunch, hist was
      r.next.back() = {host_ctr[size_t(2 + done % 3)], host_ctr[size_t(5 + done % 3)]};  // early)
    r.ms = event_ms(e);
    if (done & 1) std::swap(qa, qb);
    return r;
  }
  Run one_level(const cl::Event& e) {
    read_ctr();
    std::swap(qa, qb);
    return {{{host_ctr[0], host_ctr[1]}}, event_ms(e)};
  }
};

BfsDevice::BfsDevice(Context& ctx, const CsrGraph& g, const BfsOptions& o, bool bottom_up)
    : p_(std::make_unique<Impl>(ctx, g, o, bottom_up)) {}
BfsDevice::~BfsDevice() = default;

bool BfsDevice::multi_in_kernel() const { return p_->multi->in_kernel(); }
int BfsDevice::multi_groups() const { return p_->multi->groups(); }

void BfsDevice::start(int32_t source) {
  auto& q = p_->ctx.queue();
  const int32_t minus = -1;  // a fill's pattern is copied when the fill is enqueued
  const size_t bytes = size_t(p_->g.n) * 4;
  check(q.enqueueFillBuffer(p_->levels, minus, 0, bytes), "clEnqueueFillBuffer");
  check(q.enqueueFillBuffer(p_->parents, minus, 0, bytes), "clEnqueueFillBuffer");
  // No round trip: the writes read source_level, which lives as long as the device, and every
  // step after them ends with a blocking read on the same in-order queue.
  p_->source_level = {0, source};
  const int32_t* v = p_->source_level.data();
  check(q.enqueueWriteBuffer(p_->levels, CL_FALSE, size_t(source) * 4, 4, v),
        "clEnqueueWriteBuffer");
  check(q.enqueueWriteBuffer(p_->parents, CL_FALSE, size_t(source) * 4, 4, v + 1),
        "clEnqueueWriteBuffer");
  check(q.enqueueWriteBuffer(p_->qa, CL_FALSE, 0, 4, v + 1), "clEnqueueWriteBuffer");
  p_->in_bitmap = false;
}

Run BfsDevice::queue(int64_t count, int32_t level, bool wave) {
  Impl& d = *p_;
  d.to_queue();
  d.write_ctr(d.zero);
  cl::Kernel& k = wave ? d.k_wave : d.k_queue;
  set_args(k, d.off, d.adj, d.levels, d.parents, d.qa, int32_t(count), d.qb, d.ctr, level);
  return d.one_level(
      launch(d.ctx.queue(), k, d.round_up(wave ? count * d.wave : count), size_t(d.local)));
}

Run BfsDevice::lb(int64_t count, int64_t edges, int32_t level) {
  Impl& d = *p_;
  d.to_queue();
  d.write_ctr(d.zero);
  auto [first, last] = d.wide->lb(d.buffers(), d.qa, count, edges, d.qb, level);
  Run r = d.one_level(last);
  r.ms = event_ms(first, last);
  return r;
}

Run BfsDevice::bottom_up(int32_t level) {
  Impl& d = *p_;
  d.write_ctr(d.zero);
  std::optional<cl::Event> first;
  if (!d.in_bitmap) first = d.wide->begin(d.buffers(), level), d.in_bitmap = true;
  cl::Event last = d.wide->bottom_up(d.buffers(), level);
  d.read_ctr();
  return {{{d.host_ctr[0], d.host_ctr[1]}}, first ? event_ms(*first, last) : event_ms(last)};
}

Run BfsDevice::single(int64_t count, int32_t level, int64_t hi, int64_t hi_edges) {
  Impl& d = *p_;
  d.to_queue();
  set_args(d.k_single, d.off, d.adj, d.levels, d.parents, d.qa, d.qb, d.ctr, d.hist, int32_t(count),
           level, int32_t(std::min<int64_t>(hi, INT32_MAX)),
           int32_t(std::min<int64_t>(hi_edges, INT32_MAX)), d.max_levels);
  return d.levels_run(launch(d.ctx.queue(), d.k_single, size_t(d.local), size_t(d.local)), false);
}

Run BfsDevice::multi(int64_t count, int32_t level, int64_t lo, int64_t hi, int64_t hi_edges) {
  Impl& d = *p_;
  d.to_queue();
  d.host_ctr = d.zero;
  d.host_ctr[2] = int32_t(count);
  d.write_ctr(d.host_ctr);
  d.multi->set_args(d.off, d.adj, d.levels, d.parents, d.qa, d.qb, d.ctr, d.hist, level,
                    int32_t(std::min<int64_t>(lo, INT32_MAX)),
                    int32_t(std::min<int64_t>(hi, INT32_MAX)),
                    int32_t(std::min<int64_t>(hi_edges, INT32_MAX)), d.max_levels);
  return d.levels_run(d.multi->launch(), true);
}

void BfsDevice::put_vertices(const std::vector<int32_t>& vertices,
                             const std::vector<int32_t>& levels,
                             const std::vector<int32_t>& parents,
                             const std::vector<int32_t>& frontier) {
  Impl& d = *p_;
  auto& q = d.ctx.queue();
  d.in_bitmap = false;  // the host's frontier replaces the device's
  if (!vertices.empty()) {
    std::vector<int32_t> lev(vertices.size()), par(vertices.size());
    for (size_t i = 0; i < vertices.size(); ++i)
      lev[i] = levels[size_t(vertices[i])], par[i] = parents[size_t(vertices[i])];
    check(q.enqueueWriteBuffer(d.qb, CL_FALSE, 0, vertices.size() * 4, vertices.data()),
          "clEnqueueWriteBuffer");
    check(q.enqueueWriteBuffer(d.lev, CL_FALSE, 0, lev.size() * 4, lev.data()),
          "clEnqueueWriteBuffer");
    check(q.enqueueWriteBuffer(d.par, CL_FALSE, 0, par.size() * 4, par.data()),
          "clEnqueueWriteBuffer");
    set_args(d.k_scatter, d.levels, d.parents, d.qb, d.lev, d.par, int32_t(vertices.size()));
    launch(q, d.k_scatter, d.round_up(int64_t(vertices.size())), size_t(d.local));
    check(q.finish(), "clFinish");  // the host vectors above must outlive the writes
  }
  if (!frontier.empty())
    check(q.enqueueWriteBuffer(d.qa, CL_TRUE, 0, frontier.size() * 4, frontier.data()),
          "clEnqueueWriteBuffer");
}

std::vector<int32_t> BfsDevice::get_frontier(int64_t count) {
  p_->to_queue();
  return download<int32_t>(p_->ctx.queue(), p_->qa, size_t(count));
}

void BfsDevice::get_state(std::vector<int32_t>& levels, std::vector<int32_t>& parents) {
  levels = download<int32_t>(p_->ctx.queue(), p_->levels, size_t(p_->g.n));
  parents = download<int32_t>(p_->ctx.queue(), p_->parents, size_t(p_->g.n));
}

void BfsDevice::finish() { check(p_->ctx.queue().finish(), "clFinish"); }

}  // namespace lockstep::detail
