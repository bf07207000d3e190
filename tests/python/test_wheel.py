"""The wheel carries the CLI: tools/python_wheel.py packs the build tree's module and CLI with the
libraries they link (the OpenCL ICD loader and the C/C++ runtime aside), and pip installs a
`lockstep` console script that runs it. Needs the build tree (tools/run.sh), patchelf and venv."""
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

import lockstep


def test_wheel_ships_the_cli(tmp_path, root):
    build = os.environ.get("LOCKSTEP_BUILD", os.path.join(root, "build"))
    if not os.access(os.path.join(build, "lockstep"), os.X_OK):
        pytest.skip("no CLI in the build tree (tools/run.sh builds it)")
    if shutil.which("patchelf") is None:
        pytest.skip("no patchelf")
    out = subprocess.run([sys.executable, os.path.join(root, "tools", "python_wheel.py"), build,
                          str(tmp_path / "wheel")], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    wheel = next((tmp_path / "wheel").iterdir())
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        entry = [n for n in names if n.endswith("entry_points.txt")]
        assert entry and "lockstep = lockstep._cli:main" in z.read(entry[0]).decode()
        assert "lockstep/_bin/lockstep" in names and "lockstep/_cli.py" in names
        assert z.getinfo("lockstep/_bin/lockstep").external_attr >> 16 & 0o111
        assert not any(n.startswith("lockstep/_libs/libOpenCL") for n in names)
    venv = tmp_path / "venv"
    if subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                      capture_output=True).returncode != 0:
        pytest.skip("python3 -m venv is not available")
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-index", "--no-deps",
                          str(wheel)], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([str(venv / "bin" / "lockstep"), "devices"], capture_output=True,
                         text=True, timeout=300, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert lockstep.devices()[0]["name"] in run.stdout
