// Registered temporaries and the signal handler that removes them (see temporaries.hpp).
#include "io/temporaries.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace lockstep::temporaries {
namespace {

constexpr int kSlots = 64;
std::atomic<char*> slots[kSlots];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
constexpr int kCount = int(sizeof kSignals / sizeof kSignals[0]);

int index_of(int sig) {
  for (int i = 0; i < kCount; ++i)
    if (kSignals[i] == sig) return i;
  return -1;
}

// Per signal: whether its action, when this library was loaded, was a program's own handler
// (Python's SIGINT): that one is left alone. The action ours replaced, called after the
// temporaries are gone (a handler the OpenCL platform installed later: PoCL's LLVM).
bool foreign_at_load[kCount];
struct sigaction previous[kCount];
volatile sig_atomic_t depth = 0;

bool is_function(const struct sigaction& a) {
  return (a.sa_flags & SA_SIGINFO) ? a.sa_sigaction != nullptr
                                   : a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN;
}

extern "C" void on_signal(int sig, siginfo_t* info, void* context) {
  const int saved = errno;
  for (auto& s : slots)
    if (char* p = s.load()) ::unlink(p);
  const int i = index_of(sig);
  if (i >= 0 && depth == 0 && is_function(previous[i])) {
    // The handler ours replaced (LLVM's restores the actions it replaced and raises the signal
    // again, which then may come back here: depth 1 below ends the process).
    depth = 1;
    if (previous[i].sa_flags & SA_SIGINFO)
      previous[i].sa_sigaction(sig, info, context);
    else
      previous[i].sa_handler(sig);
    depth = 0;
    errno = saved;
    return;
  }
  std::signal(sig, SIG_DFL);
  ::raise(sig);  // blocked until this handler returns, then the default action ends the process
  errno = saved;
}

bool ours(const struct sigaction& a) {
  return (a.sa_flags & SA_SIGINFO) && a.sa_sigaction == on_signal;
}

struct AtLoad {
  AtLoad() {
    for (int i = 0; i < kCount; ++i) {
      struct sigaction now {};
      foreign_at_load[i] = ::sigaction(kSignals[i], nullptr, &now) == 0 && is_function(now);
    }
  }
} at_load;

std::mutex install_mutex;

}  // namespace

void install_handlers() {
  std::lock_guard<std::mutex> lock(install_mutex);
  for (int i = 0; i < kCount; ++i) {
    struct sigaction now {};
    if (::sigaction(kSignals[i], nullptr, &now) != 0 || ours(now)) continue;
    if (!(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_IGN) continue;  // nohup
    if (is_function(now) && foreign_at_load[i]) continue;  // the program's own handler
    previous[i] = now;  // SIG_DFL, or a handler installed since (the OpenCL platform's)
    struct sigaction sa {};
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(kSignals[i], &sa, nullptr);
  }
}

int add(const std::string& path) {
  install_handlers();  // each time: the OpenCL platform may have put its own in place since
  char* copy = ::strdup(path.c_str());
  if (!copy) return -1;
  for (int i = 0; i < kSlots; ++i) {
    char* expected = nullptr;
    if (slots[i].compare_exchange_strong(expected, copy)) return i;
  }
  std::free(copy);
  return -1;
}

void remove(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  std::free(slots[slot].exchange(nullptr));
}

}  // namespace lockstep::temporaries
