"""The config's tables remembered by its exact text (config/parsed.py, issue 27): a look at the
home imports no TOML reader, an edit is seen by the very next run, and a cache file that does
not verify is parsed past, never believed and never rewritten by a look. Each run is a real
`dotdbg` process, as a user starts it (the tables are remembered between processes)."""

from __future__ import annotations

import datetime
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.config import parsed
from tests.infra.imports import BIN, imported_by

CONFIG = '[aliases]\nzz = "echo aa"\n'


def dotdbg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BIN / "dotdbg", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture
def installed(fake_home: Path) -> Path:
    """A home where `dotdbg install` ran with a config of the user's."""
    config = fake_home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG)
    done = dotdbg("install")
    assert done.returncode == 0, done.stderr
    return fake_home


def cache_of(home: Path) -> Path:
    return home / ".local/state/dotdbg/parsed"


def test_an_installed_config_is_not_parsed_again(installed: Path) -> None:
    assert cache_of(installed).is_file()
    for command in ("status", "diff", "install"):
        assert "tomllib" not in imported_by("dotdbg", command), command


def test_an_edit_of_the_same_size_and_time_is_seen_by_the_next_status(installed: Path) -> None:
    """The key is the text itself, not the file's size or times."""
    config = installed / ".config/dotdbg/config.toml"
    before = config.stat()
    config.write_text(CONFIG.replace("aa", "bb"))
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert config.stat().st_size == before.st_size
    status = dotdbg("status")
    assert status.returncode == 1
    assert "dotdbg.bash is not current" in status.stdout
    diff = dotdbg("diff")
    assert diff.returncode == 1
    assert "-alias zz='echo aa'" in diff.stdout and "+alias zz='echo bb'" in diff.stdout


def _flip_a_byte(data: bytes) -> bytes:
    at = len(data) - 40  # in the tables, after the header line
    return data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1 :]


def _a_value_changed(data: bytes) -> bytes:
    """The alias's command in the remembered tables (a length byte, then the string), not in
    the text they are remembered by (there it follows a quote): still a loadable file."""
    changed = data.replace(b"\x07echo aa", b"\x07echo cc")
    assert changed != data
    return changed


def _other_python(data: bytes) -> bytes:
    head, _, body = data.partition(b"\n")
    words = head.split(b" ")
    words[2] = b"3.0.0"
    return b" ".join(words) + b"\n" + body


BROKEN: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda data: b"",
    "cut short": lambda data: data[: len(data) // 2],
    "a byte changed": _flip_a_byte,
    "a value changed": _a_value_changed,
    "not ours": lambda data: b"\x00garbage\n" * 100,
    "another Python's": _other_python,
}


@pytest.mark.parametrize("how", BROKEN)
def test_a_cache_that_does_not_verify_is_parsed_past(installed: Path, how: str) -> None:
    whole = dotdbg("status")
    assert whole.returncode == 0, whole.stdout
    cache = cache_of(installed)
    broken = BROKEN[how](cache.read_bytes())
    cache.write_bytes(broken)
    again = dotdbg("status")
    assert (again.returncode, again.stdout, again.stderr) == (0, whole.stdout, whole.stderr)
    assert "tomllib" in imported_by("dotdbg", "status")  # it parsed the text again
    assert cache.read_bytes() == broken  # a look writes nothing
    assert dotdbg("install").returncode == 0
    assert "tomllib" not in imported_by("dotdbg", "status")


def test_a_symlink_in_the_cache_s_place_is_not_followed(installed: Path) -> None:
    cache = cache_of(installed)
    elsewhere = installed / "elsewhere"
    elsewhere.write_bytes(cache.read_bytes())
    cache.unlink()
    cache.symlink_to(elsewhere)
    assert "tomllib" in imported_by("dotdbg", "status")
    assert dotdbg("install").returncode == 0
    assert cache.is_file() and not cache.is_symlink()  # replaced, not written through
    assert "tomllib" not in imported_by("dotdbg", "status")


def test_a_cache_in_a_folder_others_can_write_is_not_read(installed: Path) -> None:
    """Anyone could have planted it there (install refuses such a folder; a look reads the
    files as they are, but not this one)."""
    whole = dotdbg("status")
    state = cache_of(installed).parent
    state.chmod(0o777)
    again = dotdbg("status")
    assert (again.returncode, again.stdout) == (whole.returncode, whole.stdout)
    assert "tomllib" in imported_by("dotdbg", "status")
    state.chmod(0o700)
    assert "tomllib" not in imported_by("dotdbg", "status")


def test_a_look_does_not_write_the_cache(installed: Path) -> None:
    cache_of(installed).unlink()
    for command in ("status", "diff"):
        dotdbg(command)
    assert not cache_of(installed).exists()


def test_tables_marshal_cannot_hold_are_parsed_each_time() -> None:
    text = "when = 1979-05-27\n"
    parsed.note(text, {"when": datetime.date(1979, 5, 27)})
    assert parsed.tables(text) is None


def test_each_lookup_gets_its_own_copy() -> None:
    """``limits.cut_huge`` cuts values in place: that must not reach the next lookup."""
    text = '[aliases]\nlong = "x"\n'
    parsed.note(text, {"aliases": {"long": "x"}})
    first = parsed.tables(text)
    assert first is not None
    first["aliases"]["long"] = "cut"
    assert parsed.tables(text) == {"aliases": {"long": "x"}}
