// CSR SpMM launches (cl/spmm.cl, cl/spmm_merge.cl): the configuration's -D options, the rule, the
// resolution of `automatic` (the tuning database's entry for this matrix, k and layout, else the
// rule) and the kernel builds that `lockstep kernels --list` and lockstep.warmup() know.
#include "lockstep/spmm.hpp"

#include <algorithm>
#include <sstream>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/tuning.hpp"
#include "runtime/defaults.hpp"

namespace lockstep {
namespace {

int next_pow2(int v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}
int ceil_div(int a, int b) { return (a + b - 1) / b; }
constexpr int kMaxChunks = 8;  // accumulators (of VEC values) per work-item
constexpr int kMaxMergeItems = 4096;
// The layout copies: a work-group moves about 4096 values (rows x k) through local memory.
int transpose_tile_rows(int k) { return std::max(1, std::min(256, 4096 / std::max(1, k))); }
int transpose_local_size(const DeviceInfo& d) {
  return int(std::min<size_t>(256, std::max<size_t>(1, d.max_work_group_size)));
}

}  // namespace

DenseLayout parse_dense_layout(const std::string& name) {
  if (name == "row") return DenseLayout::row_major;
  if (name == "col") return DenseLayout::col_major;
  throw input_error("unknown dense layout '" + name + "' (expected row or col)");
}
const char* to_string(DenseLayout l) { return l == DenseLayout::row_major ? "row" : "col"; }

std::string to_string(SpmmAlgorithm a) { return a == SpmmAlgorithm::merge ? "merge" : "team"; }
SpmmAlgorithm parse_spmm_algorithm(const std::string& name) {
  for (auto a : {SpmmAlgorithm::team, SpmmAlgorithm::merge})
    if (to_string(a) == name) return a;
  throw input_error("unknown SpMM algorithm '" + name + "' (expected team, merge or auto)");
}

std::string SpmmConfig::str() const {
  std::ostringstream s;
  s << "algorithm=" << to_string(algorithm) << " local_size=" << local_size << " team=" << team
    << " vec=" << vec;
  if (algorithm == SpmmAlgorithm::merge) s << " items=" << items;
  if (transpose) s << " transpose=1";
  return s.str();
}

SpmmConfig spmm_rule(const DeviceInfo& device, int k, DenseLayout layout, const RowStats& stats) {
  // The numbers are the defaults table's "Spmm" entries (runtime/defaults.cpp).
  const defaults::Spmm rule = defaults::lookup<defaults::Spmm>(device);
  if (layout == DenseLayout::col_major && rule.col_major_transpose) {
    SpmmConfig c = spmm_rule(device, k, DenseLayout::row_major, stats);
    c.transpose = true;
    if (spmm_valid(c, device, k, layout)) return c;
  }
  SpmmConfig c;
  if (irregular_rows(stats)) c.algorithm = SpmmAlgorithm::merge, c.items = spmm_merge_items;
  c.local_size = int(std::min<size_t>(size_t(rule.local_size), device.max_work_group_size));
  c.vec = layout == DenseLayout::col_major ? 1 : (k % 4 == 0 ? 4 : k % 2 == 0 ? 2 : 1);
  const int chunks = ceil_div(std::max(1, k), c.vec);
  // GPUs: a lane per VEC columns (more work-items in flight); CPUs: fewer, longer lanes
  const int per_lane = layout == DenseLayout::col_major ? kMaxChunks : rule.chunks_per_lane;
  c.team = std::min({rule.team_max, next_pow2(ceil_div(chunks, per_lane)), c.local_size});
  if (c.algorithm == SpmmAlgorithm::merge && rule.merge_column_lanes &&
      layout == DenseLayout::row_major) {
    // merge on GPUs: one column a lane, up to 16 lanes, longer paths from k = 16: the tuner's
    // choice on rmat21 for k = 4, 8, 16, 32 on the H100 (1.2-1.7x the vec-4 shape; BENCHMARKS.md,
    // SpMM)
    c.vec = 1;
    c.team = std::min({rule.merge_team_max, next_pow2(k), c.local_size});
    if (ceil_div(k, c.team) > kMaxChunks)
      c.team = std::min({rule.team_max, next_pow2(ceil_div(k, kMaxChunks)), c.local_size});
    if (k >= rule.merge_long_k) c.items = rule.merge_long_items * spmm_merge_items;
  }
  return c;
}

bool spmm_valid(const SpmmConfig& c, const DeviceInfo& device, int k, DenseLayout layout) {
  if (k < 1 || c.local_size < 1 || c.team < 1 || c.vec < 1) return false;
  if (c.transpose) {
    if (layout != DenseLayout::col_major) return false;
    const size_t tile = size_t(transpose_tile_rows(k)) * size_t(k + 1) * sizeof(double);
    if (device.local_mem_bytes && tile > device.local_mem_bytes) return false;
    SpmmConfig row = c;
    row.transpose = false;
    return spmm_valid(row, device, k, DenseLayout::row_major);
  }
  if (size_t(c.local_size) > device.max_work_group_size) return false;
  if (c.team & (c.team - 1) || c.team > 32 || c.team > c.local_size) return false;
  if (c.algorithm == SpmmAlgorithm::merge &&  // the fix-up's tree needs a power of two
      (c.local_size & (c.local_size - 1) || c.items < 1 || c.items > kMaxMergeItems))
    return false;
  if (c.vec != 1 && c.vec != 2 && c.vec != 4) return false;
  if (k % c.vec || (layout == DenseLayout::col_major && c.vec != 1)) return false;
  const int chunks = ceil_div(k, c.vec);
  if (c.team > next_pow2(chunks)) return false;  // lanes without a column
  return ceil_div(chunks, c.team) <= kMaxChunks;
}

template <typename T>
Defines spmm_transpose_defines(const DeviceInfo& device, int k) {
  Defines d;
  set_value_type<T>(d).set("LOCAL_SIZE", transpose_local_size(device));
  d.set("TILE_ROWS", transpose_tile_rows(k)).set("TILE_K", k);
  return d;
}

template <typename T>
Defines spmm_defines(const SpmmConfig& c, int k, DenseLayout layout) {
  if (c.transpose) layout = DenseLayout::row_major;  // the kernel runs on the row-major copy
  Defines d;
  set_value_type<T>(d).set("LOCAL_SIZE", c.local_size).set("TEAM", c.team).set("VEC", c.vec);
  d.set("CPL", ceil_div(ceil_div(k, c.vec), c.team));
  d.set("COL_MAJOR", layout == DenseLayout::col_major ? 1 : 0);
  if (c.algorithm == SpmmAlgorithm::merge) d.set("MERGE_ITEMS", c.items);
  return d;
}

std::string spmm_key(size_t value_bytes, int k, DenseLayout layout, const std::string& fp) {
  return std::string(value_bytes == 8 ? "double:" : "float:") + "k" + std::to_string(k) + ":" +
         to_string(layout) + ":" + fp;
}

template <typename T>
SpmmConfig choose_spmm_config(const DeviceInfo& device, const DeviceCsr<T>& a, int k,
                              DenseLayout layout) {
  if (auto p = tuning::choose(device, "spmm", spmm_key(sizeof(T), k, layout, a.fingerprint()))) {
    const SpmmConfig c = spmm_config(*p);
    if (spmm_valid(c, device, k, layout)) return c;
  }
  return spmm_rule(device, k, layout, a.stats());
}

// Column-major X and Y through row-major scratch blocks: copy X, the row-major shape, copy back.
template <typename T>
SpmvRun spmm_transposed(cl::CommandQueue& queue, const DeviceCsr<T>& a, const cl::Buffer& X,
                        cl::Buffer& Y, int k, T alpha, T beta, SpmmConfig c) {
  const DeviceInfo& d = a.device();
  const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  const size_t kk = size_t(k);
  cl::Buffer xr = make_buffer(context, CL_MEM_READ_WRITE,
                              std::max<size_t>(1, size_t(a.cols()) * kk) * sizeof(T));
  cl::Buffer yr = make_buffer(context, CL_MEM_READ_WRITE,
                              std::max<size_t>(1, size_t(a.rows()) * kk) * sizeof(T));
  const Defines def = spmm_transpose_defines<T>(d, k);
  const int tile = transpose_tile_rows(k);
  const size_t wg = size_t(transpose_local_size(d));
  auto groups = [&](int n) { return size_t((n + tile - 1) / tile) * wg; };
  SpmvRun run;
  cl::Kernel to_rows = kernel(queue, "spmm_transpose.cl", "spmm_cols_to_rows", def);
  set_args(to_rows, a.cols(), k, X, a.cols(), xr);
  if (a.cols() > 0)
    run.first = launch(queue, to_rows, groups(a.cols()), wg);
  else
    check(queue.enqueueMarkerWithWaitList(nullptr, &run.first), "clEnqueueMarkerWithWaitList");
  c.transpose = false;
  spmm(queue, a, xr, yr, k, DenseLayout::row_major, T(1), T(0), c);
  cl::Kernel to_cols = kernel(queue, "spmm_transpose.cl", "spmm_rows_to_cols", def);
  set_args(to_cols, a.rows(), k, yr, Y, a.rows(), alpha, beta);
  run.last = launch(queue, to_cols, groups(a.rows()), wg);
  return run;
}

template <typename T>
SpmvRun spmm(cl::CommandQueue& queue, const DeviceCsr<T>& a, const cl::Buffer& X, cl::Buffer& Y,
             int k, DenseLayout layout, T alpha, T beta, SpmmConfig c) {
  if (k < 1) throw input_error("spmm: k must be at least 1, not " + std::to_string(k));
  const DeviceInfo& d = a.device();
  if (c.automatic()) c = choose_spmm_config(d, a, k, layout);
  if (!spmm_valid(c, d, k, layout))
    throw input_error("spmm: configuration not valid for k=" + std::to_string(k) + " " +
                      to_string(layout) + " on " + d.name + ": " + c.str());
  SpmvRun run;
  if (a.rows() == 0) {
    check(queue.enqueueMarkerWithWaitList(nullptr, &run.first), "clEnqueueMarkerWithWaitList");
    run.last = run.first;
    return run;
  }
  if (c.transpose) return spmm_transposed(queue, a, X, Y, k, alpha, beta, c);
  const Defines def = spmm_defines<T>(c, k, layout);
  const bool row = layout == DenseLayout::row_major;
  const int ldx = row ? k : a.cols(), ldy = row ? k : a.rows();
  const size_t wg = size_t(c.local_size);
  auto round_up = [wg](size_t n) { return (n + wg - 1) / wg * wg; };
  if (c.algorithm == SpmmAlgorithm::team) {
    cl::Kernel kern = kernel(queue, "spmm.cl", "spmm_csr", def);
    set_args(kern, a.rows(), k, a.row_ptr(), a.col_idx(), a.values(), X, ldx, Y, ldy, alpha, beta);
    run.first = run.last = launch(queue, kern, round_up(size_t(a.rows()) * size_t(c.team)), wg);
    return run;
  }
  // merge: tiles of one team's steps (the tiles of a 1-item group of `items` steps each), a carry
  // slot of k values per team
  const auto& m = a.merge_tiles(queue, 1, c.items, size_t(k));
  cl::Kernel kern = kernel(queue, "spmm_merge.cl", "spmm_merge", def);
  set_args(kern, a.rows(), k, m.count, m.coords, a.row_ptr(), a.col_idx(), a.values(), X, ldx, Y,
           ldy, m.carry, alpha, beta);
  run.first = run.last = launch(queue, kern, round_up(size_t(m.count) * size_t(c.team)), wg);
  if (m.n_plan) {
    cl::Kernel f = kernel(queue, "spmm_merge.cl", "spmm_merge_fixup", def);
    set_args(f, k, m.n_long, m.n_plan, m.plan, m.carry, Y, ldy, alpha);
    const size_t short_items = size_t(m.n_plan - m.n_long) * size_t(k);
    run.last = launch(queue, f, size_t(m.n_long) * size_t(k) * wg + round_up(short_items), wg);
  }
  return run;
}

template <typename T>
void spmm(Context& ctx, const DeviceCsr<T>& a, const std::vector<T>& X, std::vector<T>& Y, int k,
          DenseLayout layout, T alpha, T beta, SpmmConfig config) {
  if (k < 1 || X.size() != size_t(a.cols()) * size_t(k) || Y.size() != size_t(a.rows()) * size_t(k))
    throw input_error("spmm: X must have cols * k (" + std::to_string(size_t(a.cols()) * k) +
                      ") and Y rows * k (" + std::to_string(size_t(a.rows()) * k) + ") values");
  cl::CommandQueue& q = ctx.queue();
  cl::Buffer bx = upload(q, X.empty() ? std::vector<T>(1) : X, CL_MEM_READ_ONLY);
  cl::Buffer by = upload(q, Y.empty() ? std::vector<T>(1) : Y);
  spmm(q, a, bx, by, k, layout, alpha, beta, config);
  if (!Y.empty()) Y = download<T>(q, by, Y.size());
}

// The rule's shapes for k = 4, 8, 16, 32, float and (with fp64) double: regular rows in both
// layouts, irregular rows (merge) row-major (NumPy's order; column-major builds on first use).
void detail::spmm_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  RowStats irregular;  // what irregular_rows() calls power-law rows
  irregular.max = 100000, irregular.mean = 30, irregular.std = 300;
  for (const RowStats& s : {RowStats{}, irregular})
    for (int k : {4, 8, 16, 32})
      for (DenseLayout l : {DenseLayout::row_major, DenseLayout::col_major}) {
        if (s.max && l == DenseLayout::col_major) continue;
        const SpmmConfig c = spmm_rule(d, k, l, s);
        const char* file = c.algorithm == SpmmAlgorithm::merge ? "spmm_merge.cl" : "spmm.cl";
        out.push_back({"spmm", file, spmm_defines<float>(c, k, l).options()});
        if (d.fp64) out.push_back({"spmm", file, spmm_defines<double>(c, k, l).options()});
        if (!c.transpose) continue;
        out.push_back({"spmm", "spmm_transpose.cl", spmm_transpose_defines<float>(d, k).options()});
        if (d.fp64)
          out.push_back(
              {"spmm", "spmm_transpose.cl", spmm_transpose_defines<double>(d, k).options()});
      }
}

#define LOCKSTEP_INSTANTIATE(T)                                                                    \
  template Defines spmm_defines<T>(const SpmmConfig&, int, DenseLayout);                           \
  template Defines spmm_transpose_defines<T>(const DeviceInfo&, int);                              \
  template SpmmConfig choose_spmm_config<T>(const DeviceInfo&, const DeviceCsr<T>&, int,           \
                                            DenseLayout);                                          \
  template SpmvRun spmm<T>(cl::CommandQueue&, const DeviceCsr<T>&, const cl::Buffer&, cl::Buffer&, \
                           int, DenseLayout, T, T, SpmmConfig);                                    \
  template void spmm<T>(Context&, const DeviceCsr<T>&, const std::vector<T>&, std::vector<T>&,     \
                        int, DenseLayout, T, T, SpmmConfig);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep
