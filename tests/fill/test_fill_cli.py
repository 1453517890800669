"""The fill commands as installed: under ``dotdbg`` and as their own console scripts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fill.fill_support import script
from tests.infra.imports import imported_by


def test_dotdbg_lists_the_three_commands() -> None:
    done = subprocess.run([script("dotdbg"), "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for name in ("mem-fill", "disk-fill", "gpu-fill"):
        assert name in done.stdout


@pytest.mark.parametrize("name", ["mem-fill", "disk-fill", "gpu-fill"])
def test_each_script_has_help(name: str) -> None:
    done = subprocess.run([script(name), "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.startswith(f"usage: {name} ")
    assert "--hold" in done.stdout


def test_dotdbg_disk_fill_runs_the_same_command(tmpfs: Path) -> None:
    argv = [script("dotdbg"), "disk-fill", "--leave", "60M", str(tmpfs), "--hold", "0"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"{tmpfs}: 64.00M available before, 60.00M now" in done.stderr


@pytest.mark.parametrize(
    ("argv", "first_line"),
    [
        (["mem-fill", "5X"], "mem-fill: error: size '5X' is not a size"),
        (["mem-fill", "8M", "--step", "0"], "mem-fill: error: --step must be more than 0"),
        (["mem-fill", "8M", "--hold", "1", "--", "true"], "mem-fill: error: --hold and a command"),
        (["dotdbg", "mem-fill", "1.5"], "dotdbg: error: size '1.5' has a fraction of a byte"),
        (["gpu-fill", "--leave", "1G", "--take", "1G"], "gpu-fill: error: give exactly one of"),
        (["gpu-fill", "--leave", "lots"], "gpu-fill: error: --leave 'lots' is not a size"),
        # checked before any memory is taken or any namespace made: the error is the first line
        (
            ["mem-fill", "8M", "--", "no-such-cmd"],
            "mem-fill: error: command 'no-such-cmd' not found",
        ),
    ],
)
def test_bad_arguments_are_one_error_and_exit_2(argv: list[str], first_line: str) -> None:
    done = subprocess.run([script(argv[0]), *argv[1:]], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0].startswith(first_line)
    assert "Traceback" not in done.stderr


def test_importing_the_cli_loads_no_fill_machinery() -> None:
    code = (
        "import sys, dotdbg.cli\n"
        "heavy = ['ctypes', 'mmap', 'psutil', 'pynvml', 'dotdbg.fill.gpu']\n"
        "print([name for name in heavy if name in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]"


def test_filling_a_disk_imports_nothing_it_does_not_use(tmpfs: Path) -> None:
    # tempfile (shutil, random), ctypes and subprocess (--tmpfs) and dataclasses (inspect)
    # were most of disk-fill's fixed cost (issue 27)
    found = imported_by("disk-fill", "--leave", "32M", str(tmpfs), "--hold", "0")
    assert "dotdbg.fill.disk" in found
    assert found & {"tempfile", "shutil", "ctypes", "subprocess", "dataclasses", "inspect"} == set()
