from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dotdbg.aliases.suggest import (
    BASH_RESERVED,
    Existing,
    Proposal,
    learned_stems,
    rc_names,
    suggest,
)


def history(*counted: tuple[int, str]) -> list[str]:
    return [command for count, command in counted for _ in range(count)]


def by_name(proposals: tuple[Proposal, ...]) -> dict[str, str]:
    return {p.name: p.command for p in proposals}


def test_most_used_command_of_a_tool_gets_the_bare_stem() -> None:
    commands = history((40, "ls -lNhF --color=always"), (10, "ls -la"), (30, "git status"))
    names = by_name(suggest(commands, Existing()).proposals)
    assert names == {"l": "ls -lNhF --color=always", "ll": "ls -la", "g": "git status"}


def test_aliases_of_one_tool_share_its_prefix() -> None:
    commands = history(
        (30, "git status"), (12, "git push origin"), (9, "git commit -m wip"), (4, "ls -la")
    )
    proposals = suggest(commands, Existing()).proposals
    git_names = [p.name for p in proposals if p.command.startswith("git ")]
    assert sorted(git_names) == ["g", "gc", "gp"]
    assert all(name.startswith("g") for name in git_names)


def test_each_proposal_counts_its_uses_and_saved_keystrokes() -> None:
    commands = history((7, "pytest --disable-warnings --instafail -rA"), (2, "ls"))
    [proposal] = suggest(commands, Existing()).proposals
    assert proposal == Proposal("p", "pytest --disable-warnings --instafail -rA", 7)
    assert proposal.saved == 7 * (len("pytest --disable-warnings --instafail -rA") - 1)


def test_a_picked_prefix_covers_its_uses_only_once() -> None:
    # `git commit -m` wins; `git commit` keeps only the 3 uses without -m, below the minimum.
    commands = history((10, "git commit -m wip"), (10, "git commit -m fix"), (2, "git commit"))
    proposals = suggest(commands, Existing()).proposals
    assert [(p.command, p.count) for p in proposals] == [("git commit -m", 20)]


def test_rarely_typed_and_short_commands_are_not_proposed() -> None:
    commands = history((2, "python train.py --config big.yaml"), (50, "ls"), (50, "make"))
    assert suggest(commands, Existing()).proposals == ()


def test_names_never_shadow_keywords_builtins_aliases_or_functions() -> None:
    commands = history((20, "cdk deploy"), (15, "tox -e py311"), (12, "gst x"))
    existing = Existing(
        aliases={"t": "true"},
        functions=frozenset({"g", "gx"}),
        which=lambda name: "/usr/bin/c" if name == "c" else None,
    )
    names = by_name(suggest(commands, existing).proposals)
    # c is a command and cd a builtin; t is an alias; g and gx are functions.
    assert names == {"cdd": "cdk deploy", "te": "tox -e py311", "gsx": "gst x"}
    assert not set(names) & (BASH_RESERVED | {"t", "g", "gx"})


def test_names_never_shadow_a_command_on_path(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for taken in ("g", "gs"):
        (bin_dir / taken).write_text("#!/bin/sh\n")
        (bin_dir / taken).chmod(0o755)
    existing = Existing(which=lambda name: shutil.which(name, path=str(bin_dir)))
    names = by_name(suggest(history((20, "git status")), existing).proposals)
    assert names == {"gis": "git status"}


def test_reports_commands_typed_in_full_although_an_alias_exists() -> None:
    aliases = {
        "pyt": "pytest --disable-warnings",
        "pytc": "pytest --disable-warnings  --collect-only",
        "gs": "git status",
    }
    commands = history(
        (4, "pytest --disable-warnings tests/a.py"),
        (3, "pytest --disable-warnings --collect-only -q"),
        (5, "gs"),
        (1, "git status"),
        (2, "pytest --disable-warningsX"),
    )
    unused = {u.name: (u.count, u.wasted) for u in suggest(commands, Existing(aliases)).unused}
    assert unused == {
        "pyt": (4, 4 * (25 - 3)),
        "pytc": (3, 3 * (len(aliases["pytc"]) - 4)),
        "gs": (1, 8),
    }


def test_an_existing_alias_command_is_not_proposed_again() -> None:
    commands = history((9, "git status --short"))
    result = suggest(commands, Existing({"gss": "git status --short"}))
    assert "git status --short" not in by_name(result.proposals).values()


def test_multi_line_undecodable_and_pasted_lines_are_never_proposed() -> None:
    long_line = "echo " + "x" * 5000
    commands = history(
        (9, "for f in *; do\necho $f\ndone"),
        (9, "cat caf\ufffd.txt"),
        (9, long_line),
        (9, "printf '\x1b[31mred'"),
        (9, "ls\r -la"),
    )
    assert suggest(commands, Existing()).proposals == ()


def test_top_limits_the_number_of_proposals() -> None:
    commands = history(*((5, f"tool{n} --flag value") for n in range(20)))
    assert len(suggest(commands, Existing(), top=3).proposals) == 3


def test_a_whole_pipeline_can_be_proposed() -> None:
    commands = history((6, "ps aux | grep python"))
    assert "ps aux | grep python" in by_name(suggest(commands, Existing()).proposals).values()


def test_hard_coded_keywords_and_builtins_match_the_real_bash() -> None:
    listed = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", "compgen -k; compgen -b"],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": os.environ["PATH"]},
    ).stdout.split()
    assert set(listed) - {".", ":", "["} == BASH_RESERVED


