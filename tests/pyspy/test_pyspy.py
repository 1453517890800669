"""``dotdbg pyspy`` against real Python processes, with the real py-spy from the test extra."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dotdbg.errors import DotdbgError
from dotdbg.pyspy import dump as pyspy
from dotdbg.pyspy import outcome
from tests.infra.spawner import AS_NOBODY, BIN, IS_ROOT, Spawner

DOTDBG = str(BIN / "dotdbg")
PY_SPY = shutil.which("py-spy", path=str(BIN)) or shutil.which("py-spy")
HANGS = textwrap.dedent(
    """
    import time
    def hang_here():
        print("ready", flush=True)
        time.sleep(600)
    hang_here()
    """
)


def run(*argv: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run with PATH as given, or with this environment's bin (where py-spy is) first."""
    env = {**os.environ, "PATH": path or f"{BIN}:{os.environ['PATH']}"}
    return subprocess.run(argv, capture_output=True, text=True, timeout=90, env=env)


@pytest.fixture(scope="module")
def can_attach() -> None:
    """Skip (saying why) where py-spy is missing or ptrace is refused to this user."""
    if PY_SPY is None:
        pytest.skip("py-spy is not installed (pip install -e '.[test]')")
    child = subprocess.Popen([sys.executable, "-c", HANGS], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        child.stdout.readline()
        done = subprocess.run([PY_SPY, "dump", "--pid", str(child.pid)], capture_output=True)
    finally:
        child.kill()
        child.wait()
    if done.returncode != 0:
        pytest.skip(f"py-spy cannot attach here: {done.stderr.decode().strip()[:200]}")


def path_with(directory: Path) -> str:
    return f"{directory}:/usr/bin:/bin"


@pytest.mark.usefixtures("can_attach")
def test_dumps_a_sleeping_python_child(spawn: Spawner) -> None:
    proc = spawn.python(HANGS)
    done = run(DOTDBG, "pyspy", spawn.token)
    assert done.returncode == 0, done.stderr
    title, *body = done.stdout.splitlines()
    assert title.startswith(f"── pid {proc.pid} · -c import time; def hang_here()")
    assert any(line.strip().startswith("hang_here (<string>:") for line in body)


@pytest.mark.usefixtures("can_attach")
def test_tree_dumps_the_launcher_ranks_and_workers(spawn: Spawner) -> None:
    launcher = spawn.torchrun()
    done = run(DOTDBG, "pyspy", "--tree", str(launcher.pid))
    assert done.returncode == 0, done.stderr
    titles = [line for line in done.stdout.splitlines() if line.startswith("── pid ")]
    assert len(titles) == 5
    assert titles[0].startswith(f"── pid {launcher.pid} · torchrun ")
    assert sum(" · rank " in title for title in titles) == 4  # two ranks, two forked workers
    assert sum("[pt_data_worker]" in title for title in titles) == 2


@pytest.mark.usefixtures("can_attach")
@pytest.mark.skipif(not IS_ROOT, reason="needs root to run py-spy as another user")
def test_ptrace_refusal_is_explained(spawn: Spawner, tmp_path: Path) -> None:
    """py-spy run as nobody is refused by the kernel when it attaches to root's process."""
    proc = spawn.python(HANGS)
    done = run(DOTDBG, "pyspy", spawn.token, path=path_with(unprivileged_py_spy(tmp_path)))
    assert done.returncode == 1
    assert f"── pid {proc.pid}" in done.stdout
    assert "[denied] ptrace refused: py-spy may not attach" in done.stdout
    assert "!!" not in done.stdout
    assert "py-spy was not allowed to attach to the process (ptrace was refused)." in done.stderr
    assert f'sudo env "PATH=$PATH" dotdbg pyspy {spawn.token}' in done.stderr


@pytest.mark.usefixtures("can_attach")
@pytest.mark.skipif(not IS_ROOT, reason="needs root to run py-spy as another user")
@pytest.mark.parametrize("scope", [1, 2])
def test_yama_ptrace_scope_is_explained_with_its_fix_and_its_risk(
    spawn: Spawner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    scope: int,
) -> None:
    """A real refusal; the yama setting comes through a seam, since this kernel has no yama."""
    setting = tmp_path / "ptrace_scope"
    setting.write_text(f"{scope}\n")
    monkeypatch.setattr(pyspy, "PTRACE_SCOPE", str(setting))
    monkeypatch.setenv("PATH", path_with(unprivileged_py_spy(tmp_path)))
    spawn.python(HANGS)
    code = pyspy.run(re.compile(re.escape(spawn.token)), None, False, 30.0, False)
    out, err = capsys.readouterr()
    assert code == 1
    assert "[denied]" in out
    assert f"kernel.yama.ptrace_scope is {scope}: " in err
    assert "echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope" in err
    assert "Security: with 0, any program running as you can read and change the memory" in err


def unprivileged_py_spy(tmp_path: Path) -> Path:
    """A directory whose py-spy runs the real one as nobody, whom the kernel refuses ptrace."""
    assert PY_SPY is not None
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "py-spy"
    wrapper.write_text(f'#!/bin/sh\nexec {" ".join(AS_NOBODY)} {PY_SPY} "$@"\n')
    wrapper.chmod(0o755)
    return bin_dir


def test_missing_py_spy_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python = tmp_path / "venv/bin/python"  # an environment without py-spy
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(python))
    with pytest.raises(DotdbgError) as caught:
        outcome.find_py_spy()
    assert caught.value.lines() == [
        "dotdbg: error: py-spy is not installed (not on PATH, nor beside dotdbg)",
        f"hint: {python} -m pip install py-spy   (into dotdbg's own environment; "
        "or: pipx install py-spy), then run dotdbg pyspy again",
    ]


