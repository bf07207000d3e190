// The Floyd-Warshall tuning family (see tuning.hpp): parameters tile, K (tiles per multi-tile;
// 1 = the blocked variant), thread_tile and, in a second product around the rule's tile and K, the
// bulk micro-tile's rows (thread_rows), its k-loop unroll and overlap (the next multi-tile's
// phases on a second queue); a missing parameter takes the rule's value. Key
// "<type>/<paths|dist>/n<size class>". Every candidate's distances are checked against the
// reference: the CPU Floyd-Warshall up to n = 1024, above that the untuned rule's configuration on
// the device; i32 exactly, f32 within tolerance<float>(n) of the largest edge weight's scale.
// apsp_choose reads the stored entry.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "apsp/dense.hpp"
#include "lockstep/kernel_builds.hpp"
#include "lockstep/tolerance.hpp"
#include "lockstep/tuning.hpp"

namespace lockstep {
namespace {

template <typename T>
std::string db_key(int32_t n, bool paths) {
  int32_t cls = 1;
  while (cls < n) cls *= 2;
  return std::string(std::is_integral_v<T> ? "i32" : "f32") + (paths ? "/paths" : "/dist") + "/n" +
         std::to_string(cls);
}

// The tuning space: tile x K x thread tile, then the bulk micro-tile around tile 32, K 4-8.
std::vector<tuning::Space> apsp_spaces() {
  return {{{"tile", {16, 32, 64}}, {"K", {1, 2, 4, 8, 16}}, {"thread_tile", {4, 8}}},
          {{"tile", {32}},
           {"K", {4, 8}},
           {"thread_tile", {4, 8}},
           {"thread_rows", {4, 8, 16}},
           {"unroll", {0, 1, 2}},
           {"overlap", {0, 1}}}};
}
bool apsp_valid(const tuning::Params& p, bool paths) {
  const int tile = p.at("tile").get<int>(), K = p.at("K").get<int>();
  const int rows = p.value("thread_rows", 0), cols = p.at("thread_tile").get<int>();
  return K * tile <= 256 && !(paths && tile == 64) && (rows ? rows : cols) * cols <= 64;
}

ApspConfig config_of(const tuning::Params& p, bool paths) {
  const int K = p.at("K").get<int>();
  return {K == 1 ? ApspAlgorithm::blocked : ApspAlgorithm::generalized,
          p.at("tile").get<int>(),
          K,
          paths,
          p.at("thread_tile").get<int>(),
          p.value("thread_rows", 0),
          p.value("unroll", 0),
          p.value("overlap", -1)};
}

template <typename T>
class ApspFamily : public tuning::Family {
 public:
  ApspFamily(Context& ctx, const Graph& g, bool paths, int repeat)
      : ctx_(ctx), g_(g), paths_(paths), repeat_(std::max(1, repeat)) {
    want_ = g.n <= 1024
                ? apsp_cpu<T>(g, 0, false).dist
                : apsp<T>(ctx, g,
                          apsp_rule(ctx.info(), g.n, {ApspAlgorithm::generalized, 0, 0, paths, 0}))
                      .dist;
    for (double w : g.weight) scale_ = std::max(scale_, std::fabs(double(w)));
  }

  std::string name() const override { return "apsp"; }
  std::vector<tuning::Space> spaces() const override { return apsp_spaces(); }
  bool valid(const tuning::Params& p) const override { return apsp_valid(p, paths_); }
  std::string key() const override { return db_key<T>(g_.n, paths_); }
  nlohmann::json features() const override { return {{"n", g_.n}, {"edges", g_.src.size()}}; }
  double run(const tuning::Params& p) override {
    double ms = 0;
    for (int r = 0; r < repeat_; ++r) {
      ApspResult<T> res = apsp<T>(ctx_, g_, config_of(p, paths_));
      ms = r == 0 ? res.ms : std::min(ms, res.ms);
      got_ = std::move(res.dist);
    }
    return ms;
  }
  tuning::Verdict check(const tuning::Params&) override {
    if (got_.size() != want_.size()) return {false, 0};
    if constexpr (std::is_integral_v<T>) {
      return {got_ == want_, 0};
    } else {
      const double tol = tolerance<float>(size_t(g_.n));
      bool ok = true;
      double err = 0;
      for (size_t i = 0; i < got_.size(); ++i) {
        ok = ok && close(got_[i], want_[i], tol, scale_);
        if (std::isfinite(want_[i])) err = std::max(err, relative_error(got_[i], want_[i], scale_));
      }
      return {ok, err};
    }
  }
  Defines defines(const tuning::Params& p) const override {
    // As apsp() sets them (after the rule); K and overlap are the host's (no macro of their own).
    const ApspConfig c = apsp_rule(ctx_.info(), g_.n, config_of(p, paths_));
    Defines d;
    return d.set("TILE", c.tile)
        .set("TM", c.thread_rows)
        .set("TN", c.thread_tile)
        .set("KU", c.unroll);
  }
  nlohmann::json metrics(const tuning::Params&, double ms) const override {
    return {{"gupdates_per_s", ms > 0 ? double(g_.n) * g_.n * g_.n / (ms * 1e6) : 0.0}};
  }

