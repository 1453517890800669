"""The lookup cache: reused while nothing changes, never stale (an edited, added or removed
sheet shows on the very next run, named or searched), robust to damage, never written into a
cheat path; a lookup that names a sheet decodes that sheet alone."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from dotdbg.cheat import fast, index
from dotdbg.cheat.fast import Catalog, Cheatpath
from dotdbg.cheat.index import MAX_SHEET_BYTES
from tests.cheat.cheat_helpers import RunCheat, write_sheet

AN_HOUR = 3600 * 10**9


class Counts:
    def __init__(self) -> None:
        self.parsed = self.decoded = self.listed = 0


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Counts:
    """How many sheet files were parsed, cached records decoded and folders listed."""
    counted = Counts()
    read_record, record, listing = index.read_record, fast.Shelf._record, index.list_folder

    def parse(path: str) -> object:
        counted.parsed += 1
        return read_record(path)

    def decode(shelf: fast.Shelf, number: int) -> tuple[object, object]:
        counted.decoded += number not in shelf.records
        return record(shelf, number)

    def list_folder(directory: str) -> list[tuple[str, str]]:
        counted.listed += 1
        return listing(directory)

    monkeypatch.setattr(index, "read_record", parse)
    monkeypatch.setattr(fast.Shelf, "_record", decode)
    monkeypatch.setattr(index, "list_folder", list_folder)
    return counted


def aged(*paths: Path) -> None:
    """Files and folders an hour old: past the racy window, so the cache may keep them."""
    for path in paths:
        stamp = os.lstat(path)
        os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns - AN_HOUR), follow_symlinks=False)


def aged_tree(root: Path) -> None:
    aged(*root.rglob("*"), root)


def shelf(directory: Path, cache_dir: Path) -> fast.Shelf:
    """What the cache file of ``directory`` holds."""
    cached = fast.cache_file(str(cache_dir), str(directory))
    return fast.Shelf(str(directory), cached, index.read_record)


def catalog(directory: Path, cache_dir: Path, warnings: list[str] | None = None) -> Catalog:
    def warn(path: str, problem: str) -> None:
        if warnings is not None:
            warnings.append(f"{Path(path).name}: {problem}")

    cheatpaths = [Cheatpath("personal", str(directory), readonly=False)]
    return Catalog(cheatpaths, str(cache_dir), warn)


def load(directory: Path, cache_dir: Path) -> tuple[list[str], list[str]]:
    warnings: list[str] = []
    sheets = catalog(directory, cache_dir, warnings)
    files = sheets.load()
    sheets.save()
    return [entry[1] for file in files for entry in file.entries], warnings


def test_unchanged_sheets_come_from_the_cache(tmp_path: Path, counts: Counts) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# one\ncmd one\n")
    write_sheet(sheets, "b", "# two\ncmd two\n")
    aged_tree(sheets)
    assert load(sheets, cache_dir) == (["cmd one", "cmd two"], [])
    assert counts.parsed == 2
    assert load(sheets, cache_dir) == (["cmd one", "cmd two"], [])
    assert counts.parsed == 2  # the second run parsed nothing
    assert counts.decoded == 2


def test_a_sheet_too_new_to_trust_is_read_again_each_run(tmp_path: Path, counts: Counts) -> None:
    """A stamp younger than the file system's clock tick may not change with the next write."""
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# one\ncmd one\n")
    aged(sheets)
    load(sheets, cache_dir)
    load(sheets, cache_dir)
    assert counts.parsed == 2


