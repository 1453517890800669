"""A real ``pip install -e`` that needs nothing from a package index.

The project carries its own PEP 660 build backend (``backend-path``): its editable wheel holds
a ``.pth`` naming the project's source folder, as setuptools' does for a simple layout, and
pip records the install as editable in ``direct_url.json``, as for any other backend.
"""

from __future__ import annotations

import ensurepip
import subprocess
import sys
from pathlib import Path

BACKEND = """\
import os
import zipfile

NAME, VERSION, SOURCE = {name!r}, "0.1", {source!r}


def get_requires_for_build_editable(config_settings=None):
    return []


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    wheel = f"{{NAME}}-{{VERSION}}-py3-none-any.whl"
    info = f"{{NAME}}-{{VERSION}}.dist-info"
    files = {{
        f"__editable__.{{NAME}}-{{VERSION}}.pth": os.path.abspath(SOURCE) + "\\n",
        f"{{info}}/METADATA": f"Metadata-Version: 2.1\\nName: {{NAME}}\\nVersion: {{VERSION}}\\n",
        f"{{info}}/WHEEL": "Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    }}
    record = "".join(f"{{name}},,\\n" for name in files) + f"{{info}}/RECORD,,\\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w") as archive:
        for name, text in {{**files, f"{{info}}/RECORD": record}}.items():
            archive.writestr(name, text)
    return wheel
"""
PYPROJECT = """\
[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]

[project]
name = "{name}"
version = "0.1"
"""


def write_project(folder: Path, name: str, source: str = "src") -> None:
    """pyproject.toml and backend.py of project ``name``, whose packages are in ``source``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(PYPROJECT.format(name=name))
    (folder / "backend.py").write_text(BACKEND.format(name=name, source=source))


def install_editable(project: Path, venv: Path, with_pip: bool = False) -> Path:
    """A new venv with ``project`` installed editable; its python. Without a pip of its own
    unless asked: this run's pip fills it."""
    wheel = bundled_pip()
    # a pip of the venv's own: this run's pip unpacks the bundled wheel (2.5 s; ensurepip
    # starts a pip of its own for it, 14 s at load 14); where the Python keeps no bundled wheel
    # (Debian's), venv makes it as it always does
    own_pip = with_pip and wheel is None
    subprocess.run(
        [sys.executable, "-m", "venv", *["--without-pip"] * (not own_pip), str(venv)], check=True
    )
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps"]
    if with_pip and wheel is not None:
        subprocess.run([*install, "--no-index", str(wheel)], check=True, capture_output=True)
    subprocess.run([*install, "--no-index", "-e", str(project)], check=True, capture_output=True)
    return python


def bundled_pip() -> Path | None:
    """The pip wheel ensurepip would give a venv, where this Python keeps one."""
    wheels = sorted(Path(ensurepip.__file__).with_name("_bundled").glob("pip-*.whl"))
    return wheels[-1] if wheels else None
