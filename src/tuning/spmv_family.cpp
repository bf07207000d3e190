// The SpMV tuning family: the declared space of spmv_parameters() as tuning parameters, the
// timing and verification of SpmvBench, and the model-led search's seeds and neighbours.
#include "lockstep/spmv_tuner.hpp"

namespace lockstep {

SpmvConfig seed_default_config() {
  SpmvConfig c;
  c.kernel = SpmvKernel::vector;
  c.wg_bits = 8;
  c.rows_bits = 5;
  c.shuffle = 0;
  return c;
}

tuning::Params spmv_params(const SpmvConfig& c) {
  tuning::Params p = {{"algorithm", to_string(c.kernel)}, {"local_size", 1 << c.wg_bits}};
  if (c.kernel == SpmvKernel::vector) p["rows_bits"] = c.rows_bits, p["shuffle"] = c.shuffle;
  if (c.kernel == SpmvKernel::merge) p["items"] = c.items;
  return p;
}

SpmvConfig spmv_config(const tuning::Params& p) {
  SpmvConfig c;
  // entries written before the one engine: "kernel" and "wg_bits"
  c.kernel = parse_spmv_kernel(p.contains("algorithm") ? p.at("algorithm").get<std::string>()
                                                       : p.at("kernel").get<std::string>());
  if (p.contains("local_size")) {
    const int size = p.at("local_size").get<int>();
    c.wg_bits = 0;
    while ((1 << c.wg_bits) < size) ++c.wg_bits;
    if ((1 << c.wg_bits) != size) throw input_error("spmv: local_size must be a power of two");
  } else {
    c.wg_bits = p.at("wg_bits").get<int>();
  }
  c.rows_bits = tuning::get_int(p, "rows_bits", c.rows_bits);
  c.shuffle = tuning::get_int(p, "shuffle", 0);
  c.items = tuning::get_int(p, "items", c.items);
  return c;
}

std::string spmv_key(size_t value_bytes, const std::string& fingerprint) {
  return std::string(value_bytes == 8 ? "double:" : "float:") + fingerprint;
}

namespace {

// Configurations one step away from c: one parameter moved by one, or another kernel.
std::vector<SpmvConfig> neighbours(const SpmvConfig& c) {
  std::vector<SpmvConfig> out;
  for (int d : {-1, 1}) {
    SpmvConfig n = c;
    n.wg_bits += d;
    if (c.kernel == SpmvKernel::vector) n.rows_bits += d;  // same items per row, other group size
    out.push_back(n);
    if (c.kernel == SpmvKernel::vector) {
      n = c;
      n.rows_bits += d;
      out.push_back(n);
    }
  }
  if (c.kernel == SpmvKernel::vector) {
    SpmvConfig n = c;
    n.shuffle = 1 - c.shuffle;
    out.push_back(n);
  }
  if (c.kernel == SpmvKernel::merge)
    for (auto& spec : spmv_parameters())
      for (auto& p : spec.parameters)
        if (spec.kernel == SpmvKernel::merge && p.name == "items")
          for (size_t i = 0; i < p.values.size(); ++i)
            if (p.values[i] == c.items) {  // the declared values either side
              SpmvConfig n = c;
              if (i > 0) n.items = p.values[i - 1], out.push_back(n);
              if (i + 1 < p.values.size()) n.items = p.values[i + 1], out.push_back(n);
            }
  for (auto k : {SpmvKernel::scalar, SpmvKernel::vector, SpmvKernel::adaptive, SpmvKernel::merge})
    if (k != c.kernel) {
      SpmvConfig n = c;
      n.kernel = k;
      n.shuffle = 0;
      out.push_back(n);
    }
  return out;
}

template <typename T>
class SpmvFamily : public tuning::Family {
 public:
  SpmvFamily(Context& ctx, const Csr<T>& host, int repeats)
      : dev_(ctx.info()), host_(host), bench_(ctx.queue(), host), repeats_(repeats),
        copy_gbs_(copy_bandwidth_gbs(ctx)) {}

  std::string name() const override { return "spmv"; }
  std::vector<tuning::Space> spaces() const override {
    std::vector<tuning::Space> out;
    for (const SpmvKernelSpec& spec : spmv_parameters()) {
      tuning::Space s{{"algorithm", {to_string(spec.kernel)}}};
      for (const SpmvParameter& p : spec.parameters) {
        tuning::Parameter t{p.name == "wg_bits" ? "local_size" : p.name, {}};
        for (int v : p.values) t.values.push_back(p.name == "wg_bits" ? 1 << v : v);
        s.push_back(t);
      }
      out.push_back(s);
    }
    return out;
  }
  bool valid(const tuning::Params& p) const override {
    return spmv_valid(spmv_config(p), dev_, sizeof(T));
  }
  std::string key() const override { return spmv_key(sizeof(T), bench_.matrix().fingerprint()); }
  nlohmann::json features() const override {
    const RowStats s = bench_.matrix().stats();
    return {{"rows", host_.rows}, {"cols", host_.cols}, {"nnz", host_.nnz()}, {"row_mean", s.mean},
            {"row_std", s.std}, {"row_max", s.max}, {"contiguity", bench_.matrix().contiguity()}};
  }
  double run(const tuning::Params& p) override {
    last_ = bench_.measure(spmv_config(p), repeats_, true);
    return last_.median_ms;
  }
  tuning::Verdict check(const tuning::Params&) override { return {last_.verified, last_.max_rel_err}; }
  Defines defines(const tuning::Params& p) const override {
    return spmv_defines<T>(spmv_config(p), dev_);
  }
  std::vector<tuning::Params> seeds() const override {
    SpmvConfig scalar;
    scalar.kernel = SpmvKernel::scalar;
    scalar.wg_bits = 8;
    const auto& m = bench_.matrix();
    return {spmv_params(scalar), spmv_params(seed_default_config()),
            spmv_params(predict_spmv_config(dev_, m.stats(), host_.rows, sizeof(T), m.contiguity()))};
  }
  std::vector<tuning::Params> neighbours(const tuning::Params& p) const override {
    std::vector<tuning::Params> out;
    for (const SpmvConfig& n : lockstep::neighbours(spmv_config(p)))
      if (spmv_valid(n, dev_, sizeof(T))) out.push_back(spmv_params(n));
    return out;
  }
  nlohmann::json metrics(const tuning::Params&, double) const override {  // of the last run
    return {{"gflops", last_.gflops}, {"gbs", last_.gbs}, {"pct_copy_bw", 100 * last_.gbs / copy_gbs_},
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
