// lockstep::read_keys: the `lockstep sort --input` reader. Text: one number a line through
// LineReader (so errors carry PATH:LINE), surrounding blanks and blank lines allowed, the whole
// remainder of a line must be the number and in range for the key type (a minus sign on an
// unsigned type, a fraction on an integer type, an f32 overflow are errors). Binary: raw
// little-endian values, the size a multiple of the key size. Both are read in blocks, and at most
// 2^30 - 1 keys (the sorts' limit) and the host memory are enforced while reading.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "lockstep/io.hpp"
#include "lockstep/sort.hpp"

namespace lockstep {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

template <typename K>
bool parse_key(const std::string& t, K& out) {
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_same_v<K, double>) {
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || t.empty()) return false;
    if (errno == ERANGE && std::isinf(v)) return false;
    out = v;
  } else if constexpr (std::is_same_v<K, int64_t>) {
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (end != t.c_str() + t.size() || t.empty() || errno == ERANGE) return false;
    out = int64_t(v);
  } else if constexpr (std::is_same_v<K, float>) {
    const float v = std::strtof(t.c_str(), &end);
    if (end != t.c_str() + t.size() || t.empty()) return false;
    if (errno == ERANGE && std::isinf(v)) return false;  // overflow; underflow is fine
    out = v;
  } else if constexpr (std::is_same_v<K, int32_t>) {
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (end != t.c_str() + t.size() || t.empty() || errno == ERANGE) return false;
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
      return false;
    out = int32_t(v);
  } else {
    if (t.empty() || !(std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '+')) return false;
    const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
    if (end != t.c_str() + t.size() || errno == ERANGE) return false;
    if (v > std::numeric_limits<K>::max()) return false;
    out = K(v);
  }
  return true;
}

constexpr size_t kMaxKeys = (size_t(1) << 30) - 1;  // the sorts' limit (n < 2^30)

[[noreturn]] void too_many(const std::string& path) {
  throw input_error(path + ": more than 2^30 - 1 keys, more than lockstep sorts");
}

/// Whether `path` is a regular file of plain (not gzip) data: its size is then its content's.
bool plain_regular_file(const std::string& path, size_t& size) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  unsigned char magic[2] = {};
  const bool gzip = ::read(fd, magic, 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  ::close(fd);
  size = size_t(st.st_size);
  return !gzip;
}

}  // namespace

template <typename K>
std::vector<K> read_keys(const std::string& path, bool binary) {
  // Streamed in blocks: the key count and the host memory are checked as the keys come, so that
  // /dev/zero, /dev/urandom or a gzip bomb stop at the limit (and a plain file past it at once).
  size_t size = 0;
  if (binary && plain_regular_file(path, size)) {
    if (size / sizeof(K) > kMaxKeys) too_many(path);
    check_host_memory(path, "its keys", double(size));
  }
  std::vector<K> keys;
  std::string rest;  // binary: the bytes of a key cut by a block's end; text: a cut line
  size_t line = 0;
  auto take = [&](std::string_view l, size_t at_line) {  // one text line
    const std::string t(trim(l));
    if (t.empty()) return;
    K k{};
    if (!parse_key(t, k)) {
      const std::string shown = t.size() > 40 ? t.substr(0, 40) + "..." : t;
      throw input_error(printable(path + ":" + std::to_string(at_line) + ": '" + shown +
                                  "' is not a " + to_string(key_type_of<K>()) + " key"));
    }
    if (keys.size() == kMaxKeys) too_many(path);
    keys.push_back(k);
  };
  auto grow = [&](size_t more) {
    if (keys.size() + more > kMaxKeys) too_many(path);
    check_host_memory(path, "its keys", double((keys.size() + more) * sizeof(K)));
  };
  read_input_blocks(path, size_t(8) << 20, [&](std::string& b) {
    if (binary) {
      rest += b;
      const size_t n = rest.size() / sizeof(K);
      grow(n);
      const size_t at = keys.size();
      keys.resize(at + n);
      if (n) std::memcpy(keys.data() + at, rest.data(), n * sizeof(K));
      rest.erase(0, n * sizeof(K));
      return;
    }
    rest += b;
    const size_t last = rest.rfind('\n');
    if (last == std::string::npos) {
      if (rest.size() > (size_t(1) << 20))  // no number is that long
        throw input_error(path + ":" + std::to_string(line + 1) + ": a line of more than 1 MiB " +
                          "is not a " + to_string(key_type_of<K>()) + " key");
      return;
    }
    grow(0);
    const std::string whole = rest.substr(0, last + 1);
    rest.erase(0, last + 1);
    LineReader in(path, whole);
    std::string_view l;
    while (in.next(l)) take(l, line + size_t(in.line()));
    line += size_t(in.line());
  });
  if (binary) {
    if (!rest.empty())
      throw input_error(
          path + ": binary input of " + std::to_string(keys.size() * sizeof(K) + rest.size()) +
          " bytes is not a whole number of " + std::to_string(sizeof(K)) + "-byte keys");
    return keys;
  }
  if (!rest.empty()) take(rest, line + 1);  // the last line, without a line break
  return keys;
}

#define LOCKSTEP_READ_KEYS_INSTANTIATE(name, K, code) \
  template std::vector<K> read_keys<K>(const std::string&, bool);
LOCKSTEP_KEY_TYPES(LOCKSTEP_READ_KEYS_INSTANTIATE)

}  // namespace lockstep
