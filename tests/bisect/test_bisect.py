"""``dotdbg bisect`` on real git repositories built here, against what plain ``git bisect run``
does on the same ones, and stopped half-way by Ctrl-C and kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.infra.editable import install_editable, write_project
from tests.infra.spawner import BIN

TIMEOUT = 600  # whole runs: each step starts Python (pytest: about 1 s each, 12 s at load 20)
pytestmark = pytest.mark.timeout(2 * TIMEOUT)
# Not this venv's hypothesis plugin: importing it made each step 4 s instead of 1 s at load 13
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
          "-p", "no:hypothesispytest"]  # fmt: skip
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
    # local submodules: git refuses the file protocol for them unless told
    "GIT_CONFIG_COUNT": "1",
    "GIT_CONFIG_KEY_0": "protocol.file.allow",
    "GIT_CONFIG_VALUE_0": "always",
}
Commits = list[tuple[str, dict[str, str]]]


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
        check=True,
    )
    return done.stdout.strip()


def make_repo(repo: Path, commits: Commits) -> list[str]:
    """One commit per (subject, files); a file whose text is None is removed. Their shas."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n")
    shas = []
    for subject, files in commits:
        for name, text in files.items():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text(text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", subject)
        shas.append(git(repo, "rev-parse", "HEAD"))
    return shas


def bisect(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BIN / "dotdbg", "bisect", *args],
        capture_output=True,
        text=True,
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        timeout=TIMEOUT,
    )


