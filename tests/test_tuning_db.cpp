// The tuning database: store and find across instances, replace, and stale or corrupt files
// ignored (and then replaced by the next store); failed writes, 0-byte files, no working-directory
// fallback, the copy-bandwidth ceiling that is measured rather than stored, and a
// hostile path and concurrent writers.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "lockstep/spmv_tuner.hpp"
#include "lockstep/tuning_db.hpp"
#include "support.hpp"

using namespace lockstep;
namespace fs = std::filesystem;

TEST_CASE("tuning database: store, reload, replace, stale and corrupt files") {
  test::TempDir dir;
  std::string path = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", path);
  DeviceInfo dev = describe(test::context().device());

  TuningDb a(dev);
  CHECK(!a.find("spmv", "m1").has_value());
  a.store({"spmv",
           "m1",
           {{"rows", 10}},
           {{"algorithm", "vector"}, {"local_size", 256}},
           {{"ms", 0.5}},
           ""});
  a.store({"spmv", "m2", {}, {{"algorithm", "scalar"}}, {}, ""});
  a.store({"spmv", "m1", {}, {{"algorithm", "adaptive"}}, {}, ""});

  TuningDb b(dev);
  REQUIRE(b.find("spmv", "m1").has_value());
  CHECK(b.find("spmv", "m1")->params["algorithm"] == "adaptive");
  CHECK(b.entries("spmv").size() == 2);
  CHECK(!b.find("apsp", "m1").has_value());

  {  // stale: another library version
    std::ofstream f(path);
    f << R"({"lockstep_version":"0.0.0-old","entries":[{"routine":"spmv","key":"m1","params":{}}]})";
  }
  CHECK(TuningDb(dev).entries().empty());
  {  // corrupt: a database cut short
    std::ofstream f(path);
    f << R"({"lockstep_version":"0.0.0-old","entries":[{"routine":"spmv")";
  }
  TuningDb c(dev);
  CHECK(c.entries().empty());
  CHECK(fs::exists(path + ".corrupt"));  // moved aside, not replaced in place
  CHECK(!fs::exists(path));
  c.store({"spmv", "m3", {}, {{"algorithm", "vector"}}, {}, ""});
  CHECK(TuningDb(dev).find("spmv", "m3").has_value());
}

// A failed write (a full disk) throws, names the file and leaves neither a 0-byte or partial
// database nor a temporary; the previous database stays whole. A buffered stream checked before
// its flush would report no error and leave a 0-byte file.
TEST_CASE("tuning database: a failed write throws and leaves no empty, partial or temporary file") {
  test::TempDir dir;
  std::string path = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", path);
  DeviceInfo dev = describe(test::context().device());
  TuningEntry e{"spmv", "m1", {}, {{"algorithm", "vector"}}, {}, ""};

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
    CHECK_THROWS_AS(TuningDb(dev).store({"spmv", "m2", {}, {{"algorithm", "scalar"}}, {}, ""}),
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
  db.store({"spmv", "m1", {}, {{"algorithm", "vector"}}, {}, ""});
  CHECK(TuningDb(dev).find("spmv", "m1").has_value());
}

// With the cache root unusable (or the disk caches off) there is no database, and nothing is
// written to the working directory (no ./.lockstep-tuning fallback: a run must not litter it).
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
  db.store({"spmv", "m1", {}, {{"algorithm", "vector"}}, {}, ""});
  test::ScopedEnv off("LOCKSTEP_DISK_CACHE", "0"), root("LOCKSTEP_CACHE_DIR", dir.path.string());
  TuningDb(dev).store({"spmv", "m2", {}, {{"algorithm", "vector"}}, {}, ""});

  CHECK(db.path().empty());
  CHECK(db.find("spmv", "m1").has_value());  // kept in this object only
  CHECK(TuningDb(dev).path().empty());
  CHECK(!std::filesystem::exists(dir.path / ".lockstep-tuning"));
  CHECK(test::count_files(dir.path, "") == 1);  // only "file"
}

// The copy-bandwidth ceiling is measured, not read back: a figure in the database
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

