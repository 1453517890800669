"""What the stacks tests share: dotdbg run as a user would, the rank job's description, and
ranks started on this machine for the engines whose "nodes" are all this machine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.infra.jobs import RANKS_PROGRAM

BIN = Path(sys.executable).parent
DOTDBG = str(BIN / "dotdbg")
VENV_SITE = next(p for p in sys.path if p.endswith("site-packages"))
REPO = Path(__file__).resolve().parents[2]
# what a node that lacks py-spy has on PATH: nothing of this venv
BARE_PATH = "/usr/local/bin:/usr/bin:/bin"


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


def dotdbg_without_py_spy(folder: Path) -> Path:
    """dotdbg as installed on a node without py-spy: its interpreter's folder has none (so
    nothing beside dotdbg), and with ``BARE_PATH`` none is on PATH either."""
    if shutil.which("py-spy", path=BARE_PATH):
        pytest.skip(f"py-spy is installed system-wide ({BARE_PATH}): no node here lacks it")
    interpreter = folder / "bin"
    interpreter.mkdir()
    (interpreter / "python3").symlink_to(os.path.realpath(sys.executable))
    bare = folder / "dotdbg-without-py-spy"
    bare.write_text(
        f"#!{interpreter / 'python3'}\nimport sys\n"
        f"sys.path[:0] = [{str(REPO)!r}, {VENV_SITE!r}]\n"
        "from dotdbg.cli.entry import main\nsys.exit(main())\n"
    )
    bare.chmod(0o755)
    return bare


def per_node_dotdbg(folder: Path, cases: str) -> Path:
    """The remote dotdbg: ``cases`` (sh case arms on ``$SLURMD_NODENAME:$FAULT``), else this
    venv's dotdbg. Stands for a path each node installs on its own."""
    wrapper = folder / "dotdbg"
    wrapper.write_text(
        f'#!/bin/sh\ncase "$SLURMD_NODENAME:$FAULT" in\n{cases}esac\nexec {DOTDBG} "$@"\n'
    )
    wrapper.chmod(0o755)
    return wrapper


# The dotdbg of a node that a transport names in TOY_NODE: the last argument (the PATTERN) gets
# " node=$TOY_NODE" added, so the node keeps to the ranks placed on it (see ``ranks_placed``).
NARROWED_TO_TOY_NODE = (
    "#!/bin/sh\n"
    "n=$#; i=0\n"
    'for a in "$@"; do i=$((i + 1))\n'
    '  [ $i -eq $n ] && a="$a node=$TOY_NODE"; set -- "$@" "$a"\n'
    "done\n"
    "shift $n\n"
    f'exec {DOTDBG} "$@"\n'
)


def narrowed_dotdbg(folder: Path) -> str:
    """``NARROWED_TO_TOY_NODE`` as a program in ``folder``; its path."""
    remote = folder / "dotdbg-on-node"
    remote.write_text(NARROWED_TO_TOY_NODE)
    remote.chmod(0o755)
    return str(remote)


@contextmanager
def ranks_placed(
    folder: Path, token: str, places: Sequence[str], word: str = "node"
) -> Iterator[str]:
    """Ranks 0 to len(places)-1 of the test job's program (tests/infra/jobs.py), started here
    as torchrun starts them (``RANK``, ``WORLD_SIZE``), rank r with ``WORD=places[r]`` in its
    command line, where a narrowing dotdbg finds it; all ready, then a PATTERN for them alone
    (``token`` with a bracket: it does not match a dotdbg command line holding it). Killed at
    the end."""
    program = folder / f"{token}.py"
    program.write_text(RANKS_PROGRAM)
    world = {"WORLD_SIZE": str(len(places))}
    procs = [
        subprocess.Popen(
            [sys.executable, str(program), f"{word}={place}"],
            env={**os.environ, **world, "RANK": str(rank)},
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        for rank, place in enumerate(places)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().startswith("ready")
        yield f"{token}[.]py"
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
