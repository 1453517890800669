"""Run a sheet's entries for real: each in its own copy of a scratch directory the sheet's
fixture built once, placeholders filled from the fixture, many at a time.

Shell entries run in bash; ``[pdb]`` entries are typed at the prompt of a real pdb debugging the
fixture's program; ``[pdbrc]`` lines go into ~/.pdbrc and are used in such a session;
``[python]`` entries are pasted into the fixture's program. An entry fails when its command
exits other than expected, when pdb answers with an error (``***``), or when the fixture's check
of what its comment promises fails. Entries tagged with a need this machine lacks are not run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from dotdbg.cheat.commands import NEED_TAGS, entry_syntax, entry_tags
from dotdbg.cheat.fast import placeholder_spans
from dotdbg.cheat.index import read_record

VENV_BIN = str(Path(sys.executable).parent)
# The slowest entry (a git bisect that runs pytest at each step) took 8 s, with 6 entries at a
# time, at load 7-11 on 2 cores (`Outcome.seconds`); at load 15 one that takes 1 s alone took
# more than 30 s. The limit, 20 times that slowest, only ends an entry that hangs, and that entry
# fails by its own name; the command and the check afterwards share it.
TIMEOUT = 180
SETUP_TIMEOUT = 600  # the git fixture's setup alone: about 4 s unloaded
WORKERS = 6  # subprocesses mostly wait on each other: more than the 2 cores


@dataclass(frozen=True)
class Check:
    """What an entry must do besides running: its exit status, a regex its output (stdout and
    stderr together) must match, a bash check run afterwards in its directory."""

    status: int | None = 0  # None: any status (a crash the entry causes on purpose)
    output: str = ""
    after: str = ""
    before: str = ""  # bash run first, in the same shell (start a bisection, stage a change)
    stdin: str = ""
    env: dict[str, str] = field(default_factory=dict)
    # More settings the entry must also work in, each a bash run after `before` in its own copy
    # of the scratch (no conftest yet, an empty one, a staged change...).
    settings: tuple[str, ...] = ()
    # Attaches a tracer to processes: such entries run one at a time, since `dotdbg pyspy`
    # dumps every process of the user, another entry's target among them, and a process has
    # one tracer at a time (CI saw "[traced] already traced by py-spy" from two at once).
    traces: bool = False


# Held by the entry of a Check with ``traces`` while it runs.
_TRACING = threading.Lock()


@dataclass(frozen=True)
class SheetFixture:
    setup: str  # bash, run once in <scratch>/work with HOME=<scratch>/home
    values: dict[str, str] = field(default_factory=dict)  # <placeholder> -> value
    literals: dict[str, str] = field(default_factory=dict)  # text in commands -> value
    checks: dict[str, Check] = field(default_factory=dict)  # unique command text -> check
    env: dict[str, str] = field(default_factory=dict)
    program: str = ""  # the program [pdb] entries debug and [python] entries are pasted into
    pdb_before: str = ""  # pdb commands typed before a [pdb] entry
    pdb_after: str = "q\n"


@dataclass(frozen=True)
class Entry:
    sheet: str
    line: int
    comment: str
    command: str
    syntax: str
    needs: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.sheet}:{self.line}"


@dataclass(frozen=True)
class Outcome:
    entry: Entry
    problem: str  # "" when it did what it says
    seconds: float = 0.0  # how long the entry and its check ran


def entries_of(sheet: str, path: Path) -> list[Entry]:
    record = read_record(str(path))
    assert not isinstance(record, list), record
    syntax, _, parsed, _ = record
    found = []
    for comment, command, line in parsed:
        tags = entry_tags(comment)
        needs = tuple(tag for tag in tags if not _available(tag))
        found.append(Entry(sheet, line, comment, command, entry_syntax(comment, syntax), needs))
    return found


def _available(tag: str) -> bool:
    if tag.startswith("py3."):
        return sys.version_info >= (3, int(tag[4:]))
    return tag not in NEED_TAGS


# -- preparing ------------------------------------------------------------------------------------
def base_env(home: Path) -> dict[str, str]:
    return {
        "HOME": str(home),
        "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "GIT_AUTHOR_NAME": "Dee Bugger",
        "GIT_AUTHOR_EMAIL": "dee@example.invalid",
        "GIT_COMMITTER_NAME": "Dee Bugger",
        "GIT_COMMITTER_EMAIL": "dee@example.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # hypothesis's plugin alone costs 0.4 s a run
        "PYTHONDONTWRITEBYTECODE": "1",
        "PAGER": "cat",
        "GIT_PAGER": "cat",
        "EDITOR": "true",
    }


def build_template(fixture: SheetFixture, root: Path) -> Path:
    template = root / "template"
    (template / "home").mkdir(parents=True)
    (template / "work").mkdir()
    env = {**base_env(template / "home"), **fixture.env}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", fixture.setup],
        cwd=template / "work",
        env=env,
        capture_output=True,
        text=True,
        timeout=SETUP_TIMEOUT,
    )
    assert done.returncode == 0, f"fixture setup failed:\n{done.stdout}{done.stderr}"
    stand_ins = env.get("PYTHONPATH", "").split(":")[0]
    if stand_ins:
        (template / "work" / stand_ins / "sitecustomize.py").write_text(STAND_INS_FIRST)
    return template


# A package installed the way `setup.py develop` (easy-install.pth) or some editable installs
# do it sits before PYTHONPATH on sys.path: a real transformers would then hide the fixture's
# stand-in. Python imports sitecustomize after every .pth ran; the one in the stand-ins'
# directory (the first of PYTHONPATH) puts PYTHONPATH's directories back in front.
STAND_INS_FIRST = """\
import contextlib
import os
import sys

