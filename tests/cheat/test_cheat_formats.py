"""tldr pages and navi cheats as cheat paths, and cheat's own -l / -s / -e flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from dotdbg.cheat.formats import parse_navi, parse_tldr, tldr_command
from tests.cheat.cheat_helpers import RunCheat, write_sheet

# Shaped like tldr-pages' pages/common/tar.md (2024 style: [c]reate mnemonics, option pairs).
TLDR_TAR = """\
# tar

> Archiving utility.
> Often combined with a compression method, such as `gzip` or `bzip2`.
> More information: <https://www.gnu.org/software/tar>.

- [c]reate an archive and write it to a [f]ile:

`tar cf {{path/to/target.tar}} {{path/to/file1 path/to/file2 ...}}`

- E[x]tract a (compressed) archive [f]ile into the current directory [v]erbosely:

`tar xvf {{path/to/source.tar[.gz|.bz2|.xz]}}`

- Extract a (compressed) archive file into the target directory:

`tar {{[-x|--extract]}} {{[-f|--file]}} {{path/to/source.tar}} {{[-C|--directory]}} {{path/to/dir}}`
"""
TLDR_OSX_OPEN = "# open\n\n> Opens files.\n\n- Open a file:\n\n`open {{path/to/file}}`\n"
TLDR_IP = "# ip\n\n> Show and manipulate routing.\n\n- List interfaces:\n\n`ip address`\n"
NAVI_GIT = """\
% git, code

# Change branch
git checkout <branch>

$ branch: git branch | awk '{print $NF}'

; a note for the sheet's editor, never shown

% git, history
@ git, code

# Squash the last commits
```sh
git reset --soft HEAD~<count>
git commit
```

# Show a file at a revision
git show <revision>:<file>
"""


@pytest.fixture
def tldr_checkout(community_dir: Path) -> Path:
    """A cheat path at the root of a tldr-pages clone: pages per platform, translations,
    and markdown files that are no pages."""
    write_sheet(community_dir, "pages/common/tar.md", TLDR_TAR)
    write_sheet(community_dir, "pages/osx/open.md", TLDR_OSX_OPEN)
    write_sheet(community_dir, "pages/linux/ip.md", TLDR_IP)
    write_sheet(community_dir, "pages.de/common/tar.md", TLDR_TAR.replace("Archiving", "Archiv"))
    write_sheet(community_dir, "README.md", "# tldr-pages\n\nA collection of pages.\n")
    write_sheet(community_dir, "CONTRIBUTING.md", "# Contributing\n\n- Fork:\n\n`git clone`\n")
    return community_dir


def test_tldr_checkout_works_as_a_cheat_path(tldr_checkout: Path, run_cheat: RunCheat) -> None:
    done = run_cheat("tar", "target directory")
    assert done.stderr == ""
    assert done.stdout == (
        "==> tar (community) <==\n"
        "# Extract a (compressed) archive file into the target directory\n"
        "tar --extract --file <path/to/source.tar> --directory <path/to/dir>\n"
    )
    names = run_cheat("--names").stdout.splitlines()
    assert "ip" in names  # linux pages on Linux
    assert "open" not in names  # osx pages are not for this machine
    assert not {"README", "CONTRIBUTING", "pages/common/tar"} & set(names)
    merged = run_cheat("tar", "create").stdout  # the built-in tar sheet and the tldr page
    assert "==> tar (community) <==\n# create an archive and write it to a file\n" in merged


def test_navi_checkout_works_as_a_cheat_path(community_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(community_dir, "denisidoro__cheats/qqgit.cheat", NAVI_GIT)
    write_sheet(community_dir, "README.md", "# cheats\n\nnavi cheatsheets.\n")
    done = run_cheat("qqgit")
    assert done.stderr == ""
    assert done.stdout == (
        "==> qqgit (community) <==\n"
        "# Change branch\ngit checkout <branch>\n\n"
        "# Squash the last commits\ngit reset --soft HEAD~<count>\ngit commit\n\n"
        "# Show a file at a revision\ngit show <revision>:<file>\n"
    )
    listing = run_cheat("-l", "qqgit").stdout.splitlines()
    assert listing[1].split(None, 3) == ["qqgit", "3", "community", "git, code, history"]


def test_parsers_keep_line_numbers_and_skip_non_pages() -> None:
    from dotdbg.cheat.formats import NotASheet

    assert [entry[2] for entry in parse_tldr(TLDR_TAR).entries] == [7, 11, 15]
    assert [entry[2] for entry in parse_navi(NAVI_GIT).entries] == [3, 13, 19]
    with pytest.raises(NotASheet):
        parse_tldr("# Contributing\n\n- Fork:\n\n`git clone`\n")
    assert tldr_command("cp {{[-r|--recursive]}} {{src}} {{dst}} {{") == (
        "cp --recursive <src> <dst> {{"
    )


def test_cheat_flags_l_s_and_e(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqalpha", "# bisect here\nqq alpha bisect\n")
    write_sheet(personal_dir, "qqbeta", "# no match\nqq beta\n\n# bisect too\nqq beta2\n")
    write_sheet(personal_dir, "bisect", "# a sheet named like the word\nqq sheet\n")
    assert [line.split()[0] for line in run_cheat("-l", "qq").stdout.splitlines()[1:]] == [
        "qqalpha",
        "qqbeta",
    ]
    searched = run_cheat("-c", "-s", "bisect").stdout  # -s never looks the word up as a sheet
    assert {"qq alpha bisect", "qq beta2"} <= set(searched.splitlines())
    assert run_cheat("-c", "bisect").stdout == "qq sheet\n"  # while a plain word does
    assert run_cheat("-c", "qqbeta", "-s", "bisect").stdout == "qq beta2\n"
    assert run_cheat("-c", "-s", "bisect too").stdout == "qq beta2\n"  # one phrase
    done = run_cheat("-e", "qqalpha", env={"VISUAL": "true"})
    assert done.returncode == 0, done.stderr


def test_usage_errors_for_modes_that_do_not_mix(run_cheat: RunCheat) -> None:
    for args in (["--lint", "--names"], ["--add", "x", "--edit", "y"], ["--comment", "x"]):
        done = run_cheat(*args)
        assert done.returncode == 2, args
        assert done.stderr.startswith("dotdbg: error: ")
