// Host side of cl/floyd_warshall.cl: pads the graph's distance matrix to whole tiles, runs the
// naive, blocked or generalized (multi-tile) Floyd-Warshall, reads back distances and next hops,
// and holds the rule that picks tile, K and the phase-3 thread tile.
#include <algorithm>
#include <cstdlib>

#include "apsp/dense.hpp"
#include "runtime/defaults.hpp"
#include "runtime/environment.hpp"

namespace lockstep {
namespace {

// k values staged per step in fw_rest (divides every tile): 16, or 8 with next hops (the two stage
// buffers of A, its next hops and B fit in 48 KiB) and for micro-tiles of 32 or more elements
// (fewer prefetch registers).
int chunk_of(const ApspConfig& c, int tm, int tn) { return c.paths || tm * tn >= 32 ? 8 : 16; }

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

// LOCKSTEP_POISON=1: kernels fill their local memory with garbage before use (POISON_LOCAL).
bool poison_local() { return env::is_on("LOCKSTEP_POISON"); }

}  // namespace

void detail::apsp_validate(const ApspConfig& c) {
  if (c.tile != 16 && c.tile != 32 && c.tile != 64)
    throw input_error("--tile must be 16, 32 or 64, got " + std::to_string(c.tile));
  if (c.paths && c.tile == 64)
    throw input_error(
        "--tile 64 with --paths needs more than 48 KiB of local memory: use 16 or 32");
  if (c.K < 1 || c.K > 64) throw input_error("--K must be in [1, 64], got " + std::to_string(c.K));
  if (c.algorithm == ApspAlgorithm::blocked && c.K != 1)
    throw input_error("the blocked variant has K = 1 (use generalized for K > 1)");
  if (c.thread_tile != 4 && c.thread_tile != 8)
    throw input_error("thread tile must be 4 or 8, got " + std::to_string(c.thread_tile));
  if ((c.thread_rows != 4 && c.thread_rows != 8 && c.thread_rows != 16) ||
      c.thread_rows * c.thread_tile > 64)
    throw input_error("thread rows must be 4, 8 or 16 with rows x thread tile <= 64, got " +
                      std::to_string(c.thread_rows) + " x " + std::to_string(c.thread_tile));
  const int chunk = chunk_of(c, c.thread_rows, c.thread_tile);
  if (c.unroll < 1 || c.unroll > chunk || chunk % c.unroll)
    throw input_error("unroll must divide the chunk of " + std::to_string(chunk) + ", got " +
                      std::to_string(c.unroll));
}

template <typename T>
detail::ApspDefines detail::apsp_defines(const ApspConfig& cfg, bool poison, bool gpu) {
  Defines defs;
  defs.set("VALUE_TYPE", std::is_integral_v<T> ? "int" : "float")
      .set("INTEGER", std::is_integral_v<T> ? 1 : 0)
      .set("TILE", cfg.tile)
      .set("PATHS", cfg.paths ? 1 : 0)
      .set("POISON_LOCAL", poison ? 1 : 0);
  ApspDefines a{defs, defs, defs};
  a.tile
      .set("LOCAL_SIZE", std::min(256, cfg.tile * cfg.tile))  // the tile kernels' work-group
      .set("DIAG_UNROLL", gpu ? 8 : 1);
  const int chunk = chunk_of(cfg, cfg.thread_rows, cfg.thread_tile),
            band_chunk = chunk_of(cfg, 4, 4);
  a.rest.set("TM", cfg.thread_rows)
      .set("TN", cfg.thread_tile)
      .set("CHUNK", chunk)
      .set("KU", cfg.unroll);
  // The band pass (fw_rest mode 1) has 2 x depth x N elements: the 4 x 4 micro-tile gives
  // it 4x the groups of 8 x 8, enough to fill the device.
  a.band.set("TM", 4).set("TN", 4).set("CHUNK", band_chunk).set("KU", band_chunk);
  return a;
}
template detail::ApspDefines detail::apsp_defines<float>(const ApspConfig&, bool, bool);
template detail::ApspDefines detail::apsp_defines<int32_t>(const ApspConfig&, bool, bool);

namespace {

// Tile range [lo, hi) of tiles of side b: those inside [s, e) (inner) or touching it (outer).
std::pair<int32_t, int32_t> inner(int32_t s, int32_t e, int32_t b) {
  const int32_t lo = (s + b - 1) / b;
  return {lo, std::max(lo, e / b)};
}
std::pair<int32_t, int32_t> outer(int32_t s, int32_t e, int32_t b) {
  return {s / b, (e + b - 1) / b};
}

}  // namespace

ApspConfig apsp_rule(const DeviceInfo& device, int32_t, ApspConfig c) {
  // The numbers are the defaults table's "apsp" entry (runtime/defaults.cpp; measurements in
  // BENCHMARKS.md): tile and K * tile; the generalized bulk without paths ("wide") takes a wider
  // micro-tile, unrolled, with the next multi-tile's phases overlapped where the table says so
  // (GPUs); the next-hop kernels need more registers and keep the narrow one.
  const defaults::Apsp rule = defaults::lookup<defaults::Apsp>(device);
  if (c.tile == 0) c.tile = rule.tile;
  if (c.K == 0)
    c.K = c.algorithm == ApspAlgorithm::generalized ? std::max(1, rule.k_span / c.tile) : 1;
  const bool wide = !c.paths && c.algorithm == ApspAlgorithm::generalized;
  if (c.thread_tile == 0) {
    c.thread_tile = wide ? rule.thread_tile_wide : rule.thread_tile;
    if (c.thread_rows == 0) c.thread_rows = c.thread_tile;
    if (wide && c.unroll == 0) c.unroll = rule.unroll_wide;
    if (wide && c.overlap < 0) c.overlap = rule.overlap_wide;
  }
  if (c.thread_rows == 0) c.thread_rows = c.thread_tile;
  // Full unroll for micro-tiles below 32 elements; above, one k per iteration keeps the compiler
  // from hoisting the next k's operands (clang + ptxas sm_90: 8 x 8 in 126 registers unrolled
  // once, 130-137 unrolled 2-4 times).
  if (c.unroll == 0)
    c.unroll = c.thread_rows * c.thread_tile >= 32 ? 1 : chunk_of(c, c.thread_rows, c.thread_tile);
  if (c.overlap < 0) c.overlap = 0;
  return c;
}

template <typename T>
ApspResult<T> apsp(Context& ctx, const Graph& g, ApspConfig cfg) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t>, "float or int32_t");
  cfg = apsp_choose<T>(ctx.info(), g.n, cfg);
  detail::apsp_validate(cfg);
  ApspResult<T> result;
  result.config = cfg;
  if (g.n == 0) return result;
  apsp_check_size<T>("apsp", g.n, cfg.paths, &ctx.info());
  const int32_t n = g.n, tile = cfg.tile, bm = 16 * cfg.thread_rows, bn = 16 * cfg.thread_tile;
  const int32_t N = int32_t(round_up(n, std::max({tile, bm, bn, 64})));
  const size_t bytes = size_t(N) * N * sizeof(T);
  if (bytes > ctx.info().max_alloc_bytes)
    throw input_error("apsp: n = " + std::to_string(n) + " needs a " + std::to_string(bytes >> 20) +
                      " MiB matrix, more than the device's largest buffer");
  std::vector<T> d;
  std::vector<int32_t> next;
  detail::init_dense<T>(g, N, d, cfg.paths ? &next : nullptr);

  auto& q = ctx.queue();
  cl::Buffer D = upload(q, d), P = upload(q, cfg.paths ? next : std::vector<int32_t>(1, 0));
  const detail::ApspDefines defs =
      detail::apsp_defines<T>(cfg, poison_local(), ctx.info().is_gpu());
  const Defines &tile_defs = defs.tile, &rest_defs = defs.rest, &band_defs = defs.band;
  const size_t threads = std::min(256, tile * tile);  // the tile kernels' work-group
  const int chunk = chunk_of(cfg, cfg.thread_rows, cfg.thread_tile),
            band_chunk = chunk_of(cfg, 4, 4);
  // The one local buffer of each kernel, carved as in cl/floyd_warshall*.cl.
  const size_t tt = size_t(tile) * tile * sizeof(T), p = cfg.paths ? 1 : 0;
  const Local lead_mem{(1 + p) * tt}, tiles_mem{(2 + p) * tt},
      rest_mem{2 * size_t(chunk) * ((bm + 4) * (1 + p) + bn) * sizeof(T)};
  std::vector<cl::Event> events;
  std::vector<std::pair<const char*, size_t>> kinds;  // kernel name of events[i], for kernel_ms
  auto add = [&](const char* kind, cl::Event e) {
    kinds.emplace_back(kind, events.size());
    events.push_back(std::move(e));
    return events.back();
  };
  if (cfg.algorithm == ApspAlgorithm::naive) {
    cl::Kernel k = ctx.kernel("floyd_warshall.cl", "fw_naive", tile_defs);
    for (int32_t kk = 0; kk < n; ++kk) {
      set_args(k, N, kk, D, P);
      add("naive", launch(q, k, round_up(size_t(N) * N, 256), 256));
    }
  } else {
    cl::Kernel lead = ctx.kernel("floyd_warshall.cl", "fw_lead", tile_defs);
    cl::Kernel panel = ctx.kernel("floyd_warshall.cl", "fw_panel", tile_defs);
    cl::Kernel cross = ctx.kernel("floyd_warshall.cl", "fw_cross", tile_defs);
    cl::Kernel unband = ctx.kernel("floyd_warshall.cl", "fw_unband", tile_defs);
    // fw_diag closes a whole diagonal block of up to kDiag rows in one launch (256 work-items).
    constexpr int32_t kDiag = 128;
    cl::Kernel diag;
    if (threads == 256) diag = ctx.kernel("floyd_warshall.cl", "fw_diag", tile_defs);
    const Local diag_mem{(4 + 2 * p) * size_t(kDiag) * sizeof(T)};
    cl::Kernel rest = ctx.kernel("floyd_warshall_rest.cl", "fw_rest", rest_defs);
    cl::Kernel band = ctx.kernel("floyd_warshall_rest.cl", "fw_rest", band_defs);
    constexpr int32_t band_big = 64;
    const Local band_mem{2 * size_t(band_chunk) * ((band_big + 4) * (1 + p) + band_big) *
                         sizeof(T)};
    const int32_t nb = N / tile, nb_k = int32_t(round_up(n, tile) / tile);
    const int32_t ntr = N / bm, ntc = N / bn;
    // Scratch for the band pass: its rows (depth x N), then its columns (N x depth).
    const size_t max_depth = size_t(std::min(cfg.K, nb_k)) * tile;
    const size_t scratch = cfg.K > 1 ? 2 * max_depth * N : 1;
    if (scratch * sizeof(T) > ctx.info().max_alloc_bytes)
      throw input_error("apsp: K * tile = " + std::to_string(max_depth) +
                        " at n = " + std::to_string(n) + " needs a " +
                        std::to_string((scratch * sizeof(T)) >> 20) +
                        " MiB band buffer, more than the device's largest buffer: use a smaller K");
    cl::Buffer S = make_buffer(ctx.context(), CL_MEM_READ_WRITE, scratch * sizeof(T));
    cl::Buffer SP =
        make_buffer(ctx.context(), CL_MEM_READ_WRITE, (cfg.paths ? scratch : 1) * sizeof(int32_t));
    // Overlap: the phases (lead ... unband) of multi-tile m+1 run on queue qp as soon as the bulk
    // of m has updated the tiles touching band m+1 (one small launch, mode 3); the rest of m's
    // bulk (mode 0, those tiles left out) runs beside them on q. Neither side reads what the
    // other writes: phases m+1 touch only band m+1's rows and columns (and scratch).
    cl::CommandQueue q2;
    if (cfg.overlap) q2 = cl::CommandQueue(ctx.context(), ctx.device(), CL_QUEUE_PROFILING_ENABLE);
    cl::CommandQueue& qp = cfg.overlap ? q2 : q;
    auto wait = [](cl::CommandQueue& on, const cl::Event& e) {
      std::vector<cl::Event> w{e};
      check(on.enqueueBarrierWithWaitList(&w, nullptr), "clEnqueueBarrierWithWaitList");
    };
    cl::Event next_ready;  // mode 3 of the previous multi-tile (overlap)
    for (int32_t sb = 0; sb < nb_k; sb += cfg.K) {
      const int32_t sk = std::min(cfg.K, nb_k - sb), s0 = sb * tile, depth = sk * tile;
      const int32_t s1 = s0 + depth, s1n = std::min(nb_k, sb + sk + cfg.K) * tile;
      if (cfg.overlap && sb > 0) wait(qp, next_ready);
      if (sk == 1) {  // classic blocked: the lead tile, then its whole row and column
        set_args(lead, N, sb, D, P, lead_mem);
        add("lead", launch(qp, lead, threads, threads));
        set_args(panel, N, sb, 0, nb, D, P, tiles_mem);
        add("panel", launch(qp, panel, 2 * size_t(nb - 1) * threads, threads));
      } else {
        // Close the multi-tile's diagonal block (in one launch where it fits fw_diag, else one
        // tile of k at a time: phases 1, 2, 3 inside it), then the rest of its rows and columns
        // in one min-plus pass (band, via scratch).
        const bool whole = diag() && depth <= kDiag;
        if (whole) {
          set_args(diag, N, s0, depth, D, P, diag_mem);
          add("diag", launch(qp, diag, threads, threads));
        }
        for (int32_t kb = sb; kb < sb + sk && !whole; ++kb) {
          set_args(lead, N, kb, D, P, lead_mem);
          add("lead", launch(qp, lead, threads, threads));
          set_args(panel, N, kb, sb, sk, D, P, tiles_mem);
          add("panel", launch(qp, panel, 2 * size_t(sk - 1) * threads, threads));
          set_args(cross, N, kb, sb, sk, D, P, tiles_mem);
          add("cross", launch(qp, cross, size_t(sk - 1) * (sk - 1) * threads, threads));
        }
        const size_t bt = (depth + band_big - 1) / band_big;  // the band's rows and columns
        set_args(band, N, s0, depth, 1, 0, 0, 0, 0, D, P, S, SP, band_mem);
        add("band", launch(qp, band, 2 * bt * (N / band_big) * 256, 256));
        set_args(unband, N, s0, depth, D, P, S, SP);  // depth (2N - depth): a multiple of 256
        add("unband", launch(qp, unband, size_t(depth) * (2 * N - depth), 256));
      }
      if (cfg.overlap) wait(q, events.back());
      // The bulk leaves out the tiles inside the band (nothing of theirs is stored) and, with
      // overlap, does the tiles touching the next band first (mode 3).
      auto [r_lo, r_hi] = inner(s0, s1, bm);
      auto [c_lo, c_hi] = inner(s0, s1, bn);
      if (cfg.overlap && s1 < s1n) {
        const auto [x_lo, x_hi] = outer(s1, s1n, bm);
        const auto [y_lo, y_hi] = outer(s1, s1n, bn);
        set_args(rest, N, s0, depth, 3, x_lo, x_hi, y_lo, y_hi, D, P, S, SP, rest_mem);
        const size_t groups =
            size_t(x_hi - x_lo) * ntc + size_t(ntr - (x_hi - x_lo)) * (y_hi - y_lo);
        next_ready = add("rest_next", launch(q, rest, groups * 256, 256));
        r_lo = std::min(r_lo, x_lo), r_hi = x_hi, c_lo = std::min(c_lo, y_lo), c_hi = y_hi;
      }
      set_args(rest, N, s0, depth, 0, r_lo, r_hi, c_lo, c_hi, D, P, S, SP, rest_mem);
      add("rest", launch(q, rest, size_t(ntr - (r_hi - r_lo)) * (ntc - (c_hi - c_lo)) * 256, 256));
    }
  }
  check(q.finish(), "clFinish");  // every queue's events are complete (q waited on qp's)
  double t0 = 0, t1 = 0;          // the first start and the last end over every queue
  for (size_t i = 0; i < events.size(); ++i) {
    const double s = double(events[i].getProfilingInfo<CL_PROFILING_COMMAND_START>()),
                 e = double(events[i].getProfilingInfo<CL_PROFILING_COMMAND_END>());
    t0 = i == 0 ? s : std::min(t0, s), t1 = i == 0 ? e : std::max(t1, e);
  }
  result.ms = (t1 - t0) * 1e-6;
  for (auto& [kind, i] : kinds) result.kernel_ms[kind] += event_ms(events[i]);
  d = download<T>(q, D, size_t(N) * N);
  if (cfg.paths) next = download<int32_t>(q, P, size_t(N) * N);
  detail::finish(g, N, d, cfg.paths ? &next : nullptr, result);
  return result;
}

template ApspResult<float> apsp(Context&, const Graph&, ApspConfig);
template ApspResult<int32_t> apsp(Context&, const Graph&, ApspConfig);

}  // namespace lockstep
