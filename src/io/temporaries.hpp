// Temporary files that an interrupted run must not leave behind (internal). The one output
// writer (OutputFile) and the one atomic disk writer (disk_cache::write_atomic) register each
// temporary while it exists; on SIGINT, SIGTERM or SIGHUP a handler unlinks every registered
// path (unlink is async-signal-safe; nothing else is done there) and re-raises the signal with
// its default action, so the process still ends as killed by it (a shell's 130, 143, 129).
// The handler is installed on the first registration, and only for a signal whose action is
// still the default: a program's own handler (Python's SIGINT) is left alone.
#pragma once
#include <string>

namespace lockstep::temporaries {

/// Registers `path`; returns its slot (-1 when every slot is taken: then it is not covered).
int add(const std::string& path);
/// Forgets a slot (after the temporary was renamed into place or removed). -1 is ignored.
void remove(int slot);
/// Installs the handler for each of SIGINT, SIGTERM, SIGHUP whose action is the default (add()
/// does this once per process; a test's forked child calls it after resetting the signals).
void install_handlers();

}  // namespace lockstep::temporaries
