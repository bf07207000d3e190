// OutputFile: every output file lockstep writes goes through here (see io.hpp). The bytes go
// through a small buffer straight to a file descriptor, so a failed write(2) or close(2) is
// seen with its errno (ENOSPC from /dev/full, EFBIG past `ulimit -f`) instead of a stream's bare
// failbit. A regular destination gets a temporary file in its own directory (the rename stays on
// one file system and is atomic), created with mode 0666 under the umask, or with the old file's
// mode when it replaces one; symbolic links are followed, so the link stays a link. The
// temporary is created only when the first bytes leave the buffer (for most outputs: when the
// result is complete), and while it exists it is registered with io/temporaries.hpp, so that
// SIGINT, SIGTERM or SIGHUP leaves no hidden .NAME.tmpPID-N file behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>
#include <vector>

#include "io/temporaries.hpp"
#include "lockstep/error.hpp"
#include "lockstep/io.hpp"

namespace lockstep {
namespace {

/// A write-only stream buffer over a file descriptor that remembers the first errno.
class FdBuf : public std::streambuf {
 public:
  /// `open` gives the descriptor when the first bytes are written (fd < 0 until then).
  FdBuf(int fd, bool is_stdout, std::function<int()> open)
      : fd_(fd), stdout_(is_stdout), open_(std::move(open)), buf_(1 << 16) {
    reset();
  }
  int error() const { return err_; }
  /// The descriptor, opened now if no byte was written yet (an empty output); -1 on failure.
  int fd() {
    if (fd_ < 0 && !err_) {
      fd_ = open_();
      if (fd_ < 0) err_ = errno;
    }
    return fd_;
  }

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
    if (left && fd() < 0) return false;
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
  std::function<int()> open_;
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
  bool replaces = false;
  unsigned mode = 0;
  int slot = -1;  // the temporary's registration (io/temporaries.hpp)
  std::unique_ptr<FdBuf> buf;
  std::ostream out{nullptr};
  bool finished = false, committed = false;
};

OutputFile::OutputFile(std::string path) : path_(std::move(path)), impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  bool to_stdout = false;
  struct stat st {};
  if (path_.empty()) throw input_error("output path is empty: cannot write");
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
      plan_temporary(exists, st.st_mode);
    }
  }
  if (m.fd < 0 && m.dest.empty()) fail(path_, errno);
  m.buf = std::make_unique<FdBuf>(m.fd, to_stdout, [this] { return open_temporary(); });
  m.out.rdbuf(m.buf.get());
}

void OutputFile::plan_temporary(bool replaces, unsigned mode) {
  Impl& m = *impl_;
  m.replaces = replaces, m.mode = mode;
  if (replaces) {
    if (::access(path_.c_str(), W_OK) != 0) fail(path_, errno);  // a read-only file stays
    char real[PATH_MAX];
    m.dest = ::realpath(path_.c_str(), real) ? real : path_;
  } else {
    m.dest = path_;
  }
  // The folder must take a new file now, so that a bad path fails before the work.
  const size_t slash = m.dest.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : m.dest.substr(0, slash + 1);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail(path_, errno);
}

int OutputFile::open_temporary() {
  Impl& m = *impl_;
  const size_t slash = m.dest.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : m.dest.substr(0, slash + 1);
  const std::string base = m.dest.substr(slash == std::string::npos ? 0 : slash + 1);
  std::random_device rd;
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 100; ++tries) {
    m.temp = dir + "." + base + ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(rd());
    m.slot = temporaries::add(m.temp);  // before it exists: a signal now finds nothing to remove
    fd = ::open(m.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) break;
    const int err = errno;
    temporaries::remove(m.slot), m.slot = -1;
    errno = err;
    if (err != EEXIST) break;
  }
  if (fd < 0) {
    const int err = errno;
    m.temp.clear();
    errno = err;
    return -1;
  }
  if (m.replaces) ::fchmod(fd, m.mode & 07777);
  return m.fd = fd;
}

OutputFile::~OutputFile() {
  if (impl_->fd >= 0) ::close(impl_->fd);
  if (!impl_->committed && !impl_->temp.empty()) ::unlink(impl_->temp.c_str());
  temporaries::remove(impl_->slot);
}

std::ostream& OutputFile::stream() { return impl_->out; }

void OutputFile::finish() {
  Impl& m = *impl_;
  if (m.finished) return;
  m.finished = true;
  m.out.flush();
  int err = m.buf->error();
  if (!err && !m.out) err = EIO;
  if (!err && m.buf->fd() < 0) err = m.buf->error();  // nothing written: the empty file now
  if (m.fd >= 0 && ::close(m.fd) != 0 && !err) err = errno;
  m.fd = -1;
  if (err) fail(path_, err);  // the destructor removes the temporary file
}

void OutputFile::commit() {
  finish();
  Impl& m = *impl_;
  if (m.committed) return;
  if (!m.temp.empty() && ::rename(m.temp.c_str(), m.dest.c_str()) != 0) fail(path_, errno);
  m.committed = true;
  temporaries::remove(m.slot), m.slot = -1;
}

void write_output(const std::string& path, std::string_view text) {
  OutputFile f(path);
  f.stream().write(text.data(), std::streamsize(text.size()));
  f.commit();
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

}  // namespace lockstep
