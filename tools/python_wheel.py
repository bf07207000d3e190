#!/usr/bin/env python3
"""Packs the Python package that CMake built (BUILD/python/lockstep: the pure-Python files and
the _lockstep module) into a wheel, with the standard library alone (PEP 427), so that CI makes a
wheel from Debian's packages without scikit-build-core or pybind11 from PyPI.

The wheel travels to a Debian 12 (or similar glibc >= 2.36) that has Python, NumPy, SciPy and an
OpenCL ICD: the module's shared libraries outside that set and outside the manylinux policy's
(libc, libm, libstdc++, libgcc_s, libz; libOpenCL.so.1 is the ICD loader an ICD package brings)
are copied into lockstep/_libs (libssw.so.0, libgomp.so.1, and the CLI's
libboost_program_options) and the module's RUNPATH is set to $ORIGIN/_libs with patchelf
(Debian's patchelf), as auditwheel repair does. The CLI (BUILD/lockstep) goes in as
lockstep/_bin/lockstep (RUNPATH $ORIGIN/../_libs), run by the `lockstep` console script
(lockstep/_cli.py).

    tools/python_wheel.py BUILD_DIR OUT_DIR      -> OUT_DIR/lockstep-VERSION-TAG.whl
"""
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import zipfile

SYSTEM = re.compile(r"^(libc|libm|libdl|librt|libpthread|ld-linux.*|libstdc\+\+|libgcc_s|libz|"
                    r"libOpenCL)\.so")


def needed(so):
    out = subprocess.run(["ldd", so], capture_output=True, text=True, check=True).stdout
    libs = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m and not SYSTEM.match(m.group(1)):
            if m.group(2) == "not":
                sys.exit(f"python_wheel: {so} needs {m.group(1)}, which is not found")
            libs[m.group(1)] = m.group(2)
    return libs


def metadata(root, version):
    """METADATA (core metadata 2.1) from pyproject.toml's [project], as scikit-build-core writes it
    for `pip install .`: one source for both wheels."""
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    if project["version"] != version:
        sys.exit(f"python_wheel: pyproject.toml says version {project['version']}, "
                 f"lockstep/__init__.py {version}")
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {version}",
             f"Summary: {project['description']}", f"Keywords: {','.join(project['keywords'])}"]
    names = [a["name"] for a in project["authors"] if "name" in a and "email" not in a]
    emails = [f"{a['name']} <{a['email']}>" if "name" in a else a["email"]
              for a in project["authors"] if "email" in a]
    lines += [f"Author: {', '.join(names)}"] if names else []
    lines += [f"Author-email: {', '.join(emails)}"] if emails else []
    lines += [f"License: {project['license']['text']}"]
    lines += [f"Classifier: {c}" for c in project["classifiers"]]
    lines += [f"Requires-Python: {project['requires-python']}"]
    lines += [f"Requires-Dist: {d}" for d in project["dependencies"]]
    for extra, deps in project["optional-dependencies"].items():
        lines += [f"Provides-Extra: {extra}"]
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    lines += ["Description-Content-Type: text/markdown", ""]
    with open(os.path.join(root, project["readme"]), encoding="utf-8") as f:
        return "\n".join(lines) + "\n" + f.read()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, out = sys.argv[1], sys.argv[2]
    src = os.path.join(build, "python", "lockstep")
    init = open(os.path.join(src, "__init__.py")).read()
    version = re.search(r'__version__ = "([^"]+)"', init)[1]
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    tag = f"{py}-{py}-{sysconfig.get_platform().replace('-', '_').replace('.', '_')}"
    if shutil.which("patchelf") is None:
        sys.exit("python_wheel: needs patchelf (apt-get install patchelf)")
    with tempfile.TemporaryDirectory() as tmp:
        pkg = os.path.join(tmp, "lockstep")
        shutil.copytree(src, pkg, ignore=shutil.ignore_patterns("__pycache__"))
        module = [f for f in os.listdir(pkg) if f.startswith("_lockstep") and f.endswith(".so")][0]
        libs = needed(os.path.join(pkg, module))
        cli = os.path.join(build, "lockstep")
        if not os.access(cli, os.X_OK):
            sys.exit(f"python_wheel: no CLI at {cli} (build it: tools/run.sh)")
        os.makedirs(os.path.join(pkg, "_bin"))
        shutil.copy2(cli, os.path.join(pkg, "_bin", "lockstep"))
        libs.update(needed(cli))
        subprocess.run(["patchelf", "--set-rpath", "$ORIGIN/../_libs",
                        os.path.join(pkg, "_bin", "lockstep")], check=True)
        os.makedirs(os.path.join(pkg, "_libs"), exist_ok=True)
        for name, path in libs.items():
            shutil.copy2(path, os.path.join(pkg, "_libs", name))
            subprocess.run(["patchelf", "--set-rpath", "$ORIGIN", os.path.join(pkg, "_libs", name)],
                           check=True)
        subprocess.run(["patchelf", "--set-rpath", "$ORIGIN/_libs", os.path.join(pkg, module)],
                       check=True)
        info = f"lockstep-{version}.dist-info"
        os.makedirs(os.path.join(tmp, info))
        files = {
            "entry_points.txt": "[console_scripts]\nlockstep = lockstep._cli:main\n",
            "METADATA": metadata(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                 version),
            "WHEEL": f"Wheel-Version: 1.0\nGenerator: lockstep tools/python_wheel.py\n"
                     f"Root-Is-Purelib: false\nTag: {tag}\n",
        }
        for name, text in files.items():
            with open(os.path.join(tmp, info, name), "w") as f:
                f.write(text)
        os.makedirs(out, exist_ok=True)
        wheel = os.path.join(out, f"lockstep-{version}-{tag}.whl")
        record = []
        with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
            for base, _, names in os.walk(tmp):
                for n in sorted(names):
                    path = os.path.join(base, n)
                    arc = os.path.relpath(path, tmp)
                    data = open(path, "rb").read()
                    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                    record.append(f"{arc},sha256={digest.decode()},{len(data)}")
                    z.write(path, arc)
            record.append(f"{info}/RECORD,,")
            z.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    print(f"wheel={wheel} vendored={','.join(sorted(libs)) or 'none'}")


if __name__ == "__main__":
    main()
