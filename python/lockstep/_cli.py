"""The ``lockstep`` console script of the wheel: runs the command-line tool shipped inside the
package (lockstep/_bin/lockstep, with its libraries in lockstep/_libs) with the same arguments."""
from __future__ import annotations

import os
import sys


def main() -> None:
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "lockstep")
    if not os.access(exe, os.X_OK):
        sys.exit("lockstep: this installation has no command-line tool (lockstep/_bin/lockstep); "
                 "build it with CMake (tools/run.sh) or install the wheel")
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
