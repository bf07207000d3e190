"""The exceptions of lockstep (the C++ module raises these; see python/src/module.cpp)."""


class Error(Exception):
    """Base class of every error lockstep raises itself."""


class InputError(Error, ValueError):
    """Bad input: a malformed file (the message names the file and line), a shape or size that
    does not fit, an unknown algorithm name, a negative cycle, ..."""


class OpenCLError(Error, RuntimeError):
    """An OpenCL call failed.

    Attributes: ``call`` (e.g. ``"clBuildProgram"``), ``status`` (the numeric code),
    ``status_name`` (e.g. ``"CL_BUILD_PROGRAM_FAILURE"``) and ``build_log`` (the compiler's
    complete log for a failed build, else ``""``). ``str(error)`` names the call and status.
    """

    def __init__(self, message: str, call: str = "", status: int = 0, status_name: str = "",
                 build_log: str = "") -> None:
        super().__init__(message)
        self.call = call
        self.status = status
        self.status_name = status_name
        self.build_log = build_log
