"""Bad input in one cheat path stays there (issue 21.7): a link loop, a broken link, a folder
tree 1,100 deep and a 200,000-entry tldr page each cost one warning, never the lookup, TAB
(``--names``) or Ctrl-G (``--pick``)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.cheat.index import MAX_DEPTH, MAX_ENTRIES, MAX_SHEET_BYTES
from tests.cheat.cheat_helpers import RunCheat, write_sheet

LOOKUPS = (["git", "bisect"], ["--names"], ["--pick"], ["qqmine"], ["bisect", "skip"])


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("dotdbg: warning: ")]


def tldr_page(entries: int) -> str:
    lines = ["# qqhuge", "", "> A page with very many entries.", ""]
    for number in range(entries):
        lines += [f"- Print number {number}:", "", f"`echo {{{{qqvalue{number}}}}}`", ""]
    return "\n".join(lines)


@pytest.mark.parametrize("second_run", [False, True], ids=["listing read", "listing cached"])
def test_a_link_loop_and_a_broken_link_skip_that_entry_with_one_warning_each(
    work_dir: Path, run_cheat: RunCheat, second_run: bool
) -> None:
    project = work_dir / ".cheat"
    write_sheet(project, "qqmine", "# qqmine says hello\necho hello\n")
    os.symlink("loop", project / "loop")  # a link to itself: ELOOP on every stat
    os.symlink("nowhere", project / "broken")
    if second_run:
        run_cheat("git")
    for args in LOOKUPS:
        done = run_cheat(*args)
        assert done.returncode == 0, (args, done.stderr)
        assert done.stdout
        assert sorted(warnings(done.stderr)) == [
            f"dotdbg: warning: {project}/broken: a broken symbolic link; skipped",
            f"dotdbg: warning: {project}/loop: Too many levels of symbolic links; skipped",
        ], args
    assert "git" in run_cheat("--names").stdout.split()


@pytest.fixture
def deep_project(work_dir: Path) -> Iterator[Path]:
    """``.cheat/d/d/.../d`` 1,100 folders deep, a sheet near the top and one at the bottom."""
    project = work_dir / ".cheat"
    write_sheet(project, "d/d/qqnear", "# qqnear is found\necho near\n")
    os.chdir(project)
    try:  # a path of 1,100 folders is longer than one system call takes: make them one by one
        for _ in range(1100):
            os.makedirs("d", exist_ok=True)
            os.chdir("d")
        Path("qqdeep").write_text("# qqdeep is never read\necho deep\n")
    finally:
        os.chdir(work_dir)
    yield project
    subprocess.run(["rm", "-rf", str(project)], check=True)  # shutil.rmtree recurses


def test_a_cheat_tree_1100_folders_deep_is_cut_at_a_bounded_depth(
    deep_project: Path, run_cheat: RunCheat
) -> None:
    skipped = f"{deep_project}/{'d/' * MAX_DEPTH}d"
    for args in (["d/d/qqnear"], ["qqnear"], ["--names"], ["--pick"], ["git", "bisect"]):
        done = run_cheat(*args)
        assert done.returncode == 0, (args, done.stderr)
        assert warnings(done.stderr) == [
            f"dotdbg: warning: {skipped}: more than {MAX_DEPTH} folders deep; skipped with all"
            " below it"
        ]
    assert "d/d/qqnear" in run_cheat("--names").stdout.split()
    done = run_cheat("qqdeep")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr


@pytest.fixture
def tldr_dir(community_dir: Path) -> Path:
    """The configured 'community' path, laid out as a clone of tldr-pages."""
    pages = community_dir / "pages" / "common"
    pages.mkdir(parents=True)
    return pages


def test_a_200000_entry_tldr_page_is_skipped_by_its_size(
    tldr_dir: Path, run_cheat: RunCheat
) -> None:
    page = tldr_dir / "qqhuge.md"
    page.write_text(tldr_page(200_000))
    assert page.stat().st_size > MAX_SHEET_BYTES
    lint = run_cheat("--lint", "qqhuge")
    assert lint.returncode == 1
    assert lint.stdout == f"{page}:1:1: error: larger than 4 MiB: split it up\n"
    for args in (["qqhuge"], ["print", "number"], ["--pick"], ["git", "bisect"]):
        done = run_cheat(*args)
        assert "Traceback" not in done.stderr
        assert warnings(done.stderr) == [
            f"dotdbg: warning: {page}: larger than 4 MiB: split it up; sheet skipped"
        ], args
    assert "git" in run_cheat("--names").stdout.split()


def test_a_tldr_page_with_too_many_entries_is_cut_and_says_where(
    tldr_dir: Path, run_cheat: RunCheat
) -> None:
    page = tldr_dir / "qqhuge.md"
    page.write_text(tldr_page(MAX_ENTRIES + 500))
    first_cut = 4 + 4 * MAX_ENTRIES + 1  # the line of the first entry left out
    cut = (
        f"dotdbg: warning: {page}: 500 entries from line {first_cut} on skipped: a sheet holds"
        f" at most {MAX_ENTRIES}; split it up"
    )
    last = run_cheat("qqhuge", f"qqvalue{MAX_ENTRIES - 1}")
    assert last.returncode == 0
    assert f"echo <qqvalue{MAX_ENTRIES - 1}>" in last.stdout
    assert warnings(last.stderr) == [cut]
    left_out = run_cheat("qqhuge", f"qqvalue{MAX_ENTRIES}")
    assert left_out.returncode == 1
    assert warnings(left_out.stderr) == [cut]
    # a search of every sheet says so too, hit or not, the cache read or written
    missing, kept = f"qqvalue{MAX_ENTRIES}", f"qqvalue{MAX_ENTRIES - 1}"
    for search in (missing, missing, "bisect", kept):
        found = run_cheat(search)
        assert warnings(found.stderr) == [cut], search
        assert found.returncode == (1 if search == missing else 0), search
