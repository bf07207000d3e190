// Internal: pinned host staging for the MPI exchanges (distributed SpMV, distributed BFS): the
// runtime's one helper (src/runtime/pinned.hpp).
#pragma once
#include "runtime/pinned.hpp"

namespace lockstep::mpi {
using lockstep::pinned;
}  // namespace lockstep::mpi
