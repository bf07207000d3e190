// Occupancy internals (src/barrier/occupancy.cpp), open to the tests: the GPU's measured census
// can then be run on PoCL too, where CI has no GPU.
#pragma once
#include <string>

#include "lockstep/runtime.hpp"

namespace lockstep::occupancy {

/// The key of `kernel` (argument 0: a barrier state) in the memory cache and occupancy.json:
/// device key, kernel name, build options, local size, local memory.
std::string cache_key(Context& ctx, cl::Kernel& kernel, size_t local_size, size_t local_mem);

/// The measured census that max_coresident_groups uses on GPUs (any device may run it): the
/// largest count that this process measured (never a number read from disk), measured again
/// while it is below the compute units or below the confirmed count occupancy.json holds.
int census(Context& ctx, cl::Kernel& kernel, size_t local_size, const std::string& key);

}  // namespace lockstep::occupancy
