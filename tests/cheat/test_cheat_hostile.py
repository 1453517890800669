"""Sheets from a cloned repository are data: TAB runs nothing, the terminal gets no escapes.

A `.cheat/` directory comes with whatever repository the user cloned. Its file names reach
TAB completion and its text reaches the terminal; neither may run code or send control
sequences (issue 16, items 3 and 10).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import uuid
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dotdbg.cheat.index import sheet_files
from dotdbg.paths import resource_dir
from dotdbg.visible import is_plain, json_safe, one_line, visible
from tests.cheat.cheat_helpers import DOTDBG, RunCheat, write_sheet
from tests.cheat.test_cheat_widget import render

OSC52 = "\x1b]52;c;cHduZWQ=\x07"  # writes "pwned" to the clipboard
TITLE = "\x1b]0;owned title\x07"
CLEAR = "\x1b[2J\x1b[H"
HOSTILE_SHEET = (
    "---\n"
    "tags: [ok\x1b(0]\n"  # DEC line drawing: every later letter a box piece
    "---\n"
    f"# qqhostile copy {OSC52} then retitle {TITLE}\n"
    f"echo qqhostile{CLEAR}\x1fecho other\u202e\n"
)
CONTROLS = [chr(code) for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)]]


def no_control_sequences(text: str) -> bool:
    return not any(char in text for char in CONTROLS if char not in "\n")


def test_sheet_text_reaches_the_terminal_as_text(work_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(work_dir / ".cheat", f"qqhostile{TITLE}", HOSTILE_SHEET)
    for args in (["qqhostile"], ["copy", "retitle"], [], ["-c", "qqhostile"], ["--names"]):
        done = run_cheat("--color", "always", *args)
        assert done.returncode == 0, done.stderr
        without_sgr = done.stdout.replace("\x1b[0m", "").replace("\x1b[1;35m", "")
        for style in ("\x1b[36m", "\x1b[32m", "\x1b[1;31m", "\x1b[1m"):
            without_sgr = without_sgr.replace(style, "")
        assert no_control_sequences(without_sgr), (args, done.stdout)
        assert no_control_sequences(done.stderr), (args, done.stderr)
    shown = run_cheat("qqhostile").stdout
    assert "# qqhostile copy \\x1b]52;c;cHduZWQ=\\x07 then retitle \\x1b]0;owned title\\x07" in (
        shown
    )
    assert "echo qqhostile\\x1b[2J\\x1b[H\\x1fecho other\\u202e" in shown
    # A name with ESC cannot be typed: it is not offered.
    assert "qqhostile" not in run_cheat("--names").stdout


def test_json_keeps_the_exact_text_in_escapes(work_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(work_dir / ".cheat", "qqhostile", HOSTILE_SHEET + "# c1\necho \x9b2J\x7f\n")
    done = run_cheat("--json", "qqhostile")
    assert no_control_sequences(done.stdout)
    records = json.loads(done.stdout)
    assert records[0]["command"] == f"echo qqhostile{CLEAR}\x1fecho other\u202e"
    assert records[1]["command"] == "echo \x9b2J\x7f"


def test_a_record_separator_in_a_command_cannot_forge_a_pick(
    work_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(work_dir / ".cheat", "qqhostile", HOSTILE_SHEET)
    records = run_cheat("--pick", "qqhostile").stdout.split("\0")
    assert records[-1] == ""
    [record] = records[:-1]
    shown, inserted = record.split("\x1f")  # exactly one separator: dotdbg's own
    assert inserted == "echo qqhostile\\x1b[2J\\x1b[H\\x1fecho other\\u202e"
    assert inserted in shown


@given(st.text())
def test_visible_leaves_no_control_character_and_keeps_the_rest(text: str) -> None:
    shown = visible(text)
    assert no_control_sequences(shown.replace("\t", ""))
    assert is_plain(one_line(text))
    if is_plain(text):
        assert shown == text


@given(st.text())
def test_json_safe_escapes_mean_the_same_text(text: str) -> None:
    dumped = json_safe(json.dumps({"k": text}, ensure_ascii=False))
    assert no_control_sequences(dumped)
    assert json.loads(dumped) == {"k": text}


# -- TAB completion over hostile file names ------------------------------------------------------
SHELL_SPECIAL = "$(){}`;|&<>*?[]~'\"!#=\\ %^@:,+"
NAMES = st.text(alphabet="abc" + SHELL_SPECIAL, min_size=1, max_size=10).filter(
    lambda name: not name.startswith("-")
)
COMPLETE = """
source "$1"
shift
COMP_WORDS=(ch "$1")
COMP_CWORD=1
__dotdbg_cheat_complete
printf '%s\\0' "${COMPREPLY[@]}"
"""


def complete(widget: Path, typed: str, cwd: Path) -> list[str]:
    """COMPREPLY of `ch TYPED<TAB>` in a bash that has the widget, unquoted as bash would."""
    done = subprocess.run(
        ["bash", "-c", COMPLETE, "complete", str(widget), typed],
        cwd=cwd,
        env={"HOME": str(cwd), "PATH": f"{Path(DOTDBG).parent}:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return [shlex.split(quoted)[0] for quoted in done.stdout.split("\0")[:-1]]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(names=st.lists(NAMES, min_size=1, max_size=6, unique=True), data=st.data())
@example(names=["$(touch${IFS}PWNED)", "`touch PWNED`", "a\tb", "x\x1b]2;t\x07"], data=None)
def test_completion_offers_names_as_data(
    names: list[str], data: st.DataObject | None, tmp_path: Path
) -> None:
    repo = tmp_path / f"repo-{uuid.uuid4().hex[:8]}"
    (repo / ".cheat").mkdir(parents=True)
    for name in names:
        (repo / ".cheat" / name).write_text("# x\nx\n")
    widget = repo.parent / "widget.bash"
    widget.write_text(render("\\C-g", "ch"))
    prefix = "" if data is None else data.draw(st.sampled_from(["", *(n[:2] for n in names)]))
    offered = complete(widget, prefix, repo)
    candidates = [*names, *(name for name, _ in sheet_files(str(resource_dir("cheatsheets"))))]
    plain = [name for name in candidates if is_plain(name) and name.startswith(prefix)]
    assert sorted(offered) == sorted(plain)
    assert not list(repo.rglob("PWNED")) and not (repo.parent / "PWNED").exists()


# -- other processes' strings: titles, thread names, code file names, nodes' output ----------------
def _process_outputs(text: str) -> list[str]:
    """Every text output that shows another process's strings, with ``text`` in each of them."""
    from dotdbg.gdb import render as gdb_render
    from dotdbg.stacks import render
    from dotdbg.stacks.merge import merge
    from dotdbg.stacks.record import Frame, StackRecord, Thread
    from dotdbg.watch.job import JobView, table

    frames = (Frame(text, text, 3), Frame(text, text, None, True))
    threads = (Thread(text, 1, 7, True, None, frames), Thread(text, 2, 8, False, None, frames))
    record = StackRecord(text, 7, 1, None, None, text, text, "py-spy", threads)
    failed = StackRecord(text, 9, 1, None, None, None, text, "py-spy", (), text)
    row = {"pid": 7, "ppid": 1, "rss_bytes": 0, "cpu_percent": 0.0, "threads": 1}
    row["elapsed_seconds"] = 1
    return [
        render.plain(render.all_lines(merge([record, failed], all_threads=True), full=True)),
        render.dump_text(record),
        render.dump_text(failed),
        gdb_render.record_text(record),
        gdb_render.record_text(failed),
        table({text: {"processes": [{**row, "command": text}]}}, [text], JobView(tree=True)),
    ]


@settings(deadline=None)
@given(st.text())
@example(f"{OSC52}{TITLE}{CLEAR}\x1f\u202e\n\t")
def test_other_processes_strings_reach_the_terminal_as_text(text: str) -> None:
    """The property that guards sheets, over stacks, pyspy, gdb and watch-python's renderers."""
    for output in _process_outputs(text):
        assert no_control_sequences(output), output
