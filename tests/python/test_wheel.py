"""The wheels: tools/python_wheel.py packs the build tree's module and CLI with the libraries they
link (the OpenCL ICD loader and the C/C++ runtime aside), and pip installs a `lockstep` console
script that runs it (needs the build tree (tools/run.sh), patchelf and venv). The wheel of a plain
`pip wheel .` (LOCKSTEP_WHEEL, which .ci/run builds) is tagged manylinux and `auditwheel show`
finds nothing in it outside that tag's policy but libOpenCL.so.1. Both carry pyproject.toml's
metadata."""
import email.parser
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

import lockstep


def check_contents(wheel, root):
    """The console script, the CLI, no ICD loader, and pyproject.toml's metadata."""
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    info = f"lockstep-{lockstep.__version__}.dist-info"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert "lockstep = lockstep._cli:main" in z.read(f"{info}/entry_points.txt").decode()
        assert "lockstep/_bin/lockstep" in names and "lockstep/_cli.py" in names
        assert z.getinfo("lockstep/_bin/lockstep").external_attr >> 16 & 0o111
        assert not any(re.match(r"lockstep[^/]*/.*libOpenCL", n) for n in names), names
        meta = email.parser.Parser().parsestr(z.read(f"{info}/METADATA").decode())
    assert (meta["Name"], meta["Version"]) == ("lockstep", project["version"])
    assert project["version"] == lockstep.__version__
    assert meta["Summary"] == project["description"]
    assert meta["Requires-Python"] == project["requires-python"]
    assert set(project["dependencies"]) <= set(meta.get_all("Requires-Dist"))
    assert meta.get_all("Classifier") == project["classifiers"]
    assert meta["Author"] == project["authors"][0]["name"]
    assert meta["License"] == project["license"]["text"] == "MIT"
    with open(os.path.join(root, project["readme"]), encoding="utf-8") as f:
        assert meta.get_payload().strip() == f.read().strip()
    assert meta["Description-Content-Type"] == "text/markdown"


def pip_wheel():
    wheel = os.environ.get("LOCKSTEP_WHEEL")
    if not wheel:
        pytest.skip("LOCKSTEP_WHEEL names no wheel of `pip wheel .` (.ci/run builds one)")
    return wheel


def test_pip_wheel_is_manylinux(root):
    wheel = pip_wheel()
    name = re.fullmatch(r"lockstep-([^-]+)-(cp\d+)-(cp\d+t?)-(manylinux_\d+_\d+_x86_64)\.whl",
                        os.path.basename(wheel))
    assert name, f"{os.path.basename(wheel)} is not tagged manylinux_X_Y_x86_64"
    with zipfile.ZipFile(wheel) as z:
        tag = z.read(f"lockstep-{name[1]}.dist-info/WHEEL").decode()
        assert f"Tag: {name[2]}-{name[3]}-{name[4]}\n" in tag, tag
        libs = {os.path.basename(n) for n in z.namelist() if n.startswith("lockstep/_libs/")}
    assert {"libssw.so.0", "libgomp.so.1"} <= libs, libs
    stems = [n.split(".so")[0] for n in libs]
    assert len(stems) == len(set(stems)), f"a library twice (a symlink chain): {sorted(libs)}"
    check_contents(wheel, root)


def test_pip_wheel_passes_auditwheel():
    """`auditwheel show`: the symbols fit the wheel's manylinux tag, and nothing outside that
    policy is linked from outside the wheel but the ICD loader (auditwheel has no --exclude for
    show, so it calls the whole wheel linux_x86_64 for libOpenCL.so.1 alone)."""
    wheel = pip_wheel()
    auditwheel = shutil.which("auditwheel")
    if auditwheel is None:
        pytest.skip("no auditwheel (a Python build tool from PyPI: pip install auditwheel)")
    out = subprocess.run([auditwheel, "show", "--json", wheel], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    show = json.loads(out.stdout)
    plat = re.search(r"-(manylinux_\d+_\d+_x86_64)\.whl$", wheel)
    assert plat, f"{os.path.basename(wheel)} is not tagged manylinux_X_Y_x86_64"
    plat = plat[1]
    glibc = [int(v) for v in plat.split("_")[1:3]]
    assert show["sym_tag"].startswith("manylinux_"), show["sym_tag"]
    assert [int(v) for v in show["sym_tag"].split("_")[1:3]] <= glibc, show["sym_tag"]
    assert set(show["external_libs"]) == {"libOpenCL.so.1"}, show["external_libs"]
    assert show["policy_upgrades"].get(plat) == {"libs_to_eliminate": ["libOpenCL.so.1"]}, \
        show["policy_upgrades"].get(plat, f"this auditwheel has no policy {plat}")
    assert not show["unsupported_isa"]


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
    check_contents(wheel, root)
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
