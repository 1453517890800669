"""--edit and --new with a real editor process; read-only sheets are never written."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dotdbg.errors import DotdbgError
from tests.cheat.cheat_helpers import FIXTURE_SHEETS, RunCheat, write_sheet


@pytest.fixture
def editor(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An EDITOR that records the file it was given and appends an entry to it."""
    log = tmp_path / "editor.log"
    script = tmp_path / "fake-editor"
    script.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$@" >> {log}\n'
        'printf "\\n# appended\\nqq appended\\n" >> "$1"\n'
    )
    script.chmod(0o755)
    return {"EDITOR": str(script), "VISUAL": ""}, log


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(path): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def test_edit_copies_read_only_sheet_and_never_touches_it(
    personal_dir: Path,
    community_dir: Path,
    run_cheat: RunCheat,
    editor: tuple[dict[str, str], Path],
) -> None:
    env, log = editor
    original = write_sheet(community_dir, "qqgit", (FIXTURE_SHEETS / "git").read_text())
    original.chmod(0o444)
    before = snapshot(community_dir)
    done = run_cheat("--edit", "qqgit", env=env)
    assert done.returncode == 0, done.stderr
    copy = personal_dir / "qqgit"
    assert log.read_text() == f"{copy}\n"
    assert copy.read_text() == original.read_text() + "\n# appended\nqq appended\n"
    assert snapshot(community_dir) == before
    # The copy merges with the original without showing its entries twice.
    listing = run_cheat("--json").stdout
    assert '"entries": 11' in listing
    assert run_cheat("-c", "qqgit", "appended").stdout == "qq appended\n"
    # A second edit opens the personal copy again.
    run_cheat("--edit", "qqgit", env=env)
    assert log.read_text() == f"{copy}\n{copy}\n"
    assert snapshot(community_dir) == before


def test_edit_prefers_a_writable_path(
    work_dir: Path, run_cheat: RunCheat, editor: tuple[dict[str, str], Path]
) -> None:
    env, log = editor
    project_sheet = write_sheet(work_dir / ".cheat", "qqproj", "# p\nqq p\n")
    assert run_cheat("--edit", "qqproj", env=env).returncode == 0
    assert log.read_text() == f"{project_sheet}\n"


def test_edit_unknown_sheet_suggests(
    personal_dir: Path, run_cheat: RunCheat, editor: tuple[dict[str, str], Path]
) -> None:
    env, log = editor
    write_sheet(personal_dir, "qqgit", "# x\nx\n")
    done = run_cheat("--edit", "qqgti", env=env)
    assert done.returncode == 2
    assert done.stderr == (
        "dotdbg: error: no sheet named 'qqgti'\n"
        "hint: did you mean qqgit, or start a new sheet with `dotdbg cheat --new qqgti`?\n"
    )
    assert not log.exists()
    alone = run_cheat("--edit", "zzqqnothing", env=env)
    assert alone.stderr.splitlines()[1] == (
        "hint: start a new sheet with `dotdbg cheat --new zzqqnothing`"
    )


def test_edit_opens_a_malformed_personal_sheet_to_fix_it(
    personal_dir: Path, run_cheat: RunCheat, editor: tuple[dict[str, str], Path]
) -> None:
    env, log = editor
    broken = write_sheet(personal_dir, "qqbroken", "---\nsyntax: bash\n")
    done = run_cheat("--edit", "qqbroken", env=env)
    assert done.returncode == 0
    assert log.read_text() == f"{broken}\n"


def test_new_creates_a_starter_sheet(
    personal_dir: Path, run_cheat: RunCheat, editor: tuple[dict[str, str], Path]
) -> None:
    env, log = editor
    done = run_cheat("--new", "qqfresh", env=env)
    assert done.returncode == 0, done.stderr
    created = personal_dir / "qqfresh"
    assert log.read_text() == f"{created}\n"
    assert created.read_text().startswith("---\nsyntax: bash\ntags: []\n---\n")
    assert run_cheat("-c", "qqfresh").stdout == "qq appended\n"
    assert run_cheat("qqfresh").stderr == ""  # the starter text parses without a warning
    again = run_cheat("--new", "qqfresh", env=env)
    assert again.returncode == 2
    assert "already exists" in again.stderr


@pytest.mark.parametrize("name", ["has.dot", "", "-x", "a b", "../escape", "a\\b", "x/-y"])
def test_new_refuses_bad_names(
    name: str, run_cheat: RunCheat, editor: tuple[dict[str, str], Path], fake_home: Path
) -> None:
    env, log = editor
    done = run_cheat(f"--new={name}", env=env)
    assert done.returncode == 2
    assert "cannot be a sheet name" in done.stderr or "needs a value" in done.stderr
    assert not log.exists()


