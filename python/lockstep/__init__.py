"""lockstep from Python: the OpenCL library's SpMV (with its autotuner), conjugate gradients,
sorting, BFS, all-pairs shortest paths, Smith-Waterman alignment and database search on NumPy
arrays and SciPy sparse matrices.

    import lockstep, scipy.sparse as sp, numpy as np
    A = lockstep.read_matrix_market("matrices/laplace2d_64.mtx")   # scipy.sparse.csr_array
    y = lockstep.spmv(A, np.ones(A.shape[1]))                     # on LOCKSTEP_DEVICE / first GPU

Every call takes ``ctx=None`` (the default context: ``LOCKSTEP_DEVICE``, else the first GPU,
else the first device) or a ``lockstep.Context(device=...)``. The names of the options are the
CLI's: ``algorithm=``, ``barrier=``, ``local_size=``. Errors: ``TypeError`` for a wrong type or
dtype (the message lists the accepted dtypes), ``lockstep.InputError`` (a ValueError) for bad
input, with subclasses that are what Python and SciPy raise (``MissingFileError``: a
FileNotFoundError; ``NegativeCycleError``: scipy.sparse.csgraph's; ``DeviceNotFoundError``: a
RuntimeError), ``lockstep.OpenCLError`` (a RuntimeError with ``call``, ``status_name`` and
``build_log``) when the device fails; ``lockstep.ConvergenceWarning`` when cg stops without
reaching its tolerance for another reason than maxiter. Device work runs without the GIL.

Device arrays (``lockstep.Array``: asarray, zeros, ones, full, the ``*_like`` functions) keep
vectors on the device between calls, with arithmetic, comparisons, dot and norm there
(lockstep/_array.py); ``lockstep.device_reads()`` counts their reads back to the host.
"""
from ._errors import (ConvergenceWarning, DeviceNotFoundError, Error, InputError,  # first: the
                      MissingFileError, NegativeCycleError, OpenCLError,  # C++ module imports them
                      PrecisionWarning)
from . import _lockstep
from ._checks import ConversionWarning
from ._context import Context, default_context, devices
from ._array import Array, device_reads
from ._arith import dot, norm, vdot  # also installs Array's operators
from ._creation import (asarray, empty, empty_like, free_cached_buffers, full, full_like, ones,
                        ones_like, synchronize, zeros, zeros_like)
from ._sparse import Matrix, read_matrix_market, spmv, tune
from ._cg import cg
from ._warmup import warmup
from ._sort import argsort, sort, sort_pairs
from ._graph import apsp, bfs, read_graph
from ._align import Alignment, Sequence, align, read_fasta
from ._search import search

__version__ = "0.1.0"

__all__ = [
    "Alignment", "Array", "Context", "ConversionWarning", "ConvergenceWarning",
    "DeviceNotFoundError", "Error", "InputError", "Matrix", "MissingFileError",
    "NegativeCycleError", "OpenCLError", "PrecisionWarning", "Sequence", "align", "apsp",
    "argsort", "asarray", "bfs", "cg", "default_context", "device_reads", "devices", "dot",
    "empty", "empty_like", "free_cached_buffers", "full", "full_like", "norm", "ones",
    "ones_like", "read_fasta", "read_graph", "read_matrix_market", "search", "sort",
    "sort_pairs", "spmv", "synchronize", "tune", "vdot", "warmup", "zeros", "zeros_like",
]
