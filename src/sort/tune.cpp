// The sort tuning family (see tuning.hpp): parameters algorithm (radix; radix-persistent with
// items, its keys per work-item, which set its tile count; or bitonic with each barrier
// strategy), key "<type>/<keys|pairs>/n<n rounded up to 2^k>", checked by sort_verify;
// sort_choose resolves `automatic` from the stored entry, else the rule. The stored algorithm
// per size class is where the crossovers (one group, persistent, Onesweep) lie.
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "lockstep/tuning.hpp"
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
  if (auto p = tuning::choose(device, "sort", sort_db_key(type, pairs, n))) {
    try {
      const SortAlgorithm a = parse_sort_algorithm(p->at("algorithm").get<std::string>());
      // "strategy": entries written before the one engine (said once, as a deprecated word)
      const nlohmann::json* barrier = tuning::find(*p, "barrier", "strategy");
      const std::string s = barrier ? barrier->get<std::string>() : "auto";
      if (a == SortAlgorithm::bitonic && !o.barrier) o.barrier = parse_barrier_choice(s);
      if (a == SortAlgorithm::radix_persistent && !o.items) o.items = tuning::get_int(*p, "items");
      o.algorithm = a;
    } catch (const std::exception&) {
      o.algorithm = SortAlgorithm::automatic;  // a malformed entry: the rule
    }
  }
  if (o.algorithm == SortAlgorithm::automatic) o.algorithm = sort_rule(device, type, n, pairs);
  return o;
}

namespace {

class SortFamily : public tuning::Family {
 public:
  // The keys: random_keys (those of `lockstep sort --n` for seed n + 1), as 4-byte words; the
  // check compares with their host reference, made once.
  SortFamily(Context& ctx, KeyType type, bool pairs, size_t n, int repeat)
      : ctx_(ctx), type_(type), pairs_(pairs), n_(n), repeat_(std::max(1, repeat)) {
    with_key_type(type, [&](auto k) {
      using K = decltype(k);
      auto in = std::make_shared<std::vector<K>>(random_keys<K>(n, uint64_t(n) + 1));
      words_.resize(n * sizeof(K) / 4);
      std::memcpy(words_.data(), in->data(), n * sizeof(K));
      auto want = std::make_shared<SortReference<K>>(sort_reference(*in, false));
      verify_ = [in, want](const std::vector<uint32_t>& words, const std::vector<uint32_t>* values,
                           bool stable) {
        std::vector<K> got(in->size());
        std::memcpy(got.data(), words.data(), got.size() * sizeof(K));
        return sort_verify(*in, *want, got, values, stable).ok();
      };
    });
    std::vector<uint32_t> iota(pairs ? n : 0);
    for (size_t i = 0; i < iota.size(); ++i) iota[i] = uint32_t(i);
    keys_ = upload(ctx.queue(), words_);
    if (pairs) vals_ = upload(ctx.queue(), iota);
  }

  std::string name() const override { return "sort"; }
  std::vector<tuning::Space> spaces() const override {
    tuning::Parameter barrier{"barrier", {}};
    for (Barrier s : all_barriers()) barrier.values.push_back(to_string(s));
    return {{{"algorithm", {"radix"}}},
            {{"algorithm", {"radix-persistent"}}, {"items", {1, 2, 4, 8, 16}}},
            {{"algorithm", {"bitonic"}}, barrier}};
  }
  // radix-persistent: at most the rule's keys per work-item and what fits local memory beside
  // the values, and tiles that two groups per compute unit could hold.
  bool valid(const tuning::Params& p) const override {
    if (p.at("algorithm") != "radix-persistent") return true;
    const RadixParams rp = radix_params(ctx_.info(), type_, pairs_, 0);
    const int items = tuning::get_int(p, "items");
    const size_t tile = size_t(rp.local_size) * size_t(items);
    return items <= std::min(rp.items, radix_persistent_fit(ctx_.info(), rp, type_, pairs_)) &&
           (n_ + tile - 1) / tile <= 2 * size_t(std::max(1u, ctx_.info().compute_units));
  }
  std::string key() const override { return sort_db_key(type_, pairs_, n_); }
  nlohmann::json features() const override {
    return {{"n", n_}, {"type", to_string(type_)}, {"pairs", pairs_}};
  }
  double run(const tuning::Params& p) override {
    SortOptions o;
    o.algorithm = parse_sort_algorithm(p.at("algorithm").get<std::string>());
    if (p.contains("barrier")) o.barrier = parse_barrier_choice(p.at("barrier").get<std::string>());
    o.items = tuning::get_int(p, "items");
    cl::CommandQueue& q = ctx_.queue();
    std::vector<uint32_t> iota(pairs_ ? n_ : 0);  // the values: the input positions
    for (size_t i = 0; i < iota.size(); ++i) iota[i] = uint32_t(i);
    double ms = 0;
    for (int r = 0; r < repeat_; ++r) {
      lockstep::check(q.enqueueWriteBuffer(keys_, CL_TRUE, 0, words_.size() * 4, words_.data()),
                      "clEnqueueWriteBuffer");
      if (pairs_)
        lockstep::check(q.enqueueWriteBuffer(vals_, CL_TRUE, 0, n_ * 4, iota.data()),
                        "clEnqueueWriteBuffer");
      const SortResult res = sort(ctx_, type_, keys_, n_, o, pairs_ ? &vals_ : nullptr);
      ms = r == 0 ? res.ms : std::min(ms, res.ms);
    }
    return ms;
  }
  // sort_verify: keys bitwise equal to the host sort's; with pairs, the values those of the
  // stable reference (radix, radix-persistent) or each beside its own key (bitonic).
  tuning::Verdict check(const tuning::Params& p) override {
    const std::vector<uint32_t> got = download<uint32_t>(ctx_.queue(), keys_, words_.size());
    const std::vector<uint32_t> v = download<uint32_t>(ctx_.queue(), vals_, pairs_ ? n_ : 0);
    return {verify_(got, pairs_ ? &v : nullptr, p.at("algorithm") != "bitonic"), 0};
  }
  nlohmann::json metrics(const tuning::Params&, double ms) const override {
    return {{"gkeys_per_s", ms > 0 ? double(n_) / (ms * 1e6) : 0.0}};
  }

 private:
  Context& ctx_;
  KeyType type_;
  bool pairs_;
  size_t n_;
  int repeat_;
  std::vector<uint32_t> words_;
  cl::Buffer keys_, vals_;
  std::function<bool(const std::vector<uint32_t>&, const std::vector<uint32_t>*, bool)> verify_;
};

}  // namespace
}  // namespace lockstep::detail

namespace lockstep {

std::unique_ptr<tuning::Family> sort_family(Context& ctx, KeyType type, bool pairs, size_t n,
                                            int repeat) {
  if (n == 0 || n > (size_t(1) << 29)) throw input_error("sort tuning: need 1 <= n <= 2^29");
  return std::make_unique<detail::SortFamily>(ctx, type, pairs, n, repeat);
}

}  // namespace lockstep
