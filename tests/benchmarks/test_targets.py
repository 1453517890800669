"""Issue 27's targets, checked by the benchmarks themselves (``pytest --benchmarks``, on a quiet
machine): each script below times its rows interleaved against the anchor a user would use
and writes a verdict per row (``benchmarks/timing.verdict``); a row over its target fails its
benchmark by name. These are ratios of one run, never timed tests: they do not run with the
suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
RECORD = "DOTDBG_BENCHMARK_RECORD"

# script, arguments for a run of a few minutes at most
RUNS = {
    # with $DOTDBG_CHEAT_CORPUS (a clone of cheat/cheatsheets) the community rows too
    "cheat_latency": ["--rounds", "30"],
    "shell_startup": ["--runs", "30"],
    "memlimit": ["--rounds", "15", "--overhead-only"],
    "suggest_history": ["--runs", "3"],
    "startup": ["--runs", "10"],
    "stacks_merge": ["--repeat", "1"],
    "stacks_gather": ["--repeat", "9"],  # root: it starts the test SLURM cluster
    "home_commands": ["--runs", "15"],
    "remote": ["--runs", "15", "--push-runs", "0"],  # root: it starts an sshd on 127.0.0.1
}

pytestmark = pytest.mark.benchmark


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("script", sorted(RUNS))
def test_every_row_is_at_its_target(script: str, tmp_path: Path) -> None:
    record = tmp_path / "rows.jsonl"
    env = {**os.environ, RECORD: str(record)}
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *RUNS[script]],
        env=env,
        capture_output=True,
        text=True,
        timeout=1700,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
    assert rows, f"{script} gave no verdict:\n{done.stdout[-2000:]}"
    missed = [
        f"{r['row']}: {r['value']:.3g}{r['unit']} > {r['target']:g}" for r in rows if not r["met"]
    ]
    assert not missed, (
        f"{script}, over target at load {os.getloadavg()[0]:.1f}:\n"
        + "\n".join(missed)
        + f"\n{done.stdout[-3000:]}"
    )
