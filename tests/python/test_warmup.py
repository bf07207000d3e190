"""lockstep.warmup builds exactly what its families launch: an unknown family is an error, cg
brings the vector kernels (blas1) and SpMV it runs, "sort/radix" is the radix sort without the
persistent one, and the count of programs built comes back. Listing only (no compiles) except
one small family."""
import numpy as np
import pytest

import lockstep
from lockstep import _warmup


def families(fam, dtypes):
    return {(f, file) for f, file, _ in _warmup.builds(fam, dtypes, lockstep.default_context())}


def test_unknown_family_is_an_error():
    with pytest.raises(lockstep.InputError, match="unknown family 'nosuchfamily'"):
        lockstep.warmup("nosuchfamily")
    with pytest.raises(lockstep.InputError, match="known: .*sort"):
        lockstep.warmup(["spmv", "sort/nosuch"])


def test_cg_brings_what_it_launches():
    got = families(["cg"], np.float64)
    files = {file for _, file in got}
    assert {"cg.cl", "blas1.cl"} <= files  # blas1: cg's fill/axpby/dot
    assert any(f == "spmv" for f, _ in got)


def test_sort_radix_excludes_the_persistent_sort():
    got = families("sort/radix", np.float64)
    assert got and all(f == "sort/radix" for f, _ in got)
    every = families("sort", np.float64)
    assert any(f == "sort/radix-persistent" for f, _ in every)


def test_warmup_returns_the_count(tmp_path, monkeypatch):
    seen = []
    done = lockstep.warmup("array", np.float64, progress=lambda *a: seen.append(a))
    assert done.programs == len(seen) == 1 and done.seconds >= 0
    assert seen[0][2:4] == ("array", "elementwise.cl")


def test_matrix_narrows_spmv_to_its_configuration(root):
    A = lockstep.read_matrix_market(f"{root}/matrices/laplace2d_64.mtx")
    M = lockstep.Matrix(A)
    got = _warmup.builds("cg", np.float64, lockstep.default_context(), matrix=M)
    spmv = [b for b in got if b[0] == "spmv"]
    assert len(spmv) == 1 and spmv[0][2] == M._on(np.dtype(np.float64)).automatic_options()
    assert {b[1] for b in got} >= {"cg.cl", "blas1.cl"}
