// Internal to src/cg: the observer behind iteration_timeline (lockstep/cg_timeline.hpp), which
// records pipelined CG's fused distributed iteration on a few sampled iterations. Pipelined
// calls it (CgOptions::observer) at each step of launch_fused and the loop, on the fused
// distributed path only. A sample of iteration k holds its events
// (interior and boundary launches, the partial sums' reads), the exchange it starts (its
// events are final once the next iteration's await_halo returned: pack, downloads, uploads)
// and the next iteration's interior launch; finish() waits for them and writes the means.
#pragma once
#include <chrono>
#include <vector>

#include "lockstep/cg_timeline.hpp"

namespace lockstep::detail {

class IterationTimeline : public CgObserver {
 public:
  explicit IterationTimeline(CgIterationTimeline* out) : out_(out) {
    if (out_) samples_.reserve(size_t(std::max(0, out_->samples)));
  }
  void enter(int k) override;                  // the loop, before iteration k's update
  void interior(const cl::Event& e) override;  // its interior launch
  void halo(ExchangeEvents e) override;        // await_halo returned (the exchange it completed)
  void boundary(const cl::Event& e) override;  // its boundary launch
  void exchanged() override;                   // start_exchange returned
  void sums(const cl::Event& first, const cl::Event& last) override;  // read_sums returned
  void reduced() override;   // the sums' global sum finished
  void replaced() override;  // a residual replacement: no sample spans it
  void finish() override;    // waits for the events, writes the means

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
