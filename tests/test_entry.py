"""Every command as the user meets it: usage errors and help in one style, one exit code for a
closed pipe, no command importing what it does not use, one list of command names."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg import __version__
from dotdbg.cli.registry import COMMANDS, SECTIONS
from tests.infra.procs import argv_of

BIN = Path(sys.executable).parent
HELPERS = ("watch-python", "memlimit", "mem-fill", "disk-fill", "gpu-fill")
REPO = Path(__file__).resolve().parent.parent
Cli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize(
    ("argv", "error", "help_of"),
    [
        (["dotdbg", "alias", "add"], "missing NAME", "dotdbg alias add"),
        (["dotdbg", "alias", "add", "x"], "missing COMMAND", "dotdbg alias add"),
        (["dotdbg", "suggest", "--top", "0"], "--top '0': at least 1", "dotdbg suggest"),
        (["dotdbg", "doctor", "--bogus"], "no such option: --bogus", "dotdbg doctor"),
        (["dotdbg", "expand"], "missing COMMAND", "dotdbg expand"),
        (["dotdbg", "install", "--bogus"], "no such option: --bogus", "dotdbg install"),
        (["dotdbg", "bogus"], "no such command 'bogus'", "dotdbg"),
        (["watch-python", "-s", "bogus"], "-s 'bogus' is not one of rss", "watch-python"),
        (["dotdbg", "watch-python", "-n", "0"], "-n '0': at least 0.1", "dotdbg watch-python"),
        (["memlimit"], "missing LIMIT", "memlimit"),
        (["dotdbg", "memlimit"], "missing LIMIT", "dotdbg memlimit"),
        (["mem-fill", "1G", "--hold"], "--hold needs a value (SECONDS)", "mem-fill"),
        (["gpu-fill", "--bogus"], "no such option: --bogus", "gpu-fill"),
        (["disk-fill", "--hold", "soon"], "--hold 'soon' is not a number", "disk-fill"),
        (["dotdbg", "stacks", "--samples", "0"], "--samples '0': at least 1", "dotdbg stacks"),
        (["dotdbg", "pyspy", "--tree", "x"], "--tree 'x' is not a whole number", "dotdbg pyspy"),
        (["dotdbg", "gdb", "--via", "lldb"], "--via 'lldb' is not one of auto", "dotdbg gdb"),
    ],
)
def test_a_usage_error_is_two_lines_and_exit_2(
    cli: Cli, argv: list[str], error: str, help_of: str
) -> None:
    done = cli(*argv)
    program = argv[0]
    assert (done.returncode, done.stdout) == (2, "")
    first, hint = done.stderr.splitlines()
    assert first.startswith(f"{program}: error: {error}")
    assert hint == f"hint: see `{help_of} --help`"


TYPE_TAG = re.compile(r"<(str|int|bool|float|path|text)\b|\{[A-Z]")


def every_help() -> list[list[str]]:
    nested = [[group, sub] for group in ("alias", "fn") for sub in ("add", "rm", "on")]
    nested += [["pack", "on"], ["pack", "off"]]
    return [[], *([name] for name in COMMANDS), *nested]


@pytest.mark.parametrize("words", every_help(), ids=lambda words: " ".join(words) or "dotdbg")
def test_help_is_plain_text_without_type_tags(cli: Cli, words: list[str]) -> None:
    done = cli("dotdbg", *words, "--help")
    assert done.returncode == 0, done.stderr
    assert not TYPE_TAG.search(done.stdout), done.stdout
    assert "╭" not in done.stdout  # no framework box
    assert cli("dotdbg", *words, "-h").stdout == done.stdout


def test_brackets_in_help_are_text_not_markup(cli: Cli) -> None:
    assert "(switchable in [packs])" in cli("dotdbg", "alias", "add", "--help").stdout


def test_dotdbg_help_lists_every_command_once_by_section(cli: Cli) -> None:
    text = cli("dotdbg", "--help").stdout
    listing = text.split("\n\noptions:")[0].split("\n\n", 2)[2]
    shown = {}
    for block in listing.split("\n\n"):
        title, *rows = block.splitlines()
        names = [row.split()[0] for row in rows if not row.startswith("   ")]
        shown[title.rstrip(":")] = names
    assert shown == {section: list(names) for section, names in SECTIONS.items()}
    assert next(iter(shown)) == "Look things up" and list(shown)[-1] == "Set-up"


@pytest.mark.parametrize("name", HELPERS)
def test_each_helper_script_has_help_and_version(name: str) -> None:
    """The installed launchers themselves (real processes)."""
    version = subprocess.run([BIN / name, "--version"], capture_output=True, text=True)
    assert (version.returncode, version.stdout) == (0, f"{name} (dotdbg) {__version__}\n")
    shown = subprocess.run([BIN / name, "-h"], capture_output=True, text=True)
    assert shown.stdout.startswith(f"usage: {name} [OPTIONS]")


PROBE = """
import io, json, sys
from dotdbg.cli.entry import main
heavy = ("typer", "click", "pydantic", "rich", "jinja2", "tomlkit", "argparse")
found = {}
for argv in json.loads(sys.argv[1]):
    sys.stdout = sys.stderr = io.StringIO()
    code = main(argv)
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    found[" ".join(argv)] = [code, sorted(m for m in heavy if m in sys.modules)]
print(json.dumps(found))
"""


def test_help_and_bad_options_load_nothing_heavy() -> None:
    runs = [["--version"], ["--help"]]
    for name in sorted(COMMANDS):
        runs += [[name, "--help"], [name, "--no-such-option"]]
    runs += [["--verbose", "memlimit", "--help"], ["pyspy", "--json", "--timeout", "1", "^$"]]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(runs)], capture_output=True, text=True
    )
    found = json.loads(done.stdout)
    assert {argv: loaded for argv, (_, loaded) in found.items() if loaded} == {}
    assert found["--version"][0] == 0
    assert found["memlimit --no-such-option"][0] == 2


def test_the_home_commands_never_load_typer(tmp_path: Path) -> None:
    """install, status, diff and the config edits start without typer (issue 9.4), as every
    command does since issue 22; status and diff after install do not render a check either
    (dotdbg.home.checks)."""
    home = str(tmp_path)
    runs = [
        ["install", "--home", home],
        ["status", "--home", home],
        ["diff", "--home", home],
        ["alias", "add", "gg", "git grep", "--home", home],
        ["pack", "off", "git", "--home", home],
        ["uninstall", "--home", home],
    ]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(runs)], capture_output=True, text=True
    )
    found = json.loads(done.stdout)
    assert [code for code, _ in found.values()] == [0, 0, 0, 0, 0, 0], done.stderr
    loaded = {argv.split()[0]: modules for argv, (_, modules) in found.items()}
    assert not {name for modules in loaded.values() for name in modules} & {"typer", "pydantic"}


def test_a_group_alone_lists_its_commands_and_a_wrong_one_is_a_usage_error(cli: Cli) -> None:
    alone = cli("dotdbg", "alias")
    assert alone.returncode == 2
    assert alone.stdout.startswith("usage: dotdbg alias COMMAND [ARGS]...")
    assert "  on   Switch a built-in alias" in alone.stdout
    wrong = cli("dotdbg", "fn", "bogus")
    assert (wrong.returncode, wrong.stderr.splitlines()) == (
        2,
        ["dotdbg: error: no such command: bogus", "hint: see `dotdbg fn --help`"],
    )


def test_version_is_answered_before_anything_is_imported() -> None:
    code = "import sys; from dotdbg.cli.entry import main; main(['--version']); "
    code += "print(len(sys.modules))"
    bare = "import sys; print(len(sys.modules))"
    counts = [
        int(
            subprocess.run(
                [sys.executable, "-c", c], capture_output=True, text=True
            ).stdout.split()[-1]
        )
        for c in (code, bare)
    ]
    assert counts[0] - counts[1] <= 6  # dotdbg, .cli, .cli.entry, .cli.runner, .errors, __future__


# A closed pipe: the same quiet exit 141 from every command (README, "Exit codes").

CLOSED_PIPE_COMMANDS = [
    ["dotdbg", "--version"],
    ["dotdbg", "--help"],
    ["dotdbg", "aliases"],
    ["dotdbg", "render"],
    ["dotdbg", "expand", "gs"],
    ["dotdbg", "cheat", "git"],
    ["dotdbg", "stacks", "--from", "{records}"],
    ["dotdbg", "pyspy", "--json", "--timeout", "5", "{marker}"],
    ["watch-python", "--once", "--all-users"],
    ["memlimit", "--help"],
    ["mem-fill", "--help"],
]


@pytest.fixture
def records(tmp_path: Path) -> Path:
    record = {
        "host": "h", "pid": 1, "ppid": None, "rank": None, "local_rank": None, "launcher": None,
        "command": "x", "source": "py-spy", "error": None,
        "threads": [{"name": None, "id": 1, "native_id": 1, "idle": False, "gil": None,
                     "frames": []}],
    }  # fmt: skip
    frame = {"file": "x.py", "line": 1, "native": False}
    path = tmp_path / "records.jsonl"
    lines = []
    for pid in range(1, 400):  # each its own stack, so nothing merges: a long tree
        stack = [{**frame, "function": f"f{pid}_{depth}"} for depth in range(10)]
        threads = [{**record["threads"][0], "frames": stack}]  # type: ignore[index]
        lines.append(json.dumps({**record, "pid": pid, "threads": threads}))
    path.write_text("\n".join(lines) + "\n")
    return path


def marker_process(tmp_path: Path) -> subprocess.Popen[bytes]:
    marker = f"closed-pipe-{os.getpid()}"
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker])


@pytest.mark.parametrize("argv", CLOSED_PIPE_COMMANDS, ids=" ".join)
def test_a_closed_pipe_exits_141_quietly(argv: list[str], records: Path, tmp_path: Path) -> None:
    sleeper = marker_process(tmp_path)
    words = [arg.format(records=records, marker=argv_of(sleeper)[-1]) for arg in argv]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: EPIPE, every time
    try:
        done = subprocess.run(
            [BIN / words[0], *words[1:]], stdout=write_end, stderr=subprocess.PIPE, text=True,
            timeout=60,
        )  # fmt: skip
    finally:
        os.close(write_end)
        sleeper.kill()
        sleeper.wait()
    assert (done.returncode, done.stderr) == (141, "")


def test_a_real_pipe_into_head(records: Path) -> None:
    """More than a pipe holds (64 KiB): head -1 leaves while dotdbg still writes."""
    script = f"set -o pipefail; {BIN}/dotdbg stacks --from {records} --full | head -1"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (141, "")
    assert done.stdout.count("\n") == 1
