"""The exceptions of lockstep (the C++ module raises these; see python/src/module.cpp). Each also
subclasses what SciPy or Python raises for the same problem, so code written against them catches
lockstep's too: a missing file is a FileNotFoundError, a negative cycle a
scipy.sparse.csgraph.NegativeCycleError, a missing device a RuntimeError."""
from scipy.sparse.csgraph import NegativeCycleError as _SciPyNegativeCycleError


class Error(Exception):
    """Base class of every error lockstep raises itself."""


class InputError(Error, ValueError):
    """Bad input: a malformed file (the message names the file and line), a shape or size that
    does not fit, an unknown algorithm name, ..."""


class MissingFileError(FileNotFoundError, InputError):
    """An input file that does not exist: a FileNotFoundError (``errno``, ``filename``) and a
    lockstep.InputError."""


class NegativeCycleError(InputError, _SciPyNegativeCycleError):
    """apsp found a negative cycle (the message names a vertex on it): what
    ``scipy.sparse.csgraph.floyd_warshall`` raises, and a lockstep.InputError."""


class DeviceNotFoundError(InputError, RuntimeError):
    """No OpenCL device (or none matching the ``device=`` asked for): a RuntimeError, and a
    lockstep.InputError as before."""


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


class ConvergenceWarning(RuntimeWarning):
    """cg stopped without reaching the tolerance for a reason other than maxiter: its true
    residual stagnated above the tolerance (the precision's attainable accuracy; the message
    gives the floor reached), or b is not finite."""


class PrecisionWarning(UserWarning):
    """A result computed in lower precision than its input (apsp's float64 weights)."""
