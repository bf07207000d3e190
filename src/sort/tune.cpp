// `automatic` from measurements: sort_tune times every algorithm/strategy candidate per size
// class and stores the fastest in the one TuningDb (routine "sort"); sort_choose reads it back
// (exact type, keys/pairs and size class), else the rule.
#include <algorithm>
#include <random>

#include "lockstep/tuning_db.hpp"
#include "sort_impl.hpp"

namespace lockstep::detail {

std::string sort_db_key(KeyType type, bool pairs, size_t n) {
  size_t cls = 1;
  while (cls < n) cls *= 2;
  return std::string(to_string(type)) + (pairs ? "/pairs" : "/keys") + "/n" + std::to_string(cls);
}

SortOptions sort_choose(const DeviceInfo& device, KeyType type, size_t n, bool pairs,
                        SortOptions o) {
  if (o.algorithm != SortAlgorithm::automatic) return o;
  if (auto e = TuningDb(device).find("sort", sort_db_key(type, pairs, n))) {
    try {
      const SortAlgorithm a = parse_sort_algorithm(e->params.at("algorithm").get<std::string>());
      const std::string s = e->params.at("strategy").get<std::string>();
      if (a == SortAlgorithm::bitonic && !o.strategy) o.strategy = parse_strategy_choice(s);
      o.algorithm = a;
    } catch (const std::exception&) {
      o.algorithm = SortAlgorithm::automatic;  // a malformed entry: the rule
    }
  }
  if (o.algorithm == SortAlgorithm::automatic) o.algorithm = sort_rule(device, type, n, pairs);
  return o;
}

}  // namespace lockstep::detail

namespace lockstep {

std::vector<SortTiming> sort_tune(Context& ctx, KeyType type, bool pairs, int kmin, int kmax,
                                  int repeat, bool store) {
  if (kmin < 0 || kmax > 29 || kmin > kmax)
    throw input_error("sort_tune: need 0 <= kmin <= kmax <= 29");
  std::vector<SortTiming> all;
  const size_t kb = key_bytes(type);
  cl::CommandQueue& q = ctx.queue();
  for (int k = kmin; k <= kmax; ++k) {
    const size_t n = size_t(1) << k;
    std::mt19937_64 rng(uint64_t(k) + 1);
    std::vector<uint32_t> words(n * kb / 4);
    for (auto& w : words) w = uint32_t(rng());
    if (type == KeyType::f32)  // no NaNs: candidates must agree bit for bit
      for (auto& w : words) w &= 0xBFFFFFFFu;
    std::vector<uint32_t> iota(pairs ? n : 0);
    for (size_t i = 0; i < iota.size(); ++i) iota[i] = uint32_t(i);
    cl::Buffer keys = upload(q, words), vals = upload(q, iota);
    std::vector<uint32_t> reference;
    std::vector<SortTiming> here;
    std::vector<std::pair<SortAlgorithm, StrategyChoice>> cands = {{SortAlgorithm::radix, {}}};
    for (BarrierStrategy s : all_barrier_strategies()) cands.push_back({SortAlgorithm::bitonic, s});
    for (const auto& [alg, strat] : cands) {
      SortOptions o;
      o.algorithm = alg;
      o.strategy = strat;
      SortTiming t{n, alg, "", 0};
      try {
        for (int r = 0; r < std::max(1, repeat); ++r) {
          check(q.enqueueWriteBuffer(keys, CL_TRUE, 0, n * kb, words.data()),
                "clEnqueueWriteBuffer");
          SortResult res = sort(ctx, type, keys, n, o, pairs ? &vals : nullptr);
          t.ms = r == 0 ? res.ms : std::min(t.ms, res.ms);
          t.strategy = res.strategy;
        }
      } catch (const input_error&) {
        continue;  // a strategy this device cannot serve at this size
      }
      std::vector<uint32_t> got = download<uint32_t>(q, keys, words.size());
      if (reference.empty())
        reference = got;
      else if (got != reference)
        throw input_error("sort_tune: " + std::string(to_string(alg)) + "/" + t.strategy +
                          " disagrees with radix at n=" + std::to_string(n));
      here.push_back(t);
    }
    std::sort(here.begin(), here.end(), [](auto& a, auto& b) { return a.ms < b.ms; });
    if (store && !here.empty()) {
      TuningEntry e;
      e.routine = "sort";
      e.key = detail::sort_db_key(type, pairs, n);
      e.features = {{"n", n}, {"type", to_string(type)}, {"pairs", pairs}};
      e.params = {{"algorithm", to_string(here.front().algorithm)},
                  {"strategy", here.front().strategy}};
      e.metrics = {{"ms", here.front().ms}, {"candidates", here.size()}};
      TuningDb(ctx.info()).store(e);
    }
    all.insert(all.end(), here.begin(), here.end());
  }
  return all;
}

}  // namespace lockstep
