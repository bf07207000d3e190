// Host side of cl/floyd_warshall.cl: pads the graph's distance matrix to whole tiles, runs the
// naive, blocked or generalized (multi-tile) Floyd-Warshall, reads back distances and next hops,
// and holds the rule that picks tile, K and the phase-3 thread tile.
#include <algorithm>
#include <cstdlib>

#include "apsp/dense.hpp"

namespace lockstep {
namespace {

constexpr int kChunk = 16;  // k values staged per step in fw_rest; divides every tile

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

// LOCKSTEP_POISON=1: kernels fill their local memory with garbage before use (POISON_LOCAL).
bool poison_local() {
  const char* e = std::getenv("LOCKSTEP_POISON");
  return e && *e && std::string(e) != "0";
}

void validate(const ApspConfig& c) {
  if (c.tile != 16 && c.tile != 32 && c.tile != 64)
    throw input_error("--tile must be 16, 32 or 64, got " + std::to_string(c.tile));
  if (c.paths && c.tile == 64)
    throw input_error(
        "--tile 64 with --paths needs more than 48 KiB of local memory: use 16 or 32");
  if (c.K < 1 || c.K > 64) throw input_error("--K must be in [1, 64], got " + std::to_string(c.K));
  if (c.variant == ApspVariant::blocked && c.K != 1)
    throw input_error("the blocked variant has K = 1 (use generalized for K > 1)");
  if (c.thread_tile != 4 && c.thread_tile != 8)
    throw input_error("thread tile must be 4 or 8, got " + std::to_string(c.thread_tile));
}

}  // namespace

ApspConfig apsp_rule(const DeviceInfo& device, int32_t n, ApspConfig c) {
  // Tile 32 keeps phases 1 and 2 (one work-group per tile, TILE barriers each) short; the fused
  // depth K*tile of 128 makes phase 3 read and write the matrix once per 128 values of k, which
  // should move it from memory-bound to compute-bound on a GPU (not yet measured on the H100: the
  // K sweep of tools/bench/apsp.sh decides; on PoCL K*tile = 128..256 was fastest).
  if (c.tile == 0) c.tile = 32;
  if (c.K == 0) c.K = c.variant == ApspVariant::generalized ? std::max(1, 128 / c.tile) : 1;
  if (c.thread_tile == 0) c.thread_tile = device.is_gpu() && n >= 1024 ? 8 : 4;
  return c;
}

template <typename T>
ApspResult<T> apsp(Context& ctx, const Graph& g, ApspConfig cfg) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t>, "float or int32_t");
  cfg = apsp_choose<T>(ctx.info(), g.n, cfg);
  validate(cfg);
  ApspResult<T> result;
  result.config = cfg;
  if (g.n == 0) return result;
  const int32_t n = g.n, tile = cfg.tile, big = 16 * cfg.thread_tile;
  const int32_t N = int32_t(round_up(n, std::max(tile, big)));
  const size_t bytes = size_t(N) * N * sizeof(T);
  if (bytes > ctx.info().max_alloc_bytes)
    throw input_error("apsp: n = " + std::to_string(n) + " needs a " + std::to_string(bytes >> 20) +
                      " MiB matrix, more than the device's largest buffer");
  std::vector<T> d;
  std::vector<int32_t> next;
  detail::init_dense<T>(g, N, d, cfg.paths ? &next : nullptr);

  auto& q = ctx.queue();
  cl::Buffer D = upload(q, d), P = upload(q, cfg.paths ? next : std::vector<int32_t>(1, 0));
  Defines defs;
  defs.set("VALUE_TYPE", std::is_integral_v<T> ? "int" : "float")
      .set("INTEGER", std::is_integral_v<T> ? 1 : 0)
      .set("TILE", tile)
      .set("PATHS", cfg.paths ? 1 : 0)
      .set("THREAD_TILE", cfg.thread_tile)
      .set("CHUNK", kChunk)
      .set("POISON_LOCAL", poison_local() ? 1 : 0);
  const size_t threads = std::min(256, tile * tile);
  // The one local buffer of each tile kernel, carved as in cl/floyd_warshall.cl.
  const size_t tt = size_t(tile) * tile * sizeof(T), p = cfg.paths ? 1 : 0;
  const Local lead_mem{(1 + p) * tt}, tiles_mem{(2 + p) * tt},
      rest_mem{size_t(kChunk) * ((big + 1) * (1 + p) + big) * sizeof(T)};
  std::vector<cl::Event> events;
  if (cfg.variant == ApspVariant::naive) {
    cl::Kernel k = ctx.kernel("floyd_warshall.cl", "fw_naive", defs);
    for (int32_t kk = 0; kk < n; ++kk) {
      set_args(k, N, kk, D, P);
      events.push_back(launch(q, k, round_up(size_t(N) * N, 256), 256));
    }
  } else {
    cl::Kernel lead = ctx.kernel("floyd_warshall.cl", "fw_lead", defs);
    cl::Kernel panel = ctx.kernel("floyd_warshall.cl", "fw_panel", defs);
    cl::Kernel cross = ctx.kernel("floyd_warshall.cl", "fw_cross", defs);
    cl::Kernel rest = ctx.kernel("floyd_warshall.cl", "fw_rest", defs);
    const int32_t nb = N / tile, nb_k = int32_t(round_up(n, tile) / tile), nt = N / big;
    for (int32_t sb = 0; sb < nb_k; sb += cfg.K) {
      const int32_t sk = std::min(cfg.K, nb_k - sb);
      for (int32_t kb = sb; kb < sb + sk; ++kb) {
        set_args(lead, N, kb, D, P, lead_mem);
        events.push_back(launch(q, lead, threads, threads));
        set_args(panel, N, kb, nb, D, P, tiles_mem);
        events.push_back(launch(q, panel, 2 * nb * threads, threads));
        if (sk > 1) {
          set_args(cross, N, kb, sb, sk, nb, D, P, tiles_mem);
          events.push_back(launch(q, cross, size_t(sk * nb + (nb - sk) * sk) * threads, threads));
        }
      }
      set_args(rest, N, sb * tile, sk * tile, D, P, rest_mem);
      events.push_back(launch(q, rest, size_t(nt) * nt * 256, 256));
    }
  }
  result.ms = event_ms(events.front(), events.back());
  d = download<T>(q, D, size_t(N) * N);
  if (cfg.paths) next = download<int32_t>(q, P, size_t(N) * N);
  detail::finish(g, N, d, cfg.paths ? &next : nullptr, result);
  return result;
}

template ApspResult<float> apsp(Context&, const Graph&, ApspConfig);
template ApspResult<int32_t> apsp(Context&, const Graph&, ApspConfig);

}  // namespace lockstep
