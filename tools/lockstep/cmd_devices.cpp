// `lockstep devices`: every OpenCL device with what lockstep relies on.
#include <iostream>
#include <string>

#include "command.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep::cli {
namespace {

int run_devices(const Args& args) {
  po::variables_map vm;
  if (!parse("lockstep devices", args, po::options_description("options"), {}, vm)) return 0;
  auto all = all_devices();
  if (all.empty()) {
    std::cerr << "lockstep devices: " << no_device_message() << "\n";
    return 1;
  }
  for (auto& d : all) {
    DeviceInfo i = describe(d);
    Report kv;
    kv.add("index", i.index).add("platform", i.platform).add("device", i.name).add("type", i.type);
    kv.add("compute_units", i.compute_units).add("max_wg", i.max_work_group_size);
    kv.add("local_kib", i.local_mem_bytes / 1024).add("global_mib", i.global_mem_bytes >> 20);
    kv.add("opencl_c", i.opencl_c_version).add("driver", i.driver_version);
    kv.add("atomics64", int(i.int64_atomics)).add("fp64", int(i.fp64));
    kv.add("c20_atomics", int(i.c20_atomics)).add("subgroups", int(i.subgroups));
    kv.add("wave", i.wave_width);
    if (i.nv_cc_major)
      kv.add("compute_capability",
             std::to_string(i.nv_cc_major) + "." + std::to_string(i.nv_cc_minor))
          .add("dpx", int(i.dpx));
    std::cout << kv.str() << "\n";
  }
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("devices", "list OpenCL devices and the capabilities lockstep uses", run_devices);
}  // namespace lockstep::cli
