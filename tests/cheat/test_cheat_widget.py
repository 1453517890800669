"""The prompt widget: rendered from its template, driven in a real interactive bash under tmux."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.home.render import completion_context
from dotdbg.paths import resource_dir
from tests.cheat.cheat_helpers import write_sheet
from tests.infra.tmux import Tmux

SHELLCHECK = str(Path(sys.executable).parent / "shellcheck")
PICK_SHEET = (
    "# qqmarker pick me\n"
    "touch qq-ran-marker naïve <file> && echo done\n\n"  # ï: the cursor counts characters
    "# qqmarker the other one, longer comment\n"
    "echo qq-other\n"
)


def render(key: str, alias: str) -> str:
    """The widget as the lead's dotdbg.bash.j2 includes it, with the same Environment settings."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["shquote"] = lambda text: "'" + text.replace("'", "'\\''") + "'"
    return env.get_template("cheat_widget.bash.j2").render(
        cheat={"key": key, "alias": alias}, completion=completion_context()
    )


@pytest.mark.parametrize(("key", "alias"), [("\\C-g", "ch"), ("", ""), ("\\ec", "cheat-it")])
def test_rendered_widget_passes_bash_n_and_shellcheck(key: str, alias: str, tmp_path: Path) -> None:
    script = tmp_path / "widget.bash"
    script.write_text(render(key, alias))
    subprocess.run(["bash", "-n", str(script)], check=True)
    if not Path(SHELLCHECK).is_file():  # an extra (dotdbg[check]); CI runs once without it
        pytest.skip("shellcheck is not installed")
    done = subprocess.run([SHELLCHECK, "-s", "bash", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_key_and_alias_are_optional() -> None:
    both = render("\\C-g", "ch")
    assert "bind -m emacs -x '\"\\C-g\": __dotdbg_cheat_widget'" in both
    assert "bind -m vi-insert -x '\"\\C-g\": __dotdbg_cheat_widget'" in both
    assert (
        "alias 'ch=__dotdbg_present && dotdbg cheat'" in both
    )  # 25.3: says once if dotdbg is gone
    neither = render("", "")
    assert "bind -x" not in neither
    assert "alias " not in neither


def test_sourcing_runs_no_program(tmp_path: Path) -> None:
    """Start-up only defines functions, an alias and a binding: no dotdbg, fzf or stty runs."""
    log = tmp_path / "calls.log"
    stubs = tmp_path / "bin"
    stubs.mkdir()
    for name in ("dotdbg", "fzf", "stty"):
        stub = stubs / name
        stub.write_text(f"#!/bin/sh\necho {name} >> {log}\n")
        stub.chmod(0o755)
    widget = tmp_path / "widget.bash"
    widget.write_text(render("\\C-g", "ch"))
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "--norc", "-i", "-c", f"source {widget} && type __dotdbg_cheat_widget >/dev/null"],
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert not log.exists()


# -- a real interactive bash under tmux ---------------------------------------------------------
@pytest.fixture
def start_shell(
    fake_home: Path, personal_dir: Path, tmp_path: Path
) -> Iterator[Callable[[str], Tmux]]:
    """Start bash -i in tmux, the widget sourced from a test bashrc, HOME the fake home.

    ``picker`` is the DOTDBG_CHEAT_PICKER value: "list" forces the numbered list.
    """
    write_sheet(personal_dir, "qqpick", PICK_SHEET)
    widget = tmp_path / "widget.bash"
    widget.write_text(render("\\C-g", "ch"))
    rc = tmp_path / "bashrc"
    rc.write_text(
        f"PS1='$ '\nunset HISTFILE\nexport PATH={Path(sys.executable).parent}:$PATH\n"
        f"source {widget}\n"
        # How the main `dotdbg` completion can hand `dotdbg cheat ...` words over:
        "complete -F __dotdbg_cheat_complete dotdbg\n"
    )
    sessions: list[Tmux] = []

    def start(picker: str) -> Tmux:
        env = {
            **{"HOME": str(fake_home), "TERM": "xterm-256color", "LANG": "C.UTF-8"},
            **{"PATH": "/usr/bin:/bin", "DOTDBG_CHEAT_PICKER": picker},
        }
        bash = ["bash", "--noprofile", "--rcfile", str(rc), "-i"]
        clipboard = {"set-clipboard": "on"}  # OSC 52 from the pane fills tmux's buffer
        tmux = Tmux(bash, env=env, cwd=fake_home, width=160, name="bash", options=clipboard)
        sessions.append(tmux)
        tmux.wait_for(lambda screen: screen.startswith("$ "), "the prompt")
        return tmux

    yield start
    for tmux in sessions:
        tmux.close()


def assert_on_prompt_not_run(shell: Tmux, home: Path) -> None:
    """The pick sits on the prompt line after what was typed, the cursor on <file>; nothing ran."""
    expected = "$ true touch qq-ran-marker naïve <file> && echo done"
    shell.wait_for(lambda screen: expected in screen, "the picked command on the prompt line")
    shell.type("X")  # lands where the cursor is: on the first placeholder
    shell.wait_for(lambda screen: "naïve X<file>" in screen, "typing at the placeholder")
    assert not (home / "qq-ran-marker").exists()
    assert "done" not in [line.strip() for line in shell.screen().splitlines()]  # echo's output


def pick_from_numbered_list(shell: Tmux, query: str, wanted: str) -> None:
    shell.keys("C-g")
    shell.answer("cheat: search words", query)
    screen = shell.wait_for(lambda screen: "cheat: number" in screen, "the numbered list")
    numbered = [line.split(None, 1) for line in screen.splitlines() if line[:4].strip().isdigit()]
    shell.answer("cheat: number", next(number for number, text in numbered if wanted in text))


@pytest.mark.e2e
@pytest.mark.parametrize("editing_mode", ["emacs", "vi"])
def test_numbered_list_puts_the_pick_on_the_prompt(
    editing_mode: str, start_shell: Callable[[str], Tmux], fake_home: Path
) -> None:
    shell = start_shell("list")
    shell.answer("$", f"set -o {editing_mode}; clear")
    shell.wait_for(lambda screen: screen.startswith("$ \n"), "a cleared screen")
    shell.type("true ")  # the pick goes in at the cursor, after what is already typed
    pick_from_numbered_list(shell, "qqmarker", "pick me")
    assert_on_prompt_not_run(shell, fake_home)


@pytest.mark.e2e
@pytest.mark.parametrize("cancel", ["q", "C-c", "Escape"])
def test_numbered_list_cancelled_leaves_the_line_and_the_next_one(
    cancel: str, start_shell: Callable[[str], Tmux]
) -> None:
    shell = start_shell("list")
    shell.type("true keep")
    shell.keys("C-g")
    shell.answer("cheat: search words", "qqmarker")
    shell.answer("cheat: number", "99")  # not on the list: asked again
    shell.wait_for(lambda screen: screen.count("cheat: number") == 1, "the question again")
    shell.keys(cancel)
    shell.wait_for(lambda screen: "cheat:" not in screen, "the menu to be erased")
    shell.type("Z")
    shell.wait_for(lambda screen: "$ true keepZ" in screen, "the unchanged line")
    shell.keys("C-u")
    shell.type("echo qq''next")  # typed once, echoed once: the terminal is as readline left it
    shell.keys("Enter")
    screen = shell.wait_for(lambda screen: "\nqqnext\n" in screen, "the next command's output")
    assert screen.count("echo qq''next") == 1


@pytest.mark.e2e
def test_numbered_list_pages_below_the_visible_prompt(start_shell: Callable[[str], Tmux]) -> None:
    shell = start_shell("list")
    shell.type("true keep")
    shell.keys("C-g")
    shell.answer("cheat: search words", "")  # every entry: hundreds
    first = shell.wait_for(lambda screen: "cheat: number" in screen, "the first page")
    rows = first.splitlines()
    assert rows[0] == "$ true keep"  # bash blanks its line while a binding runs; the menu shows it
    assert len([row for row in rows if row.strip()]) <= 40  # one screen, nothing scrolled away
    numbers = [int(row.split()[0]) for row in rows if row[:4].strip().isdigit()]
    assert numbers[0] == 1
    shell.keys("Enter")  # the next page, drawn in the same place
    second = shell.wait_for(lambda screen: f"{numbers[-1] + 1:4d}  " in screen, "page two")
    assert second.splitlines()[0] == "$ true keep"
    assert f"{numbers[-1]:4d}  " not in second
    shell.keys("q")
    shell.wait_for(lambda screen: screen.startswith("$ true keep") and "cheat:" not in screen, "q")


@pytest.mark.e2e
def test_numbered_list_puts_one_command_of_an_entry_with_two(
    start_shell: Callable[[str], Tmux], personal_dir: Path
) -> None:
    write_sheet(personal_dir, "qqtwo", "# qqtwo two ways\necho qqfirst\necho qqsecond\n")
    shell = start_shell("list")
    pick_from_numbered_list(shell, "qqtwo", "echo qqsecond")
    shell.wait_for(lambda screen: "$ echo qqsecond" in screen, "the second command alone")
    assert "qqfirst" not in shell.screen()


@pytest.mark.e2e
def test_numbered_list_shows_sheet_escapes_as_text(
    start_shell: Callable[[str], Tmux], personal_dir: Path
) -> None:
    write_sheet(personal_dir, "qqesc", "# qqesc \x1b]2;qqowned\x07 title\necho qqesc\x1b[2J\n")
    shell = start_shell("list")
    title = shell("display-message", "-p", "#{pane_title}")
    shell.keys("C-g")
    shell.answer("cheat: search words", "qqesc")
    screen = shell.wait_for(lambda screen: "cheat: number" in screen, "the list")
    assert "echo qqesc\\x1b[2J  # qqesc \\x1b]2;qqowned\\x07 title" in screen
    assert shell("display-message", "-p", "#{pane_title}") == title


@pytest.mark.e2e
def test_fzf_puts_the_pick_on_the_prompt(
    start_shell: Callable[[str], Tmux], fake_home: Path
) -> None:
    if shutil.which("fzf") is None:
        pytest.skip("fzf is not installed (the numbered list is tested without it)")
    shell = start_shell("")
    shell.type("true ")
    shell.keys("C-g")
    shell.wait_for(lambda screen: "cheat>" in screen, "fzf")
    shell.type("'qq-ran-marker")  # fzf's exact-match syntax: only our entry, whatever is built in
    shell.wait_for(lambda screen: " 1/" in screen, "fzf narrowed to one entry")
    shell.keys("Enter")
    assert_on_prompt_not_run(shell, fake_home)


@pytest.mark.e2e
def test_fzf_picks_one_command_and_ctrl_y_copies_it(
    start_shell: Callable[[str], Tmux], personal_dir: Path
) -> None:
    if shutil.which("fzf") is None:
        pytest.skip("fzf is not installed")
    write_sheet(personal_dir, "qqtwo", "# qqtwo two ways\necho qqfirst\necho qqsecond\n")
    shell = start_shell("")
    shell.type("true ")
    shell.keys("C-g")
    shell.wait_for(lambda screen: "cheat>" in screen, "fzf")
    shell.type("'qqsecond")
    shell.wait_for(lambda screen: " 1/" in screen, "fzf narrowed to one command")
    shell.keys("C-y")
    shell.wait_for(lambda screen: "dotdbg: copied (OSC 52)" in screen, "the copy's report")
    assert shell("show-buffer") == "echo qqsecond"
    shell.wait_for(lambda screen: screen.rstrip().endswith("$ true"), "the line as it was")
    shell.keys("C-g")
    shell.wait_for(lambda screen: "cheat>" in screen, "fzf again")
    shell.type("'qqsecond")
    shell.wait_for(lambda screen: " 1/" in screen, "fzf narrowed to one command")
    shell.keys("Enter")
    shell.wait_for(lambda screen: "$ true echo qqsecond" in screen, "one command on the line")
    assert "qqfirst" not in shell.screen()


@pytest.mark.e2e
def test_numbered_list_copies_with_c(
    start_shell: Callable[[str], Tmux], personal_dir: Path
) -> None:
    shell = start_shell("list")
    shell.type("true keep")
    shell.keys("C-g")
    shell.answer("cheat: search words", "qqmarker other")
    shell.answer("cheat: number", "c1")
    shell.wait_for(lambda screen: "cheat: copied (OSC 52): echo qq-other" in screen, "the report")
    assert shell("show-buffer") == "echo qq-other"
    shell.wait_for(lambda screen: "$ true keep" in screen, "the line as it was")


@pytest.mark.e2e
def test_fzf_escape_leaves_the_line(start_shell: Callable[[str], Tmux]) -> None:
    if shutil.which("fzf") is None:
        pytest.skip("fzf is not installed")
    shell = start_shell("")
    shell.type("true keep")
    shell.keys("C-g")
    shell.wait_for(lambda screen: "cheat>" in screen, "fzf")
    shell.keys("Escape")
    shell.wait_for(lambda screen: "cheat>" not in screen, "fzf to close")
    shell.type("Z")
    shell.wait_for(lambda screen: "$ true keepZ" in screen, "the unchanged line")


@pytest.mark.e2e
def test_alias_completes_sheet_names_and_looks_up(start_shell: Callable[[str], Tmux]) -> None:
    shell = start_shell("list")
    shell.type("ch qqpi")
    shell.keys("Tab")
    shell.wait_for(lambda screen: "$ ch qqpick " in screen, "the completed sheet name")
    shell.type("--col")
    shell.keys("Tab")
    shell.wait_for(lambda screen: "$ ch qqpick --color " in screen, "the completed option")
    shell.type("never -c other")
    shell.keys("Enter")
    shell.wait_for(lambda screen: "\necho qq-other\n$ " in screen, "the looked-up command")


@pytest.mark.e2e
def test_completion_after_dotdbg_cheat(start_shell: Callable[[str], Tmux]) -> None:
    shell = start_shell("list")
    shell.type("dotdbg cheat --edit qqpi")
    shell.keys("Tab")
    shell.wait_for(lambda screen: "$ dotdbg cheat --edit qqpick " in screen, "the sheet name")
    shell.keys("C-u")
    shell.type("dotdbg cheat qqpick qqpi")  # the second word is a search term: no completion
    shell.keys("Tab")
    shell.type("Z")  # keys are handled in order: a completion would come before the Z
    shell.wait_for(lambda screen: "$ dotdbg cheat qqpick qqpiZ" in screen, "no completion")