def test_a_rewrite_that_keeps_size_and_mtime_is_seen(tmp_path: Path) -> None:
    """`cp -p`, `rsync -t`, `tar x`: other bytes, the same size and mtime; the ctime shows it."""
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    sheet = write_sheet(sheets, "a", "# one\ncmd one\n")
    aged_tree(sheets)
    assert load(sheets, cache_dir) == (["cmd one"], [])
    stamp = sheet.stat()
    sheet.write_text("# one\ncmd two\n")
    os.utime(sheet, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert load(sheets, cache_dir) == (["cmd two"], [])


def test_deleted_sheet_leaves_the_cache(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# a\na\n")
    gone = write_sheet(sheets, "b", "# b\nb\n")
    load(sheets, cache_dir)
    gone.unlink()
    assert load(sheets, cache_dir) == (["a"], [])
    assert shelf(sheets, cache_dir).names == ["a"]


def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# a\na\n")
    cached = Path(fast.cache_file(str(cache_dir), str(sheets)))
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"\x00garbage")
    assert load(sheets, cache_dir) == (["a"], [])
    assert shelf(sheets, cache_dir).names == ["a"]


def test_a_cache_cut_short_is_rebuilt(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# a\na\n")
    aged_tree(sheets)
    load(sheets, cache_dir)
    cached = Path(fast.cache_file(str(cache_dir), str(sheets)))
    cached.write_bytes(cached.read_bytes()[:-3])  # a full disk, say
    assert load(sheets, cache_dir) == (["a"], [])


def test_broken_sheet_warns_from_the_cache_too(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "bad", "---\nsyntax bash\n---\n")
    aged_tree(sheets)
    first = load(sheets, cache_dir)
    assert first == (
        [],
        ["bad:2: front matter: expected 'key: value', got 'syntax bash'; sheet skipped"],
    )
    assert load(sheets, cache_dir) == first


def test_huge_file_is_skipped_with_a_warning(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "ok", "# ok\nok\n")
    with open(sheets / "huge", "wb") as huge:
        huge.truncate(MAX_SHEET_BYTES + 1)
    expected = (["ok"], ["huge: larger than 4 MiB: split it up; sheet skipped"])
    assert load(sheets, cache_dir) == expected


def test_unwritable_cache_dir_still_answers(
    personal_dir: Path, fake_home: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqgit", "# x\nqq x\n")
    (fake_home / ".cache").write_text("not a directory")
    for args in (["-c", "qqgit"], ["-c", "qq", "x"]):
        done = run_cheat(*args)
        assert (done.stdout, done.stderr) == ("qq x\n", "")


def test_cli_writes_the_index_in_xdg_cache_home_and_never_in_a_cheat_path(
    personal_dir: Path,
    community_dir: Path,
    config_file: Path,
    tmp_path: Path,
    run_cheat: RunCheat,
) -> None:
    aged(config_file)
    write_sheet(personal_dir, "qqgit", "# x\nqq x\n")
    write_sheet(community_dir, "qqtar", "# y\nqq y\n")
    cache_home = tmp_path / "xdg-cache"
    for args in (["qqgit"], ["qq", "y"]):
        assert run_cheat(*args, env={"XDG_CACHE_HOME": str(cache_home)}).returncode == 0
    written = {path.name.rsplit("-", 1)[0] for path in (cache_home / "dotdbg" / "cheat").iterdir()}
    assert {"cheatsheets", "community", "config-toml"} <= written
    assert sorted(path.name for path in personal_dir.iterdir()) == ["qqgit"]
    assert sorted(path.name for path in community_dir.iterdir()) == ["qqtar"]


def test_linked_directories_are_not_followed(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# a\na\n")
    (sheets / "loop").symlink_to(sheets)
    (sheets / "linked").symlink_to(sheets / "a")  # a linked file is a sheet
    assert load(sheets, cache_dir) == (["a", "a"], [])


def test_a_named_lookup_decodes_that_sheet_alone(tmp_path: Path, counts: Counts) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    for number in range(50):
        write_sheet(sheets, f"s{number:02d}", f"# {number}\ncmd {number}\n")
    aged_tree(sheets)
    load(sheets, cache_dir)  # builds the cache
    counts.decoded = counts.parsed = 0
    named = catalog(sheets, cache_dir)
    assert len(named.names()) == 50
    assert counts.decoded == 0  # which files are sheets is in the cache's header
    [file] = named.load(["s07"])
    assert [entry[1] for entry in file.entries] == ["cmd 7"]
    assert (counts.decoded, counts.parsed) == (1, 0)
    named.save()
    assert len(shelf(sheets, cache_dir).names) == 50


def test_a_search_decodes_only_the_sheets_holding_every_word(
    tmp_path: Path, counts: Counts
) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    for number in range(50):
        write_sheet(sheets, f"s{number:02d}", f"# entry {number}\ncmd {number}\n")
    write_sheet(sheets, "qqbisect", "# other\ngit bisect skip\n")
    write_sheet(sheets, "named-skip", "# git bisect\ngit bisect\n")  # "skip" in its name only
    aged_tree(sheets)
    load(sheets, cache_dir)
    counts.decoded = counts.parsed = 0
    found = catalog(sheets, cache_dir).load(holding=[("bisect",), ("skip", "omit")])
    assert sorted(file.name for file in found) == ["named-skip", "qqbisect"]
    assert (counts.decoded, counts.parsed) == (2, 0)


def test_a_new_sheet_in_a_listed_directory_is_found(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# a\na\n")
    write_sheet(sheets, "sub/b", "# b\nb\n")
    aged_tree(sheets)
    load(sheets, cache_dir)
    write_sheet(sheets, "sub/c", "# c\nc\n")  # only sub/'s mtime changes
    assert sorted(load(sheets, cache_dir)[0]) == ["a", "b", "c"]


def test_a_warm_lookup_walks_no_folder_until_one_changes(tmp_path: Path, counts: Counts) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    for number in range(30):
        write_sheet(sheets, f"sub{number % 3}/s{number:02d}", f"# {number}\ncmd {number}\n")
    aged_tree(sheets)
    load(sheets, cache_dir)
    counts.listed = 0
    warm = catalog(sheets, cache_dir)
    assert len(warm.names()) == 30
    assert counts.listed == 0  # its folders' mtimes are all it needed
    warm.save()
    write_sheet(sheets, "sub1/new", "# new\ncmd new\n")
    changed = catalog(sheets, cache_dir)
    assert "sub1/new" in changed.names()
    assert counts.listed > 0


def test_a_link_is_tried_again_once_its_target_exists(tmp_path: Path) -> None:
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# a\na\n")
    (sheets / "later").symlink_to(tmp_path / "target")
    aged_tree(sheets)
    assert load(sheets, cache_dir) == (["a"], ["later: a broken symbolic link; skipped"])
    write_sheet(tmp_path, "target", "# later\nlater\n")  # the folder's mtime does not change
    assert load(sheets, cache_dir) == (["a", "later"], [])


# -- what a user sees: the installed command, a warm cache, a sheet changed between runs -------
@pytest.fixture
def warm_community(community_dir: Path, config_file: Path, run_cheat: RunCheat) -> Path:
    """A configured path of 40 sheets, an hour old, its cache built by two lookups."""
    for number in range(40):
        text = f"# qqentry q{number:02d}z\nqqcmd {number}\n"
        write_sheet(community_dir, f"qq{number:02d}", text)
    write_sheet(community_dir, "sub/qqdeep", "# qqentry deep\nqqcmd deep\n")
    aged_tree(community_dir)
    aged(config_file)
    for args in (["qq07"], ["qqentry", "q07z"]):
        assert run_cheat(*args).returncode == 0
    return community_dir


LOOKUPS = {"named": ["-c", "qq07"], "search": ["-c", "qqentry", "q07z"]}


@pytest.mark.parametrize("how", LOOKUPS)
def test_an_edited_sheet_is_seen_on_the_next_run(
    warm_community: Path, run_cheat: RunCheat, how: str
) -> None:
    assert run_cheat(*LOOKUPS[how]).stdout == "qqcmd 7\n"
    (warm_community / "qq07").write_text("# qqentry q07z\nqqcmd seven\n")
    assert run_cheat(*LOOKUPS[how]).stdout == "qqcmd seven\n"


@pytest.mark.parametrize("how", LOOKUPS)
def test_an_edit_in_place_that_keeps_size_and_mtime_is_seen(
    warm_community: Path, run_cheat: RunCheat, how: str
) -> None:
    sheet = warm_community / "qq07"
    stamp = sheet.stat()
    with open(sheet, "r+") as file:  # the same bytes count, written over the old ones
        file.write("# qqentry q07z\nqqcmd 8\n")
    os.utime(sheet, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert run_cheat(*LOOKUPS[how]).stdout == "qqcmd 8\n"


@pytest.mark.parametrize("how", LOOKUPS)
def test_an_added_sheet_is_seen_on_the_next_run(
    warm_community: Path, run_cheat: RunCheat, how: str
) -> None:
    write_sheet(warm_community, "qqnew", "# qqentry q07z, new\nqqcmd new\n")
    new = {"named": ["-c", "qqnew"], "search": ["-c", "qqentry", "q07z"]}[how]
    assert run_cheat(*new).stdout == {"named": "qqcmd new\n", "search": "qqcmd 7\nqqcmd new\n"}[how]
    write_sheet(warm_community, "sub/qqdeeper", "# qqentry q07z, deeper\nqqcmd deeper\n")
    deeper = {"named": ["-c", "sub/qqdeeper"], "search": ["-c", "q07z", "deeper"]}[how]
    assert run_cheat(*deeper).stdout == "qqcmd deeper\n"


@pytest.mark.parametrize("how", LOOKUPS)
def test_a_removed_sheet_is_gone_on_the_next_run(
    warm_community: Path, run_cheat: RunCheat, how: str
) -> None:
    (warm_community / "qq07").unlink()
    done = run_cheat(*LOOKUPS[how])
    assert (done.returncode, done.stdout) == (1, "")


def test_a_renamed_sheet_is_seen_under_its_new_name(
    warm_community: Path, run_cheat: RunCheat
) -> None:
    (warm_community / "qq07").rename(warm_community / "qqseven")
    assert run_cheat("-c", "qqseven").stdout == "qqcmd 7\n"
    assert run_cheat("-c", "qq07").returncode == 1


def test_a_warm_lookup_is_not_slowed_by_a_write(
    warm_community: Path, fake_home: Path, run_cheat: RunCheat
) -> None:
    """Nothing changed: the cache files are read, not written again."""
    cache_dir = fake_home / ".cache" / "dotdbg" / "cheat"
    before = {path: path.stat().st_mtime_ns for path in cache_dir.iterdir()}
    time.sleep(0.01)
    for args in LOOKUPS.values():
        run_cheat(*args)
    assert {path: path.stat().st_mtime_ns for path in cache_dir.iterdir()} == before


def test_a_sheet_added_in_the_same_clock_tick_is_found(tmp_path: Path) -> None:
    """The folder's mtime may not change between two writes this close: a folder changed in
    the last two seconds is walked again on every run."""
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    write_sheet(sheets, "a", "# a\na\n")
    assert load(sheets, cache_dir) == (["a"], [])
    mtime = sheets.stat().st_mtime_ns
    write_sheet(sheets, "b", "# b\nb\n")
    os.utime(sheets, ns=(mtime, mtime))  # as if in the same tick
    assert load(sheets, cache_dir) == (["a", "b"], [])


def test_a_cheat_path_made_after_the_cache_is_found(tmp_path: Path, counts: Counts) -> None:
    """A missing folder (the personal dir of a user with no sheets yet) is not walked on every
    run; once it is made, it is."""
    sheets, cache_dir = tmp_path / "sheets", tmp_path / "cache"
    assert load(sheets, cache_dir) == ([], [])
    counts.listed = 0
    assert load(sheets, cache_dir) == ([], [])
    assert counts.listed == 0
    write_sheet(sheets, "a", "# a\na\n")
    assert load(sheets, cache_dir) == (["a"], [])
