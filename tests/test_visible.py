"""Issue 16.10: config values are shown as text, never as rich markup or terminal controls."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.visible import one_line

CONFIG = (
    "[aliases]\n"
    'q1 = "echo [/unclosed]"\n'
    'q2 = "echo [bold red]x[/] :smile:"\n'
    'q3 = { command = "printf \\u001b]52;c;aGk=\\u0007 done",'
    ' desc = "title \\u001b]0;pwned\\u0007" }\n'
    'q4 = "echo \\u202eevil"\n'
)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain [bold]x[/]", "plain [bold]x[/]"),
        ("\x1b]52;c;aGk=\x07", "\\x1b]52;c;aGk=\\x07"),
        ("a\tb\x1fc\x7f\x9b", "a\\x09b\\x1fc\\x7f\\x9b"),
        ("\u202eevil\u2066", "\\u202eevil\\u2066"),
        ("ünï ✓", "ünï ✓"),
    ],
)
def test_control_characters_are_shown_as_escapes(text: str, shown: str) -> None:
    assert one_line(text) == shown


def aliases_output(home: Path, *args: str, tty: bool = False) -> str:
    config = home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(CONFIG)
    argv = [sys.executable, "-m", "dotdbg", "aliases", *args, "--home", str(home)]
    env = {**os.environ, "COLUMNS": "250"}
    env.pop("NO_COLOR", None)
    if tty:  # a real terminal, where rich adds its own styles
        assert shutil.which("script"), "script (util-linux) is needed for a pty"
        argv = ["script", "-qec", " ".join(argv), "/dev/null"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


@pytest.mark.parametrize("tty", [False, True])
def test_aliases_shows_values_as_text(tmp_path: Path, tty: bool) -> None:
    styled = aliases_output(tmp_path, tty=tty)
    out = re.sub("\x1b\\[[0-9;]*m", "", styled)  # rich's own colours, on a terminal
    assert "\x1b" not in out
    assert "echo [/unclosed]" in out
    assert "echo [bold red]x[/] :smile:" in out
    assert "\x07" not in out and "\x1b]" not in out and "\u202e" not in out
    assert "\\x1b]52;c;aGk=" in out and "\\u202eevil" in out
    assert "title " in out and "\\x1b]0;pwned\\x07" in out


def test_explaining_one_alias_shows_controls_as_escapes(tmp_path: Path) -> None:
    out = aliases_output(tmp_path, "q3")
    assert out.splitlines()[:2] == [
        "q3 is an alias (pack user): title \\x1b]0;pwned\\x07",
        "  q3 → printf \\x1b]52;c;aGk=\\x07 done",
    ]