def test_edit_uses_visual_before_editor(
    personal_dir: Path, run_cheat: RunCheat, editor: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    env, log = editor
    write_sheet(personal_dir, "qqgit", "# x\nx\n")
    visual_log = tmp_path / "visual.log"
    visual = tmp_path / "visual"
    visual.write_text(f'#!/bin/sh\necho "$@" > {visual_log}\n')
    visual.chmod(visual.stat().st_mode | stat.S_IEXEC)
    assert run_cheat("--edit", "qqgit", env={**env, "VISUAL": f"{visual} --wait"}).returncode == 0
    assert visual_log.read_text() == f"--wait {personal_dir / 'qqgit'}\n"
    assert not log.exists()


def test_missing_editor_is_a_user_error(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", "# x\nx\n")
    done = run_cheat("--edit", "qqgit", env={"EDITOR": "no-such-editor-qq", "VISUAL": ""})
    assert done.returncode == 2
    assert "cannot run the editor 'no-such-editor-qq'" in done.stderr
    assert os.path.exists(personal_dir / "qqgit")


def test_edit_and_new_take_names_cheat_sheets_use(
    personal_dir: Path,
    community_dir: Path,
    run_cheat: RunCheat,
    editor: tuple[dict[str, str], Path],
) -> None:
    """cheat/cheatsheets has sheets such as `find+` and `dnf+`: those can be edited too."""
    env, log = editor
    original = write_sheet(community_dir, "qqfind+", "# find plus\nfind -L .\n")
    original.chmod(0o444)
    assert run_cheat("--edit", "qqfind+", env=env).returncode == 0
    assert log.read_text() == f"{personal_dir / 'qqfind+'}\n"
    assert original.read_text() == "# find plus\nfind -L .\n"
    assert run_cheat("--new", "qqc++", env=env).returncode == 0
    assert (personal_dir / "qqc++").is_file()


def test_new_files_appear_whole_with_the_umask_mode(
    personal_dir: Path, community_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(community_dir, "qqgit", "# x\nx\n").chmod(0o444)
    env = {"EDITOR": "true", "VISUAL": ""}
    assert run_cheat("--new", "qqfresh", env=env).returncode == 0
    assert run_cheat("--edit", "qqgit", env=env).returncode == 0
    assert sorted(path.name for path in personal_dir.iterdir()) == ["qqfresh", "qqgit"]  # no temp
    mask = os.umask(0)
    os.umask(mask)
    for name in ("qqfresh", "qqgit"):
        assert stat.S_IMODE((personal_dir / name).stat().st_mode) == 0o666 & ~mask


def test_new_never_replaces_a_file_made_meanwhile(tmp_path: Path) -> None:
    """The last step links the finished temp file in: an existing file stops it, untouched."""
    from dotdbg.cheat import edit

    target = tmp_path / "sheets" / "qqrace"
    target.parent.mkdir()
    target.write_text("# theirs\nkeep\n")
    with pytest.raises(FileExistsError):
        edit._write_new(str(target), b"# mine\nlost\n")
    assert target.read_text() == "# theirs\nkeep\n"
    assert [path.name for path in target.parent.iterdir()] == ["qqrace"]


def test_empty_sheet_says_so(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqempty", "---\nsyntax: bash\n---\n# a heading only\n")
    done = run_cheat("qqempty")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "dotdbg: sheet 'qqempty' has no entries yet\nhint: dotdbg cheat --edit qqempty\n"
    )


def test_a_failed_write_leaves_no_sheet_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while writing: no half-written sheet, no temp file."""
    import errno

    from dotdbg.cheat import edit

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)  # the os module edit uses
    target = tmp_path / "sheets" / "qqfull"
    with pytest.raises(DotdbgError, match=f"cannot write {target}: No space"):
        edit._write_new(str(target), b"# mine\nx\n")
    assert list(target.parent.iterdir()) == []


def test_personal_dir_in_the_way_is_a_user_error(
    personal_dir: Path, community_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(community_dir, "qqgit", "# x\nx\n")
    personal_dir.rmdir()
    personal_dir.write_text("a file where the sheets dir should be\n")
    env = {"EDITOR": "true", "VISUAL": ""}
    for args in (["--new", "qqfresh"], ["--edit", "qqgit"]):
        done = run_cheat(*args, env=env)
        assert done.returncode == 2, args
        assert done.stderr == (
            f"dotdbg: error: cannot create a file in {personal_dir}: File exists\n"
            "hint: check the path and its permissions\n"
        )
    assert personal_dir.read_text() == "a file where the sheets dir should be\n"
