// The CLI vocabulary (see vocabulary.hpp).
#include "vocabulary.hpp"

#include <ostream>

#include "lockstep/barrier.hpp"

namespace lockstep::cli {

std::string join(const std::vector<std::string>& names, const std::string& sep) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : sep) + n;
  return out;
}

std::vector<std::string> barrier_names(bool with_auto) {
  std::vector<std::string> out;
  if (with_auto) out.emplace_back("auto");
  for (Barrier s : all_barriers()) out.push_back(to_string(s));
  return out;
}

void add_algorithm_option(po::options_description& opts, const std::vector<std::string>& names,
                          const std::string& def, const std::string& note) {
  opts.add_options()("algorithm", po::value<std::string>()->default_value(def),
                     (join(names) + (note.empty() ? "" : " " + note)).c_str());
}

void add_barrier_option(po::options_description& opts, const std::string& what,
                        const std::vector<std::string>& names, const std::string& def) {
  opts.add_options()("barrier", po::value<std::string>()->default_value(def),
                     (what + ": " + join(names)).c_str());
}

void add_local_size_option(po::options_description& opts, po::value_semantic* value,
                           const std::string& help) {
  opts.add_options()("local-size", value, help.c_str());
}

Deprecated& Deprecated::alias(const std::string& old_name, const std::string& new_name,
                              po::value_semantic* value, Convert convert) {
  hidden_.add_options()(old_name.c_str(), value ? value : po::value<std::string>(),
                        ("deprecated: use --" + new_name).c_str());
  aliases_.push_back({old_name, new_name, std::move(convert)});
  return *this;
}

void Deprecated::resolve(po::variables_map& vm, std::ostream& warn) const {
  for (const Alias& a : aliases_) {
    if (!vm.count(a.old_name)) continue;
    warn << "lockstep: --" << a.old_name << " is deprecated, use --" << a.new_name << "\n";
    if (vm.count(a.new_name) && !vm[a.new_name].defaulted())
      throw po::error("--" + a.old_name + " is the deprecated spelling of --" + a.new_name +
                      ": give only --" + a.new_name);
    const po::variable_value& old = vm[a.old_name];
    po::variable_value moved(a.convert ? a.convert(old.value()) : old.value(), false);
    vm.erase(a.new_name);
    vm.insert({a.new_name, moved});
  }
}

}  // namespace lockstep::cli
