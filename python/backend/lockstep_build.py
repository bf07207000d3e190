"""The build backend of `pip install .`: scikit-build-core, every hook as it defines them, with
the wheel tagged for the glibc it is built against (manylinux_2_36_x86_64 on Debian 12) instead
of linux_x86_64. python/CMakeLists.txt makes the wheel what that tag promises: the shared
libraries the module and the CLI link outside the manylinux policy are copied into lockstep/_libs,
all but libOpenCL.so.1, the ICD loader every OpenCL installation brings; tests/python/test_wheel.py
checks the tag with `auditwheel show`. A tag given with `--config-settings=wheel.tags=...` (or
SKBUILD_WHEEL_TAGS) wins; off glibc Linux the tag is scikit-build-core's."""
import os

import scikit_build_core.build as _backend
from scikit_build_core.build import *  # noqa: F401,F403


def manylinux_tag():
    """interpreter-abi-manylinux_X_Y_arch of the running Python, X.Y its glibc; None off glibc."""
    from packaging.tags import sys_tags

    # the most specific first: the interpreter's own ABI with linux_<arch>, then manylinux_<glibc>
    # (older packaging lists manylinux first), then older glibcs and other ABIs
    first = None
    for tag in sys_tags():
        first = first or tag
        if (tag.interpreter, tag.abi) != (first.interpreter, first.abi):
            return None
        if tag.platform.startswith("manylinux_"):
            return str(tag)
    return None


def tagged(config_settings):
    """config_settings with wheel.tags set to manylinux_tag(), unless the caller set a tag."""
    settings = dict(config_settings or {})
    if "wheel.tags" in settings or "skbuild.wheel.tags" in settings or \
            "SKBUILD_WHEEL_TAGS" in os.environ:
        return settings
    tag = manylinux_tag()
    if tag:
        settings["wheel.tags"] = [tag]
    return settings


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _backend.build_wheel(wheel_directory, tagged(config_settings), metadata_directory)


# The prepared metadata holds the WHEEL file with its tag, which build_wheel compares with its own.
if hasattr(_backend, "prepare_metadata_for_build_wheel"):
    def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
        return _backend.prepare_metadata_for_build_wheel(metadata_directory,
                                                         tagged(config_settings))
