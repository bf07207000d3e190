// read_input: whole-content reads through zlib's gzread, which passes plain data through
// unchanged and inflates gzip (also concatenated members), from any file descriptor, so pipes,
// FIFOs and standard input read as streams: nothing here seeks.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "lockstep/error.hpp"
#include "lockstep/io.hpp"
#include "runtime/environment.hpp"

namespace lockstep {

namespace {
// One input opened through zlib (plain data passes through): the refusals every reader shares.
class GzInput {
 public:
  explicit GzInput(const std::string& path) : path_(path) {
    int fd = path == "-" ? dup(STDIN_FILENO) : open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      const int e = errno;
      throw missing_file_error(path + ": cannot open: " + std::strerror(e), path, e);
    }
    if (fstat(fd, &st_) == 0 && S_ISDIR(st_.st_mode)) {
      close(fd);
      throw input_error(path + ": is a directory");
    }
    gz_ = gzdopen(fd, "rb");
    if (!gz_) {
      close(fd);
      throw input_error(path + ": cannot open: out of memory");
    }
    gzbuffer(gz_, 1 << 20);
  }
  ~GzInput() {
    if (gz_) gzclose(gz_);
  }
  GzInput(const GzInput&) = delete;
  GzInput& operator=(const GzInput&) = delete;
  /// The size of a regular file, else 0.
  size_t file_size() const {
    return S_ISREG(st_.st_mode) && st_.st_size > 0 ? size_t(st_.st_size) : 0;
  }
  /// Up to `n` bytes into `buf`; 0 at the end; throws on a read error or corrupt gzip data.
  size_t read(char* buf, unsigned n) {
    const int got = gzread(gz_, buf, n);
    if (got > 0) return size_t(got);
    int code = 0;
    const std::string what = gzerror(gz_, &code);
    const int saved = errno;
    if (got < 0 && code == Z_ERRNO)
      throw input_error(path_ + ": read error: " + std::strerror(saved));
    if (got < 0 || (code != Z_OK && code != Z_STREAM_END))
      throw input_error(path_ + ": corrupt gzip data (" + what + ")");
    return 0;
  }

 private:
  std::string path_;
  struct stat st_ {};
  gzFile gz_ = nullptr;
};
std::string read_whole(const std::string& path);
}  // namespace

std::string read_input(const std::string& path) {
  try {
    return read_whole(path);
  } catch (const std::bad_alloc&) {  // (`ulimit -v` below what the size checks plan for)
    throw input_error(path + ": out of host memory while reading it");
  }
}

namespace {
std::string read_whole(const std::string& path) {
  GzInput in(path);
  std::string text;
  // The text alone may not pass the host memory: checked as it grows, so that a gzip bomb or an
  // endless stream (/dev/zero) stops at the limit instead of at the OOM killer.
  const size_t limit = host_memory_bytes();
  if (in.file_size() > limit) check_host_memory(path, "its content", double(in.file_size()));
  text.reserve(in.file_size());
  char buf[1 << 16];
  while (const size_t n = in.read(buf, sizeof buf)) {
    if (text.size() + n > limit)
      check_host_memory(path, "its content (" + std::to_string(text.size() + n) + " bytes so far)",
                        double(text.size() + n));
    text.append(buf, n);
  }
  return text;
}
}  // namespace

void read_input_blocks(const std::string& path, size_t block,
                       const std::function<void(std::string&)>& each) {
  GzInput in(path);
  block = std::max<size_t>(block, 1 << 16);
  for (;;) {
    std::string b(block, '\0');
    size_t used = 0;
    while (used < block) {
      const size_t n = in.read(&b[used], unsigned(std::min<size_t>(block - used, 1 << 30)));
      if (n == 0) break;
      used += n;
    }
    if (used == 0) return;
    b.resize(used);
    each(b);
    if (used < block) return;
  }
}

namespace {
std::string mib(double bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", bytes / 1048576);
  return buf;
}
}  // namespace

size_t host_memory_bytes() {
  if (const auto mib = env::value("LOCKSTEP_HOST_MEMORY_MIB")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(mib->c_str(), &end, 10);
    if (*end == '\0' && v > 0 && v < (1ull << 40)) return size_t(v) << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  size_t bytes = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : SIZE_MAX;
  struct rlimit lim {};
  if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, size_t(lim.rlim_cur));
  return bytes;
}

void check_host_memory(const std::string& where, const std::string& what, double bytes) {
  const size_t have = host_memory_bytes();
  if (!(bytes <= double(have)))
    throw input_error(where + ": " + what + " needs " + mib(bytes) +
                      " MiB of host memory, more than the " + mib(double(have)) +
                      " MiB this machine has (physical memory, ulimit -v, or "
                      "LOCKSTEP_HOST_MEMORY_MIB)");
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
  // the bytes of a line quoted in `what` escaped: a NUL no longer cuts the message, a control
  // byte or a BOM shows as \xNN
  throw input_error(printable(path_ + ":" + std::to_string(line_ > 0 ? line_ : 1) + ": " + what));
}

}  // namespace lockstep
