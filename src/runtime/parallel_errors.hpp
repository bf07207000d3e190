// Exceptions and OpenMP regions (internal). An exception may not leave a parallel region: the
// runtime then calls std::terminate (an abort, exit 134, where `ulimit -v` made an allocation
// fail). Every region whose body can throw (an allocation, a refusal) runs that body through
// run(), which keeps the first exception and skips the rest of the work; after the region,
// rethrow() throws it on the calling thread, where the usual error handling reports it.
//
//   ParallelErrors errors;
//   #pragma omp parallel for
//   for (int64_t i = 0; i < n; ++i) errors.run([&] { work(i); });
//   errors.rethrow();
#pragma once
#include <atomic>
#include <exception>
#include <mutex>
#include <utility>

namespace lockstep {

class ParallelErrors {
 public:
  /// f(), unless an earlier call failed; an exception from it is kept, not thrown.
  template <typename F>
  void run(F&& f) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return;
    try {
      f();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!first_) first_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
  }
  /// Throws the first kept exception, if any (call after the region, on the calling thread).
  void rethrow() {
    if (first_) std::rethrow_exception(std::exchange(first_, nullptr));
  }

 private:
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::exception_ptr first_;
};

}  // namespace lockstep