def state(repo: Path) -> tuple[str, str, str, bool]:
    """Branch, HEAD, `git status` (untracked files too) and whether a bisection is open."""
    branch = subprocess.run(
        ["git", "-C", str(repo), "symbolic-ref", "-q", "--short", "HEAD"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    bisecting = Path(git(repo, "rev-parse", "--absolute-git-dir"), "BISECT_START").exists()
    return branch, git(repo, "rev-parse", "HEAD"), git(repo, "status", "--porcelain"), bisecting


ADD_OK = "def add(a, b):\n    return a + b\n"
ADD_BROKEN = "def add(a, b):\n    return a * b if a > 1 else a + b\n"
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
TEST_UTIL = "from calc.util import double\n\n\ndef test_double():\n    assert double(2) == 4\n"

# The culprit comes two commits after one whose new test module imports what only the next
# commit adds: pytest exits 2 there (collection error), and `git bisect run` counts that bad.
COLLECTION_ERROR_HISTORY: Commits = [
    ("calc: add", {"calc/__init__.py": ADD_OK, "tests/test_calc.py": TEST_ADD}),
    ("readme", {"README.md": "# calc\n"}),
    ("tests: test_util (calc.util comes next)", {"tests/test_util.py": TEST_UTIL}),
    ("calc.util: double", {"calc/util.py": "def double(x):\n    return 2 * x\n"}),
    ("Speed up add (#42)", {"calc/__init__.py": ADD_BROKEN}),
    ("add: simplify", {"calc/__init__.py": "def add(a, b):\n    return a * b\n"}),
    ("readme: more", {"README.md": "# calc\nmore\n"}),
    ("extra module", {"calc/extra.py": "x = 1\n"}),
    ("extra: y", {"calc/extra.py": "x = 1\ny = 2\n"}),
    ("extra: z", {"calc/extra.py": "x = 1\ny = 2\nz = 3\n"}),
]
CULPRIT, COLLECTION_ERROR = 4, 2


def test_finds_the_culprit_where_git_bisect_run_pytest_blames_a_collection_error(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, COLLECTION_ERROR_HISTORY)
    git(repo, "bisect", "start", "HEAD", shas[0])
    plain = subprocess.run(
        ["git", "-C", str(repo), "bisect", "run", *PYTEST],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    git(repo, "bisect", "reset")
    assert f"{shas[COLLECTION_ERROR]} is the first bad commit" in plain.stdout  # the wrong one
    before = state(repo)

    done = bisect(repo, "--json", shas[0], "HEAD", "--", *PYTEST)

    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["culprit"] == shas[CULPRIT]
    assert (found["subject"], found["pull_request"]) == ("Speed up add (#42)", 42)
    assert found["confirmed"] is True
    assert [s["verdict"] for s in found["confirmation"]] == ["good", "bad"]
    skipped = {s["commit"]: s["why"] for s in found["steps"] if s["verdict"] == "skip"}
    assert "collection error" in skipped[shas[COLLECTION_ERROR]]
    assert state(repo) == before


def test_the_text_names_the_culprit_its_pull_request_and_its_failure(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, COLLECTION_ERROR_HISTORY[:6])
    git(repo, "remote", "add", "origin", "git@github.com:calc-org/calc.git")
    done = bisect(repo, shas[0], "HEAD", "--", *PYTEST)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == [f"first bad commit: {shas[CULPRIT]}", "  Speed up add (#42)"]
    assert "  pull request: #42  https://github.com/calc-org/calc/pull/42" in lines
    assert f"  https://github.com/calc-org/calc/commit/{shas[CULPRIT]}" in lines
    assert any("assert 6 == 5" in line for line in lines)  # the culprit's own output
    assert "-> skip (exit 2: pytest was interrupted" in done.stderr


def test_a_merged_pull_request_is_named_from_its_merge_commit(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, [("calc: add", {"calc/__init__.py": ADD_OK})])
    git(repo, "checkout", "-q", "-b", "feature")
    git(repo, "commit", "-q", "--allow-empty", "-m", "unrelated")
    (repo / "calc" / "__init__.py").write_text(ADD_BROKEN)
    git(repo, "commit", "-q", "-am", "faster add")
    culprit = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge pull request #7 from ada/feature", "feature")
    check = [sys.executable, "-c", "from calc import add; assert add(2, 3) == 5"]
    found = json.loads(bisect(repo, "--json", shas[0], "main", "--", *check).stdout)
    assert (found["culprit"], found["pull_request"]) == (culprit, 7)


def test_a_collection_error_right_before_the_culprit_leaves_both_named(tmp_path: Path) -> None:
    """No tool can tell which of the two broke it: both are given, with why one was skipped."""
    history = [
        *COLLECTION_ERROR_HISTORY[:3],
        (
            "Speed up add (#42), calc.util",
            {"calc/__init__.py": ADD_BROKEN, "calc/util.py": "def double(x):\n    return 2 * x\n"},
        ),
        ("readme: more", {"README.md": "more\n"}),
    ]
    repo = tmp_path / "repo"
    shas = make_repo(repo, history)
    done = bisect(repo, "--json", shas[0], "HEAD", "--", *PYTEST)
    assert done.returncode == 1
    found = json.loads(done.stdout)
    assert found["culprit"] is None
    assert sorted(found["candidates"]) == sorted([shas[2], shas[3]])


# The same shape: the step that cannot be judged (here: it hangs) is the one git tests second.
HANG_HISTORY: Commits = [
    *COLLECTION_ERROR_HISTORY[:2],
    ("debug: wait for a lock", {"calc/__init__.py": "import time\ntime.sleep(120)\n" + ADD_OK}),
    ("lock gone", {"calc/__init__.py": ADD_OK}),
    *COLLECTION_ERROR_HISTORY[4:],
]
HANGS = 2
CHECK_ADD = [sys.executable, "-c", "from calc import add; assert add(2, 3) == 5"]


@pytest.mark.parametrize(("counted_as", "culprit"), [("skip", CULPRIT), ("bad", HANGS)])
def test_a_step_over_the_timeout_counts_as_the_user_said(
    tmp_path: Path, counted_as: str, culprit: int
) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, HANG_HISTORY)
    started = time.monotonic()
    done = bisect(
        repo,
        "--json",
        "--timeout",
        "3",
        "--timeout-is",
        counted_as,
        shas[0],
        "HEAD",
        "--",
        *CHECK_ADD,
    )
    found = json.loads(done.stdout)
    assert found["culprit"] == shas[culprit], done.stderr
    timed_out = [s for s in found["steps"] + found["confirmation"] if s["why"] == "timed out"]
    assert timed_out and all(s["verdict"] == counted_as for s in timed_out)
    assert time.monotonic() - started < 100  # the 120 s sleeps were cut short


def test_setup_runs_at_each_step_and_once_more_at_the_start_commit(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, HANG_HISTORY[:1] + HANG_HISTORY[3:])
    log = tmp_path / "setup.log"
    setup = f"git rev-parse HEAD >> {log}"
    done = bisect(repo, "--json", "--setup", setup, shas[0], "HEAD", "--", *CHECK_ADD)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    ran = log.read_text().split()
    tested = [s["commit"] for s in found["steps"] + found["confirmation"]]
    assert ran == [*tested, shas[-1]]  # the last: back at the commit the run started on


def test_an_editable_install_of_the_checkout_is_reinstalled_at_each_step(tmp_path: Path) -> None:
    """`python` on PATH has the checkout installed with pip install -e: each step reinstalls
    it with that python's pip, and the end reinstalls the commit it started on."""
    repo = tmp_path / "repo"
    write_project(tmp_path / "template", "calc", source=".")
    files = {
        name: (tmp_path / "template" / name).read_text()
        for name in ("pyproject.toml", "backend.py")
    }
    history: Commits = [(HANG_HISTORY[0][0], {**HANG_HISTORY[0][1], **files}), *HANG_HISTORY[3:6]]
    shas = make_repo(repo, history)
    python = install_editable(repo, tmp_path / "venv", with_pip=True)
    path = f"{python.parent}:{os.environ['PATH']}"
    check = ["python", "-c", "from calc import add; assert add(2, 3) == 5"]
    done = subprocess.run(
        [BIN / "dotdbg", "bisect", "--json", shas[0], "HEAD", "--", *check],
        capture_output=True,
        text=True,
        cwd=repo,
        timeout=TIMEOUT,
        env={**os.environ, **GIT_ENV, "PATH": path},
    )
    assert f"setup at each step: {python} -m pip install -q -e {repo}" in done.stderr
    found = json.loads(done.stdout)
    assert (found["culprit"], found["confirmed"]) == (shas[2], True), done.stderr
    assert done.stderr.rstrip().endswith("setup again at the commit you started on")
    assert state(repo)[:2] == ("main", shas[-1])


def test_a_failing_setup_skips_the_commit(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, HANG_HISTORY[:1] + HANG_HISTORY[3:6])
    setup = f"test $(git rev-parse HEAD) = {shas[0]}"
    done = bisect(repo, "--json", "--setup", setup, shas[0], "HEAD", "--", *CHECK_ADD)
    assert done.returncode == 1
    found = json.loads(done.stdout)
    assert found["culprit"] is None and sorted(found["candidates"]) == sorted(shas[1:])
    assert {(s["verdict"], s["why"]) for s in found["steps"]} == {
        ("skip", "the setup step failed (exit 1)")
    }


def test_submodules_follow_each_commit(tmp_path: Path) -> None:
    """The bug is in a bump of the submodule: only an updated submodule shows it."""
    library = tmp_path / "lib"
    lib_shas = make_repo(library, [("v1", {"value.txt": "5\n"}), ("v2", {"value.txt": "6\n"})])
    repo = tmp_path / "repo"
    shas = make_repo(repo, [("check", {"check.sh": "test $(cat lib/value.txt) = 5\n"})])
    git(repo, "submodule", "add", "-q", str(library), "lib")
    git(repo, "-C", "lib", "checkout", "-q", lib_shas[0])
    git(repo, "commit", "-qam", "lib at v1")
    git(repo, "commit", "-q", "--allow-empty", "-m", "unrelated")
    git(repo, "-C", "lib", "checkout", "-q", lib_shas[1])
    git(repo, "commit", "-qam", "bump lib")
    bump = git(repo, "rev-parse", "HEAD")
    git(repo, "commit", "-q", "--allow-empty", "-m", "more")
    before = state(repo)
    found = json.loads(bisect(repo, "--json", shas[0], "HEAD", "--", "sh", "check.sh").stdout)
    assert (found["culprit"], found["confirmed"]) == (bump, True)
    assert state(repo) == before
    assert (repo / "lib" / "value.txt").read_text() == "6\n"


SLOW_STEP = """\
import os, pathlib, sys, time
pathlib.Path(sys.argv[1]).write_text(str(os.getpid()))
time.sleep(120)
"""


@pytest.mark.parametrize(
    ("signum", "detached"), [(signal.SIGINT, False), (signal.SIGTERM, False), (signal.SIGINT, True)]
)
def test_ctrl_c_and_kill_leave_the_repository_as_it_was(
    tmp_path: Path, signum: int, detached: bool
) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, COLLECTION_ERROR_HISTORY)
    if detached:
        git(repo, "checkout", "-q", shas[-2])
    before = state(repo)
    marker = tmp_path / "step.pid"
    (tmp_path / "slow.py").write_text(SLOW_STEP)
    run = subprocess.Popen(
        [
            BIN / "dotdbg",
            "bisect",
            shas[0],
            shas[-1],
            "--",
            sys.executable,
            str(tmp_path / "slow.py"),
            str(marker),
        ],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, **GIT_ENV},
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while not (marker.exists() and marker.read_text()):
            assert time.monotonic() < deadline and run.poll() is None, run.communicate()
            time.sleep(0.05)
        assert state(repo)[3]  # bisecting, on another commit
        if signum == signal.SIGINT:
            os.killpg(run.pid, signum)  # as a terminal's Ctrl-C: the whole foreground group
        else:
            run.send_signal(signum)  # as `kill PID`
        _, stderr = run.communicate(timeout=TIMEOUT)
    finally:
        run.kill()
    assert run.returncode == 128 + signum, stderr
    assert "Traceback" not in stderr
    assert state(repo) == before
    step_pid = int(marker.read_text())
    assert not Path(f"/proc/{step_pid}").exists()  # the step it was running is gone too


def test_a_bisection_killed_by_sigkill_is_pointed_out_next_time(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shas = make_repo(repo, COLLECTION_ERROR_HISTORY[:3])
    git(repo, "bisect", "start", "HEAD", shas[0])
    done = bisect(repo, shas[0], "HEAD", "--", "true")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "dotdbg bisect: no setup step (not an editable install of this checkout; --setup CMD "
        "gives one)",
        "dotdbg: error: a bisection is already in progress in this repository",
        "hint: end it with `git bisect reset` (it puts back the branch you started on)",
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["HEAD~2", "HEAD"], "missing the command to run after --"),
        (["nope", "HEAD", "--", "true"], "no commit 'nope' in this repository"),
        (["HEAD", "HEAD~2", "--", "true"], "GOOD HEAD is not an ancestor of BAD HEAD~2"),
        (["HEAD~2", "HEAD", "--", "no-such-command-qq"], "command 'no-such-command-qq' not found"),
        (["--timeout-is", "maybe", "HEAD~2", "HEAD", "--", "true"], "--timeout-is 'maybe'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], error: str) -> None:
    repo = tmp_path / "repo"
    make_repo(repo, COLLECTION_ERROR_HISTORY[:3])
    done = bisect(repo, *args)
    assert done.returncode == 2
    assert f"dotdbg: error: {error}" in done.stderr.splitlines()[-2], done.stderr
    assert "Traceback" not in done.stderr


def test_uncommitted_changes_are_refused_and_kept(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    make_repo(repo, COLLECTION_ERROR_HISTORY[:3])
    (repo / "README.md").write_text("my unsaved edit\n")
    done = bisect(repo, "HEAD~2", "HEAD", "--", "true")
    assert done.returncode == 2
    assert "uncommitted changes (1 files, e.g. README.md)" in done.stderr
    assert (repo / "README.md").read_text() == "my unsaved edit\n"
