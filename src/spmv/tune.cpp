// The SpMV tuning family: the algorithms' declared parameters (spmv_spaces(), the one table the
// tests, the kernel builds and the tuner read), the timing and verification of SpmvBench, and
// the model-led search's seeds and neighbours.
#include "lockstep/spmv_tuner.hpp"

namespace lockstep {

const std::vector<tuning::Space>& spmv_spaces() {
  static const std::vector<tuning::Space> spaces{
      {{"algorithm", {"scalar"}}, {"local_size", {64, 128, 256, 512, 1024}}},
      {{"algorithm", {"vector"}},
       {"local_size", {64, 128, 256, 512, 1024}},
       {"rows_bits", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
       {"shuffle", {0, 1}}},
      {{"algorithm", {"adaptive"}}, {"local_size", {128, 256, 512, 1024}}},
      {{"algorithm", {"merge"}}, {"local_size", {64, 128, 256, 512}}, {"items", {4, 7, 8, 12, 16}}},
  };
  return spaces;
}

std::vector<SpmvConfig> spmv_search_space(const DeviceInfo& d, size_t value) {
  std::vector<SpmvConfig> out;
  for (const tuning::Params& p : tuning::enumerate(spmv_spaces(), [&](const tuning::Params& p) {
         return spmv_valid(spmv_config(p), d, value);
       }))
    out.push_back(spmv_config(p));
  return out;
}

SpmvConfig seed_default_config() {
  SpmvConfig c;
  c.algorithm = SpmvAlgorithm::vector;
  c.local_size = 256;
  c.rows_bits = 5;
  c.shuffle = 0;
  return c;
}

tuning::Params spmv_params(const SpmvConfig& c) {
  tuning::Params p = {{"algorithm", to_string(c.algorithm)}, {"local_size", c.local_size}};
  if (c.algorithm == SpmvAlgorithm::vector) p["rows_bits"] = c.rows_bits, p["shuffle"] = c.shuffle;
  if (c.algorithm == SpmvAlgorithm::merge) p["items"] = c.items;
  return p;
}

SpmvConfig spmv_config(const tuning::Params& p) {
  SpmvConfig c;
  // entries written before the one engine say "kernel" and "wg_bits" (log2 of local_size)
  const nlohmann::json* algorithm = tuning::find(p, "algorithm", "kernel");
  if (!algorithm || !algorithm->is_string())
    throw input_error("spmv: parameters without an algorithm");
  c.algorithm = parse_spmv_algorithm(algorithm->get<std::string>());
  if (p.contains("local_size")) {
    c.local_size = p.at("local_size").get<int>();
  } else if (const nlohmann::json* bits = tuning::find(p, "local_size", "wg_bits")) {
    const int b = bits->get<int>();
    if (b < 0 || b > 12) throw input_error("spmv: wg_bits must be in [0, 12]");
    c.local_size = 1 << b;
  } else {
    throw input_error("spmv: parameters without a local_size");
  }
  if (c.local_size < 1 || (c.local_size & (c.local_size - 1)))
    throw input_error("spmv: local_size must be a power of two");
  c.rows_bits = tuning::get_int(p, "rows_bits", c.rows_bits);
  c.shuffle = tuning::get_int(p, "shuffle", 0);
  c.items = tuning::get_int(p, "items", c.items);
  return c;
}

std::string spmv_key(size_t value_bytes, const std::string& fingerprint) {
  return std::string(value_bytes == 8 ? "double:" : "float:") + fingerprint;
}

namespace {

// Configurations one step away from c: one parameter moved by one, or another algorithm.
std::vector<SpmvConfig> neighbours(const SpmvConfig& c) {
  std::vector<SpmvConfig> out;
  for (int d : {-1, 1}) {
    SpmvConfig n = c;
    n.local_size = d < 0 ? c.local_size / 2 : c.local_size * 2;
    if (c.algorithm == SpmvAlgorithm::vector)
      n.rows_bits += d;  // same items per row, other group size
    out.push_back(n);
    if (c.algorithm == SpmvAlgorithm::vector) {
      n = c;
      n.rows_bits += d;
      out.push_back(n);
    }
  }
  if (c.algorithm == SpmvAlgorithm::vector) {
    SpmvConfig n = c;
    n.shuffle = 1 - c.shuffle;
    out.push_back(n);
  }
  if (c.algorithm == SpmvAlgorithm::merge)
    for (const tuning::Space& space : spmv_spaces())
      for (const tuning::Parameter& p : space)
        if (space.front().values.front() == "merge" && p.name == "items")
          for (size_t i = 0; i < p.values.size(); ++i)
            if (p.values[i] == c.items) {  // the declared values either side
              SpmvConfig n = c;
              if (i > 0) n.items = p.values[i - 1].get<int>(), out.push_back(n);
              if (i + 1 < p.values.size()) n.items = p.values[i + 1].get<int>(), out.push_back(n);
            }
  for (SpmvAlgorithm a : all_spmv_algorithms())
    if (a != c.algorithm) {
      SpmvConfig n = c;
      n.algorithm = a;
      n.shuffle = 0;
      out.push_back(n);
    }
  return out;
}

template <typename T>
class SpmvFamily : public tuning::Family {
 public:
  SpmvFamily(Context& ctx, const Csr<T>& host, int repeats)
      : dev_(ctx.info()),
        host_(host),
        bench_(ctx.queue(), host),
        repeats_(repeats),
        copy_gbs_(copy_bandwidth_gbs(ctx)) {}

  std::string name() const override { return "spmv"; }
  std::vector<tuning::Space> spaces() const override { return spmv_spaces(); }
  bool valid(const tuning::Params& p) const override {
    return spmv_valid(spmv_config(p), dev_, sizeof(T));
  }
  std::string key() const override { return spmv_key(sizeof(T), bench_.matrix().fingerprint()); }
  nlohmann::json features() const override {
    const RowStats s = bench_.matrix().stats();
    return {{"rows", host_.rows},
            {"cols", host_.cols},
            {"nnz", host_.nnz()},
            {"row_mean", s.mean},
            {"row_std", s.std},
            {"row_max", s.max},
            {"contiguity", bench_.matrix().contiguity()}};
  }
  double run(const tuning::Params& p) override {
    last_ = bench_.measure(spmv_config(p), repeats_, true);
    return last_.median_ms;
  }
  tuning::Verdict check(const tuning::Params&) override {
    return {last_.verified, last_.max_rel_err};
  }
  Defines defines(const tuning::Params& p) const override {
    return spmv_defines<T>(spmv_config(p), dev_);
  }
  std::vector<tuning::Params> seeds() const override {
    SpmvConfig scalar;
    scalar.algorithm = SpmvAlgorithm::scalar;
    scalar.local_size = 256;
    const auto& m = bench_.matrix();
    return {
        spmv_params(scalar), spmv_params(seed_default_config()),
        spmv_params(predict_spmv_config(dev_, m.stats(), host_.rows, sizeof(T), m.contiguity()))};
  }
  std::vector<tuning::Params> neighbours(const tuning::Params& p) const override {
    std::vector<tuning::Params> out;
    for (const SpmvConfig& n : lockstep::neighbours(spmv_config(p)))
      if (spmv_valid(n, dev_, sizeof(T))) out.push_back(spmv_params(n));
    return out;
  }
  nlohmann::json metrics(const tuning::Params&, double) const override {  // of the last run
    return {{"gflops", last_.gflops},
            {"gbs", last_.gbs},
            {"pct_copy_bw", 100 * last_.gbs / copy_gbs_},
            {"max_rel_err", last_.max_rel_err}};
  }

 private:
  DeviceInfo dev_;
  const Csr<T>& host_;
  SpmvBench<T> bench_;
  int repeats_;
  double copy_gbs_;
  SpmvMeasurement last_;
};

}  // namespace

template <typename T>
std::unique_ptr<tuning::Family> spmv_family(Context& ctx, const Csr<T>& host, int repeats) {
  return std::make_unique<SpmvFamily<T>>(ctx, host, repeats);
}

template std::unique_ptr<tuning::Family> spmv_family<float>(Context&, const Csr<float>&, int);
template std::unique_ptr<tuning::Family> spmv_family<double>(Context&, const Csr<double>&, int);

}  // namespace lockstep
