// The table of LOCKSTEP_* variables (see environment.hpp) and their readers.
#include "runtime/environment.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <stdexcept>

namespace lockstep::env {

const std::vector<Variable>& variables() {
  static const std::vector<Variable> table{
      {"LOCKSTEP_DEVICE",
       "device for the CLI, the tuner, the tests and each MPI rank (same syntax as `--device`: "
       "an index, a name or platform substring, or a comma list that MPI ranks of a host share "
       "out by local rank; a single process takes the first)",
       "the first GPU, else the first device; under MPI the local rank's GPU"},
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
       "the physical memory, or `ulimit -v` when lower"},
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
       "on"},
      {"LOCKSTEP_OCCUPANCY_CACHE",
       "deprecated: `0` means `LOCKSTEP_DISK_CACHE=0` (and says so once)", "on",
       "LOCKSTEP_DISK_CACHE"},
      {"LOCKSTEP_TUNING_DB",
       "a tuning database file to use instead of the per-device default: a regular file of at "
       "most 64 MiB (a symbolic link is followed to it; a FIFO, device or directory is refused); "
       "stores hold an advisory lock (flock on its folder) around read-merge-rename, so "
       "concurrent `tune` runs keep every entry, and `stored=1` only when the entry is in the "
       "file",
       "`tuning/<device>-<hash>.json` under the cache root"},
      {"LOCKSTEP_LOCAL_RANK", "under MPI: this rank's index on its host, which picks its device",
       "`OMPI_COMM_WORLD_LOCAL_RANK`, else the rank within `MPI_COMM_TYPE_SHARED`"},
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
       "OpenCL C 2.0/3.0 atomics where the device has them"},
      {"LOCKSTEP_BARRIER_ORDER",
       "NVIDIA: the PTX ordering of the barriers and flags, `fence`, `acqrel` or `acqrel-rspin`",
       "`auto` (the measured default)"},
      {"LOCKSTEP_DPX",
       "`0`: no Hopper DPX instructions (inline PTX) even where the device has them (NVIDIA "
       "compute capability >= 9.0): the portable path, for measurements",
       "DPX where the compute capability has it"},
      {"LOCKSTEP_SEARCH_DPX",
       "search: the highest DPX level tried, `0`, `1` (two-input `max.s16x2`) or `2` (the "
       "three-input forms, which ptxas 13.0 refuses)",
       "`1`"},
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

}  // namespace lockstep::env
