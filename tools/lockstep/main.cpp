// `lockstep COMMAND ...`: dispatches to the registered commands and maps exceptions to exit
// codes: 0 ok, 1 bad input (input_error; host memory exhausted), 2 usage (usage_error, bad
// options), 3 OpenCL (opencl_error), 4 internal error (any other exception: the message is
// printed and the exit is clean, never an abort).
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "command.hpp"
#include "exit_codes.hpp"
#include "runtime/environment.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {

std::vector<Command>& commands() {
  static std::vector<Command> all;
  return all;
}

// Refuses any value of `opts` outside its number<T>(lo, hi) range.
static void range_check(const po::options_description& opts, const po::variables_map& vm) {
  for (const auto& o : opts.options())
    if (auto* r = dynamic_cast<const RangeCheck*>(o->semantic().get());
        r && vm.count(o->long_name()))
      r->check(o->long_name(), vm[o->long_name()].value());
}

bool parse(const std::string& usage, const Args& args, po::options_description opts,
           const po::positional_options_description& positional, po::variables_map& vm) {
  return parse(usage, args, std::move(opts), positional, vm, Deprecated());
}

bool parse(const std::string& usage, const Args& args, po::options_description opts,
           const po::positional_options_description& positional, po::variables_map& vm,
           const Deprecated& old) {
  opts.add_options()("device", po::value<std::string>(),
                     "OpenCL device: index from `lockstep devices` or a substring of platform or "
                     "device name (default: LOCKSTEP_DEVICE, else the first GPU)")(
      "help,h", "show this help");
  po::options_description all;  // what the parser accepts; --help shows `opts` only
  all.add(opts).add(old.options());
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: " << usage << "\n" << opts << "\n";
      return false;
    }
    range_check(old.options(), vm);  // an old value first, in its own terms
    old.resolve(vm, std::cerr);
    range_check(opts, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw usage_error(std::string(e.what()) + "\nusage: " + usage);
  }
  return true;
}

std::string device_spec(const po::variables_map& vm) {
  return vm.count("device") ? vm["device"].as<std::string>() : std::string();
}

static void print_usage(std::ostream& out) {
  out << "usage: lockstep COMMAND [ARGS...] [--device D]\n\ncommands:\n";
  for (auto& c : commands())
    if (!c.summary.empty())  // hidden commands (e.g. `kernels`) have none
      out << "  " << c.name << std::string(c.name.size() < 16 ? 16 - c.name.size() : 1, ' ')
          << c.summary << "\n";
  out << "\n`lockstep COMMAND --help` describes a command.\n";
}

}  // namespace lockstep::cli

namespace {

int run_main(int argc, char** argv);

// `ulimit -s 64` (a stack of 64 KiB) must not crash a command: its main thread and every thread
// it starts (glibc gives new threads RLIMIT_STACK's size) get kStack, on a thread of their own.
constexpr size_t kStack = size_t(8) << 20;  // glibc's usual (RLIMIT_STACK's default)

struct MainArgs {
  int argc;
  char** argv;
  int rc;
};

void* main_thread(void* p) {
  auto* a = static_cast<MainArgs*>(p);
  a->rc = run_main(a->argc, a->argv);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  struct rlimit lim {};
  if (::getrlimit(RLIMIT_STACK, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
      lim.rlim_cur < kStack) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStack);
    pthread_setattr_default_np(&attr);  // std::thread, OpenMP's and the OpenCL driver's threads
    MainArgs a{argc, argv, 0};
    pthread_t t;
    const bool started = pthread_create(&t, &attr, main_thread, &a) == 0;
    pthread_attr_destroy(&attr);
    if (started) {
      pthread_join(t, nullptr);
      return a.rc;
    }
  }
  return run_main(argc, argv);
}

namespace {

int run_main(int argc, char** argv) {
  using namespace lockstep::cli;
  Args args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  const Command* cmd = nullptr;
  size_t words = 0;
  for (auto& c : commands()) {
    if (args.size() >= 2 && c.name == args[0] + " " + args[1])
      cmd = &c, words = 2;
    else if (!cmd && c.name == args[0])
      cmd = &c, words = 1;
  }
  if (!cmd) {
    std::cerr << "lockstep: unknown command '" << args[0] << "'\n";
    print_usage(std::cerr);
    return 2;
  }
  try {
    // every LOCKSTEP_* variable that is set takes a value it can use, or the run stops here
    for (const auto& v : lockstep::env::variables()) lockstep::env::value(v.name);
    const int rc = cmd->run(Args(args.begin() + words, args.end()));
    errno = 0;  // a full disk or a closed pipe on standard output is a failed run too
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
      int err = errno;
      // the failed write came earlier (its errno is gone): one more byte says why (ENOSPC,
      // EFBIG, EIO, ...), into an output that is broken already
      if (!err && ::write(STDOUT_FILENO, "\n", 1) < 0) err = errno;
      std::cerr << "lockstep " << cmd->name
                << ": standard output: cannot write: " << (err ? std::strerror(err) : "write error")
                << "\n";
      return rc ? rc : 1;
    }
    return rc;
  } catch (...) {
    return exit_code_of_current_exception("lockstep " + cmd->name, std::cerr);
  }
}

}  // namespace
