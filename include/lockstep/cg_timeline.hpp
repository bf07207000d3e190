// Pipelined CG's iteration timeline: a CgObserver (lockstep/cg.hpp) that samples the fused
// distributed iteration and keeps the means of its steps (`lockstep cg --distributed
// --iteration-timeline N`, tools/bench/mpi_cg.sh).
#pragma once
#include <memory>

#include "lockstep/cg.hpp"

namespace lockstep {

/// Pipelined CG's fused distributed iteration (CgSpace::local_parts, several ranks), measured
/// on iterations first .. first + samples - 1 when its observer (iteration_timeline) is
/// CgOptions::observer: means in ms over the `sampled` ones. Device times are the device's
/// profiling clock, from the start of the iteration's interior launch; host times are steady_clock,
/// from the host's entry into the iteration's update. The two clocks are never compared: device_gap
/// and interior_queued use the device's alone. An iteration counts when the next one is a fused
/// update too (its exchange's uploads and the next interior launch end the sample): fewer when
/// the solve ends, or a residual replacement falls in; 0 off the fused distributed path.
struct CgIterationTimeline {
  int first = 50, samples = 10;  // in
  int sampled = 0;               // out, then the means
  // device: the boundary rows' launch, the pack and downloads of the exchange it starts, the
  // uploads that complete it (the next iteration's halo), the reads of the partial sums (from
  // the interior part's, behind its launch, to the boundary part's, behind its own), the
  // next iteration's interior launch; device_gap: that start minus the end of this iteration's
  // last kernel (the pack, else the boundary launch); interior_queued: the interior launch's
  // start minus its CL_PROFILING_COMMAND_QUEUED.
  double interior_end = 0, boundary_start = 0, boundary_end = 0, pack_start = 0, pack_end = 0;
  double download_start = 0, download_end = 0, upload_start = 0, upload_end = 0;
  double sums_start = 0, sums_end = 0, next_start = 0, device_gap = 0, interior_queued = 0;
  // host: await_halo returned, start_exchange returned, the partial sums read, their
  // MPI_Iallreduce finished, the next iteration's update entered.
  double host_halo = 0, host_exchange = 0, host_sums = 0, host_reduction = 0, host_next = 0;
};

/// CgIterationTimeline's means, in the order of its output line, each with its key there.
struct CgIterationTimelineField {
  const char* name;
  double CgIterationTimeline::*value;
};
inline constexpr CgIterationTimelineField kCgIterationTimelineFields[] = {
    {"interior_end", &CgIterationTimeline::interior_end},
    {"boundary_start", &CgIterationTimeline::boundary_start},
    {"boundary_end", &CgIterationTimeline::boundary_end},
    {"pack_start", &CgIterationTimeline::pack_start},
    {"pack_end", &CgIterationTimeline::pack_end},
    {"download_start", &CgIterationTimeline::download_start},
    {"download_end", &CgIterationTimeline::download_end},
    {"upload_start", &CgIterationTimeline::upload_start},
    {"upload_end", &CgIterationTimeline::upload_end},
    {"sums_start", &CgIterationTimeline::sums_start},
    {"sums_end", &CgIterationTimeline::sums_end},
    {"next_start", &CgIterationTimeline::next_start},
    {"device_gap", &CgIterationTimeline::device_gap},
    {"interior_queued", &CgIterationTimeline::interior_queued},
    {"host_halo", &CgIterationTimeline::host_halo},
    {"host_exchange", &CgIterationTimeline::host_exchange},
    {"host_sums", &CgIterationTimeline::host_sums},
    {"host_reduction", &CgIterationTimeline::host_reduction},
    {"host_next", &CgIterationTimeline::host_next},
};

/// The observer that fills `out` (which must outlive the solve): set CgOptions::observer to it.
std::unique_ptr<CgObserver> iteration_timeline(CgIterationTimeline& out);

}  // namespace lockstep
