// `lockstep kernels --list` (hidden): every program build the library can ask for on a device
// described by vendor, wave width and OpenCL C version, one per line as
// "family<TAB>file<TAB>options" (lockstep::kernel_builds). tools/portability/compile_kernels.sh
// compiles them ahead of time for AMD GPUs and SPIR-V; no OpenCL device is opened.
#include <iostream>

#include "command.hpp"
#include "lockstep/kernel_builds.hpp"

namespace lockstep::cli {
namespace {

int run_kernels(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("list", "print every build (the only action)")(
      "vendor", po::value<std::string>()->default_value("amd"), "amd, intel, nvidia or cpu")(
      "wave-width", number<int>(0, 1024)->default_value(0),
      "WAVE_WIDTH the device would get (0: the library's vendor rule)")(
      "opencl-c", po::value<std::string>()->default_value("2.0"),
      "the device's OpenCL C version: 1.2, 2.0 or 3.0");
  po::variables_map vm;
  if (!parse("lockstep kernels --list [--vendor V] [--wave-width W] [--opencl-c 2.0]", args, opts,
             {}, vm))
    return 0;
  if (!vm.count("list")) throw usage_error("give --list (the only action)");
  const std::string vendor = vm["vendor"].as<std::string>();
  if (vendor != "amd" && vendor != "intel" && vendor != "nvidia" && vendor != "cpu")
    throw usage_error("--vendor must be amd, intel, nvidia or cpu, got '" + vendor + "'");
  const int wave = vm["wave-width"].as<int>();
  if (wave & (wave - 1)) throw usage_error("--wave-width must be 0 or a power of two");
  DeviceInfo d;
  try {
    d = device_profile(vendor, unsigned(wave), vm["opencl-c"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(std::string("--opencl-c: ") + e.what());
  }
  for (const KernelBuild& b : kernel_builds(d))
    std::cout << b.family << '\t' << b.file << '\t' << b.options << '\n';
  std::cout.flush();
  if (!std::cout) throw input_error("writing the list failed");
  return 0;
}

}  // namespace
// An empty summary keeps the command out of `lockstep --help` (a CI tool, not a user command).
LOCKSTEP_COMMAND("kernels", "", run_kernels);
}  // namespace lockstep::cli
