// Outputs: the same-file checks and the one commit of a command's outputs (see output.hpp).
#include "output.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "lockstep/runtime.hpp"
#include "runtime/environment.hpp"

namespace lockstep::cli {
namespace {

/// Whether writing `out` would overwrite the file `other` names: an existing regular file, or
/// (when `other` is an output too) the same new path. `-`, devices and FIFOs are streams.
bool clash(const std::string& out, const std::string& other, bool other_is_output) {
  if (other_is_output && out == "-" && other == "-") return true;  // one stream, two outputs
  if ((out == "-" || other == "-") && !other_is_output) return false;
  // `-` is standard output: /dev/stdout, or the file or pipe it is, is the same output
  auto status = [](const std::string& p, struct stat& st) {
    return p == "-" ? ::fstat(STDOUT_FILENO, &st) == 0 : ::stat(p.c_str(), &st) == 0;
  };
  struct stat so {
  }, st{};
  const bool out_exists = status(out, so), other_exists = status(other, st);
  const bool same = out_exists && other_exists && so.st_dev == st.st_dev && so.st_ino == st.st_ino;
  if (other_is_output && same)  // two outputs into one file, FIFO, pipe or terminal (not /dev/null)
    return !(S_ISCHR(so.st_mode) && so.st_rdev == makedev(1, 3));
  if (out == "-" || other == "-") return false;
  if (out_exists && other_exists) return S_ISREG(so.st_mode) && same;
  if (out_exists || other_exists || !other_is_output) return false;
  std::error_code e1, e2;  // two new paths: the same name once normalised
  const auto a = std::filesystem::weakly_canonical(std::filesystem::absolute(out), e1);
  const auto b = std::filesystem::weakly_canonical(std::filesystem::absolute(other), e2);
  return !e1 && !e2 && a == b;
}

/// The tuning database `out` would replace, or "": LOCKSTEP_TUNING_DB, or a file in the default
/// database folder (the cache root's tuning/).
std::string database_named_by(const std::string& out) {
  if (out == "-") return {};
  if (const auto db = env::value("LOCKSTEP_TUNING_DB"))
    return clash(out, *db, true) ? "LOCKSTEP_TUNING_DB=" + *db : std::string();
  namespace fs = std::filesystem;
  std::error_code e1, e2;
  const auto file = fs::weakly_canonical(fs::absolute(out), e1);
  if (e1 || file.parent_path().filename() != "tuning") return {};  // (no cache lookup needed)
  if (env::disk_cache_off()) return {};
  const std::string root = cache_directory();
  if (root.empty()) return {};
  const auto dir = fs::weakly_canonical(fs::path(root) / "tuning", e2);
  return !e2 && file.parent_path() == dir ? dir.string() : std::string();
}

}  // namespace

Outputs::Outputs(const po::variables_map& vm, const std::vector<std::string>& outputs,
                 const std::vector<InputOption>& inputs) {
  if (const auto db = env::value("LOCKSTEP_TUNING_DB"))  // it is written by `tune`: never an input
    for (const InputOption& in : inputs)
      if (vm.count(in.option) && clash(*db, vm[in.option].as<std::string>(), false))
        throw usage_error("LOCKSTEP_TUNING_DB=" + *db + " is the same file as " + in.label + " " +
                          vm[in.option].as<std::string>() + ": refusing to overwrite an input");
  std::vector<std::pair<std::string, std::string>> given;  // (option, path)
  for (const std::string& o : outputs)
    if (vm.count(o)) given.emplace_back(o, vm[o].as<std::string>());
  for (size_t i = 0; i < given.size(); ++i) {
    const auto& [o, path] = given[i];
    if (path.empty()) throw usage_error("--" + o + ": the path is empty");
    if (std::string db = database_named_by(path); !db.empty())
      throw usage_error("--" + o + " " + path + " is the tuning database (" + db +
                        "): refusing to overwrite it");
    for (const InputOption& in : inputs)
      if (vm.count(in.option) && clash(path, vm[in.option].as<std::string>(), false))
        throw usage_error("--" + o + " " + path + " is the same file as " + in.label + " " +
                          vm[in.option].as<std::string>() + ": refusing to overwrite an input");
    for (size_t k = 0; k < i; ++k)
      if (clash(path, given[k].second, true))
        throw usage_error("--" + o + " " + path + " is the same file as --" + given[k].first + " " +
                          given[k].second);
  }
  bool to_stdout = false;
  for (const auto& [o, path] : given) {
    files_.emplace_back(o, std::make_unique<OutputFile>(path));
    to_stdout = to_stdout || path == "-";
  }
  // `--json -`: standard output carries that output only (`| jq` reads it); the key=value lines
  // and anything else the command prints go to standard error. The OutputFile above holds its
  // own copy of the descriptor.
  if (to_stdout) {
    std::cout.flush();
    std::fflush(stdout);
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
  }
}

bool Outputs::has(const std::string& option) const {
  for (const auto& f : files_)
    if (f.first == option) return true;
  return false;
}

std::ostream& Outputs::operator[](const std::string& option) {
  for (auto& f : files_)
    if (f.first == option) return f.second->stream();
  throw std::logic_error("output --" + option + " was not given");
}

void Outputs::json(const std::string& option, const nlohmann::json& j, int indent) {
  // A string that is no UTF-8 (a path given with such bytes) gets U+FFFD there, not a throw.
  if (has(option))
    (*this)[option] << j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void Outputs::commit() {
  for (auto& f : files_) f.second->finish();
  for (auto& f : files_) f.second->commit();
}

}  // namespace lockstep::cli
