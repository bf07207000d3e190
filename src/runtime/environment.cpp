// The table of LOCKSTEP_* variables (see environment.hpp) and their readers.
#include "runtime/environment.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <stdexcept>

#include "lockstep/error.hpp"
#include "lockstep/io.hpp"

namespace lockstep::env {
namespace {

bool zero_or_one(const std::string& v) { return v == "0" || v == "1"; }
bool dpx_level(const std::string& v) { return v == "0" || v == "1" || v == "2"; }
/// A whole number in [lo, hi], digits only.
bool whole(const std::string& v, unsigned long long lo, unsigned long long hi) {
  if (v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const unsigned long long n = std::stoull(v);
  return n >= lo && n <= hi;
}
bool mib(const std::string& v) { return whole(v, 1, (1ull << 40) - 1); }
bool rank(const std::string& v) { return whole(v, 0, 1u << 20); }
/// A device list: items separated by commas, none empty.
bool device_list(const std::string& v) {
  return v.front() != ',' && v.back() != ',' && v.find(",,") == std::string::npos;
}

}  // namespace

const std::vector<Variable>& variables() {
  static const std::vector<Variable> table{
      {"LOCKSTEP_DEVICE",
       "device for the CLI, the tuner, the tests and each MPI rank (same syntax as `--device`: "
       "an index, a name or platform substring, or a comma list that MPI ranks of a host share "
       "out by local rank; a single process takes the first)",
       "the first GPU, else the first device; under MPI the local rank's GPU", nullptr, device_list,
       "an index, a name, or a comma list of them with no empty item"},
      {"LOCKSTEP_SHOW_BUILDS",
       "`1`: print every kernel build (file, `-D` options, device, cache level) and any "
       "non-empty build log to standard error; on in the tests. Otherwise a build prints "
       "nothing unless it fails (PoCL's compiler summaries held back)",
       "off"},
      {"LOCKSTEP_BUILD_OPTIONS",
       "extra compiler options for every kernel build, e.g. `-cl-nv-verbose` (ptxas register "
       "and spill counts, shown with `LOCKSTEP_SHOW_BUILDS=1`); part of the cache keys",
       "none"},
      {"LOCKSTEP_KERNEL_DIR",
       "read kernels from this folder (e.g. `cl`) instead of the embedded copies (kernel "
       "development)",
       "the copies embedded at build time"},
      {"LOCKSTEP_HOST_MEMORY_MIB",
       "the host memory (MiB) that size checks plan for: a file or option asking for more (a "
       "size line of 2^31 rows, `apsp --random 70000`) is refused before anything is allocated, "
       "naming the file and line or the option",
       "the physical memory, or `ulimit -v` when lower", nullptr, mib,
       "a whole number of MiB in [1, 2^40 - 1]"},
      {"LOCKSTEP_BUILD_TIMES",
       "`1`: the R-MAT graph builds print each phase's wall time to stderr (`build_phase` "
       "lines; one a rank under MPI)",
       "off"},
      {"LOCKSTEP_CACHE_DIR",
       "the cache root (see [What lockstep keeps on disk](#what-lockstep-keeps-on-disk))",
       "`$XDG_CACHE_HOME/lockstep`, else `~/.cache/lockstep`"},
      {"LOCKSTEP_DISK_CACHE",
       "`0`: nothing read from or written to the cache root: no program cache, no occupancy "
       "cache, no tuning database (unless `LOCKSTEP_TUNING_DB` names one)",
       "on", nullptr, zero_or_one, "0 (off) or 1 (on)"},
      {"LOCKSTEP_OCCUPANCY_CACHE",
       "deprecated: `0` means `LOCKSTEP_DISK_CACHE=0` (and says so once)", "on",
       "LOCKSTEP_DISK_CACHE", zero_or_one, "0 (off) or 1 (on)"},
      {"LOCKSTEP_TUNING_DB",
       "a tuning database file to use instead of the per-device default: a regular file of at "
       "most 64 MiB (a symbolic link is followed to it; a FIFO, device or directory is refused); "
       "stores hold an advisory lock (flock on its folder) around read-merge-rename, so "
       "concurrent `tune` runs keep every entry, and `stored=1` only when the entry is in the "
       "file",
       "`tuning/<device>-<hash>.json` under the cache root"},
      {"LOCKSTEP_LOCAL_RANK", "under MPI: this rank's index on its host, which picks its device",
       "`OMPI_COMM_WORLD_LOCAL_RANK`, else the rank within `MPI_COMM_TYPE_SHARED`", nullptr, rank,
       "a whole number, 0 or more"},
      {"LOCKSTEP_MPI_HALO",
       "under MPI: the halo path of the distributed SpMV and CG, and of the distributed BFS's "
       "exchanges (the bottom-up frontier bitmap, the top-down (vertex, parent) pairs): `auto` "
       "(shared memory between "
       "ranks of one host, each rank's GPU downloading into a segment its neighbour uploads "
       "from; MPI to other hosts and wherever the segments cannot be made), `shm` (the same, but "
       "a failed setup is an error), `shm-plain` (`shm` without registering the segments with "
       "OpenCL) or `mpi` (MPI messages only)",
       "`auto`"},
      {"LOCKSTEP_WAVE_WIDTH",
       "a power of two in [1, 1024] that replaces the vendor's wave width in every `WAVE_WIDTH` "
       "macro (CI's portability pass runs AMD's 64 on PoCL)",
       "32 on NVIDIA GPUs, 64 on AMD GPUs, else 1"},
      {"LOCKSTEP_BARRIER_C11",
       "`0`: the OpenCL C 1.2 ordering path of the global barriers on any device (CI's "
       "portability pass)",
       "OpenCL C 2.0/3.0 atomics where the device has them", nullptr, zero_or_one,
       "0 (the OpenCL C 1.2 path) or 1"},
      {"LOCKSTEP_BARRIER_ORDER",
       "NVIDIA: the PTX ordering of the barriers and flags, `fence`, `acqrel` or `acqrel-rspin`",
       "`auto` (the measured default)"},
      {"LOCKSTEP_DPX",
       "the Hopper DPX instructions (inline PTX, where the device has them: NVIDIA compute "
       "capability >= 9.0): `0` none, the portable path (for measurements); `1` the forms ptxas "
       "accepts; `2` also the three-input `max.s16x2` forms for the search (which ptxas 13.0 "
       "refuses: the search then falls back to `1`)",
       "`1` where the compute capability has DPX", nullptr, dpx_level, "0, 1 or 2"},
      {"LOCKSTEP_SEARCH_DPX", "deprecated: means `LOCKSTEP_DPX` (and says so once)", "unset",
       "LOCKSTEP_DPX", dpx_level, "0, 1 or 2"},
      {"LOCKSTEP_POISON",
       "`1`: the Floyd-Warshall kernels fill their local memory with garbage first (a test "
       "that no kernel reads local memory it did not write)",
       "off"},
      {"LOCKSTEP_SOURCE_DIR", "tests: the source tree (to run the suite from a copy)",
       "the build's source tree"},
      {"LOCKSTEP_CLI", "tests: the `lockstep` executable the CLI tests run", "the build's"},
      {"LOCKSTEP_SEARCH_DATA",
       "tests: a folder holding the mmseqs2 example `DB.fasta.gz` and `QUERY.fasta.gz`",
       "`/usr/share/doc/mmseqs2/example-data`"},
  };
  return table;
}

namespace {
const Variable& find(const char* name) {
  for (const Variable& v : variables())
    if (std::strcmp(v.name, name) == 0) return v;
  throw std::logic_error(std::string("lockstep: ") + name +
                         " is not in the environment table (src/runtime/environment.cpp)");
}
}  // namespace

std::optional<std::string> value(const char* name) {
  const Variable& v = find(name);
  const char* s = std::getenv(v.name);
  if (!s || !*s) return std::nullopt;
  if (v.valid && !v.valid(s))
    throw input_error(std::string(v.name) + "=" + printable(s) + ": expected " + v.expected);
  return std::string(s);
}

bool is_zero(const char* name) {
  const auto v = value(name);
  return v && *v == "0";
}

bool is_on(const char* name) {
  const auto v = value(name);
  return v && *v != "0";
}

bool disk_cache_off() {
  if (is_zero("LOCKSTEP_DISK_CACHE")) return true;
  if (!is_zero("LOCKSTEP_OCCUPANCY_CACHE")) return false;
  static std::once_flag said;
  std::call_once(said, [] {
    std::cerr << "lockstep: LOCKSTEP_OCCUPANCY_CACHE is deprecated, use LOCKSTEP_DISK_CACHE\n";
  });
  return true;
}

int dpx_level() {
  if (const auto v = value("LOCKSTEP_DPX")) return std::atoi(v->c_str());
  const auto old = value("LOCKSTEP_SEARCH_DPX");
  if (!old) return 1;
  static std::once_flag said;
  std::call_once(
      said, [] { std::cerr << "lockstep: LOCKSTEP_SEARCH_DPX is deprecated, use LOCKSTEP_DPX\n"; });
  return std::atoi(old->c_str());
}

}  // namespace lockstep::env
