// The tuning database: store and find across instances, replace, and stale or corrupt files
// ignored (and then replaced by the next store).
#include <fstream>

#include "lockstep/tuning_db.hpp"
#include "support.hpp"

using namespace lockstep;

TEST_CASE("tuning database: store, reload, replace, stale and corrupt files") {
  test::TempDir dir;
  std::string path = (dir.path / "db.json").string();
  setenv("LOCKSTEP_TUNING_DB", path.c_str(), 1);
  DeviceInfo dev = describe(test::context().device());

  TuningDb a(dev);
  CHECK(!a.find("spmv", "m1").has_value());
  a.store({"spmv", "m1", {{"rows", 10}}, {{"kernel", "vector"}, {"wg_bits", 8}}, {{"ms", 0.5}}, ""});
  a.store({"spmv", "m2", {}, {{"kernel", "scalar"}}, {}, ""});
  a.store({"spmv", "m1", {}, {{"kernel", "adaptive"}}, {}, ""});

  TuningDb b(dev);
  REQUIRE(b.find("spmv", "m1").has_value());
  CHECK(b.find("spmv", "m1")->params["kernel"] == "adaptive");
  CHECK(b.entries("spmv").size() == 2);
  CHECK(!b.find("apsp", "m1").has_value());

  {  // stale: another library version
    std::ofstream f(path);
    f << R"({"lockstep_version":"0.0.0-old","entries":[{"routine":"spmv","key":"m1","params":{}}]})";
  }
  CHECK(TuningDb(dev).entries().empty());
  {  // corrupt
    std::ofstream f(path);
    f << "{ not json";
  }
  TuningDb c(dev);
  CHECK(c.entries().empty());
  c.store({"spmv", "m3", {}, {{"kernel", "vector"}}, {}, ""});
  CHECK(TuningDb(dev).find("spmv", "m3").has_value());
  unsetenv("LOCKSTEP_TUNING_DB");
}
