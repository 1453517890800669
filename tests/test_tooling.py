"""The code stays lint-, format- and type-clean: checked by the same command as everything else."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


# a cold mypy over dotdbg/ and tests/ took 14 s of CPU but 180 s at load 18 on 2 cores
@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    "argv",
    [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_is_clean(argv: list[str]) -> None:
    tool = BIN / argv[0]
    if not tool.exists():
        pytest.skip(f"{argv[0]} is not installed in this environment (pip install -e '.[test]')")
    done = subprocess.run(
        [str(tool), *argv[1:]], cwd=REPO, capture_output=True, text=True, timeout=540
    )
    assert done.returncode == 0, done.stdout + done.stderr
