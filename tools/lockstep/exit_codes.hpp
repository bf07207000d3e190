// How the CLI turns an exception into its exit code, in one place (main() and the tests use
// it): 1 bad input (input_error; host memory exhausted), 2 usage (usage_error), 3 OpenCL
// (opencl_error), 4 internal error (any other exception, or a non-exception throw: a bug,
// reported by its message instead of an abort). Header-only and free of Boost, so the doctest
// suite can check the mapping itself.
#pragma once
#include <exception>
#include <new>
#include <ostream>
#include <stdexcept>
#include <string>

#include "lockstep/error.hpp"

namespace lockstep::cli {

/// A mistake in the command line: exit 2, the message followed by the usage line.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `what` without a leading "COMMAND: " that repeats the last word of `prefix` ("lockstep
/// search" and the library's "search: stripe must be even": said once).
inline std::string said_once(const std::string& prefix, const std::string& what) {
  const size_t space = prefix.rfind(' ');
  const std::string word = prefix.substr(space == std::string::npos ? 0 : space + 1) + ": ";
  return what.rfind(word, 0) == 0 ? what.substr(word.size()) : what;
}

/// Call inside a catch block: prints "PREFIX: message" (one line per message line) to `err`
/// and returns the exit code of the exception being handled.
inline int exit_code_of_current_exception(const std::string& prefix, std::ostream& err) {
  try {
    throw;
  } catch (const usage_error& e) {
    err << prefix << ": " << said_once(prefix, e.what()) << "\n";
    return 2;
  } catch (const input_error& e) {
    err << prefix << ": " << said_once(prefix, e.what()) << "\n";
    return 1;
  } catch (const opencl_error& e) {
    err << prefix << ": OpenCL error: " << e.what() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    err << prefix << ": out of host memory\n";
    return 1;
  } catch (const std::exception& e) {
    err << prefix << ": internal error: " << e.what() << "\n";
    return 4;
  } catch (...) {
    err << prefix << ": internal error: unknown exception\n";
    return 4;
  }
}

}  // namespace lockstep::cli
