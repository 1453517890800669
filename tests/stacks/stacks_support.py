"""What the stacks tests share: dotdbg run as a user would, and the rank job's description."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

BIN = Path(sys.executable).parent
DOTDBG = str(BIN / "dotdbg")


@dataclass(frozen=True)
class RankJob:
    job: int
    pids: dict[int, int]  # rank -> pid
    nodes: dict[int, str]  # rank -> node
    token: str  # in every rank's command line


def run_dotdbg(
    *args: str, env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([DOTDBG, *args], capture_output=True, text=True, timeout=timeout, env=env)


def stacks_json(*args: str, env: dict[str, str]) -> dict:  # type: ignore[type-arg]
    done = run_dotdbg("stacks", "--json", *args, env=env)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def ranks_of(output: str) -> tuple[dict[int, int], dict[int, str]]:
    pids, nodes = {}, {}
    for line in output.splitlines():
        if line.startswith("ready "):
            _, rank, pid, node = line.split()
            pids[int(rank)], nodes[int(rank)] = int(pid), node
    return pids, nodes
