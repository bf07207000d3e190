// The SpMM tuning family: the algorithm (team: cl/spmm.cl, merge: cl/spmm_merge.cl) x local_size
// x team x vec (x items for merge; column-major: x transpose, cl/spmm_transpose.cl) for one matrix,
// k and layout, each event-timed (median of the runs after a warm-up) and checked against a host
// product in double with the one comparison rule (lockstep/tolerance.hpp).
#include <algorithm>
#include <random>

#include "lockstep/spmm.hpp"
#include "lockstep/tolerance.hpp"
#include "lockstep/tuning.hpp"

namespace lockstep {
namespace {

template <typename T>
class SpmmFamily : public tuning::Family {
 public:
  SpmmFamily(Context& ctx, const Csr<T>& host, int k, DenseLayout layout, int repeats)
      : ctx_(ctx), dev_(ctx, host), k_(k), layout_(layout), repeats_(std::max(1, repeats)) {
    if (k < 1) throw input_error("spmm: k must be at least 1");
    const size_t n = size_t(host.cols), m = size_t(host.rows), kk = size_t(k);
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<T> x(std::max<size_t>(1, n * kk));
    for (auto& v : x) v = T(u(rng));
    // the reference (row-major i, c) and the scale of each entry: sum of |products|
    want_.assign(m * kk, 0.0), scale_.assign(m * kk, 0.0), terms_ = 1;
    auto xat = [&](size_t j, size_t c) {
      return double(layout == DenseLayout::row_major ? x[j * kk + c] : x[c * n + j]);
    };
    for (size_t i = 0; i < m; ++i) {
      terms_ = std::max<size_t>(terms_, size_t(host.row_ptr[i + 1] - host.row_ptr[i]));
      for (int32_t p = host.row_ptr[i]; p < host.row_ptr[i + 1]; ++p)
        for (size_t c = 0; c < kk; ++c) {
          const double t = double(host.values[size_t(p)]) * xat(size_t(host.col_idx[size_t(p)]), c);
          want_[i * kk + c] += t, scale_[i * kk + c] += std::fabs(t);
        }
    }
    x_ = upload(ctx.queue(), x, CL_MEM_READ_ONLY);
    y_ = make_buffer(ctx.context(), CL_MEM_READ_WRITE, std::max<size_t>(1, m * kk) * sizeof(T));
    bytes_ =
        double(host.nnz()) * (sizeof(T) + 4) + double(m + 1) * 4 + double((n + m) * kk) * sizeof(T);
  }

  std::string name() const override { return "spmm"; }
  std::vector<tuning::Space> spaces() const override {
    std::vector<tuning::Space> s{
        {{"algorithm", {"team"}},
         {"local_size", {64, 128, 256, 512}},
         {"team", {1, 2, 4, 8, 16, 32}},
         {"vec", {1, 2, 4}}},
        {{"algorithm", {"merge"}},  // no barrier in the main kernel: one group size
         {"local_size", {256}},
         {"team", {1, 2, 4, 8, 16, 32}},
         {"vec", {1, 2, 4}},
         {"items", {16, 32, 64, 128, 256}}}};
    if (layout_ == DenseLayout::col_major) {  // each shape also between the two layout copies
      for (size_t i = 0, n = s.size(); i < n; ++i) {
        s.push_back(s[i]);
        s.back().push_back({"transpose", {1}});
      }
    }
    return s;
  }
  bool valid(const tuning::Params& p) const override {
    return spmm_valid(spmm_config(p), dev_.device(), k_, layout_);
  }
  std::string key() const override { return spmm_key(sizeof(T), k_, layout_, dev_.fingerprint()); }
  nlohmann::json features() const override {
    return {{"rows", dev_.rows()},
            {"cols", dev_.cols()},
            {"nnz", dev_.nnz()},
            {"k", k_},
            {"layout", to_string(layout_)}};
  }
  Defines defines(const tuning::Params& p) const override {
    return spmm_defines<T>(spmm_config(p), k_, layout_);
  }
  double run(const tuning::Params& p) override {
    const SpmmConfig c = spmm_config(p);
    cl::CommandQueue& q = ctx_.queue();
    spmm<T>(q, dev_, x_, y_, k_, layout_, T(1), T(0), c);  // warm-up (and the build)
    std::vector<double> ms;
    for (int r = 0; r < repeats_; ++r)
      ms.push_back(spmm<T>(q, dev_, x_, y_, k_, layout_, T(1), T(0), c).ms());
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return last_ms_ = ms[ms.size() / 2];
  }
  tuning::Verdict check(const tuning::Params&) override {
    const size_t m = size_t(dev_.rows()), kk = size_t(k_);
    std::vector<T> y = download<T>(ctx_.queue(), y_, std::max<size_t>(1, m * kk));
    const double tol = tolerance<T>(terms_);
    tuning::Verdict v{true, 0};
    for (size_t i = 0; i < m; ++i)
      for (size_t c = 0; c < kk; ++c) {
        const double got = layout_ == DenseLayout::row_major ? y[i * kk + c] : y[c * m + i];
        const double want = want_[i * kk + c], scale = scale_[i * kk + c];
        v.ok = v.ok && close(got, want, tol, scale);
        v.error = std::max(v.error, relative_error(got, want, scale));
      }
    return v;
  }
  std::vector<tuning::Params> seeds() const override {
    return {spmm_params(spmm_rule(dev_.device(), k_, layout_, dev_.stats()))};
  }
  nlohmann::json metrics(const tuning::Params&, double ms) const override {
    const double flops = 2.0 * double(dev_.nnz()) * k_;
    return {{"gflops", flops / (ms * 1e6)}, {"gbs", bytes_ / (ms * 1e6)}};
  }

 private:
  Context& ctx_;
  DeviceCsr<T> dev_;
  int k_;
  DenseLayout layout_;
  int repeats_;
  cl::Buffer x_, y_;
  std::vector<double> want_, scale_;
  size_t terms_ = 1;
  double bytes_ = 0, last_ms_ = 0;
};

}  // namespace

tuning::Params spmm_params(const SpmmConfig& c) {
  tuning::Params p = {{"algorithm", to_string(c.algorithm)},
                      {"local_size", c.local_size},
                      {"team", c.team},
                      {"vec", c.vec}};
  if (c.algorithm == SpmmAlgorithm::merge) p["items"] = c.items;
  if (c.transpose) p["transpose"] = 1;
  return p;
}

SpmmConfig spmm_config(const tuning::Params& p) {
  SpmmConfig c;
  c.local_size = tuning::get_int(p, "local_size"), c.team = tuning::get_int(p, "team");
  c.vec = tuning::get_int(p, "vec");
  if (p.contains("algorithm"))  // entries stored before merge have none: team
    c.algorithm = parse_spmm_algorithm(p.at("algorithm").get<std::string>());
  c.items = tuning::get_int(p, "items");
  c.transpose = p.contains("transpose") && tuning::get_int(p, "transpose") != 0;
  return c;
}

template <typename T>
std::unique_ptr<tuning::Family> spmm_family(Context& ctx, const Csr<T>& host, int k,
                                            DenseLayout layout, int repeats) {
  return std::make_unique<SpmmFamily<T>>(ctx, host, k, layout, repeats);
}
template std::unique_ptr<tuning::Family> spmm_family<float>(Context&, const Csr<float>&, int,
                                                            DenseLayout, int);
template std::unique_ptr<tuning::Family> spmm_family<double>(Context&, const Csr<double>&, int,
                                                             DenseLayout, int);

}  // namespace lockstep
