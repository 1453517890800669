from __future__ import annotations

import shutil
from pathlib import Path

from dotdbg.config.bindable import bind_l, readline_functions


def test_bash_lists_readline_and_bash_functions_lower_cased() -> None:
    names = bind_l(shutil.which("bash"))
    assert names is not None
    assert {"kill-whole-line", "history-search-backward", "shell-expand-line"} <= names
    assert "vi-bword" in names  # vi-bWord, as readline compares names ignoring case


def test_asked_once_per_process() -> None:
    assert readline_functions() is readline_functions()


def test_no_answer_without_a_bash_that_lists(tmp_path: Path) -> None:
    failing = tmp_path / "bash"
    failing.write_text("#!/bin/sh\nexit 2\n")
    failing.chmod(0o755)
    assert bind_l(None) is None
    assert bind_l(str(tmp_path / "missing")) is None
    assert bind_l(str(failing)) is None
