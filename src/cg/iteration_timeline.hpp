// Internal to src/cg: the recorder behind CgIterationTimeline (lockstep/cg.hpp), pipelined CG's
// fused distributed iteration on a few sampled iterations. Pipelined calls it at each step of
// launch_fused and the loop; off (no CgOptions::iteration_timeline, or not the fused
// distributed path) every call returns at once. A sample of iteration k holds its events
// (interior and boundary launches, the partial sums' reads), the exchange it starts (its
// events are final once the next iteration's await_halo returned: pack, downloads, uploads)
// and the next iteration's interior launch; finish() waits for them and writes the means.
#pragma once
#include <chrono>
#include <vector>

#include "lockstep/cg.hpp"

namespace lockstep::detail {

class IterationTimeline {
 public:
  explicit IterationTimeline(CgIterationTimeline* out) : out_(out) {
    if (out_) samples_.reserve(size_t(std::max(0, out_->samples)));
  }
  bool on() const { return out_ != nullptr; }
  void enter(int k);                  // the loop, before iteration k's update
  void interior(const cl::Event& e);  // its interior launch
  void halo(ExchangeEvents e);        // await_halo returned (e: the exchange it completed)
  void boundary(const cl::Event& e);  // its boundary launch
  void exchanged();                   // start_exchange returned
  void sums(const cl::Event& first, const cl::Event& last);  // read_sums returned
  void reduced();                                            // the sums' global sum finished
  void replaced();  // a residual replacement: no sample spans it
  void finish();    // waits for the events, writes the means

 private:
  using Clock = std::chrono::steady_clock;
  enum Host { kHalo, kExchange, kSums, kReduction, kNext, kHosts };
  struct Sample {
    int k = 0;
    Clock::time_point t0;
    double host[kHosts] = {-1, -1, -1, -1, -1};
    cl::Event interior, boundary, sums_first, sums_last, next;
    ExchangeEvents exchange;
    bool exchanged = false, complete = false;
  };
  void at(Host h) {
    if (current_ && current_->host[h] < 0)
      current_->host[h] =
          std::chrono::duration<double, std::milli>(Clock::now() - current_->t0).count();
  }
  CgIterationTimeline* out_;
  std::vector<Sample> samples_;  // reserved: the pointers below stay valid
  Sample* current_ = nullptr;    // the update in progress, when sampled
  Sample* pending_ = nullptr;    // the last iteration's, waiting for this one's halo
};

}  // namespace lockstep::detail
