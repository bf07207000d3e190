// NVIDIA compute capability of a device, through cl_nv_device_attribute_query
// (CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000, _MINOR_NV 0x4001): what selects NVIDIA
// instruction sets (DPX: 9.0), never the device name. 0.0 on other devices. (Internal for now; a
// candidate for DeviceInfo, whose header every source includes.)
#pragma once
#include "lockstep/runtime.hpp"

namespace lockstep {

struct NvCapability {
  int major = 0, minor = 0;
};
NvCapability nv_capability(const cl::Device& d);

}  // namespace lockstep
