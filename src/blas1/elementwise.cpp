// The -D sets of cl/elementwise.cl, the device arrays' arithmetic, comparisons, casts and partial
// sums (the Python package's lockstep.Array launches them): one build per NumPy dtype. The sums
// accumulate in double for floats where the device has fp64, else in the dtype's own width;
// float32 divisions are correctly rounded, as NumPy's are.
#include <map>

#include "lockstep/error.hpp"
#include "lockstep/kernel_builds.hpp"

namespace lockstep {
namespace {

struct ElemType {
  const char* cl;   // ELEM_TYPE
  const char* sum;  // SUM_TYPE where the device has fp64
  bool is_float;
};

const std::map<std::string, ElemType>& elem_types() {
  static const std::map<std::string, ElemType> types = {
      {"bool", {"uchar", "long", false}},     {"int32", {"int", "long", false}},
      {"uint32", {"uint", "ulong", false}},   {"int64", {"long", "long", false}},
      {"uint64", {"ulong", "ulong", false}},  {"float32", {"float", "double", true}},
      {"float64", {"double", "double", true}}};
  return types;
}

}  // namespace

Defines detail::elementwise_defines(const DeviceInfo& device, const std::string& dtype) {
  auto it = elem_types().find(dtype);
  if (it == elem_types().end())
    throw input_error("lockstep.Array: no device kernels for dtype " + dtype);
  const ElemType& t = it->second;
  Defines d;
  d.set("ELEM_TYPE", t.cl).set("SUM_TYPE", t.is_float && !device.fp64 ? "float" : t.sum);
  d.set("LOCAL_SIZE", elementwise_local_size).set("ELEM_FLOAT", t.is_float ? 1 : 0);
  if (device.fp64) d.set("LOCKSTEP_FP64", 1);
  if (dtype == "float32") d.flag("-cl-fp32-correctly-rounded-divide-sqrt");
  return d;
}

void detail::elementwise_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  for (const auto& [dtype, t] : elem_types()) {
    if (dtype == "float64" && !d.fp64) continue;
    out.push_back({"array", "elementwise.cl", elementwise_defines(d, dtype).options()});
  }
}

}  // namespace lockstep
