"""Devices and the default context every call uses when it is given no ``ctx``."""
from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional

from . import _lockstep

Context = _lockstep.Context

_default: Optional[Context] = None
_default_lock = threading.Lock()


def devices() -> List[Dict[str, Any]]:
    """All OpenCL devices, in the order of ``lockstep devices``: one dict per device with
    ``index``, ``platform``, ``name``, ``type`` ("GPU", "CPU", ...), ``version``,
    ``compute_units``, ``global_mem_bytes``, ``fp64``, ``wave_width`` and more."""
    return _lockstep.devices()


def default_context() -> Context:
    """The context used when a call gets ``ctx=None``: created on first use from
    ``LOCKSTEP_DEVICE``, else the first GPU, else the first device; then kept."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default


def context_or_default(ctx: Optional[Context]) -> Context:
    if ctx is None:
        return default_context()
    if not isinstance(ctx, Context):
        raise TypeError(f"ctx must be a lockstep.Context or None, not {type(ctx).__name__}")
    return ctx