def test_py_spy_in_dotdbgs_own_environment_is_found_off_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # install.sh links only dotdbg's commands into ~/.local/bin, not its venv's bin
    bin_dir = tmp_path / "venv/bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "py-spy").write_text("#!/bin/sh\n")
    (bin_dir / "py-spy").chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    assert outcome.find_py_spy() == str(bin_dir / "py-spy")


def test_a_dump_that_hangs_times_out(spawn: Spawner, tmp_path: Path) -> None:
    stuck = tmp_path / "py-spy"
    stuck.write_text("#!/bin/sh\nexec sleep 60\n")
    stuck.chmod(0o755)
    spawn.python(HANGS)
    done = run(DOTDBG, "pyspy", spawn.token, "--timeout", "0.5", path=path_with(tmp_path))
    assert done.returncode == 1
    assert "[timeout] py-spy did not finish within 0.5s" in done.stdout


@pytest.mark.usefixtures("can_attach")
def test_a_process_that_exits_during_the_dump_is_gone_not_failed(
    spawn: Spawner, tmp_path: Path
) -> None:
    # a user's "every process of mine" meets processes ending all the time (CI saw py-spy's
    # "Failed to get process executable name" for one): that is no failure of the dump
    leaving, staying = spawn.python(HANGS), spawn.python(HANGS)
    wrapper = tmp_path / "py-spy"
    wrapper.write_text(
        f'#!/bin/sh\n[ "$3" = {leaving.pid} ] && kill -9 {leaving.pid} && sleep 0.2\n'
        f'exec {PY_SPY} "$@"\n'
    )
    wrapper.chmod(0o755)
    done = run(DOTDBG, "pyspy", spawn.token, path=path_with(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[gone] the process exited before py-spy could read it" in done.stdout
    assert re.search(rf"pid {staying.pid} .*\n(.*\n)*.*hang_here", done.stdout)


def test_nothing_matches(spawn: Spawner) -> None:
    # this run's own token: a fixed string would match the same test running elsewhere
    done = run(DOTDBG, "pyspy", spawn.token)
    assert (done.returncode, done.stderr) == (1, "dotdbg: no Python process matches\n")


def test_unknown_tree_pid_is_a_user_error() -> None:
    done = run(DOTDBG, "pyspy", "--tree", "999999999")
    assert done.returncode == 2
    assert "there is no process 999999999" in done.stderr


def test_bad_pattern_is_a_user_error() -> None:
    done = run(DOTDBG, "pyspy", "[")
    assert done.returncode == 2
    assert done.stderr.startswith("dotdbg: error: PATTERN '[' is not a regular expression")


@pytest.mark.parametrize(
    ("code", "output", "status"),
    [
        (0, "Thread 1 (idle)", "ok"),
        (1, "Permission Denied: Try running again with elevated permissions", "denied"),
        (1, "Error: Operation not permitted (os error 1)", "denied"),
        (1, "Error: Failed to find python version from target process", "failed"),
        (1, "Error: no such file (os error 13)", "failed"),
    ],
)
def test_classify(code: int, output: str, status: str) -> None:
    assert outcome.classify(code, output) == status


def test_advice_for_yama_scope_1_offers_both_fixes_and_the_risk() -> None:
    advice = pyspy.ptrace_advice(1, others=False, argv=["dotdbg", "pyspy", "train it"])
    assert "kernel.yama.ptrace_scope is 1" in advice
    assert "sudo env \"PATH=$PATH\" dotdbg pyspy 'train it'" in advice
    assert "echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope" in advice
    assert "/etc/sysctl.d/10-ptrace.conf" in advice
    assert "Security:" in advice


def test_advice_is_a_finding_its_details_and_a_hint() -> None:
    lines = pyspy.ptrace_advice(1, others=True, argv=["dotdbg", "pyspy"]).splitlines()
    assert lines[0].startswith("dotdbg: py-spy was not allowed to attach")
    hint = next(n for n, line in enumerate(lines) if line.startswith("hint: "))
    assert lines[hint].startswith("hint: run it as root:  sudo env")
    assert all(line.startswith("  ") for n, line in enumerate(lines) if n not in (0, hint))


def test_advice_for_scope_3_does_not_suggest_lowering_it() -> None:
    advice = pyspy.ptrace_advice(3, others=False, argv=["dotdbg", "pyspy"])
    assert "until the next reboot" in advice
    assert "tee /proc/sys/kernel/yama" not in advice


def test_advice_without_yama_for_another_users_process() -> None:
    advice = pyspy.ptrace_advice(None, others=True, argv=["dotdbg", "pyspy"])
    assert "another user" in advice
    assert "ptrace_scope" not in advice


@pytest.mark.usefixtures("can_attach")
def test_native_adds_c_frames(spawn: Spawner) -> None:
    spawn.python(HANGS)
    done = run(DOTDBG, "pyspy", spawn.token, "--native")
    assert done.returncode == 0, done.stderr
    assert "(libc" in done.stdout  # the sleep's C frames below the Python ones
    assert "hang_here (<string>:" in done.stdout
