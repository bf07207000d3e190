// `lockstep sort` end to end: random keys and files (text with NaN, -0, inf and blank lines;
// raw binary u64) through every algorithm with --verify, --pairs, --descending and --json; bad
// input (a non-number line, a type mismatch, a binary size that is not whole keys) exits 1 with
// PATH:LINE, usage mistakes (N out of range, --n with --input, unknown names) exit 2.
// The -D variants are those of test_sort.cpp, so the program cache serves them.
#include <fstream>
#include <map>

#include "support.hpp"

namespace lockstep {
namespace {

using test::last_line;

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("sort cli: random keys, every algorithm, --verify") {
  std::string out;
  int rc = test::run_cli("sort --n 5000 --algorithm radix --items 2 --verify", out);
  REQUIRE_MESSAGE(rc == 0, out);
  auto kv = last_line(out);
  CHECK(kv["n"] == "5000");
  CHECK(kv["algorithm"] == "radix");
  CHECK(kv["verified"] == "1");
  CHECK(kv.count("gkeys_per_s"));

  rc = test::run_cli(
      "sort --n 3000 --algorithm bitonic --barrier lock --tile 64 --local-size 16 --verify "
      "--repeat 2",
      out);
  REQUIRE_MESSAGE(rc == 0, out);
  kv = last_line(out);
  CHECK(kv["barrier"] == "lock");
  CHECK(kv["verified"] == "1");
  CHECK(std::stod(kv["ms"]) > 0);

  // The variant of test_sort_persistent.cpp on CPUs (the rule's 128 keys per work-item).
  rc = test::run_cli("sort --n 5000 --algorithm radix-persistent --barrier lock --verify", out);
  REQUIRE_MESSAGE(rc == 0, out);
  kv = last_line(out);
  CHECK(kv["algorithm"] == "radix-persistent");
  CHECK(kv["barrier"].rfind("lock", 0) == 0);
  CHECK(kv["verified"] == "1");
  CHECK(test::run_cli("sort --n 10 --algorithm radix --barrier lock", out) == 2);
}

TEST_CASE("sort cli: text and binary files, pairs, descending, json") {
  test::TempDir dir;
  write(dir.path / "f.txt", "3.5\n\n  -0\nnan\n-inf\n0\n1e-3\t\n-7\ninf\r\n2\n");
  std::string out;
  int rc = test::run_cli("sort --input " + (dir.path / "f.txt").string() +
                             " --type f32 --pairs --descending --algorithm bitonic --barrier lock"
                             " --tile 256 --local-size 32 --verify",
                         out);
  REQUIRE_MESSAGE(rc == 0, out);
  auto kv = last_line(out);
  CHECK(kv["n"] == "9");
  CHECK(kv["verified"] == "1");

  std::string bin;
  for (uint64_t i = 0; i < 1000; ++i) {
    const uint64_t v = (i * 0x9E3779B97F4A7C15ull) ^ (i << 40);
    bin.append(reinterpret_cast<const char*>(&v), 8);
  }
  write(dir.path / "k.bin", bin);
  const auto json = dir.path / "out.json";
  rc = test::run_cli(
      "sort --input " + (dir.path / "k.bin").string() +
          " --binary --type u64 --pairs --algorithm radix --items 2 --verify --json " +
          json.string(),
      out);
  REQUIRE_MESSAGE(rc == 0, out);
  CHECK(last_line(out)["verified"] == "1");
  std::ifstream j(json);
  std::string text((std::istreambuf_iterator<char>(j)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"verified\": true") != std::string::npos);
  CHECK(text.find("\"n\": 1000") != std::string::npos);
}

TEST_CASE("sort cli: bad input exits 1 with PATH:LINE, usage mistakes exit 2") {
  test::TempDir dir;
  const std::string bad = (dir.path / "bad.txt").string(), neg = (dir.path / "neg.txt").string();
  const std::string odd = (dir.path / "odd.bin").string();
  write(bad, "1\n2\nthree\n");
  write(neg, "5\n-5\n");
  write(odd, "1234567");
  std::string out;

  CHECK(test::run_cli("sort --input " + bad, out) == 1);
  CHECK(out.find(bad + ":3: 'three' is not a u32 key") != std::string::npos);
  CHECK(test::run_cli("sort --input " + neg + " --type u32", out) == 1);
  CHECK(out.find(neg + ":2:") != std::string::npos);
  CHECK(test::run_cli("sort --input " + neg + " --type f32 --algorithm nope", out) == 2);
  CHECK(test::run_cli("sort --input " + odd + " --binary", out) == 1);
  CHECK(out.find("not a whole number of 4-byte keys") != std::string::npos);
  CHECK(test::run_cli("sort --n -1", out) == 2);
  CHECK(test::run_cli("sort --n 1073741824", out) == 2);
  CHECK(test::run_cli("sort --n 10 --input " + neg, out) == 2);
  CHECK(test::run_cli("sort", out) == 2);
  CHECK(test::run_cli("sort --n 10 --type f16", out) == 2);
  CHECK(test::run_cli("sort --n 10 --barrier spin", out) == 2);
  CHECK(test::run_cli("sort --n 10 --binary", out) == 2);
  CHECK(test::run_cli("sort --input " + (dir.path / "missing").string(), out) == 1);
}
}  // namespace lockstep
