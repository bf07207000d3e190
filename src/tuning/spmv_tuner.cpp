// tune_spmv: exhaustive or model-driven local search over the declared SpMV parameters.
#include <algorithm>
#include <chrono>
#include <set>

#include "lockstep/spmv_tuner.hpp"
#include "lockstep/tuning_db.hpp"

namespace lockstep {
namespace {

using Clock = std::chrono::steady_clock;

std::string key_of(const SpmvConfig& c) { return c.str(); }

// Configurations one step away from c: one parameter moved by one, or another kernel.
std::vector<SpmvConfig> neighbours(const SpmvConfig& c) {
  std::vector<SpmvConfig> out;
  auto push = [&](SpmvConfig n) { out.push_back(n); };
  for (int d : {-1, 1}) {
    SpmvConfig n = c;
    n.wg_bits += d;
    if (c.kernel == SpmvKernel::vector) n.rows_bits += d;  // same items per row, other group size
    push(n);
    if (c.kernel == SpmvKernel::vector) {
      n = c;
      n.rows_bits += d;
      push(n);
    }
  }
  if (c.kernel == SpmvKernel::vector) {
    SpmvConfig n = c;
    n.shuffle = 1 - c.shuffle;
    push(n);
  }
  if (c.kernel == SpmvKernel::merge)
    for (auto& spec : spmv_parameters())
      for (auto& p : spec.parameters)
        if (spec.kernel == SpmvKernel::merge && p.name == "items")
          for (size_t i = 0; i < p.values.size(); ++i)
            if (p.values[i] == c.items) {  // the declared values either side
              SpmvConfig n = c;
              if (i > 0) n.items = p.values[i - 1], push(n);
              if (i + 1 < p.values.size()) n.items = p.values[i + 1], push(n);
            }
  for (auto k : {SpmvKernel::scalar, SpmvKernel::vector, SpmvKernel::adaptive, SpmvKernel::merge})
    if (k != c.kernel) {
      SpmvConfig n = c;
      n.kernel = k;
      n.shuffle = 0;
      push(n);
    }
  return out;
}

}  // namespace

SpmvConfig seed_default_config() {
  SpmvConfig c;
  c.kernel = SpmvKernel::vector;
  c.wg_bits = 8;
  c.rows_bits = 5;
  c.shuffle = 0;
  return c;
}

template <typename T>
SpmvTuneResult tune_spmv(Context& ctx, const Csr<T>& host, const SpmvTuneOptions& o) {
  SpmvTuneResult res;
  res.copy_gbs = copy_bandwidth_gbs(ctx);
  SpmvBench<T> bench(ctx.queue(), host);
  const DeviceInfo& dev = ctx.info();
  auto space = spmv_search_space(dev, sizeof(T));
  res.search_space = space.size();
  std::set<std::string> seen;
  auto start = Clock::now();
  // The default search times at most a quarter of the space (the bound), whatever
  // timing noise does to the climb; the exhaustive search times all of it.
  const size_t limit = o.exhaustive ? space.size() + 2 : std::max<size_t>(3, space.size() / 4);
  auto measure = [&](const SpmvConfig& c) -> const SpmvMeasurement* {
    if (res.candidates.size() >= limit) return nullptr;
    if (!spmv_valid(c, dev, sizeof(T)) || !seen.insert(key_of(c)).second) return nullptr;
    res.candidates.push_back(bench.measure(c, o.repeats, true));
    if (o.progress) o.progress(res.candidates.size(), o.exhaustive ? space.size() : 0, res.candidates.back());
    return &res.candidates.back();
  };
  auto better = [](const SpmvMeasurement& a, const SpmvMeasurement& b) {
    return a.verified && (!b.verified || a.median_ms < b.median_ms);
  };

  SpmvConfig scalar;
  scalar.kernel = SpmvKernel::scalar;
  scalar.wg_bits = 8;
  for (const SpmvConfig& c : {scalar, seed_default_config()}) measure(c);
  if (o.exhaustive) {
    for (auto& c : space) measure(c);
  } else {
    SpmvConfig current = predict_spmv_config(dev, bench.matrix().stats(), host.rows, sizeof(T),
                                             bench.matrix().contiguity());
    measure(current);
    auto best_of = [&] {
      return *std::min_element(res.candidates.begin(), res.candidates.end(),
                               [&](auto& a, auto& b) { return better(a, b); });
    };
    current = best_of().config;
    for (bool improved = true; improved;) {
      improved = false;
      for (auto& n : neighbours(current)) {
        if (std::chrono::duration<double>(Clock::now() - start).count() > o.budget_s) break;
        measure(n);
      }
      SpmvConfig b = best_of().config;
      if (key_of(b) != key_of(current)) current = b, improved = true;
      if (std::chrono::duration<double>(Clock::now() - start).count() > o.budget_s) break;
    }
  }
  for (auto& m : res.candidates) {
    if (key_of(m.config) == key_of(scalar)) res.scalar = m;
    if (key_of(m.config) == key_of(seed_default_config())) res.seed_default = m;
  }
  res.best = *std::min_element(res.candidates.begin(), res.candidates.end(),
                               [&](auto& a, auto& b) { return better(a, b); });
  if (!res.best.verified) throw input_error("no SpMV configuration verified on " + dev.name);
  if (o.store) {
    RowStats s = bench.matrix().stats();
    nlohmann::json params = {{"kernel", to_string(res.best.config.kernel)}, {"wg_bits", res.best.config.wg_bits}};
    if (res.best.config.kernel == SpmvKernel::vector)
      params["rows_bits"] = res.best.config.rows_bits, params["shuffle"] = res.best.config.shuffle;
    if (res.best.config.kernel == SpmvKernel::merge) params["items"] = res.best.config.items;
    TuningDb(dev).store({"spmv", std::string(sizeof(T) == 8 ? "double:" : "float:") + bench.matrix().fingerprint(),
                         {{"rows", host.rows}, {"cols", host.cols}, {"nnz", host.nnz()}, {"row_mean", s.mean},
                          {"row_std", s.std}, {"row_max", s.max},
                          {"contiguity", bench.matrix().contiguity()}},
                         params,
                         {{"median_ms", res.best.median_ms}, {"gbs", res.best.gbs}, {"candidates", res.candidates.size()}},
                         ""});
  }
  return res;
}

template SpmvTuneResult tune_spmv<float>(Context&, const Csr<float>&, const SpmvTuneOptions&);
template SpmvTuneResult tune_spmv<double>(Context&, const Csr<double>&, const SpmvTuneOptions&);

}  // namespace lockstep
