// read_input and LineReader: regular files, gzip content (by magic, whatever the name), pipes
// read as streams, and clear errors for directories, missing files and corrupt gzip data.
#include <sys/stat.h>
#include <zlib.h>

#include <fstream>
#include <thread>

#include "lockstep/io.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

void write_gzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb");
  REQUIRE(gz != nullptr);
  REQUIRE(gzwrite(gz, text.data(), unsigned(text.size())) == int(text.size()));
  gzclose(gz);
}

std::string message_of(const std::string& path) {
  return test::input_error_message([&] { read_input(path); });
}

}  // namespace

TEST_CASE("read_input: plain, gzip and pipe input, errors name the path") {
  test::TempDir dir;
  const std::string text = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 5\n";
  std::string plain = (dir.path / "m.mtx").string(), gz = (dir.path / "m.mtx.gz").string();
  std::ofstream(plain) << text;
  write_gzip(gz, text);

  CHECK(read_input(plain) == text);
  CHECK(read_input(gz) == text);

  std::string fifo = (dir.path / "fifo").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::thread writer([&] { std::ofstream(fifo) << text; });
  std::string got = read_input(fifo);
  writer.join();
  CHECK(got == text);

  CHECK(message_of(dir.path.string()) == dir.path.string() + ": is a directory");
  CHECK(message_of(plain + ".missing").rfind(plain + ".missing: cannot open: ", 0) == 0);
  std::string bad = (dir.path / "bad.gz").string();
  write_gzip(bad, std::string(4096, 'x'));
  {
    std::string b;
    b = read_input(bad);
    CHECK(b.size() == 4096);
  }
  std::ifstream in(bad, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::ofstream(bad, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  CHECK(message_of(bad).rfind(bad + ": corrupt gzip data", 0) == 0);
}

TEST_CASE("LineReader: lines, CRLF, numbering in errors") {
  std::string text = "a\r\nbb\n\nccc";
  LineReader r("f.txt", text);
  std::vector<std::string> lines;
  std::string_view line;
  while (r.next(line)) lines.emplace_back(line);

  CHECK(lines == std::vector<std::string>{"a", "bb", "", "ccc"});
  CHECK(r.line() == 4);
  CHECK_THROWS_WITH_AS(r.fail("bad number"), "f.txt:4: bad number", input_error);
}