_wanted = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
sys.path[:] = [p for p in sys.path if p in _wanted] + [p for p in sys.path if p not in _wanted]
"""


def filled(entry: Entry, fixture: SheetFixture) -> str:
    """The command with its placeholders and the fixture's literals replaced."""
    command = entry.command
    out, position = [], 0
    for start, end in placeholder_spans(command):
        name = command[start + 1 : end - 1]
        if name not in fixture.values:
            raise LookupError(f"{entry.where}: no fixture value for <{name}>")
        out.append(command[position:start] + fixture.values[name])
        position = end
    command = "".join(out) + command[position:]
    for literal, value in fixture.literals.items():
        command = command.replace(literal, value)
    return command


def check_for(entry: Entry, fixture: SheetFixture, commands: set[str]) -> Check:
    """The check keyed by the command itself, else by the one key found inside it. A key that
    is a whole command of the sheet (pdb's `c`, `git bisect good`) means only that command."""
    if entry.command in fixture.checks:
        return fixture.checks[entry.command]
    keys = [key for key in fixture.checks if key not in commands and key in entry.command]
    if len(keys) > 1:
        raise LookupError(f"{entry.where}: several checks fit, make one key longer: {keys}")
    return fixture.checks[keys[0]] if keys else Check()


# -- running --------------------------------------------------------------------------------------
def run_entry(
    entry: Entry, fixture: SheetFixture, commands: set[str], template: Path, scratch: Path
) -> Outcome:
    started = time.monotonic()
    try:
        check = check_for(entry, fixture, commands)
    except LookupError as error:
        return Outcome(entry, str(error))
    problem = ""
    with _TRACING if check.traces else contextlib.nullcontext():
        problem = _run_settings(entry, fixture, check, template, scratch)
    return Outcome(entry, problem, time.monotonic() - started)


def _run_settings(
    entry: Entry, fixture: SheetFixture, check: Check, template: Path, scratch: Path
) -> str:
    problem = ""
    for setting in ("", *check.settings):
        before = "\n".join(part for part in (check.before, setting) if part)
        problem = _run_and_check(entry, fixture, replace(check, before=before), template, scratch)
        if problem:
            return f"in the setting `{setting}`: {problem}" if setting else problem
    return problem


def _run_and_check(
    entry: Entry, fixture: SheetFixture, check: Check, template: Path, scratch: Path
) -> str:
    """What went wrong ("" for nothing); the command and the check afterwards share one limit."""
    deadline = time.monotonic() + TIMEOUT
    try:
        command = filled(entry, fixture)
    except LookupError as error:
        return str(error)
    place = Path(tempfile.mkdtemp(dir=scratch, prefix=f"{entry.sheet}-{entry.line}-"))
    env = {**base_env(place / "home"), **fixture.env, **check.env}
    script, stdin = _script(entry, command, check, fixture, place)
    copy = f"cp -a {template}/. {place} && cd {place}/work || exit 97\n"
    try:
        done = _bash(copy + script, place, env, stdin, deadline)
    except subprocess.TimeoutExpired:
        return f"still running after the {TIMEOUT} s an entry may take"
    problem = _judge(entry, check, done.returncode, done.stdout + done.stderr)
    if problem or not check.after:
        return problem
    try:
        after = _bash(check.after, place / "work", env, "", deadline)
    except subprocess.TimeoutExpired:
        return f"the check afterwards was still running after the {TIMEOUT} s an entry may take"
    if after.returncode:
        return f"the check afterwards failed: {check.after}\n{after.stdout}{after.stderr}"
    return ""


