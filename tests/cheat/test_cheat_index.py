"""The mtime cache: reused while nothing changes, refreshed on change, robust to damage, and
a lookup that names a sheet decodes that sheet alone."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from dotdbg.cheat.cache import CACHE_NAME, Index
from dotdbg.cheat.cheatpaths import Cheatpath
from dotdbg.cheat.index import MAX_SHEET_BYTES, Catalog
from tests.cheat.cheat_helpers import RunCheat, write_sheet


class CountingIndex(Index):
    """An Index that counts the cached sheets it decodes."""

    decoded = 0

    def value(self, path: str) -> Any:
        CountingIndex.decoded += path not in self.fresh
        return super().value(path)


def catalog(directory: Path, cache: Path, warnings: list[str] | None = None) -> Catalog:
    def warn(path: str, problem: str) -> None:
        if warnings is not None:
            warnings.append(f"{Path(path).name}: {problem}")

    cheatpaths = [Cheatpath("personal", str(directory), readonly=False)]
    return Catalog(cheatpaths, CountingIndex(str(cache)), warn)


def load(directory: Path, cache: Path) -> tuple[list[str], list[str]]:
    warnings: list[str] = []
    sheets = catalog(directory, cache, warnings)
    files = sheets.load()
    sheets.save()
    return [entry[1] for file in files for entry in file.entries], warnings


def test_unchanged_sheets_come_from_the_cache(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    sheet = write_sheet(sheets, "a", "# one\ncmd one\n")
    assert load(sheets, cache) == (["cmd one"], [])
    # Same size and mtime but other bytes: only a cache hit can still say "cmd one".
    stamp = sheet.stat()
    sheet.write_text("# one\ncmd two\n")
    os.utime(sheet, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert load(sheets, cache) == (["cmd one"], [])


def test_changed_sheet_is_read_again(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    sheet = write_sheet(sheets, "a", "# one\ncmd one\n")
    load(sheets, cache)
    sheet.write_text("# one\ncmd one, edited\n")
    assert load(sheets, cache) == (["cmd one, edited"], [])


def test_deleted_sheet_leaves_the_cache(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    write_sheet(sheets, "a", "# a\na\n")
    gone = write_sheet(sheets, "b", "# b\nb\n")
    load(sheets, cache)
    gone.unlink()
    assert load(sheets, cache) == (["a"], [])
    assert str(gone) not in Index(str(cache)).rows


def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    write_sheet(sheets, "a", "# a\na\n")
    cache.parent.mkdir()
    cache.write_bytes(b"\x00garbage")
    assert load(sheets, cache) == (["a"], [])
    assert str(sheets / "a") in Index(str(cache)).rows


def test_broken_sheet_warns_from_the_cache_too(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    write_sheet(sheets, "bad", "---\nsyntax bash\n---\n")
    first = load(sheets, cache)
    assert first == (
        [],
        ["bad:2: front matter: expected 'key: value', got 'syntax bash'; sheet skipped"],
    )
    assert load(sheets, cache) == first


def test_huge_file_is_skipped_with_a_warning(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    write_sheet(sheets, "ok", "# ok\nok\n")
    with open(sheets / "huge", "wb") as huge:
        huge.truncate(MAX_SHEET_BYTES + 1)
    assert load(sheets, cache) == (["ok"], ["huge: larger than 4 MiB: split it up; sheet skipped"])


def test_unwritable_cache_dir_still_answers(
    personal_dir: Path, fake_home: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqgit", "# x\nqq x\n")
    (fake_home / ".cache").write_text("not a directory")
    done = run_cheat("-c", "qqgit")
    assert (done.stdout, done.stderr) == ("qq x\n", "")


def test_cli_writes_the_index_in_xdg_cache_home(
    personal_dir: Path, tmp_path: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqgit", "# x\nqq x\n")
    cache_home = tmp_path / "xdg-cache"
    run_cheat("qqgit", env={"XDG_CACHE_HOME": str(cache_home)})
    assert (cache_home / "dotdbg" / CACHE_NAME).is_file()


def test_linked_directories_are_not_followed(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    write_sheet(sheets, "a", "# a\na\n")
    (sheets / "loop").symlink_to(sheets)
    (sheets / "linked").symlink_to(sheets / "a")  # a linked file is a sheet
    assert load(sheets, cache) == (["a", "a"], [])


def test_a_named_lookup_decodes_that_sheet_alone(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    for number in range(50):
        write_sheet(sheets, f"s{number:02d}", f"# {number}\ncmd {number}\n")
    load(sheets, cache)  # builds the cache
    CountingIndex.decoded = 0
    named = catalog(sheets, cache)
    assert len(named.names()) == 50
    assert CountingIndex.decoded == 0  # which files are sheets is in the cache's header
    [file] = named.load(["s07"])
    assert [entry[1] for entry in file.entries] == ["cmd 7"]
    assert CountingIndex.decoded == 1
    named.save()
    assert len(Index(str(cache)).rows) == 50  # a named lookup keeps the others cached


def test_a_new_sheet_in_a_listed_directory_is_found(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    write_sheet(sheets, "a", "# a\na\n")
    write_sheet(sheets, "sub/b", "# b\nb\n")
    load(sheets, cache)
    write_sheet(sheets, "sub/c", "# c\nc\n")  # only sub/'s mtime changes
    assert sorted(load(sheets, cache)[0]) == ["a", "b", "c"]


class ListingIndex(Index):
    """An Index that counts the directories it lists."""

    listed_dirs = 0

    def listing(self, directory: str) -> list[tuple[str, str]]:
        ListingIndex.listed_dirs += 1
        return super().listing(directory)


def test_a_warm_lookup_walks_no_folder_until_one_changes(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    for number in range(30):
        write_sheet(sheets, f"sub{number % 3}/s{number:02d}", f"# {number}\ncmd {number}\n")
    load(sheets, cache)
    paths = [Cheatpath("personal", str(sheets), readonly=False)]
    ListingIndex.listed_dirs = 0
    warm = Catalog(paths, ListingIndex(str(cache)), lambda path, problem: None)
    assert len(warm.names()) == 30
    assert ListingIndex.listed_dirs == 0  # its folders' mtimes are all it needed
    warm.save()
    write_sheet(sheets, "sub1/new", "# new\ncmd new\n")
    changed = Catalog(paths, ListingIndex(str(cache)), lambda path, problem: None)
    assert "sub1/new" in changed.names()
    assert ListingIndex.listed_dirs > 0


def test_a_link_is_tried_again_once_its_target_exists(tmp_path: Path) -> None:
    sheets, cache = tmp_path / "sheets", tmp_path / "cache" / CACHE_NAME
    write_sheet(sheets, "a", "# a\na\n")
    (sheets / "later").symlink_to(tmp_path / "target")
    assert load(sheets, cache) == (["a"], ["later: a broken symbolic link; skipped"])
    write_sheet(tmp_path, "target", "# later\nlater\n")  # the folder's mtime does not change
    assert load(sheets, cache) == (["a", "later"], [])
