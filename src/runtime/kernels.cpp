// Kernel sources and build options. Sources come from the registry that CMake generates from
// cl/*.cl, or from LOCKSTEP_KERNEL_DIR when set (kernel development without a rebuild).
// `#include "name.cl"` lines are resolved here, from the same place, once per file, so that
// every persistent kernel can include the one barrier file.
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "lockstep/runtime.hpp"
#include "runtime/environment.hpp"

namespace lockstep {
namespace detail {
const std::map<std::string, std::string_view>& embedded_kernels();  // generated
}

namespace {

std::string raw_source(const std::string& file) {
  if (const auto dir = env::value("LOCKSTEP_KERNEL_DIR")) {
    std::ifstream in(*dir + "/" + file, std::ios::binary);
    if (!in) throw input_error("LOCKSTEP_KERNEL_DIR=" + *dir + ": cannot read " + file);
    std::ostringstream s;
    s << in.rdbuf();
    if (s.str().find_first_not_of(" \t\r\n") == std::string::npos)
      throw input_error("LOCKSTEP_KERNEL_DIR=" + *dir + ": " + file +
                        " is empty (unset LOCKSTEP_KERNEL_DIR to use the built-in kernels)");
    return s.str();
  }
  auto& reg = detail::embedded_kernels();
  auto it = reg.find(file);
  if (it == reg.end()) throw input_error("no kernel file named " + file + " in cl/");
  return std::string(it->second);
}

void resolve(const std::string& file, std::set<std::string>& seen, std::string& out) {
  if (!seen.insert(file).second) return;
  std::istringstream in(raw_source(file));
  std::string line;
  int n = 0;
  out += "#line 1 \"" + file + "\"\n";
  while (std::getline(in, line)) {
    ++n;
    auto p = line.find_first_not_of(" \t");
    if (p != std::string::npos && line.compare(p, 8, "#include") == 0) {
      auto a = line.find('"', p), b = line.find('"', a + 1);
      if (a != std::string::npos && b != std::string::npos) {
        resolve(line.substr(a + 1, b - a - 1), seen, out);
        out += "#line " + std::to_string(n + 1) + " \"" + file + "\"\n";
        continue;
      }
    }
    out += line;
    out += '\n';
  }
}

}  // namespace

std::string kernel_source(const std::string& file) {
  // Embedded sources never change: resolve each once (every kernel() call on a solver's hot
  // path asks for its source). Files under LOCKSTEP_KERNEL_DIR are re-read every time.
  const bool embedded = !env::value("LOCKSTEP_KERNEL_DIR");
  static std::mutex m;
  static std::map<std::string, std::string> resolved;
  if (embedded) {
    std::lock_guard<std::mutex> lock(m);
    if (auto it = resolved.find(file); it != resolved.end()) return it->second;
  }
  std::set<std::string> seen;
  std::string out;
  resolve(file, seen, out);
  if (embedded) {
    std::lock_guard<std::mutex> lock(m);
    resolved.emplace(file, out);
  }
  return out;
}

Defines& Defines::set(const std::string& name, long long value) {
  values_[name] = std::to_string(value);
  return *this;
}
Defines& Defines::set(const std::string& name, const std::string& value) {
  values_[name] = value;
  return *this;
}
Defines& Defines::flag(const std::string& option) {
  flags_.push_back(option);
  return *this;
}
std::string Defines::options() const {
  std::string o;
  for (auto& [k, v] : values_) o += (o.empty() ? "" : " ") + std::string("-D ") + k + "=" + v;
  for (auto& f : flags_) o += (o.empty() ? "" : " ") + f;
  return o;
}

template <>
Defines& set_value_type<float>(Defines& d) {
  return d.set("VALUE_TYPE", "float");
}
template <>
Defines& set_value_type<double>(Defines& d) {
  return d.set("VALUE_TYPE", "double").set("LOCKSTEP_FP64", 1);
}

}  // namespace lockstep