def _bash(
    script: str, cwd: Path, env: dict[str, str], stdin: str, deadline: float
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in its own session; past ``deadline`` the whole session is killed (a
    bisection's pytest too, not only bash) and TimeoutExpired raised."""
    with subprocess.Popen(
        ["bash", "-c", script],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(stdin, timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
        return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _script(
    entry: Entry, command: str, check: Check, fixture: SheetFixture, place: Path
) -> tuple[str, str]:
    """The bash to run and its standard input, by where the entry is typed."""
    if entry.syntax == "bash":
        before = f"{{ {check.before}\n}} >/dev/null 2>&1 || exit 96\n" if check.before else ""
        return before + command, check.stdin
    if entry.syntax == "pdb":  # `before` holds pdb commands typed before the entry
        typed = [fixture.pdb_before, check.before, command, check.stdin, fixture.pdb_after]
        return "python -m pdb program.py", "".join(_lines(part) for part in typed)
    if entry.syntax == "pdbrc":
        rc = shlex_quote(command + "\n")
        typed = [fixture.pdb_before, check.stdin, fixture.pdb_after]
        stdin = "".join(_lines(part) for part in typed)
        return f"printf %s {rc} >> ~/.pdbrc && python -m pdb program.py", stdin
    if entry.syntax == "python":
        program = fixture.program.replace("# ENTRY", command)
        return f"cat > entry.py <<'PROGRAM'\n{program}\nPROGRAM\npython entry.py", check.stdin
    raise AssertionError(f"{entry.where}: cannot run {entry.syntax!r} entries here")


def _lines(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def shlex_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _judge(entry: Entry, check: Check, status: int, output: str) -> str:
    tail = output[-1500:]
    if status in (96, 97):
        return "the check's `before` failed" if status == 96 else "could not copy the scratch"
    if check.status is not None and status != check.status:
        return f"exit status {status}, expected {check.status}; output:\n{tail}"
    if entry.syntax in ("pdb", "pdbrc", "python") and "\n*** " in "\n" + output:
        return f"pdb answered with an error:\n{tail}"
    if check.output and not re.search(check.output, output, re.MULTILINE):
        return f"output does not match {check.output!r}; output:\n{tail}"
    return ""


def run_sheets(
    sheets: Iterable[tuple[str, Path, SheetFixture]],
    scratch: Path,
    only: set[str] | None = None,
) -> dict[str, list[Outcome]]:
    """Every runnable entry of every sheet (of ``only``, ``sheet:line``s, when given),
    concurrently; entries with unmet needs are left out of the outcomes."""
    jobs: list[tuple[Entry, SheetFixture, set[str], Path]] = []
    for sheet, path, fixture in sheets:
        entries = entries_of(sheet, path)
        wanted = [e for e in entries if not e.needs and (only is None or e.where in only)]
        if not wanted:
            continue
        template = build_template(fixture, scratch / sheet)
        commands = {entry.command for entry in entries}
        jobs += [(entry, fixture, commands, template) for entry in wanted]
    jobs.sort(key=lambda job: _cost(job[0]), reverse=True)  # the slow ones first: a short tail
    with ThreadPoolExecutor(WORKERS) as pool:
        outcomes = list(
            pool.map(lambda job: run_entry(job[0], job[1], job[2], job[3], scratch), jobs)
        )
    results: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        results.setdefault(outcome.entry.sheet, []).append(outcome)
    return results


def _cost(entry: Entry) -> int:
    """A rough guess of how long an entry runs: each pytest start is a good part of a second."""
    return entry.command.count("pytest") + 3 * entry.command.count("bisect run")


def remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
    if path.exists():  # a test left something read-only behind
        subprocess.run(["chmod", "-R", "u+w", str(path)], check=False)
        shutil.rmtree(path, ignore_errors=True)
