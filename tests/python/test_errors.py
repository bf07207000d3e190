"""Errors become Python exceptions with clear messages, never a crash: devices and contexts, and
a real OpenCL build failure (a broken kernel file through LOCKSTEP_KERNEL_DIR) carrying the call,
the status name and the build log."""
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import lockstep


def test_devices_and_context(ctx):
    devices = lockstep.devices()
    assert devices and {"index", "name", "platform", "type"} <= set(devices[0])
    assert lockstep.default_context() is ctx
    c = lockstep.Context(device=0)
    assert c.info["index"] == 0 and "lockstep.Context(device=0)" in repr(c)
    y = lockstep.spmv(__import__("scipy.sparse").sparse.csr_array(np.eye(2)), np.ones(2), ctx=c)
    np.testing.assert_array_equal(y, [1.0, 1.0])


def test_context_errors():
    with pytest.raises(lockstep.InputError, match="no-such-device"):
        lockstep.Context(device="no-such-device")
    with pytest.raises(TypeError, match="device must be None, an int index or a str"):
        lockstep.Context(device=1.5)
    with pytest.raises(TypeError, match="ctx must be a lockstep.Context"):
        lockstep.sort(np.zeros(2, np.uint32), ctx="0")


def test_exception_classes():
    assert issubclass(lockstep.InputError, ValueError)
    assert issubclass(lockstep.OpenCLError, RuntimeError)
    assert issubclass(lockstep.InputError, lockstep.Error)
    e = lockstep.OpenCLError("clFoo failed", "clFoo", -5, "CL_OUT_OF_RESOURCES", "")
    assert (e.call, e.status, e.status_name) == ("clFoo", -5, "CL_OUT_OF_RESOURCES")


def test_build_failure_is_an_opencl_error(tmp_path, root):
    kernels = tmp_path / "cl"
    shutil.copytree(os.path.join(root, "cl"), kernels)
    with open(kernels / "spmv.cl", "a") as f:
        f.write("\n__kernel void broken(void) { this is not OpenCL C; }\n")
    script = textwrap.dedent("""
        import numpy as np, scipy.sparse as sp, lockstep
        try:
            lockstep.spmv(sp.csr_array(np.eye(3)), np.ones(3), algorithm="scalar")
        except lockstep.OpenCLError as e:
            print("call=" + e.call, "status=" + e.status_name, "log=%d" % len(e.build_log))
            print("message=" + str(e).splitlines()[0])
    """)
    env = dict(os.environ, LOCKSTEP_KERNEL_DIR=str(kernels), LOCKSTEP_CACHE_DIR=str(tmp_path / "c"),
               PYTHONPATH=os.path.dirname(os.path.dirname(lockstep.__file__)))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert "call=clBuildProgram" in out.stdout
    assert "status=CL_BUILD_PROGRAM_FAILURE" in out.stdout
    log_len = int(out.stdout.split("log=")[1].split()[0])
    assert log_len > 0
    assert "clBuildProgram" in out.stdout.split("message=")[1]


def test_bad_device_index_is_device_not_found():
    with pytest.raises(lockstep.DeviceNotFoundError, match="out of range"):
        lockstep.Context(device=99)
    with pytest.raises(lockstep.DeviceNotFoundError, match="no-such-device"):
        lockstep.Context(device="no-such-device")


def test_negative_shape_is_a_one_line_error():
    with pytest.raises(lockstep.InputError, match="negative dimensions") as e:
        lockstep.empty(-1)
    assert "\n" not in str(e.value) and "Invoked with" not in str(e.value)
    with pytest.raises(lockstep.InputError, match="negative dimensions"):
        lockstep.zeros((3, -2))
    with pytest.raises(TypeError, match="shape must be"):
        lockstep.empty("abc")


def test_unknown_scoring_matrix():
    with pytest.raises(lockstep.InputError, match="unknown matrix 'blosum99'"):
        lockstep.search(["ACDE"], ["ACDE"], matrix="blosum99")
    with pytest.raises(lockstep.InputError, match="unknown matrix 'blosum99'"):
        lockstep.align("ACDE", "ACDE", matrix="blosum99")


def test_pyopencl_queue_of_another_context():
    cl = pytest.importorskip("pyopencl")
    other = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(other)
    a = lockstep.asarray(np.arange(4.0))  # the default context: another OpenCL context
    with pytest.raises(lockstep.InputError, match="another OpenCL context"):
        a.to_pyopencl(queue)
    with pytest.raises(lockstep.InputError, match="another OpenCL context"):
        lockstep.Context.from_pyopencl(cl.Context(other.devices), queue)
