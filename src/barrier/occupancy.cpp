// How many work-groups of one kernel can be co-resident: a spin barrier over more would hang, so
// an over-count is never served.
//
// CPU devices (CL_DEVICE_TYPE_CPU) run each work-group to its end on one worker thread and have
// one thread per compute unit (PoCL: POCL_MAX_PTHREAD_COUNT lowers both): the answer is the
// compute-unit count, decided without timing and not stored.
//
// GPUs: occupancy discovery (Sorensen et al., OOPSLA 2016) with the persistent kernel itself:
// the kernel, launched over a grid larger than the device can hold with the state's mode word
// set, runs barrier_discovery() from cl/barrier.cl: groups arriving while the poll is open take a
// ticket and stay alive until group 0 closes it, the rest exit at once. The ticket count is a
// number of groups that were all alive at one instant, so it never over-counts, but a busy moment
// can make it under-count. Hence every process measures (one launch) and serves the largest count
// it measured itself, never a number read from disk; a count below the compute units (every CU
// holds at least one group of a launchable kernel) or below the count occupancy.json holds is
// measured again with 4x the patience, up to 4 times. occupancy.json (in the cache root, off with
// LOCKSTEP_DISK_CACHE=0) keeps only confirmed counts: reaching the compute units, or measured
// twice; it is the expectation that decides re-measuring, so a poisoned entry costs at most the
// re-measurements and is then replaced.
#include "barrier/occupancy.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "cl/contract.h"
#include "lockstep/barrier.hpp"
#include "runtime/disk_cache.hpp"

namespace lockstep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kMeasurements = 4;  // at most, per kernel and process

fs::path occupancy_file() {
  fs::path root = disk_cache::folder();
  return root.empty() ? fs::path() : root / "occupancy.json";
}

json read_cache(const fs::path& file) {
  auto text = disk_cache::read(file);
  if (!text) return json::object();
  json j = json::parse(*text, nullptr, false);
  return j.is_object() ? j : json::object();  // a corrupt file is ignored and rewritten
}

// The confirmed count stored under `key`, or 0 (none, or an entry of the old bare-number form,
// which was written after one measurement).
int cached_count(const json& j, const std::string& key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return 0;
  auto c = it->find("count");
  return c != it->end() && c->is_number_integer() ? std::max(0, c->get<int>()) : 0;
}

void write_cache(const fs::path& file, const std::string& key, int value, int measurements) {
  json j = read_cache(file);  // re-read: another process may have added entries meanwhile
  char date[32];
  std::time_t t = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  j[key] = {{"count", value}, {"measurements", measurements}, {"date", date}};
  disk_cache::store_or_warn(file, j.dump(1) + "\n", "occupancy cache " + file.string());
}

int discover(Context& ctx, cl::Kernel& kernel, size_t local_size, int patience) {
  const DeviceInfo& info = ctx.info();
  // Enough groups to over-fill any device: 2048 resident items per compute unit, doubled.
  size_t groups = std::max<size_t>(4, info.compute_units * std::max<size_t>(1, 4096 / local_size));
  std::vector<int> state(BARRIER_ARRAYS, 0);
  state[BARRIER_MODE] = 1;
  state[BARRIER_PATIENCE] = patience;  // polls without a new ticket
  cl::Buffer buf = upload(ctx.queue(), state);
  set_arg(kernel, 0, buf);
  launch(ctx.queue(), kernel, groups * local_size, local_size);
  int count = download<int>(ctx.queue(), buf, BARRIER_ARRAYS)[BARRIER_POLL_COUNT];
  if (count < 1 || size_t(count) > groups)
    throw opencl_error("occupancy discovery (ticket count " + std::to_string(count) + ")",
                       CL_INVALID_VALUE);
  return count;
}

}  // namespace

namespace occupancy {

std::string cache_key(Context& ctx, cl::Kernel& kernel, size_t local_size, size_t local_mem) {
  std::string options;
  cl::Program program = kernel.getInfo<CL_KERNEL_PROGRAM>();
  program.getBuildInfo(ctx.device(), CL_PROGRAM_BUILD_OPTIONS, &options);
  std::string device = disk_cache::device_key(ctx.info());
  for (char& c : device)
    if (c == '\n') c = '|';
  return device + "|" + kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() + "|" + options +
         "|local=" + std::to_string(local_size) + "|lmem=" + std::to_string(local_mem);
}

int census(Context& ctx, cl::Kernel& kernel, size_t local_size, const std::string& key) {
  const int units = int(ctx.info().compute_units);
  fs::path file = occupancy_file();
  const int expected = file.empty() ? 0 : cached_count(read_cache(file), key);
  int patience = ctx.info().is_gpu() ? 1 << 14 : 1 << 24;
  int best = 0, seen = 0, measured = 0;
  while (measured < kMeasurements) {
    int n = discover(ctx, kernel, local_size, patience);
    ++measured;
    if (n > best)
      best = n, seen = 1;
    else if (n == best)
      ++seen;
    if (best >= std::max(units, expected)) break;  // all that the device is known to allow
    if (best >= units && seen >= 2) break;         // below occupancy.json's count, twice
    patience = patience > (1 << 28) ? patience : patience * 4;
  }
  bool confirmed = best >= units || seen >= 2;
  if (!file.empty() && confirmed && best != expected) write_cache(file, key, best, measured);
  return best;
}

}  // namespace occupancy

int max_coresident_groups(Context& ctx, cl::Kernel& kernel, size_t local_size, size_t local_mem) {
  static std::mutex mutex;
  static std::map<std::string, int> memory;
  std::string key = occupancy::cache_key(ctx, kernel, local_size, local_mem);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = memory.find(key); it != memory.end()) return it->second;
  int n = ctx.info().type == "CPU" ? int(ctx.info().compute_units)
                                   : occupancy::census(ctx, kernel, local_size, key);
  return memory[key] = n;
}

}  // namespace lockstep
