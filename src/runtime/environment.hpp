// The one table of lockstep's environment variables (every LOCKSTEP_* the library, the CLI and
// the test suite read) and the one way to read them. README's "Environment" table is this
// table (tests/test_environment.cpp checks that they list the same names). Values are read at
// each call (tests and the CLI change them within a process); nothing is cached here.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace lockstep::env {

struct Variable {
  const char* name;
  const char* meaning;
  const char* default_value;          // what applies when it is unset or empty
  const char* replaced_by = nullptr;  // a deprecated spelling: the variable to use instead
  bool (*valid)(const std::string&) = nullptr;  // the values it takes (nullptr: any)
  const char* expected = nullptr;               // what they are, for the refusal
};

/// Every LOCKSTEP_* variable, in README order.
const std::vector<Variable>& variables();

/// The value of a variable of the table when it is set and not empty. A name not in the table
/// is a programming error (std::logic_error), so the table cannot fall behind the code. A value
/// the variable does not take is refused: input_error "NAME=VALUE: expected ...".
std::optional<std::string> value(const char* name);

/// Whether a variable is set to "0" (the off switches: LOCKSTEP_DISK_CACHE=0, ...).
bool is_zero(const char* name);

/// Whether a variable is set, not empty and not "0" (LOCKSTEP_SHOW_BUILDS=1, LOCKSTEP_POISON=1).
bool is_on(const char* name);

/// Whether the disk caches are off: LOCKSTEP_DISK_CACHE=0, or the deprecated
/// LOCKSTEP_OCCUPANCY_CACHE=0 (which says so once on standard error).
bool disk_cache_off();

/// The highest DPX level (cl/dpx.cl's DPX_NV) that kernels may use where the device has DPX:
/// LOCKSTEP_DPX, else the deprecated LOCKSTEP_SEARCH_DPX (which says so once), else 1.
int dpx_level();

}  // namespace lockstep::env
