"""The commands on the home import only what they use (issue 27): what a real run of each, in a
home where `dotdbg install` ran, imported, read from ``python -X importtime``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.infra.imports import BIN, imported_by

# dataclasses imports inspect (with ast, dis, tokenize): 10 ms, and 0.3 ms more for each of
# the 30 classes the home commands define (they are ``common.record.Record``s); a look at the
# home runs no program (subprocess), writes nothing (tempfile), finds nothing on PATH (shutil,
# which loads bz2 and lzma), renders nothing (textwrap) and has no diff to show (difflib)
UNUSED = {"dataclasses", "inspect", "subprocess", "tempfile", "shutil", "textwrap", "difflib"}

# nor a TOML reader (the config's tables are remembered by its text: config/parsed.py; tomllib
# brings datetime, string and its regular expressions), nor hashlib, which loads OpenSSL (the
# digests come from the builtin module: common/sha256.py)
PARSED = {"tomllib", "hashlib", "_hashlib"}

# nor typing (its import is a whole module of its own): annotations are strings, and the
# names they use are imported for the type checker alone; nor the shadows of `dotdbg aliases`
LOOKING = {"typing", "dotdbg.aliases.shadows"}


@pytest.fixture
def installed(fake_home: Path) -> Path:
    subprocess.run([BIN / "dotdbg", "install"], capture_output=True, check=True, timeout=120)
    return fake_home


# nor the writer, backups and recovery of a run that died part-way (there is none), nor the
# peers' keys of install's warnings, which a look does not print
WRITING = {"dotdbg.home.writer", "dotdbg.home.backup", "dotdbg.home.recover", "dotdbg.shells.peers"}


@pytest.mark.parametrize("command", ["status", "diff"])
def test_a_look_at_the_home_imports_no_dataclasses(installed: Path, command: str) -> None:
    found = imported_by("dotdbg", command)
    assert "dotdbg.home.install" in found
    assert found & (UNUSED | WRITING | PARSED | LOOKING) == set()


def test_an_install_with_nothing_to_change_renders_nothing(installed: Path) -> None:
    """The installed files are the render of this config (its key and their digests are
    remembered): no jinja2; their check was remembered too, so no checker runs."""
    found = imported_by("dotdbg", "install")
    assert "dotdbg.home.writer" in found
    assert found & ({"jinja2"} | UNUSED | PARSED) == set()


def test_an_alias_added_again_as_it_is_renders_nothing(installed: Path) -> None:
    imported_by("dotdbg", "alias", "add", "gst", "git status --short")
    found = imported_by("dotdbg", "alias", "add", "gst", "git status --short")
    assert "dotdbg.home.edit" in found
    assert "jinja2" not in found


def test_a_new_alias_is_written_without_tomlkit(installed: Path) -> None:
    """The config's [aliases] is edited line by line (``config.tomllines``): tomlkit's import
    and parse were 20-30 ms of every `alias add`."""
    found = imported_by("dotdbg", "alias", "add", "gnew", "git status --new")
    assert "dotdbg.config.tomllines" in found
    assert "tomlkit" not in found
    found = imported_by("dotdbg", "alias", "add", "gnew2", "git log", "--desc", "the log")
    assert "tomlkit" not in found
    assert "tomlkit" not in imported_by("dotdbg", "alias", "rm", "gnew")


def test_a_new_alias_renders_without_jinja2(installed: Path) -> None:
    """A render runs the templates compiled to Python (``home/templatecode.py``): jinja2's
    import and environment were 35-50 ms of a new alias."""
    found = imported_by("dotdbg", "alias", "add", "gnew3", "git status --newer")
    assert "dotdbg.home.templatecode" in found
    assert "jinja2" not in found


def test_a_checked_alias_add_imports_no_subprocess(installed: Path) -> None:
    """bash -n starts through posix_spawn (``common.spawn``): subprocess's import, with
    threading, selectors and locale, was 8-9 ms of every check."""
    found = imported_by("dotdbg", "alias", "add", "gnew5", "git status --newer")
    assert "dotdbg.shells.bashcheck" in found
    assert found & {"subprocess", "threading", "selectors"} == set()


def test_a_write_imports_no_tempfile(installed: Path) -> None:
    """The atomic write makes its temp file with os.open (``fileops._new_temp_file``):
    tempfile brings shutil, bz2, lzma and random, 5-6 ms of every command that writes. The
    edit's shadow warning looks its name up as install does (``common.programs.which``), and
    pruning removes no folder while there are at most 21 (no shutil.rmtree)."""
    found = imported_by("dotdbg", "alias", "add", "gnew4", "git status --newest")
    assert "dotdbg.home.fileops" in found
    assert found & {"tempfile", "random", "shutil"} == set()
