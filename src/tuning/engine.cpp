// The tuning engine: enumeration of a family's declared space, the search (exhaustive or
// model-led climb), verification of every candidate, the store, and the process's copy of the
// database that choose() reads.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "lockstep/tuning.hpp"

namespace lockstep::tuning {
namespace {

using Clock = std::chrono::steady_clock;

// The process's databases, one per file (tests and users may point LOCKSTEP_TUNING_DB elsewhere).
std::mutex mutex;
std::map<std::string, std::shared_ptr<const TuningDb>>& loaded() {
  static std::map<std::string, std::shared_ptr<const TuningDb>> m;
  return m;
}

std::shared_ptr<const TuningDb> shared(const DeviceInfo& device) {
  const std::string path = TuningDb::path_for(device);
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = loaded()[path];
  if (!slot) slot = std::make_shared<const TuningDb>(device);
  return slot;
}

bool better(const Measured& a, const Measured& b) {
  return a.verified && (!b.verified || a.ms < b.ms);
}

void product(const Space& space, size_t i, Params& p, std::vector<Params>& out) {
  if (i == space.size()) return out.push_back(p);
  for (const auto& v : space[i].values) {
    p[space[i].name] = v;
    product(space, i + 1, p, out);
  }
  p.erase(space[i].name);
}

}  // namespace

Defines Family::defines(const Params& p) const {
  Defines d;
  for (auto it = p.begin(); it != p.end(); ++it)
    if (it.value().is_number_integer()) {
      std::string macro = it.key();
      std::transform(macro.begin(), macro.end(), macro.begin(), ::toupper);
      d.set(macro, it.value().get<long long>());
    }
  return d;
}

const Measured* Outcome::find(const Params& p) const {
  for (const Measured& m : candidates)
    if (m.params == p) return &m;
  return nullptr;
}

std::vector<Params> enumerate(const Family& family) {
  return enumerate(family.spaces(), [&](const Params& p) { return family.valid(p); });
}

std::vector<Params> enumerate(const std::vector<Space>& spaces,
                              const std::function<bool(const Params&)>& valid) {
  std::vector<Params> all, out;
  for (const Space& s : spaces) {
    Params p = Params::object();
    product(s, 0, p, all);
  }
  std::set<std::string> seen;
  for (Params& p : all)
    if (valid(p) && seen.insert(p.dump()).second) out.push_back(std::move(p));
  return out;
}

Outcome tune(Context& ctx, Family& family, const Options& o) {
  Outcome res;
  res.family = family.name();
  res.key = family.key();
  const std::vector<Params> space = o.candidates.empty() ? enumerate(family) : o.candidates;
  res.search_space = space.size();
  const bool climb = o.candidates.empty() && !o.exhaustive;
  // The model-led search times at most a quarter of the space, whatever timing noise does to
  // the climb (plus the seeds); the exhaustive search times all of it.
  const size_t limit = !climb    ? space.size() + family.seeds().size()
                       : o.limit ? o.limit
                                 : std::max<size_t>(3, space.size() / 4);
  const auto start = Clock::now();
  auto out_of_time = [&] {
    return climb && o.budget_s > 0 &&
           std::chrono::duration<double>(Clock::now() - start).count() > o.budget_s;
  };
  std::set<std::string> seen;
  auto measure = [&](const Params& p) {
    if (res.candidates.size() >= limit || !family.valid(p) || !seen.insert(p.dump()).second) return;
    Measured m;
    m.params = p;
    try {
      m.ms = family.run(p);
    } catch (const input_error&) {
      return;  // a candidate this device cannot serve
    }
    const Verdict v = family.check(p);
    m.verified = v.ok && std::isfinite(m.ms);
    m.error = v.error;
    m.metrics = family.metrics(p, m.ms);
    res.candidates.push_back(m);
    if (o.progress) o.progress(res.candidates.size(), climb ? 0 : space.size(), m);
  };
  auto best_of = [&]() -> const Measured* {
    auto it = std::min_element(res.candidates.begin(), res.candidates.end(), better);
    return it == res.candidates.end() ? nullptr : &*it;
  };

  for (const Params& p : family.seeds())
    if (o.candidates.empty()) measure(p);
  if (!climb) {
    for (const Params& p : space) measure(p);
  } else {
    for (bool improved = true; improved && !out_of_time();) {
      const Measured* b = best_of();
      if (!b) break;
      const Params current = b->params;
      for (const Params& n : family.neighbours(current)) {
        if (out_of_time()) break;
        measure(n);
      }
      improved = best_of()->params != current;
    }
  }
  const Measured* b = best_of();
  if (!b || !b->verified)
    throw input_error("tune " + res.family + " " + res.key + ": no candidate verified on " +
                      ctx.info().name);
  res.best = *b;
  if (o.store) {
    nlohmann::json metrics = res.best.metrics;
    metrics["ms"] = res.best.ms;
    metrics["candidates"] = res.candidates.size();
    res.stored =
        store(ctx.info(), {res.family, res.key, family.features(), res.best.params, metrics, ""});
  }
  return res;
}

std::shared_ptr<const TuningDb> database(const DeviceInfo& device) { return shared(device); }

bool store(const DeviceInfo& device, const TuningEntry& entry) {
  auto fresh = std::make_shared<TuningDb>(device);  // what other processes wrote meanwhile
  const bool stored = fresh->store(entry);
  std::lock_guard<std::mutex> lock(mutex);
  loaded()[TuningDb::path_for(device)] = std::move(fresh);  // the key shared() looks up
  return stored;
}

std::optional<Params> choose(const DeviceInfo& device, const std::string& family,
                             const std::string& key, bool nearest) {
  const std::shared_ptr<const TuningDb> db = shared(device);
  if (auto e = db->find(family, key)) return e->params;
  if (!nearest) return std::nullopt;
  auto split = [](const std::string& k) {
    size_t i = k.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(k[i - 1]))) --i;
    return std::make_pair(k.substr(0, i), i < k.size() ? std::atoll(k.c_str() + i) : -1LL);
  };
  const auto [prefix, want] = split(key);
  std::optional<Params> best;
  long long dist = -1;
  for (const TuningEntry& e : db->entries(family)) {
    const auto [p, n] = split(e.key);
    if (p != prefix || n < 0) continue;
    if (dist < 0 || std::llabs(n - want) < dist) dist = std::llabs(n - want), best = e.params;
  }
  return best;
}

int get_int(const Params& p, const std::string& name, int fallback) {
  auto it = p.find(name);
  return it != p.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

const nlohmann::json* find(const Params& p, const std::string& name, const std::string& old_name) {
  if (auto it = p.find(name); it != p.end()) return &*it;
  auto it = p.find(old_name);
  if (it == p.end()) return nullptr;
  static std::mutex said_mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(said_mutex);
  if (said.insert(old_name).second)
    std::cerr << "lockstep: tuning parameter '" << old_name << "' is deprecated, use '" << name
              << "'\n";
  return &*it;
}

std::string str(const Params& p) {
  std::string s;
  for (auto it = p.begin(); it != p.end(); ++it)
    s += (s.empty() ? "" : " ") + it.key() + "=" +
         (it->is_string() ? it->get<std::string>() : it->dump());
  return s;
}

}  // namespace lockstep::tuning
