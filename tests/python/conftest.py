"""pytest setup for the Python package: imports `lockstep` from the environment, else from the
build tree (build/python, what tools/run.sh builds), so `pytest tests/python` works after either
`pip install .` or `tools/run.sh`. Every test runs on the default context (LOCKSTEP_DEVICE, else
the first GPU, else the first device: PoCL in CI)."""
import os
import sys
import zlib

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import lockstep  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.environ.get("LOCKSTEP_BUILD", os.path.join(ROOT, "build")),
                                    "python"))
    import lockstep  # noqa: F401


@pytest.fixture(scope="session")
def ctx():
    return lockstep.default_context()


@pytest.fixture
def rng(request):
    # one seed per test, from its name: reproducible, and different across tests
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


@pytest.fixture(scope="session")
def root():
    return ROOT
