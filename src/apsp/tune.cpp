// Tuning of the Floyd-Warshall parameters: times the candidate (tile, K, thread tile) triples on
// a graph, checks that every candidate gives the same distances, and keeps the fastest in the
// one TuningDb under routine "apsp", key "<type>/<paths>/n<size class>". apsp_choose reads it.
#include <algorithm>

#include "apsp/dense.hpp"
#include "lockstep/tuning_db.hpp"

namespace lockstep {
namespace {

template <typename T>
std::string db_key(int32_t n, bool paths) {
  int32_t cls = 1;
  while (cls < n) cls *= 2;
  return std::string(std::is_integral_v<T> ? "i32" : "f32") + (paths ? "/paths" : "/dist") + "/n" +
         std::to_string(cls);
}

}  // namespace

template <typename T>
ApspConfig apsp_choose(const DeviceInfo& device, int32_t n, ApspConfig c) {
  if (c.variant == ApspVariant::generalized && c.tile == 0 && c.K == 0 && c.thread_tile == 0) {
    if (auto e = TuningDb(device).find("apsp", db_key<T>(n, c.paths))) {
      try {
        c.tile = e->params.at("tile").template get<int>();
        c.K = e->params.at("K").template get<int>();
        c.thread_tile = e->params.at("thread_tile").template get<int>();
      } catch (const nlohmann::json::exception&) {
        c.tile = c.K = c.thread_tile = 0;  // a malformed entry: fall back to the rule
      }
    }
  }
  return apsp_rule(device, n, c);
}

template <typename T>
std::vector<ApspTiming> apsp_tune(Context& ctx, const Graph& g, bool paths, int repeat,
                                  bool store) {
  std::vector<ApspTiming> out;
  std::vector<T> first;
  for (int tile : {16, 32, 64}) {
    if (paths && tile == 64) continue;
    for (int K = 1; K * tile <= 256; K *= 2)
      for (int tt : {4, 8}) {
        ApspConfig c{K == 1 ? ApspVariant::blocked : ApspVariant::generalized, tile, K, paths, tt};
        ApspTiming t{c, 0};
        for (int r = 0; r < std::max(1, repeat); ++r) {
          ApspResult<T> res = apsp<T>(ctx, g, c);
          t.ms = r == 0 ? res.ms : std::min(t.ms, res.ms);
          if (first.empty())
            first = res.dist;
          else if (std::is_integral_v<T> && res.dist != first)
            throw input_error("apsp_tune: tile " + std::to_string(tile) + " K " +
                              std::to_string(K) + " disagrees with the first candidate");
        }
        out.push_back(t);
      }
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.ms < b.ms; });
  if (store && !out.empty()) {
    const ApspConfig& b = out.front().config;
    TuningEntry e;
    e.routine = "apsp";
    e.key = db_key<T>(g.n, paths);
    e.features = {{"n", g.n}, {"edges", g.src.size()}};
    e.params = {{"tile", b.tile}, {"K", b.K}, {"thread_tile", b.thread_tile}};
    e.metrics = {{"ms", out.front().ms}, {"candidates", out.size()}};
    TuningDb(ctx.info()).store(e);
  }
  return out;
}

template ApspConfig apsp_choose<float>(const DeviceInfo&, int32_t, ApspConfig);
template ApspConfig apsp_choose<int32_t>(const DeviceInfo&, int32_t, ApspConfig);
template std::vector<ApspTiming> apsp_tune<float>(Context&, const Graph&, bool, int, bool);
template std::vector<ApspTiming> apsp_tune<int32_t>(Context&, const Graph&, bool, int, bool);

}  // namespace lockstep
