"""``dotdbg pyspy --json`` and ``dotdbg stacks`` on this machine's real processes, real py-spy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.jobs import RANKS_PROGRAM
from tests.stacks.stacks_support import DOTDBG, run_dotdbg

LAUNCHER = """
import os, subprocess, sys
program = sys.argv[1]
ranks = [
    subprocess.Popen([sys.executable, program], stdout=subprocess.PIPE, text=True,
                     env=dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank)))
    for rank in range(5)
]
for rank in ranks:
    rank.stdout.readline()
print("ready", flush=True)
for rank in ranks:
    rank.wait()
"""


@pytest.fixture(scope="module")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[subprocess.Popen[str]]:
    """A torchrun-named launcher and its ranks 0-4 (0-3 in a barrier, 4 loading a batch)."""
    folder = tmp_path_factory.mktemp("local")
    (folder / "ranks.py").write_text(RANKS_PROGRAM)
    script = folder / "torchrun"
    script.write_text(f"#!{sys.executable}\n{LAUNCHER}")
    script.chmod(0o755)
    proc = subprocess.Popen(
        [str(script), str(folder / "ranks.py")],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        yield proc
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()


def test_pyspy_json_prints_one_record_per_process(launcher: subprocess.Popen[str]) -> None:
    done = run_dotdbg("pyspy", "--json", "--tree", str(launcher.pid), env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 6
    first = records[0]  # the launcher started first
    assert (first["pid"], first["launcher"], first["rank"], first["source"]) == (
        launcher.pid,
        "torchrun",
        None,
        "py-spy",
    )
    ranks = sorted((r["rank"], r["local_rank"], r["ppid"]) for r in records[1:])
    assert ranks == [(n, n, launcher.pid) for n in range(5)]
    main = records[1]["threads"][0]
    assert main["idle"] is True and main["frames"][-1]["function"] == "<module>"
    assert set(main["frames"][0]) == {"function", "file", "line", "native"}


def test_stacks_of_a_tree_with_dot_svg_and_from_file(
    launcher: subprocess.Popen[str], tmp_path: Path
) -> None:
    dot, svg = tmp_path / "tree.dot", tmp_path / "tree.svg"
    args = ("stacks", "--tree", str(launcher.pid), "--dot", str(dot), "--svg", str(svg))
    done = run_dotdbg(*args, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("6 processes on 1 host, 3 classes\n")
    assert "[1] 1 process · rank 4" in done.stdout
    assert f"[2] 1 process · vm:{launcher.pid}" in done.stdout.replace(os.uname().nodename, "vm")
    assert "[3] 4 processes · ranks 0-3" in done.stdout
    assert dot.read_text().startswith("digraph stacks {") and "<svg" in svg.read_text()
    records = tmp_path / "records.jsonl"
    dumped = run_dotdbg("pyspy", "--json", "--tree", str(launcher.pid), env=dict(os.environ))
    records.write_text(dumped.stdout)
    again = run_dotdbg("stacks", "--from", str(records), env=dict(os.environ))
    assert again.stdout.splitlines()[0] == "6 processes on 1 host, 3 classes"


def test_a_bad_record_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"host": "a", "pid": 1}\nnot json\n')
    done = run_dotdbg("stacks", "--from", str(bad), env=dict(os.environ))
    assert done.returncode == 2
    assert done.stderr.startswith(f"dotdbg: error: {bad}:2: not JSON: ")


def test_local_stacks_never_import_clustershell() -> None:
    code = (
        "import sys; from dotdbg.cli import roothelp; roothelp.root_help();"
        "from dotdbg.stacks import run, formats, render;"
        "from dotdbg.cli.commands import watch; import dotdbg.fanout.slurm;"
        "print(any(name.startswith('ClusterShell') for name in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "False\n"


def _deep_record(frames: int) -> str:
    stack = [{"function": f"f{i}", "file": "/a.py", "line": i} for i in range(frames)]
    return json.dumps({"host": "a", "pid": 1, "threads": [{"name": "T", "frames": stack}]})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"host": "a", "pid": 1, "command": "\xff"}\n', "not UTF-8 (byte 0xff at column 37)"),
        (
            b'{"host":"a","pid":1,"threads":[{"frames":[{"function":"\xed\xa0\x80"}]}],"error":null}\n',
            "not UTF-8 (byte 0xed at column 56)",  # an encoded surrogate: it was a traceback
        ),
        (b"[" * 100_000 + b"]" * 100_000 + b"\n", "not a stack record: JSON nested too deeply"),
        (b'{"host": "a", "pid": Infinity}\n', "pid is Infinity, not a whole number"),
        (b'{"host": "a", "pid": 1, "threads": [1, 2]}\n', "threads is not a list of objects"),
        (b'{"host": "a", "pid": 1, "threads": "T"}\n', "threads is not a list of objects"),
        (b'{"host": ["a"], "pid": 1}\n', 'host is ["a"], not text'),
        (_deep_record(100_000).encode() + b"\n", "a thread has 100000 frames (at most 5000"),
    ],
    ids=[
        "utf8",
        "surrogate",
        "nested",
        "infinity",
        "threads-ints",
        "threads-text",
        "host-list",
        "100k-frames",
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_bad_record_is_one_line_naming_it(
    tmp_path: Path, content: bytes, message: str, as_json: bool
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"host": "a", "pid": 7}\n' + content)
    done = run_dotdbg("stacks", "--from", str(bad), *["--json"] * as_json, env=dict(os.environ))
    assert done.returncode == 2 and done.stdout == ""
    first, hint = done.stderr.splitlines()
    assert first.startswith(f"dotdbg: error: {bad}:2: {message}")
    assert hint.startswith("hint: ")


def test_a_deep_stack_within_the_limit_merges_in_json(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text(_deep_record(5_000) + "\n")
    dot = tmp_path / "t.dot"
    done = run_dotdbg(
        "stacks", "--json", "--from", str(deep), "--dot", str(dot), env=dict(os.environ)
    )
    assert done.returncode == 0, done.stderr[-500:]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)  # the tree nests 5,000 levels deep
    try:
        report = json.loads(done.stdout)
    finally:
        sys.setrecursionlimit(limit)
    assert len(report["classes"][0]["threads"][0]) == 5_000


def stderr_on_a_terminal(argv: list[str]) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal, as at a prompt; the exit code and what it said."""
    leader, follower = os.openpty()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    said = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the last writer has gone
            break
        if not chunk:
            break
        said += chunk
    os.close(leader)
    return proc.wait(60), said.decode(errors="replace")


def test_a_wait_of_seconds_says_what_it_is_for(launcher: subprocess.Popen[str]) -> None:
    """Three samples 0.8 s apart are 1.6 s of waiting: a terminal is told, a pipe is not."""
    args = ("stacks", "--tree", str(launcher.pid), "--samples", "3", "--interval", "0.8")
    code, said = stderr_on_a_terminal([DOTDBG, *args])
    assert code == 0
    assert said.strip() == "dotdbg: 3 samples of 6 processes, 0.8s apart (1.6s)…"
    assert run_dotdbg(*args, env=dict(os.environ)).stderr == ""
