"""First use: every kernel variant is compiled by the OpenCL driver the first time it runs (PoCL:
seconds each; NVIDIA: a fraction of a second) and then kept in the disk cache
(~/.cache/lockstep, LOCKSTEP_CACHE_DIR), so later processes load it. ``warmup`` builds ahead of
time the variants a workload can use, with progress; ``lockstep precompile`` is the CLI's."""
from __future__ import annotations

import sys
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from . import _lockstep
from ._context import Context, context_or_default

_TYPES = {"float32": "f32", "float64": "f64", "uint32": "u32", "int32": "i32",
          "uint64": "u64", "int64": "i64"}


def _progress_line(done: int, total: int, family: str, file: str, seconds: float) -> None:
    sys.stderr.write(f"\rlockstep.warmup: [{done}/{total}] {family} ({file}, "
                     f"{seconds:.1f} s)\033[K")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def warmup(families: Union[str, Sequence[str], None] = None,
           dtypes: Union[Any, Sequence[Any], None] = None,
           progress: Union[bool, Callable[[int, int, str, str, float], None]] = True,
           ctx: Optional[Context] = None) -> float:
    """Builds the kernels a workload uses into the program cache; returns the seconds it took.

    families: names or prefixes of the library's kernel families: "spmv", "spmm", "cg", "blas1",
    "sort" (every sort algorithm; "sort/radix" the radix sort alone), "bfs", "align", "search",
    "apsp", "barrier", "copy", "mpi" (default: all, which on PoCL takes many minutes). dtypes: the value and key
    dtypes used (float32, float64, uint32, int32, uint64, int64; default: all). progress: True
    (one updating line on stderr), False, or a callable(done, total, family, file, seconds).

        lockstep.warmup(["spmv", "cg"], np.float64)        # a float64 CG workload
        lockstep.warmup("sort/radix", [np.float32, np.int64])
    """
    fam = [families] if isinstance(families, str) else list(families or [])
    dts = [] if dtypes is None else ([dtypes] if not isinstance(dtypes, (list, tuple)) else dtypes)
    types = []
    for d in dts:
        name = np.dtype(d).name
        if name not in _TYPES:
            raise TypeError(f"lockstep.warmup: dtype {name}; accepted: {', '.join(_TYPES)}")
        types.append(_TYPES[name])
    cb = _progress_line if progress is True else (progress or None)
    return _lockstep._precompile(context_or_default(ctx), fam, types, cb)
