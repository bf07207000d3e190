// read_input: whole-content reads through zlib's gzread, which passes plain data through
// unchanged and inflates gzip (also concatenated members), from any file descriptor, so pipes,
// FIFOs and standard input read as streams: nothing here seeks.
#include "lockstep/io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "lockstep/error.hpp"

namespace lockstep {

std::string read_input(const std::string& path) {
  int fd = path == "-" ? dup(STDIN_FILENO) : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw input_error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    throw input_error(path + ": is a directory");
  }
  gzFile gz = gzdopen(fd, "rb");
  if (!gz) {
    close(fd);
    throw input_error(path + ": cannot open: out of memory");
  }
  gzbuffer(gz, 1 << 20);
  std::string text;
  if (S_ISREG(st.st_mode) && st.st_size > 0) text.reserve(size_t(st.st_size));
  char buf[1 << 16];
  for (;;) {
    int n = gzread(gz, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, size_t(n));
      continue;
    }
    if (n == 0) break;
    int code = 0;
    std::string what = gzerror(gz, &code);
    int saved = errno;
    gzclose(gz);
    if (code == Z_ERRNO) throw input_error(path + ": read error: " + std::strerror(saved));
    throw input_error(path + ": corrupt gzip data (" + what + ")");
  }
  int code = 0;
  std::string what = gzerror(gz, &code);
  gzclose(gz);
  if (code != Z_OK && code != Z_STREAM_END)
    throw input_error(path + ": corrupt gzip data (" + what + ")");
  return text;
}

LineReader::LineReader(std::string path, const std::string& text)
    : path_(std::move(path)), p_(text.data()), end_(text.data() + text.size()) {}

bool LineReader::next(std::string_view& line) {
  if (p_ >= end_) return false;
  ++line_;
  const char* nl = static_cast<const char*>(std::memchr(p_, '\n', size_t(end_ - p_)));
  const char* e = nl ? nl : end_;
  line = std::string_view(p_, size_t(e - p_));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  p_ = nl ? nl + 1 : end_;
  return true;
}

void LineReader::fail(const std::string& what) const {
  throw input_error(path_ + ":" + std::to_string(line_ > 0 ? line_ : 1) + ": " + what);
}

}  // namespace lockstep
