// The tuning engine: a candidate with a wrong result (real kernels, perturbed reference) is
// rejected, never stored or chosen; f32 APSP candidates compared with tolerance; choose()
// answers from the process's copy of the database, refreshed only by this process's writes.
#include <algorithm>
#include <filesystem>

#include "lockstep/apsp.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/matrix_market.hpp"
#include "lockstep/spmv_tuner.hpp"
#include "lockstep/tolerance.hpp"
#include "lockstep/tuning.hpp"
#include "lockstep/tuning_db.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

// SpMV candidates (real kernels) checked against the double reference; the reference of the
// candidates named in `wrong` is perturbed, and their time forced to the smallest, so a wrong
// candidate would win if the engine did not verify it.
class CheckedSpmv : public tuning::Family {
 public:
  CheckedSpmv(Context& ctx, std::vector<std::string> wrong)
      : ctx_(ctx),
        a_(read_matrix_market<float>(
            (test::source_dir() / "matrices" / "banded_1000_3.mtx").string())),
        da_(ctx.queue(), a_),
        x_(size_t(a_.cols), 0.5f),
        wrong_(std::move(wrong)) {
    want_ = spmv_reference(a_, x_, std::vector<float>(size_t(a_.rows)), 1.0, 0.0);
  }
  std::string name() const override { return "spmv_check"; }
  std::vector<tuning::Space> spaces() const override {
    return {{{"algorithm", {"scalar", "vector", "adaptive"}}, {"local_size", {128}}}};
  }
  std::string key() const override { return "float:banded"; }
  double run(const tuning::Params& p) override {
    std::vector<float> y(size_t(a_.rows));
    spmv<float>(ctx_.queue(), da_, x_, y, 1, 0, spmv_config(p));
    y_ = y;
    return is_wrong(p) ? 1e-9 : 1.0 + double(y.size() % 7);  // no timing luck either way
  }
  tuning::Verdict check(const tuning::Params& p) override {
    std::vector<double> want = want_;
    if (is_wrong(p)) want[want.size() / 2] += 1.0;
    tuning::Verdict v{true, 0};
    for (size_t i = 0; i < want.size(); ++i) {
      v.ok = v.ok && close(y_[i], want[i], tolerance<float>(8), 1.0);
      v.error = std::max(v.error, relative_error(y_[i], want[i]));
    }
    return v;
  }

 private:
  bool is_wrong(const tuning::Params& p) const {
    return std::find(wrong_.begin(), wrong_.end(), p.at("algorithm").get<std::string>()) !=
           wrong_.end();
  }
  Context& ctx_;
  Csr<float> a_;
  DeviceCsr<float> da_;
  std::vector<float> x_, y_;
  std::vector<double> want_;
  std::vector<std::string> wrong_;
};

}  // namespace

TEST_CASE("tuning engine: a candidate with a wrong result is rejected, never stored or chosen") {
  test::TempDir dir;
  test::ScopedEnv db("LOCKSTEP_TUNING_DB", (dir.path / "db.json").string());
  Context& ctx = test::context();

  CheckedSpmv one_wrong(ctx, {"vector"});
  const tuning::Outcome r = tuning::tune(ctx, one_wrong);
  CheckedSpmv all_wrong(ctx, {"scalar", "vector", "adaptive"});
  tuning::Options no_store;
  no_store.store = false;

  REQUIRE(r.candidates.size() == 3);
  const tuning::Measured* v = r.find({{"algorithm", "vector"}, {"local_size", 128}});
  REQUIRE(v != nullptr);
  CHECK(!v->verified);  // the fastest by its time, but wrong
  CHECK(v->error > 0);
  CHECK(r.best.verified);
  CHECK(r.best.params.at("algorithm") != "vector");
  CHECK(r.stored);
  auto chosen = tuning::choose(ctx.info(), "spmv_check", "float:banded");
  REQUIRE(chosen.has_value());
  CHECK(*chosen == r.best.params);
  CHECK_THROWS_AS(tuning::tune(ctx, all_wrong, no_store), input_error);
}

TEST_CASE("tuning engine: f32 APSP candidates agree within tolerance with the reference") {
  Context& ctx = test::context();
  Graph g = random_graph(70, 0.1, 5);
  for (double& w : g.weight) w = w / 3.0 + 0.1;  // fractional: rounding differs with the order
  auto family = apsp_family<float>(ctx, g, false, 1);
  tuning::Options o;
  o.store = false;
  o.candidates = {{{"tile", 16}, {"K", 1}, {"thread_tile", 4}},
                  {{"tile", 16}, {"K", 4}, {"thread_tile", 4}}};

  const tuning::Outcome r = tuning::tune(ctx, *family, o);

  REQUIRE(r.candidates.size() == 2);
  for (const tuning::Measured& m : r.candidates) CHECK(m.verified);
  CHECK(!r.stored);
}

TEST_CASE(
    "tuning engine: choose() reads the database once per process, its own writes refresh it") {
  test::TempDir dir;
  const std::string path = (dir.path / "db.json").string();
  test::ScopedEnv db("LOCKSTEP_TUNING_DB", path);
  const DeviceInfo& dev = test::context().info();

  tuning::store(dev, {"sort", "k1", {}, {{"algorithm", "radix"}}, {}, ""});
  auto first = tuning::choose(dev, "sort", "k1");
  TuningDb(dev).store(
      {"sort", "k1", {}, {{"algorithm", "bitonic"}}, {}, ""});  // as another process
  auto cached = tuning::choose(dev, "sort", "k1");
  std::filesystem::remove(path);
  auto still = tuning::choose(dev, "sort", "k1");
  TuningDb(dev).store({"sort", "k1", {}, {{"algorithm", "bitonic"}}, {}, ""});
  tuning::store(dev,
                {"sort", "k2", {}, {{"algorithm", "radix"}}, {}, ""});  // re-reads, then writes
  auto refreshed = tuning::choose(dev, "sort", "k1");

  REQUIRE(first.has_value());
  CHECK(first->at("algorithm") == "radix");
  REQUIRE(cached.has_value());
  CHECK(cached->at("algorithm") == "radix");  // the file changed, the process's copy did not
  REQUIRE(still.has_value());                 // nor when the file is gone
  REQUIRE(refreshed.has_value());
  CHECK(refreshed->at("algorithm") == "bitonic");
  CHECK(tuning::choose(dev, "sort", "k2").has_value());
  CHECK(!tuning::choose(dev, "sort", "k3").has_value());
  CHECK(tuning::choose(dev, "sort", "k9", true).has_value());  // nearest size class: k2
}
