// OutputFile: every output file lockstep writes goes through here (see io.hpp). The bytes go
// through a small buffer straight to a file descriptor, so a failed write(2) or close(2) is
// seen with its errno (ENOSPC from /dev/full, EFBIG past `ulimit -f`) instead of a stream's bare
// failbit. A regular destination gets a temporary file in its own directory (the rename stays on
// one file system and is atomic), created with mode 0666 under the umask, or with the old file's
// mode when it replaces one; symbolic links are followed, so the link stays a link.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#include "lockstep/error.hpp"
#include "lockstep/io.hpp"

namespace lockstep {
namespace {

/// A write-only stream buffer over a file descriptor that remembers the first errno.
class FdBuf : public std::streambuf {
 public:
  FdBuf(int fd, bool is_stdout) : fd_(fd), stdout_(is_stdout), buf_(1 << 16) { reset(); }
  int error() const { return err_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  void reset() { setp(buf_.data(), buf_.data() + buf_.size()); }
  bool drain() {
    const char* p = pbase();
    size_t left = size_t(pptr() - pbase());
    reset();
    if (err_) return false;
    if (stdout_ && left) std::cout.flush(), std::fflush(stdout);  // keep stdout's order
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        err_ = n < 0 ? errno : EIO;
        return false;
      }
      p += n, left -= size_t(n);
    }
    return true;
  }

  int fd_;
  bool stdout_;
  int err_ = 0;
  std::vector<char> buf_;
};

[[noreturn]] void fail(const std::string& path, int err) {
  throw input_error(path + ": cannot write: " + std::strerror(err));
}

}  // namespace

struct OutputFile::Impl {
  int fd = -1;
  std::string temp;  // the temporary file; empty when writing directly
  std::string dest;  // what the temporary file is renamed over (symbolic links resolved)
  std::unique_ptr<FdBuf> buf;
  std::ostream out{nullptr};
  bool finished = false, committed = false;
};

OutputFile::OutputFile(std::string path) : path_(std::move(path)), impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  bool to_stdout = false;
  struct stat st {};
  if (path_ == "-") {
    m.fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
    to_stdout = true;
  } else {
    const bool exists = ::stat(path_.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) fail(path_, errno);  // ENOTDIR, EACCES, ...
    if (exists && S_ISDIR(st.st_mode)) throw input_error(path_ + ": is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
      m.fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);  // a device, FIFO or socket: directly
      if (m.fd < 0) fail(path_, errno);
    } else {
      open_temporary(exists, st.st_mode);
    }
  }
  if (m.fd < 0) fail(path_, errno);
  m.buf = std::make_unique<FdBuf>(m.fd, to_stdout);
  m.out.rdbuf(m.buf.get());
}

void OutputFile::open_temporary(bool replaces, unsigned mode) {
  Impl& m = *impl_;
  if (replaces) {
    if (::access(path_.c_str(), W_OK) != 0) fail(path_, errno);  // a read-only file stays
    char real[PATH_MAX];
    m.dest = ::realpath(path_.c_str(), real) ? real : path_;
  } else {
    m.dest = path_;
  }
  const size_t slash = m.dest.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : m.dest.substr(0, slash + 1);
  const std::string base = m.dest.substr(slash == std::string::npos ? 0 : slash + 1);
  std::random_device rd;
  for (int tries = 0; m.fd < 0 && tries < 100; ++tries) {
    m.temp = dir + "." + base + ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(rd());
    m.fd = ::open(m.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (m.fd < 0 && errno != EEXIST) break;
  }
  if (m.fd < 0) {
    const int err = errno;
    m.temp.clear();
    fail(path_, err);
  }
  if (replaces) ::fchmod(m.fd, mode & 07777);
}

OutputFile::~OutputFile() {
  if (impl_->fd >= 0) ::close(impl_->fd);
  if (!impl_->committed && !impl_->temp.empty()) ::unlink(impl_->temp.c_str());
}

std::ostream& OutputFile::stream() { return impl_->out; }

void OutputFile::finish() {
  Impl& m = *impl_;
  if (m.finished) return;
  m.finished = true;
  m.out.flush();
  int err = m.buf->error();
  if (!err && !m.out) err = EIO;
  if (::close(m.fd) != 0 && !err) err = errno;
  m.fd = -1;
  if (err) fail(path_, err);  // the destructor removes the temporary file
}

void OutputFile::commit() {
  finish();
  Impl& m = *impl_;
  if (m.committed) return;
  if (!m.temp.empty() && ::rename(m.temp.c_str(), m.dest.c_str()) != 0) fail(path_, errno);
  m.committed = true;
}

void write_output(const std::string& path, std::string_view text) {
  OutputFile f(path);
  f.stream().write(text.data(), std::streamsize(text.size()));
  f.commit();
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

}  // namespace lockstep