@pytest.mark.parametrize("name", ["[[", "coproc", "mapfile", "time"])
def test_reserved_names_are_taken(name: str) -> None:
    assert Existing().taken(name)


def test_lines_an_alias_already_covers_are_left_to_the_unused_report() -> None:
    commands = history((9, "pytest --disable-warnings -rA tests/test_a.py"))
    result = suggest(commands, Existing({"pyt": "pytest --disable-warnings -rA"}))
    assert result.proposals == ()
    assert [(u.name, u.count) for u in result.unused] == [("pyt", 9)]


def test_path_arguments_are_named_by_their_last_part() -> None:
    commands = history((9, "cd /src/project/models"), (5, "cd /src/project/data"))
    names = by_name(suggest(commands, Existing()).proposals)
    # c is taken by the more used one, cd is a builtin: cd + d(ata)
    assert names == {"c": "cd /src/project/models", "cdd": "cd /src/project/data"}


def test_existing_aliases_teach_each_tool_its_prefix() -> None:
    aliases = {
        "pyt": "pytest --disable-warnings -rA",
        "pytc": "pytest --collect-only -q",
        "gs": "git status",
        "gd": "git diff",
        "wn": "watch -n 1 nvidia-smi",
    }
    stems = learned_stems({**aliases, "l": "ls -l | less", "la": "ls -la | less"})
    assert stems == {"pytest": "pyt", "git": "g", "ls": "l"}  # one watch alias: no convention
    commands = history(
        (20, "pytest -x tests/test_model.py"),
        (15, "git log --graph"),
        (12, "ls -lS"),
        (9, "grep -rn TODO src"),
    )
    existing = Existing(aliases, frozenset({"l", "la"}), stems=stems)
    names = by_name(suggest(commands, existing).proposals)
    assert names == {
        "pytx": "pytest -x tests/test_model.py",
        "g": "git log --graph",
        "ll": "ls -lS",  # l is the function
        "gr": "grep -rn TODO src",
    }


def test_names_of_the_shell_start_up_files_are_read_not_run() -> None:
    bashrc = (
        "alias ll='ls -alF'\n"
        "    alias g=git   # indented, in an if\n"
        "#alias la='ls -A'\n"
        "alias -- gg='git grep'\n"
        'mkcd() { mkdir -p "$1"; }\n'
        "function up { cd ..; }\n"
        "function t2() { :; }\n"
        "echo 'alias nope=1'\n"
    )
    assert rc_names(bashrc) == {"ll", "g", "gg", "mkcd", "up", "t2"}


def test_names_defined_elsewhere_are_not_proposed() -> None:
    commands = history((20, "git status"), (10, "grep -rn TODO src"))
    names = by_name(suggest(commands, Existing(elsewhere=frozenset({"g", "gr"}))).proposals)
    assert names == {"gs": "git status", "grr": "grep -rn TODO src"}


def test_a_line_that_starts_with_an_alias_is_named_for_the_tool_it_runs() -> None:
    aliases = {"pyt": "pytest --disable-warnings -rA", "pytc": "pytest --collect-only -q"}
    existing = Existing(aliases, stems=learned_stems(aliases))
    commands = history((10, "pyt tests/test_a.py -x"), (6, "python -m pytest tests/unit -q"))
    names = by_name(suggest(commands, existing).proposals)
    assert names == {"pytt": "pyt tests/test_a.py -x", "p": "python -m pytest tests/unit -q"}
