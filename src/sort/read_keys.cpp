// lockstep::read_keys: the `lockstep sort --input` reader. Text: one number a line through
// LineReader (so errors carry PATH:LINE), surrounding blanks and blank lines allowed, the whole
// remainder of a line must be the number and in range for the key type (a minus sign on an
// unsigned type, a fraction on an integer type, an f32 overflow are errors). Binary: raw
// little-endian values, the size a multiple of the key size.
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

}  // namespace

template <typename K>
std::vector<K> read_keys(const std::string& path, bool binary) {
  const std::string text = read_input(path);
  std::vector<K> keys;
  if (binary) {
    if (text.size() % sizeof(K))
      throw input_error(path + ": binary input of " + std::to_string(text.size()) +
                        " bytes is not a whole number of " + std::to_string(sizeof(K)) +
                        "-byte keys");
    keys.resize(text.size() / sizeof(K));
    if (!keys.empty()) std::memcpy(keys.data(), text.data(), text.size());
    return keys;
  }
  LineReader in(path, text);
  std::string_view line;
  while (in.next(line)) {
    const std::string t(trim(line));
    if (t.empty()) continue;
    K k{};
    if (!parse_key(t, k)) {
      const std::string shown = t.size() > 40 ? t.substr(0, 40) + "..." : t;
      in.fail("'" + shown + "' is not a " + to_string(key_type_of<K>()) + " key");
    }
    keys.push_back(k);
  }
  return keys;
}

#define LOCKSTEP_READ_KEYS_INSTANTIATE(name, K, code) \
  template std::vector<K> read_keys<K>(const std::string&, bool);
LOCKSTEP_KEY_TYPES(LOCKSTEP_READ_KEYS_INSTANTIATE)

}  // namespace lockstep
