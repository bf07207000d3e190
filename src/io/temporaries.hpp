// Temporary files that an interrupted run must not leave behind (internal). The one output
// writer (OutputFile) and the one atomic disk writer (disk_cache::write_atomic) register each
// temporary while it exists; on SIGINT, SIGTERM, SIGHUP or SIGXFSZ (past `ulimit -f`) a handler
// unlinks every registered path (unlink is async-signal-safe) and re-raises the signal with its
// default action, so the process still ends as killed by it (a shell's 130, 143, 129).
// The handler is (re)installed on every registration. A handler that was in place when this
// library was loaded (Python's SIGINT) is left alone; one installed since (the OpenCL platform's:
// PoCL's LLVM puts its own on these signals when it loads) is replaced, and called by ours once
// the temporaries are removed, so that it still does its own cleaning up.
#pragma once
#include <string>

namespace lockstep::temporaries {

/// Registers `path`; returns its slot (-1 when every slot is taken: then it is not covered).
int add(const std::string& path);
/// Forgets a slot (after the temporary was renamed into place or removed). -1 is ignored.
void remove(int slot);
/// Installs the handler for each of SIGINT, SIGTERM, SIGHUP, SIGXFSZ as described above (add()
/// does this each time; a test's forked child calls it after resetting the signals).
void install_handlers();

}  // namespace lockstep::temporaries
