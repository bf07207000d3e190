// lockstep._lockstep: the C++ half of the Python package `lockstep` (the public names, their
// checks and docstrings are in python/lockstep/*.py). This file: the exception translation
// (lockstep::input_error -> lockstep.InputError, lockstep::opencl_error -> lockstep.OpenCLError
// with call, status, status name and build log), devices() and Context.
#include <cerrno>
#include <cstring>
#include <tuple>

#include "common.hpp"
#include "lockstep/kernel_builds.hpp"

namespace lockstep::python {

void check_csr(const char* what, int64_t rows, int64_t cols, const Array<int32_t>& indptr,
               const Array<int32_t>& indices) {
  auto fail = [&](const std::string& m) { throw input_error(std::string(what) + ": " + m); };
  if (indptr.size() != rows + 1) fail("indptr must have rows + 1 entries");
  const int32_t* p = indptr.data();
  if (p[0] != 0 || p[rows] != indices.size()) fail("indptr must run from 0 to nnz");
  for (int64_t r = 0; r < rows; ++r)
    if (p[r + 1] < p[r]) fail("indptr decreases at row " + std::to_string(r));
  const int32_t* c = indices.data();
  for (py::ssize_t k = 0; k < indices.size(); ++k)
    if (c[k] < 0 || c[k] >= cols)
      fail("column index " + std::to_string(c[k]) + " outside [0, " + std::to_string(cols) + ")");
}

namespace {

py::dict device_dict(const DeviceInfo& d) {
  py::dict r;
  r["index"] = d.index;
  r["platform"] = d.platform;
  r["name"] = d.name;
  r["vendor"] = d.vendor;
  r["type"] = d.type;
  r["version"] = d.version;
  r["driver_version"] = d.driver_version;
  r["opencl_c_version"] = d.opencl_c_version;
  r["compute_units"] = d.compute_units;
  r["max_work_group_size"] = d.max_work_group_size;
  r["local_mem_bytes"] = d.local_mem_bytes;
  r["global_mem_bytes"] = d.global_mem_bytes;
  r["fp64"] = d.fp64;
  r["wave_width"] = d.wave_width;
  return r;
}

std::string device_spec(const py::object& device) {
  if (device.is_none()) return "";
  if (py::isinstance<py::bool_>(device))
    throw py::type_error("lockstep.Context: device must be None, an int index or a str");
  if (py::isinstance<py::int_>(device)) return std::to_string(device.cast<long long>());
  if (py::isinstance<py::str>(device)) return device.cast<std::string>();
  throw py::type_error("lockstep.Context: device must be None, an int index or a str, not " +
                       std::string(py::str(py::type::of(device).attr("__name__"))));
}

}  // namespace
}  // namespace lockstep::python

using namespace lockstep;
using namespace lockstep::python;

PYBIND11_MODULE(_lockstep, m) {
  m.doc() = "C++ half of the lockstep package; use the names of `lockstep` instead.";
  // The exception classes are defined in Python (lockstep/_errors.py) so that they can derive
  // from ValueError / RuntimeError and carry attributes; they live as long as the interpreter.
  py::module_ errors = py::module_::import("lockstep._errors");
  static PyObject* input_cls = py::object(errors.attr("InputError")).release().ptr();
  static PyObject* opencl_cls = py::object(errors.attr("OpenCLError")).release().ptr();
  static PyObject* missing_cls = py::object(errors.attr("MissingFileError")).release().ptr();
  static PyObject* cycle_cls = py::object(errors.attr("NegativeCycleError")).release().ptr();
  static PyObject* device_cls = py::object(errors.attr("DeviceNotFoundError")).release().ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const opencl_error& e) {
      py::object exc = py::reinterpret_borrow<py::object>(opencl_cls)(
          e.what(), e.call(), e.status(), status_name(e.status()), e.build_log());
      PyErr_SetObject(opencl_cls, exc.ptr());
    } catch (const missing_file_error& e) {
      if (e.error_number() == ENOENT) {
        py::object exc = py::reinterpret_borrow<py::object>(missing_cls)(
            e.error_number(), std::string(e.what()), e.path());
        PyErr_SetObject(missing_cls, exc.ptr());
      } else {
        PyErr_SetString(input_cls, e.what());
      }
    } catch (const negative_cycle_error& e) {
      PyErr_SetString(cycle_cls, e.what());
    } catch (const device_not_found_error& e) {
      PyErr_SetString(device_cls, e.what());
    } catch (const input_error& e) {
      PyErr_SetString(input_cls, e.what());
    }
  });

  m.def("devices", [] {
    py::list out;
    for (const cl::Device& d : all_devices()) out.append(device_dict(describe(d)));
    return out;
  });

  py::class_<SharedContext, ContextPtr>(m, "Context",
                                        "An OpenCL device with its context and in-order queue; "
                                        "every lockstep call takes one as ctx= (default: "
                                        "lockstep.default_context()). Calls on one context run one "
                                        "at a time, without the GIL.",
                                        py::dynamic_attr())
      .def(py::init([](const py::object& device) {
             std::string spec = device_spec(device);
             py::gil_scoped_release nogil;
             return std::make_shared<SharedContext>(spec);
           }),
           py::arg("device") = py::none(),
           "A device with its OpenCL context and queue.\n\n"
           "device: None (LOCKSTEP_DEVICE, else the first GPU, else the first device), an index\n"
           "from lockstep.devices(), or a case-insensitive part of the platform or device name.")
      .def_property_readonly(
          "info", [](const SharedContext& c) { return device_dict(c.ctx.info()); },
          "The device's description (a dict, as in lockstep.devices()).")
      .def_property_readonly("name", [](const SharedContext& c) { return c.ctx.info().name; })
      .def("__repr__", [](const SharedContext& c) {
        const DeviceInfo& d = c.ctx.info();
        return "lockstep.Context(device=" + std::to_string(d.index) + ")  # " + d.name + " (" +
               d.platform + ", " + d.type + ")";
      });

  // Warm-up (python/lockstep/_warmup.py picks the builds): the library's listing for this
  // device and these types, as (family, file, options); and building a list of them.
  m.def("_kernel_builds", [](SharedContext& c, const std::vector<std::string>& types) {
    py::list out;
    for (const KernelBuild& b : select_builds(c.ctx.info(), {}, types))
      out.append(py::make_tuple(b.family, b.file, b.options));
    return out;
  });
  m.def("_precompile",
        [](SharedContext& c,
           const std::vector<std::tuple<std::string, std::string, std::string>>& list,
           const py::object& progress) {
          std::vector<KernelBuild> builds;
          for (const auto& [family, file, options] : list)
            builds.push_back({family, file, options});
          return device_call(c, [&](Context& ctx) {
            return precompile(ctx, builds,
                              [&](size_t done, size_t total, const KernelBuild& b, double s) {
                                if (progress.is_none()) return;
                                py::gil_scoped_acquire gil;
                                progress(done, total, b.family, b.file, s);
                              });
          });
        });
  bind_array(m);
  bind_elementwise(m);
  bind_spmv(m);
  bind_tune(m);
  bind_sort(m);
  bind_graph(m);
  bind_align(m);
  bind_search(m);
}
