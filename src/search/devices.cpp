// A search over several devices of one host (SearchOptions::devices): the database cut into
// contiguous shares of about equal residues, one host thread per device running the one-device
// search of its share (its own queues, packing threads and pinned staging), and the hits merged
// by the search's one ranking, so that the result is the one-device search's. Also the shares
// and the merge that lockstep::mpi's search uses, and the devices `--devices` names.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>
#include <sstream>
#include <thread>

#include "runtime/parallel_errors.hpp"
#include "search/search_impl.hpp"

namespace lockstep {

std::vector<cl::Device> select_devices(const std::string& spec) {
  std::string lower = spec;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "all") {
    std::vector<cl::Device> gpus;
    for (const cl::Device& d : all_devices())
      if (describe(d).is_gpu()) gpus.push_back(d);
    if (gpus.empty()) gpus.push_back(select_device(""));
    return gpus;
  }
  const std::string empty =
      "--devices " + spec + ": an empty item (expected all, or a list such as 0,1)";
  if (spec.empty() || spec.back() == ',') throw input_error(empty);
  std::vector<cl::Device> out;
  std::stringstream s(spec);
  for (std::string item; std::getline(s, item, ',');) {
    if (item.empty()) throw input_error(empty);
    try {
      out.push_back(select_device(item));
    } catch (const device_not_found_error& e) {  // named as given: --devices, not --device
      std::string why = e.what();
      const std::string named = "--device " + item + ": ";
      if (why.rfind(named, 0) == 0) why = why.substr(named.size());
      throw device_not_found_error("--devices " + spec + ": '" + item + "': " + why);
    }
  }
  return out;
}

std::vector<size_t> database_shares(const SequenceSet& db, size_t parts) {
  parts = std::max<size_t>(parts, 1);
  const int64_t total = db.offsets.back();
  std::vector<size_t> bounds(parts + 1, db.size());
  bounds[0] = 0;
  // Share k starts at the first subject whose residues start at or after k/parts of the total.
  for (size_t k = 1; k < parts; ++k) {
    const int64_t at = int64_t(double(total) * double(k) / double(parts));
    const auto it = std::lower_bound(db.offsets.begin(), db.offsets.end() - 1, at);
    bounds[k] = std::max(bounds[k - 1], size_t(it - db.offsets.begin()));
  }
  return bounds;
}

void merge_hits(std::vector<std::vector<SearchHit>>& hits,
                const std::vector<std::vector<SearchHit>>& more, int top) {
  if (hits.size() < more.size()) hits.resize(more.size());
  for (size_t q = 0; q < more.size(); ++q) {
    if (more[q].empty()) continue;
    std::vector<SearchHit> all = std::move(hits[q]);
    all.insert(all.end(), more[q].begin(), more[q].end());
    hits[q] = top_hits(std::move(all), top);
  }
}

SearchResult detail::search_devices(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                                    const Scoring& s, const SearchOptions& o) {
  std::vector<Context*> all{&ctx};
  all.insert(all.end(), o.devices.begin(), o.devices.end());
  for (size_t k = 0; k < all.size(); ++k)
    if (!all[k] || std::find(all.begin(), all.begin() + std::ptrdiff_t(k), all[k]) !=
                       all.begin() + std::ptrdiff_t(k))
      throw input_error(
          "search: devices: each device needs a context of its own (a null or "
          "repeated context, " +
          std::to_string(k) + ")");
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<size_t> bounds = database_shares(db, all.size());
  // The progress of the whole: each share's fraction weighted by its residues.
  std::mutex progress_mutex;
  std::vector<double> done(all.size(), 0.0);
  const double total = std::max<double>(1.0, double(db.offsets.back()));
  std::vector<SearchResult> parts(all.size());
  ParallelErrors errors;
  auto run = [&](size_t k) {
    errors.run([&] {
      SearchOptions share = o;
      share.devices.clear();
      share.progress = nullptr;
      if (o.progress)
        share.progress = [&, k](double f) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          done[k] = f * double(db.offsets[bounds[k + 1]] - db.offsets[bounds[k]]) / total;
          double sum = 0;
          for (double d : done) sum += d;
          o.progress(sum);
        };
      parts[k] = search_range(*all[k], queries, db, s, share, bounds[k], bounds[k + 1]);
    });
  };
  std::vector<std::thread> pool;
  for (size_t k = 1; k < all.size(); ++k)
    if (bounds[k] < bounds[k + 1]) pool.emplace_back(run, k);
  run(0);  // the first share (possibly empty: it sets the result's shape)
  for (auto& th : pool) th.join();
  errors.rethrow();

  SearchResult r = std::move(parts[0]);
  for (size_t k = 1; k < all.size(); ++k) {
    if (bounds[k] == bounds[k + 1]) continue;  // an empty share: not searched
    const SearchResult& p = parts[k];
    merge_hits(r.hits, p.hits, o.top);
    r.cells += p.cells;
    r.recomputed += p.recomputed;
    r.kernel_ms += p.kernel_ms;
    r.batches += p.batches;
    r.dpx = r.dpx && p.dpx;
    r.ends_ms = std::max(r.ends_ms, p.ends_ms);
    r.start_ms = std::max(r.start_ms, p.start_ms);
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace lockstep
