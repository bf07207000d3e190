"""First use: every kernel variant is compiled by the OpenCL driver the first time it runs (PoCL:
seconds each; NVIDIA: a fraction of a second) and then kept in the disk cache
(~/.cache/lockstep, LOCKSTEP_CACHE_DIR), so later processes load it. ``warmup`` builds ahead of
time the variants a workload's families launch, with progress; ``lockstep precompile`` is the
CLI's."""
from __future__ import annotations

import sys
from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lockstep
from ._context import Context, context_or_default
from ._errors import InputError
from ._sparse import as_matrix

_TYPES = {"float32": "f32", "float64": "f64", "uint32": "u32", "int32": "i32",
          "uint64": "u64", "int64": "i64"}
# What each family launches, as families of the library's kernel listing (a family there
# matches its own name and the names below it: "sort" takes "sort/radix", "sort/bitonic", ...).
# cg runs SpMV and the vector kernels of blas1 beside its own; "array" is lockstep.Array's
# arithmetic (cl/elementwise.cl).
_USES = {"cg": ("cg", "blas1", "spmv")}


class Warmup(NamedTuple):
    """What ``lockstep.warmup`` did: ``programs`` built (or found in the cache) in ``seconds``."""
    programs: int
    seconds: float


def _progress_line(done: int, total: int, family: str, file: str, seconds: float) -> None:
    sys.stderr.write(f"\rlockstep.warmup: [{done}/{total}] {family} ({file}, "
                     f"{seconds:.1f} s)\033[K")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _in(family: str, name: str) -> bool:
    return family == name or family.startswith(name + "/")


def builds(families: Union[str, Sequence[str], None], dtypes: Union[Any, Sequence[Any], None],
           ctx: Context, matrix: Any = None) -> List[Tuple[str, str, str]]:
    """The (family, file, options) builds that warmup(families, dtypes, matrix=) compiles."""
    fam = [families] if isinstance(families, str) else list(families or [])
    dts = [] if dtypes is None else ([dtypes] if not isinstance(dtypes, (list, tuple)) else dtypes)
    names = []
    for d in dts:
        name = np.dtype(d).name
        if name not in _TYPES:
            raise TypeError(f"lockstep.warmup: dtype {name}; accepted: {', '.join(_TYPES)}")
        names.append(name)
    # the registry's "array" family lists every dtype; its builds come per dtype from below
    listing = [b for b in _lockstep._kernel_builds(ctx, [_TYPES[n] for n in names])
               if b[0] != "array"]
    array = _lockstep._elementwise_builds(ctx, names or list(_TYPES) + ["bool"])
    known = sorted({f for f, _, _ in listing} | {f.split("/")[0] for f, _, _ in listing} |
                   set(_USES) | {"array"})
    if not fam:
        return listing + array
    out = []
    for f in fam:
        if not any(_in(k, f) for k in known):
            raise InputError(f"lockstep.warmup: unknown family {f!r}; known: {', '.join(known)}")
        out += array if f == "array" else []
    wanted = [u for f in fam for u in _USES.get(f, (f,))]
    spmv = None
    if matrix is not None:  # SpMV: the one configuration "auto" takes for it, per dtype
        M = as_matrix(matrix, ctx)
        spmv = {M._on(np.dtype(n)).automatic_options() for n in names
                if n in ("float32", "float64")} or {M._on(M.dtype).automatic_options()}
    out += [b for b in listing if any(_in(b[0], w) for w in wanted)
            and (spmv is None or b[0] != "spmv" or b[2] in spmv)]
    return list(dict.fromkeys(out))


def warmup(families: Union[str, Sequence[str], None] = None,
           dtypes: Union[Any, Sequence[Any], None] = None,
           progress: Union[bool, Callable[[int, int, str, str, float], None]] = True,
           ctx: Optional[Context] = None, matrix: Any = None) -> Warmup:
    """Builds the kernels a workload launches into the program cache; returns ``Warmup(programs,
    seconds)``: how many programs it built (or found already cached) and the seconds it took.

    families: the library's kernel families: "spmv", "spmm", "cg" (cg's own kernels, blas1's
    and SpMV's), "blas1", "sort" (every sort algorithm; "sort/radix" the radix sort alone,
    "sort/radix-persistent" the persistent one), "bfs", "align", "apsp", "barrier", "copy",
    "array" (lockstep.Array's arithmetic); default: all, which on PoCL takes many minutes. An
    unknown family raises lockstep.InputError listing the known ones. dtypes: the value and key
    dtypes used (float32, float64, uint32, int32, uint64, int64; default: all). progress: True
    (one updating line on stderr), False, or a callable(done, total, family, file, seconds).
    matrix: a lockstep.Matrix or SciPy matrix: of SpMV's builds (its whole tuning space, what
    "auto" may choose on some matrix) only the configuration "auto" takes for this one.

        lockstep.warmup(["spmv", "cg"], np.float64)        # a float64 CG workload
        lockstep.warmup("cg", np.float64, matrix=M)        # ... on the matrix M: 4 programs
        lockstep.warmup("sort/radix", [np.float32, np.int64])
    """
    ctx = context_or_default(ctx)
    todo = builds(families, dtypes, ctx, matrix)
    cb = _progress_line if progress is True else (progress or None)
    return Warmup(len(todo), float(_lockstep._precompile(ctx, todo, cb)))
