// The tuning database: store and find across instances, replace, and stale or corrupt files
// ignored (and then replaced by the next store); failed writes, 0-byte files, no working-directory
// fallback, and the copy-bandwidth ceiling that is measured rather than stored.
#include <fstream>

#include "lockstep/spmv_tuner.hpp"
#include "lockstep/tuning_db.hpp"
#include "support.hpp"

using namespace lockstep;

TEST_CASE("tuning database: store, reload, replace, stale and corrupt files") {
  test::TempDir dir;
  std::string path = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", path);
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
}

// Issue 18/19: a failed write (a full disk) throws, names the file and leaves neither a 0-byte or
// partial database nor a temporary; the previous database stays whole. Before the shared atomic
// writer, the buffered stream was checked before it was flushed: no error, and a 0-byte file.
TEST_CASE("tuning database: a failed write throws and leaves no empty, partial or temporary file") {
  test::TempDir dir;
  std::string path = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", path);
  DeviceInfo dev = describe(test::context().device());
  TuningEntry e{"spmv", "m1", {}, {{"kernel", "vector"}}, {}, ""};

  {
    test::DiskFull full;
    CHECK_THROWS_WITH_AS(TuningDb(dev).store(e), doctest::Contains("cannot write tuning database"),
                         input_error);
  }
  CHECK(!std::filesystem::exists(path));
  CHECK(test::count_files(dir.path, ".tmp") == 0);

  TuningDb(dev).store(e);
  auto good = std::filesystem::file_size(path);
  {
    test::DiskFull full(good / 2);  // room for half of the grown file
    CHECK_THROWS_AS(TuningDb(dev).store({"spmv", "m2", {}, {{"kernel", "scalar"}}, {}, ""}),
                    input_error);
  }
  CHECK(std::filesystem::file_size(path) == good);
  CHECK(TuningDb(dev).find("spmv", "m1").has_value());
  CHECK(test::count_files(dir.path, ".tmp") == 0);
}

TEST_CASE("tuning database: a 0-byte file is reported and ignored, then replaced") {
  test::TempDir dir;
  std::string path = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", path);
  DeviceInfo dev = describe(test::context().device());
  std::ofstream(path).close();

  TuningDb db(dev);

  CHECK(db.entries().empty());
  db.store({"spmv", "m1", {}, {{"kernel", "vector"}}, {}, ""});
  CHECK(TuningDb(dev).find("spmv", "m1").has_value());
}

// Issue 19: with the cache root unusable (or the disk caches off) there is no database, and
// nothing is written to the working directory (it used to fall back to ./.lockstep-tuning).
TEST_CASE("tuning database: an unusable cache root writes nothing to the working directory") {
  test::TempDir dir;
  std::string file = (dir.path / "file").string();
  std::ofstream(file) << "x";
  test::ScopedEnv env("LOCKSTEP_CACHE_DIR", file), db_env("LOCKSTEP_TUNING_DB", nullptr);
  auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path);
  struct Back {
    std::filesystem::path p;
    ~Back() { std::filesystem::current_path(p); }
  } back{cwd};
  DeviceInfo dev = describe(test::context().device());

  TuningDb db(dev);
  db.store({"spmv", "m1", {}, {{"kernel", "vector"}}, {}, ""});
  test::ScopedEnv off("LOCKSTEP_DISK_CACHE", "0"), root("LOCKSTEP_CACHE_DIR", dir.path.string());
  TuningDb(dev).store({"spmv", "m2", {}, {{"kernel", "vector"}}, {}, ""});

  CHECK(db.path().empty());
  CHECK(db.find("spmv", "m1").has_value());  // kept in this object only
  CHECK(TuningDb(dev).path().empty());
  CHECK(!std::filesystem::exists(dir.path / ".lockstep-tuning"));
  CHECK(test::count_files(dir.path, "") == 1);  // only "file"
}

// Issue 18: the copy-bandwidth ceiling is measured, not read back: a figure in the database
// (here an absurd one) is not served, and a measurement is not stored.
TEST_CASE("tuning: the copy-bandwidth ceiling is measured each time and never stored") {
  test::TempDir dir;
  std::string path = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", path);
  Context& ctx = test::context();
  const double planted = 0.125;

  double fresh = copy_bandwidth_gbs(ctx);
  bool stored = TuningDb(ctx.info()).find("copy_bw", "float4").has_value();
  TuningDb(ctx.info()).store({"copy_bw", "float4", {}, {}, {{"gbs", planted}}, ""});
  double again = copy_bandwidth_gbs(ctx);

  CHECK(fresh > 0);
  CHECK(!stored);
  CHECK(again != planted);
}