// The database's path is hostile input. A symbolic link stays a link (its target is what the
// store replaces); a dangling one, a device node, a directory or a file over 64 MiB is refused
// (input_error naming it) and left as it was: a plain rename would replace the link or the
// device node with a regular file, and an oversized file would be read whole.
TEST_CASE("tuning database: links are followed, devices and oversized files refused") {
  test::TempDir dir;
  DeviceInfo dev = describe(test::context().device());
  const TuningEntry e{"spmv", "m1", {}, {{"algorithm", "vector"}}, {}, ""};
  const fs::path target = dir.path / "real.json", link = dir.path / "link.json";
  fs::create_symlink(target, link);
  {
    test::ScopedEnv env("LOCKSTEP_TUNING_DB", link.string());
    CHECK_THROWS_WITH_AS(TuningDb{dev}, doctest::Contains("a symbolic link whose target"),
                         input_error);  // dangling: refused, not replaced by a file
    CHECK(fs::is_symlink(link));
    std::ofstream(target).close();
    CHECK(TuningDb(dev).store(e));
    CHECK(fs::is_symlink(link));
    CHECK(TuningDb(dev).find("spmv", "m1").has_value());
  }
  {
    test::ScopedEnv env("LOCKSTEP_TUNING_DB", target.string());
    CHECK(TuningDb(dev).find("spmv", "m1").has_value());  // the store went to the target
  }
  const fs::path big = dir.path / "big.json";
  {
    std::ofstream(big).close();
    fs::resize_file(big, (size_t(64) << 20) + 1);  // sparse: no disk used
    test::ScopedEnv env("LOCKSTEP_TUNING_DB", big.string());
    CHECK_THROWS_WITH_AS(TuningDb{dev}, doctest::Contains("larger than 64 MiB"), input_error);
  }
  {
    test::ScopedEnv env("LOCKSTEP_TUNING_DB", dir.path.string());
    CHECK_THROWS_WITH_AS(TuningDb{dev}, doctest::Contains("a directory, not a regular file"),
                         input_error);
  }
  const fs::path node = dir.path / "null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) return;  // not root: no node
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", node.string());
  CHECK_THROWS_WITH_AS(TuningDb(dev).store(e),
                       doctest::Contains("a character device, not a regular file"), input_error);
  struct stat st {};
  REQUIRE(::stat(node.c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

// Stores from many writers at once (threads here; processes in test_cli_tuning_db.cpp) keep
// every entry: each store re-reads the file under the folder's lock and merges, since a writer's
// copy (read when it was made) replacing the file would lose the concurrent entries.
TEST_CASE("tuning database: concurrent stores of different entries keep all of them") {
  test::TempDir dir;
  const std::string path = (dir.path / "db.json").string();
  test::ScopedEnv env("LOCKSTEP_TUNING_DB", path);
  DeviceInfo dev = describe(test::context().device());
  {  // a database of some size, so that a read-modify-write takes a while
    TuningDb seed(dev);
    for (int k = 0; k < 20; ++k) seed.store({"pad", std::to_string(k), {}, {{"x", k}}, {}, ""});
  }
  constexpr int kThreads = 8, kEach = 4;
  std::vector<std::thread> threads;
  std::atomic<int> stored{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        TuningDb db(dev);  // each a separate writer, as a process would be
        stored += db.store({"spmv",
                            "t" + std::to_string(t) + "-" + std::to_string(i),
                            {},
                            {{"algorithm", "scalar"}},
                            {},
                            ""});
      }
    });
  for (auto& th : threads) th.join();
  CHECK(stored == kThreads * kEach);
  CHECK(TuningDb(dev).entries("spmv").size() == size_t(kThreads * kEach));
  CHECK(TuningDb(dev).entries("pad").size() == 20);
  CHECK(test::count_files(dir.path, ".tmp") == 0);
}

// With nowhere to store, store() says so in its result (the CLI prints stored=0).
TEST_CASE("tuning database: store() returns false when there is no file to store in") {
  test::ScopedEnv off("LOCKSTEP_DISK_CACHE", "0"), db("LOCKSTEP_TUNING_DB", nullptr);
  DeviceInfo dev = describe(test::context().device());
  TuningDb d(dev);
  CHECK(!d.store({"spmv", "m1", {}, {{"algorithm", "vector"}}, {}, ""}));
  CHECK(d.find("spmv", "m1").has_value());
}