 private:
  Context& ctx_;
  const Graph& g_;
  bool paths_;
  int repeat_;
  double scale_ = 1;
  std::vector<T> want_, got_;
};

// Every configuration of the tuning space (after the rule, as apsp() runs it) and the rule's own,
// with and without paths; LOCKSTEP_POISON=1 (tests) at the rule's configuration.
template <typename T>
void add_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  for (bool paths : {false, true}) {
    std::vector<ApspConfig> configs{apsp_rule(d, 0, {ApspAlgorithm::generalized, 0, 0, paths})};
    const auto valid = [&](const tuning::Params& q) { return apsp_valid(q, paths); };
    for (const tuning::Params& p : tuning::enumerate(apsp_spaces(), valid))
      configs.push_back(apsp_rule(d, 0, config_of(p, paths)));
    for (size_t i = 0; i < configs.size(); ++i) {
      try {
        detail::apsp_validate(configs[i]);
      } catch (const input_error&) {
        continue;
      }
      for (bool poison : {false, true}) {
        if (poison && i) break;
        const detail::ApspDefines a = detail::apsp_defines<T>(configs[i], poison, d.is_gpu());
        out.push_back({"apsp", "floyd_warshall.cl", a.tile.options()});
        out.push_back({"apsp", "floyd_warshall_rest.cl", a.rest.options()});
        out.push_back({"apsp", "floyd_warshall_rest.cl", a.band.options()});
      }
    }
  }
}

}  // namespace

void detail::apsp_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  add_builds<float>(d, out);
  add_builds<int32_t>(d, out);
}

template <typename T>
ApspConfig apsp_choose(const DeviceInfo& device, int32_t n, ApspConfig c) {
  if (c.algorithm == ApspAlgorithm::generalized && c.tile == 0 && c.K == 0 && c.thread_tile == 0) {
    if (auto p = tuning::choose(device, "apsp", db_key<T>(n, c.paths))) {
      try {
        c.tile = p->at("tile").template get<int>();
        c.K = p->at("K").template get<int>();
        c.thread_tile = p->at("thread_tile").template get<int>();
        if (c.thread_rows == 0) c.thread_rows = p->value("thread_rows", 0);
        if (c.unroll == 0) c.unroll = p->value("unroll", 0);
        if (c.overlap < 0) c.overlap = p->value("overlap", -1);
      } catch (const nlohmann::json::exception&) {
        c.tile = c.K = c.thread_tile = 0;  // a malformed entry: fall back to the rule
      }
    }
  }
  return apsp_rule(device, n, c);
}

template <typename T>
std::unique_ptr<tuning::Family> apsp_family(Context& ctx, const Graph& g, bool paths, int repeat) {
  return std::make_unique<ApspFamily<T>>(ctx, g, paths, repeat);
}

template ApspConfig apsp_choose<float>(const DeviceInfo&, int32_t, ApspConfig);
template ApspConfig apsp_choose<int32_t>(const DeviceInfo&, int32_t, ApspConfig);
template std::unique_ptr<tuning::Family> apsp_family<float>(Context&, const Graph&, bool, int);
template std::unique_ptr<tuning::Family> apsp_family<int32_t>(Context&, const Graph&, bool, int);

}  // namespace lockstep
