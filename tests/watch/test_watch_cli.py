"""The installed ``watch-python`` and ``dotdbg watch-python`` console scripts, end to end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pexpect
import pytest

from tests.infra.spawner import BIN, HOLDS_300MB, IDLE, RENAMED, Spawner
from tests.infra.tmux import Tmux

WATCH = str(BIN / "watch-python")
DOTDBG = str(BIN / "dotdbg")


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def test_once_piped_is_plain_text(spawn: Spawner) -> None:
    worker = spawn.python(RENAMED)
    big = spawn.python(HOLDS_300MB)
    done = run(WATCH, "--once", "--pattern", spawn.token)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "\x1b" not in done.stdout
    assert lines[0].split()[:6] == ["PID", "PPID", "RSS_GB", "%CPU", "THR", "ELAPSED"]
    assert lines[1].split()[0] == str(big.pid)  # sorted by RSS
    assert lines[2].split()[0] == str(worker.pid)
    assert "[pt_data_worker] -c import ctypes" in lines[2]
    assert lines[3].split()[:2] == ["2", "procs"]
    assert lines[3].endswith("total")


def test_rss_column_matches_ps(spawn: Spawner) -> None:
    big = spawn.python(HOLDS_300MB)
    done = run(WATCH, "--once", "-p", spawn.token)
    shown_gb = float(done.stdout.splitlines()[1].split()[2])
    ps_kib = int(subprocess.check_output(["ps", "-o", "rss=", "-p", str(big.pid)]))
    assert shown_gb >= 300 / 1024
    assert shown_gb == pytest.approx(ps_kib / 2**20, rel=0.02)


def test_json_snapshot(spawn: Spawner) -> None:
    big = spawn.python(HOLDS_300MB, env={**os.environ, "RANK": "1", "LOCAL_RANK": "1"})
    done = run(DOTDBG, "watch-python", "--json", "-p", spawn.token)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    [process] = document["processes"]
    assert process["pid"] == big.pid
    assert process["ppid"] == os.getpid()
    assert process["rss_bytes"] >= 300 * 2**20
    assert process["threads"] == 1
    assert process["rank"] == 1 and process["local_rank"] == 1
    assert process["command"].startswith("-c import time")
    assert process["env"]  # the venv the tests run in
    if document["gpu_status"] == "ok":  # a machine with an NVIDIA GPU
        assert process["gpu_memory_bytes"] == 0
    else:
        assert process["gpu_memory_bytes"] is None
        assert document["gpu_status"].startswith(("no usable NVIDIA driver", "NVML found no GPU"))


def test_tree_with_a_fake_torchrun(spawn: Spawner) -> None:
    launcher = spawn.torchrun()
    done = run(WATCH, "--once", "--tree", "--sort", "pid", "-p", spawn.token)
    lines = [line for line in done.stdout.splitlines() if not line.startswith("GPU")]
    assert len(lines) == 7, done.stdout
    assert lines[1].split()[0] == str(launcher.pid)
    assert "LAUNCHER" in lines[0] and "RANK" in lines[0]
    assert lines[2].rstrip().endswith(f"├─ train.py --token {spawn.token}")
    assert lines[3].rstrip().endswith(f"│  └─ [pt_data_worker] train.py --token {spawn.token}")
    assert lines[4].rstrip().endswith(f"└─ train.py --token {spawn.token}")
    assert lines[5].rstrip().endswith(f"   └─ [pt_data_worker] train.py --token {spawn.token}")
    rank_at = lines[0].split().index("RANK")
    ranks = [line.split()[rank_at] for line in lines[2:6]]
    # ranks in pid order, which is not always the order they started in (pids wrap around)
    assert ranks in (["0/0", "0/0", "1/1", "1/1"], ["1/1", "1/1", "0/0", "0/0"])


def test_bad_pattern_is_a_user_error() -> None:
    done = run(WATCH, "--pattern", "(unclosed", "--once")
    assert done.returncode == 2
    assert done.stderr.startswith("watch-python: error: --pattern '(unclosed' is not a regular")
    assert "hint:" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("argv", [["--sort", "memory"], ["-n", "0"], ["--bogus"]])
def test_bad_arguments_exit_2(argv: list[str]) -> None:
    assert run(WATCH, *argv).returncode == 2


def test_live_mode_when_piped_logs_snapshots_until_interrupted(spawn: Spawner) -> None:
    spawn.python(IDLE)
    proc = subprocess.Popen(
        [WATCH, "-n", "0.2", "-p", spawn.token], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    headers = 0
    while headers < 2:
        line = proc.stdout.readline()
        assert line, "watch-python stopped early"
        headers += line.split()[:1] == ["PID"]
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 130


@pytest.mark.e2e
@pytest.mark.parametrize("command", [[WATCH], [DOTDBG, "watch-python"]])
def test_live_view_in_a_terminal_refreshes_and_restores_it_on_ctrl_c(
    spawn: Spawner, command: list[str]
) -> None:
    proc = spawn.python(IDLE)
    child = pexpect.spawn(
        command[0],
        [*command[1:], "-n", "0.2", "-p", spawn.token],
        dimensions=(12, 100),
        encoding="utf-8",
        env={**os.environ, "TERM": "xterm-256color"},
        timeout=15,
    )
    try:
        child.expect("\x1b\\[\\?1049h")  # switched to the alternate screen
        for _ in range(3):  # three refreshes in place
            child.expect("watch-python  every 0.2s")
        child.expect(str(proc.pid))
        child.sendintr()
        child.expect("\x1b\\[\\?1049l")  # back to the normal screen
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130


@pytest.mark.e2e
def test_once_on_a_terminal_fits_its_width(spawn: Spawner) -> None:
    spawn.start(["python3", "-c", IDLE, spawn.token, "x" * 300])
    child = pexpect.spawn(
        WATCH, ["--once", "-p", spawn.token], dimensions=(30, 80), encoding="utf-8", timeout=15
    )
    output = child.read()
    child.close()
    assert child.exitstatus == 0
    assert "PID" in output
    assert all(len(line) <= 80 for line in output.splitlines())


@pytest.mark.e2e
def test_the_live_view_at_60_columns_keeps_the_command_cut_short(
    spawn: Spawner, tmp_path: Path
) -> None:
    train = tmp_path / "train.py"
    train.write_text(IDLE)
    long_args = ["--config", "configs/a/very/long/experiment/path.yaml", "--lr", "3e-4"]
    proc = spawn.start([str(BIN / "python"), str(train), spawn.token, *long_args])
    # A clean environment: a COLUMNS or LINES exported by the test process (readline sets
    # them) would size the view for another terminal.
    view = Tmux(
        [WATCH, "-n", "0.3", "-p", spawn.token], env={"TERM": "xterm-256color"}, width=60, height=12
    )
    try:
        screen = view.wait_for(lambda s: f" {proc.pid} " in s, "the process's row", wrapped=True)
    finally:
        view.close()
    lines = screen.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("PID"))
    row = next(line for line in lines if f" {proc.pid} " in line)
    assert header.split()[-1] == "COMMAND" and "ENV" in header.split()  # the venv shows
    assert row[header.index("COMMAND") :].startswith("train.py")
    assert row.endswith("…") and len(row) == 60
