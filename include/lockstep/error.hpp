// The exceptions lockstep throws. opencl_error is the one type for OpenCL failures: it names
// the call, the status by name ("CL_INVALID_WORK_GROUP_SIZE", not -54) and, for a failed
// build, carries the complete build log. input_error is bad user input (a malformed file, a
// size that does not fit): its message names the file and line. The CLI maps them to exit
// codes 3 and 1.
#pragma once
#include <CL/cl.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace lockstep {

/// The symbolic name of an OpenCL status code, e.g. "CL_OUT_OF_RESOURCES".
const char* status_name(cl_int status);

class opencl_error : public std::runtime_error {
 public:
  opencl_error(std::string call, cl_int status, std::string build_log = {});
  const std::string& call() const { return call_; }
  cl_int status() const { return status_; }
  const std::string& build_log() const { return build_log_; }

 private:
  std::string call_;
  cl_int status_;
  std::string build_log_;
};

/// Bad input: a malformed file, an unsupported format, a size that does not fit.
class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The kinds of input_error that callers map to their own exceptions (the Python package: a
/// FileNotFoundError, SciPy's NegativeCycleError, a RuntimeError), told apart by type.
class missing_file_error : public input_error {  // open() failed; errno kept
 public:
  missing_file_error(const std::string& what, std::string path, int error_number)
      : input_error(what), path_(std::move(path)), errno_(error_number) {}
  const std::string& path() const { return path_; }
  int error_number() const { return errno_; }

 private:
  std::string path_;
  int errno_;
};
class negative_cycle_error : public input_error {
 public:
  using input_error::input_error;
};
class device_not_found_error : public input_error {
 public:
  using input_error::input_error;
};

/// Throws opencl_error(call, status) unless status is CL_SUCCESS.
inline void check(cl_int status, const char* call) {
  if (status != CL_SUCCESS) throw opencl_error(call, status);
}

}  // namespace lockstep
