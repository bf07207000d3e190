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

extern "C" void on_signal(int sig) {
  const int saved = errno;
  for (auto& s : slots)
    if (char* p = s.load()) ::unlink(p);
  std::signal(sig, SIG_DFL);
  ::raise(sig);  // blocked until this handler returns, then the default action ends the process
  errno = saved;
}

}  // namespace

void install_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
      continue;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

int add(const std::string& path) {
  static std::once_flag once;
  std::call_once(once, install_handlers);
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
