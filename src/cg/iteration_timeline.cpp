// IterationTimeline (iteration_timeline.hpp): sampling pipelined CG's fused distributed
// iterations, and their means from the events' profiling.
#include "iteration_timeline.hpp"

#include <algorithm>
#include <iterator>

namespace lockstep::detail {

void IterationTimeline::enter(int k) {
  if (!out_) return;
  const auto now = Clock::now();
  pending_ = nullptr;
  if (current_ && current_->k == k - 1 && current_->exchanged) {
    pending_ = current_;
    pending_->host[kNext] = std::chrono::duration<double, std::milli>(now - pending_->t0).count();
  }
  current_ = nullptr;
  if (k >= out_->first && k < out_->first + out_->samples && int(samples_.size()) < out_->samples) {
    current_ = &samples_.emplace_back();
    current_->k = k, current_->t0 = now;
  }
}

void IterationTimeline::interior(const cl::Event& e) {
  if (current_) current_->interior = e;
  if (pending_) pending_->next = e;
}

void IterationTimeline::halo(ExchangeEvents e) {
  at(kHalo);
  if (!pending_) return;
  pending_->exchange = std::move(e);
  pending_->complete = true;
  pending_ = nullptr;
}

void IterationTimeline::boundary(const cl::Event& e) {
  if (current_) current_->boundary = e;
}

void IterationTimeline::exchanged() {
  at(kExchange);
  if (current_) current_->exchanged = true;
}

void IterationTimeline::sums(const cl::Event& first, const cl::Event& last) {
  if (!current_ || current_->host[kSums] >= 0) return;
  current_->sums_first = first, current_->sums_last = last;
  at(kSums);
}

void IterationTimeline::reduced() {
  if (current_ && current_->host[kSums] >= 0) at(kReduction);
}

void IterationTimeline::replaced() {
  if (current_) current_->exchanged = false;  // its exchange never completes in the next update
  current_ = pending_ = nullptr;
}

namespace {

cl_ulong clock_of(const cl::Event& e, cl_profiling_info what) {
  cl_ulong v = 0;
  check(e.getProfilingInfo(what, &v), "clGetEventProfilingInfo");
  return v;
}

}  // namespace

void IterationTimeline::finish() {
  if (!out_) return;
  const int first = out_->first, samples = out_->samples;
  *out_ = CgIterationTimeline{};
  out_->first = first, out_->samples = samples;
  constexpr size_t kFields = std::size(kCgIterationTimelineFields);
  std::vector<double> sum(kFields, 0.0);
  for (Sample& s : samples_) {
    if (!s.complete || !s.interior() || !s.next() || !s.sums_last()) continue;
    for (const cl::Event* e : {&s.interior, &s.boundary, &s.sums_last, &s.next, &s.exchange.pack})
      if ((*e)()) check(e->wait(), "clWaitForEvents");
    for (const auto* list : {&s.exchange.downloads, &s.exchange.uploads})
      for (const cl::Event& e : *list)
        if (e()) check(e.wait(), "clWaitForEvents");
    const cl_ulong zero = clock_of(s.interior, CL_PROFILING_COMMAND_START);
    auto ms = [&](const cl::Event& e, cl_profiling_info what) {
      return (double(clock_of(e, what)) - double(zero)) * 1e-6;
    };
    // The earliest start and the latest end of `list`, else (none ran) both `otherwise`.
    auto span = [&](const std::vector<cl::Event>& list, double otherwise, double& start,
                    double& end) {
      start = end = -1;
      for (const cl::Event& e : list) {
        if (!e()) continue;
        const double a = ms(e, CL_PROFILING_COMMAND_START), b = ms(e, CL_PROFILING_COMMAND_END);
        start = start < 0 ? a : std::min(start, a), end = std::max(end, b);
      }
      if (start < 0) start = end = otherwise;
    };
    double v[kFields];  // in kCgIterationTimelineFields' order
    v[0] = ms(s.interior, CL_PROFILING_COMMAND_END);
    v[1] = s.boundary() ? ms(s.boundary, CL_PROFILING_COMMAND_START) : v[0];
    v[2] = s.boundary() ? ms(s.boundary, CL_PROFILING_COMMAND_END) : v[0];
    v[3] = s.exchange.pack() ? ms(s.exchange.pack, CL_PROFILING_COMMAND_START) : v[2];
    v[4] = s.exchange.pack() ? ms(s.exchange.pack, CL_PROFILING_COMMAND_END) : v[2];
    span(s.exchange.downloads, v[4], v[5], v[6]);
    span(s.exchange.uploads, v[6], v[7], v[8]);
    v[9] = ms(s.sums_first, CL_PROFILING_COMMAND_START);
    v[10] = ms(s.sums_last, CL_PROFILING_COMMAND_END);
    v[11] = ms(s.next, CL_PROFILING_COMMAND_START);
    v[12] = v[11] - std::max(v[2], v[4]);
    v[13] = -ms(s.interior, CL_PROFILING_COMMAND_QUEUED);
    for (int h = 0; h < kHosts; ++h) v[14 + h] = s.host[h];
    for (size_t i = 0; i < kFields; ++i) sum[i] += v[i];
    ++out_->sampled;
  }
  if (!out_->sampled) return;
  for (double& x : sum) x /= out_->sampled;
  for (size_t i = 0; i < kFields; ++i) (*out_).*kCgIterationTimelineFields[i].value = sum[i];
}

}  // namespace lockstep::detail

namespace lockstep {
std::unique_ptr<CgObserver> iteration_timeline(CgIterationTimeline& out) {
  return std::make_unique<detail::IterationTimeline>(&out);
}
}  // namespace lockstep
