// Occupancy discovery (Sorensen et al., OOPSLA 2016) with the persistent kernel itself: the
// kernel, launched over a grid larger than the device can hold with the state's mode word set,
// runs barrier_discovery() from cl/barrier.cl: groups arriving while the poll is open take a
// ticket and stay alive until group 0 closes it, the rest exit at once. The ticket count is a
// number of groups that were all alive at one instant, so it never over-counts. Results are
// cached per (device, driver, kernel, build options, local size, local memory) in memory and in
// occupancy.json in the lockstep cache directory.
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "cl/contract.h"
#include "lockstep/barrier.hpp"

namespace lockstep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path occupancy_file() {
  const char* off = std::getenv("LOCKSTEP_OCCUPANCY_CACHE");
  if (off && std::string(off) == "0") return {};
  std::string root = cache_directory();
  return root.empty() ? fs::path() : fs::path(root) / "occupancy.json";
}

json read_cache(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return json::object();
  json j = json::parse(in, nullptr, false);
  return j.is_object() ? j : json::object();  // a corrupt file is ignored and rewritten
}

void write_cache(const fs::path& file, const std::string& key, int value) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  json j = read_cache(file);
  j[key] = value;
  fs::path tmp = file;
  tmp += ".tmp" + std::to_string(std::rand());
  { std::ofstream(tmp) << j.dump(1) << "\n"; }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

int discover(Context& ctx, cl::Kernel& kernel, size_t local_size) {
  const DeviceInfo& info = ctx.info();
  // Enough groups to over-fill any device: 2048 resident items per compute unit, doubled.
  size_t groups = std::max<size_t>(4, info.compute_units * std::max<size_t>(1, 4096 / local_size));
  std::vector<int> state(BARRIER_ARRAYS, 0);
  state[BARRIER_MODE] = 1;
  state[BARRIER_PATIENCE] = info.is_gpu() ? 1 << 14 : 1 << 24;  // polls without a new ticket
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

int max_coresident_groups(Context& ctx, cl::Kernel& kernel, size_t local_size, size_t local_mem) {
  static std::mutex mutex;
  static std::map<std::string, int> memory;
  std::string options;
  cl::Program program = kernel.getInfo<CL_KERNEL_PROGRAM>();
  program.getBuildInfo(ctx.device(), CL_PROGRAM_BUILD_OPTIONS, &options);
  std::string key = ctx.info().platform + "|" + ctx.info().name + "|cu=" + std::to_string(ctx.info().compute_units) + "|" + ctx.info().driver_version +
                    "|" + kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() + "|" + options + "|local=" +
                    std::to_string(local_size) + "|lmem=" + std::to_string(local_mem);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = memory.find(key); it != memory.end()) return it->second;
  fs::path file = occupancy_file();
  if (!file.empty()) {
    json j = read_cache(file);
    if (j.contains(key) && j[key].is_number_integer() && j[key].get<int>() > 0)
      return memory[key] = j[key].get<int>();
  }
  int n = discover(ctx, kernel, local_size);
  memory[key] = n;
  if (!file.empty()) write_cache(file, key, n);
  return n;
}

}  // namespace lockstep
