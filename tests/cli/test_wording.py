"""What a new user reads (issue 26.6): README's sample errors are the real ones, messages are
written as sentences of dotdbg (no Python reprs, no capitalised hints, `1 time`), and the first
install tells the defaults' shadows in one line."""

from __future__ import annotations

import re
from pathlib import Path

from dotdbg.cli.registry import COMMANDS
from dotdbg.common.output import home_relative, times
from dotdbg.remote.push import INSTALL_THERE
from tests.clirun import run_cli

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_readmes_sample_usage_errors_are_what_the_commands_print() -> None:
    block = README[README.index("```text\n$ dotdbg alias add gst\n") + 8 :].split("```")[0]
    for sample in block.split("$ ")[1:]:
        command, *said = sample.strip().splitlines()
        program, *args = command.split()
        done = run_cli(program, *args)
        assert done.stderr.splitlines() == said, command


def test_readmes_sample_config_error_is_what_install_prints(tmp_path: Path) -> None:
    sample = README[README.index("dotdbg: error: /home/me/.config") :].split("```")[0]
    config = tmp_path / ".config" / "dotdbg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[aliases]\n"g s" = "git status"\n')
    done = run_cli("dotdbg", "install", "--home", str(tmp_path))
    said = done.stderr.replace(str(config), "/home/me/.config/dotdbg/config.toml")
    assert said == sample


def test_a_table_declared_twice_is_named_as_written(tmp_path: Path) -> None:
    config = tmp_path / ".config" / "dotdbg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[pdb.aliases]\na = "b"\n[pdb.aliases]\nx = "y"\n')
    done = run_cli("dotdbg", "status", "--home", str(tmp_path))
    assert "cannot declare [pdb.aliases] twice" in done.stderr
    assert "(" not in done.stderr.splitlines()[0].split("TOML syntax error")[1]


def test_suggest_counts_one_time(tmp_path: Path) -> None:
    history = tmp_path / "history"
    history.write_text("git status\n")  # gs, a default alias, typed once in full
    done = run_cli("dotdbg", "suggest", "--history", str(history), "--home", str(tmp_path))
    assert "gs: 1 time, 8 keystrokes (git status)" in done.stdout
    assert (times(1), times(2, "warning")) == ("1 time", "2 warnings")


def test_hints_start_in_lower_case(tmp_path: Path) -> None:
    for argv in (["cheat", "--edit", "zzqqnone"], ["bogus"], ["install", "--home", "/nonexistent"]):
        hints = [line for line in run_cli("dotdbg", *argv).stderr.splitlines() if "hint:" in line]
        assert hints and all(re.match(r"hint: [^A-Z]", line) for line in hints), argv


def test_the_first_install_tells_the_defaults_shadows_in_one_line(tmp_path: Path) -> None:
    done = run_cli("dotdbg", "install", "--home", str(tmp_path))
    shadows = [line for line in done.stderr.splitlines() if "shadow" in line or "hide" in line]
    assert len(shadows) == 1, shadows  # df and gc here: /usr/bin/df, graphviz's gc
    assert re.match(r"dotdbg: warning: dotdbg's defaults hide \d+ commands? here \(", shadows[0])
    assert "`dotdbg aliases " in shadows[0]
    config = tmp_path / ".config" / "dotdbg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[aliases]\ncat = "cat -A"\n')
    mine = run_cli("dotdbg", "install", "--home", str(tmp_path)).stderr
    assert "alias cat shadows" in mine  # the user's own choice, on its own line


def test_a_read_only_rc_file_is_not_told_to_switch_off_a_pack(tmp_path: Path) -> None:
    bashrc = tmp_path / ".bashrc"
    bashrc.write_text("# mine\n")
    bashrc.chmod(0o444)
    done = run_cli("dotdbg", "install", "--home", str(tmp_path), "--shell", "bash")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "dotdbg: error: ~/.bashrc is read-only, so dotdbg changed nothing",
        "hint: make it writable (chmod u+w ~/.bashrc), then run the command again",
    ]


def test_push_names_the_install_the_readme_documents() -> None:
    assert INSTALL_THERE.startswith("./install.sh")
    assert "## Set up" in README and "\n./install.sh\n" in README


def test_paths_under_home_are_shown_from_tilde() -> None:
    assert home_relative("/home/me/.bashrc", "/home/me") == "~/.bashrc"
    assert home_relative("/home/me", "/home/me/") == "~"
    assert home_relative("/home/meadow/x", "/home/me") == "/home/meadow/x"
    assert "install" in COMMANDS
