"""The commands as a user runs them: exit codes, stdout versus stderr, files written."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.home.install import install
from dotdbg.paths import Paths
from tests.clirun import run_cli


def dotdbg(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli("dotdbg", *args, env=env)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / ".bashrc").write_text("")
    paths = Paths.from_env(tmp_path)
    install(paths, load_config(paths))
    return tmp_path


def test_alias_add_prints_only_the_reload_line_on_stdout(home: Path) -> None:
    done = dotdbg(
        "alias", "add", "gss", "git status --short", "--desc", "short", "--home", str(home)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"source {home}/.local/share/dotdbg/dotdbg.bash\n"
    assert done.stderr.splitlines()[0] == "dotdbg: added gss in ~/.config/dotdbg/config.toml"
    assert (home / ".config/dotdbg/config.toml").read_text() == (
        '[aliases]\ngss = { command = "git status --short", desc = "short" }\n'
    )


def test_restore_undoes_an_alias_add_and_status_is_clean(home: Path) -> None:
    config = home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[aliases]\ngss = "git status --short"\n')
    assert dotdbg("install", "--home", str(home)).returncode == 0
    assert dotdbg("alias", "add", "zz", "echo zz", "--home", str(home)).returncode == 0
    assert dotdbg("restore", "--home", str(home)).returncode == 0
    assert config.read_text() == '[aliases]\ngss = "git status --short"\n'
    status = dotdbg("status", "--home", str(home))
    assert (status.returncode, status.stdout.splitlines()[-1]) == (0, "installed and current")


def test_rm_prints_unalias_and_unset(home: Path) -> None:
    done = dotdbg("alias", "rm", "gs", "--home", str(home))
    assert done.stdout == "unalias gs\n"
    assert done.stderr.splitlines()[1] == (
        "dotdbg: installed: new shells see the change, and this line updates the running one:"
    )
    assert dotdbg("fn", "rm", "l", "--home", str(home)).stdout == "unset -f l\n"


def test_bad_input_is_one_error_line_and_exit_2(home: Path) -> None:
    done = dotdbg("alias", "rm", "nope", "--home", str(home))
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == "dotdbg: error: there is no alias named nope"
    assert "Traceback" not in done.stderr
    assert not (home / ".config/dotdbg/config.toml").exists()


def test_not_installed_says_so(tmp_path: Path) -> None:
    done = dotdbg("fn", "add", "up", "cd ..", "--home", str(tmp_path))
    assert done.returncode == 0
    assert done.stdout == ""
    assert "run `dotdbg install`" in done.stderr


HISTORY = (
    "#1700000000\ngit status\n" * 6
    + "#1700000100\npytest --disable-warnings -rA tests/test_model.py\n" * 4
    + "#1700000200\nnvidia-smi --query-gpu=memory.used --format=csv\n" * 3
    + "#1700000300\nfor f in *; do\n  echo $f\ndone\n" * 5
)


def test_suggest_lists_proposals_and_unused_aliases(home: Path) -> None:
    history = home / "history"
    history.write_text(HISTORY)
    done = dotdbg("suggest", "--history", str(history), "--home", str(home))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "18 commands in ~/history",
        "",
        "#  alias  uses  saves  command",
        "1  n         3    138  nvidia-smi --query-gpu=memory.used --format=csv",
        "",
        "add one with `dotdbg suggest --apply N`; a few at a time, then use them",
        "",
        "typed in full although the alias exists:",
        "  pyt: 4 times, 104 keystrokes (pytest --disable-warnings -rA)",
        "  gs: 6 times, 48 keystrokes (git status)",
    ]


def test_suggest_apply_adds_the_proposal(home: Path) -> None:
    history = home / "history"
    history.write_text(HISTORY)
    done = dotdbg("suggest", "--history", str(history), "--apply", "1", "--home", str(home))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"source {home}/.local/share/dotdbg/dotdbg.bash\n"
    config = (home / ".config/dotdbg/config.toml").read_text()
    assert config == '[aliases]\nn = "nvidia-smi --query-gpu=memory.used --format=csv"\n'
    wrong = dotdbg("suggest", "--history", str(history), "--apply", "7", "--home", str(home))
    assert wrong.returncode == 2
    assert "there is no proposal 7" in wrong.stderr


def test_suggest_reads_histfile_or_the_home_default(tmp_path: Path) -> None:
    (tmp_path / ".bash_history").write_text("make -j8 all\n" * 3)
    by_home = dotdbg("suggest", "--home", str(tmp_path))
    assert "make -j8 all" in by_home.stdout
    other = tmp_path / "elsewhere"
    other.write_text("cargo build --release\n" * 3)
    by_env = dotdbg("suggest", env={"HOME": str(tmp_path), "HISTFILE": str(other)})
    assert "cargo build --release" in by_env.stdout


@pytest.mark.parametrize(
    ("content", "message"), [(None, "no bash history at"), ("", "has no commands")]
)
def test_suggest_without_history_is_a_clear_error(
    tmp_path: Path, content: str | None, message: str
) -> None:
    if content is not None:
        (tmp_path / ".bash_history").write_text(content)
    done = dotdbg("suggest", "--home", str(tmp_path))
    assert done.returncode == 2
    assert message in done.stderr.splitlines()[0]
    assert done.stderr.splitlines()[1].startswith("hint: ")


def test_expand_prints_the_command_and_names_functions(tmp_path: Path) -> None:
    done = dotdbg("expand", "pyt tests/test_x.py -k foo && l src", "--home", str(tmp_path))
    assert done.returncode == 0
    assert done.stdout == "pytest --disable-warnings -rA tests/test_x.py -k foo && l src\n"
    assert done.stderr.startswith("dotdbg: l is a dotdbg function (long listing")


def test_expand_uses_the_users_config(tmp_path: Path) -> None:
    config = tmp_path / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[aliases]\npyt = "pytest -x"\ngs = false\n')
    done = dotdbg("expand", "pyt; gs", "--home", str(tmp_path))
    assert done.stdout == "pytest -x; gs\n"


def test_expand_knows_the_cheatsheet_shortcut(tmp_path: Path) -> None:
    config = tmp_path / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[cheat]\nalias = "cs"\n')
    assert dotdbg("expand", "cs git", "--home", str(tmp_path)).stdout == "dotdbg cheat git\n"


def test_an_alias_in_a_switched_off_pack_is_saved_with_a_warning(home: Path) -> None:
    config = home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[packs]\ngpu = false\n")
    done = dotdbg("alias", "add", "wn", "watch -n 2 nvidia-smi", "--home", str(home))
    assert done.returncode == 0, done.stderr
    assert "warning: wn is in pack gpu, which is switched off" in done.stderr
    assert "alias wn=" not in (home / ".local/share/dotdbg/dotdbg.bash").read_text()


def test_suggest_takes_no_name_of_the_bashrc_or_of_a_switched_off_pack(home: Path) -> None:
    with (home / ".bashrc").open("a") as bashrc:
        bashrc.write("alias g='git'\nmkd() { mkdir -p \"$1\"; }\n")
    config = home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[packs]\ngpu = false\n")
    history = home / "history"
    history.write_text(
        "git log --stat\n" * 9 + "watch -n 1 nvidia-smi\n" * 9 + "mkdir -p a/b\n" * 9
    )
    done = dotdbg("suggest", "--history", str(history), "--home", str(home))
    assert done.returncode == 0, done.stderr
    table = done.stdout.split("\n\n")[1].splitlines()[1:]  # the rows under the header
    names = {row.split()[1] for row in table}
    assert names and not names & {"g", "mkd", "wn", "wnm"}, done.stdout


def test_expand_warns_about_an_alias_that_ends_inside_a_quote(tmp_path: Path) -> None:
    config = tmp_path / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[aliases]\nq = "echo \'x"\n')
    done = dotdbg("expand", "q y'", "--home", str(tmp_path))
    assert done.returncode == 0
    assert done.stdout == "echo 'x y'\n"
    assert done.stderr.startswith("dotdbg: warning: alias q ends inside a quote or $(")


def test_an_edit_looks_up_only_its_own_name_on_path(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each name of the config looked up on PATH was 30-40 lookups of a dozen stats each, for
    a warning about the edited name alone."""
    from dotdbg.cli.commands import edits
    from dotdbg.common import programs
    from dotdbg.home import edit

    paths = Paths.from_env(home)
    outcome = edit.add(paths, "aliases", "zzls", "ls -F")
    asked: list[str] = []

    def which(name: str) -> str:
        asked.append(name)
        return f"/bin/{name}"

    monkeypatch.setattr(programs, "which", which)
    assert edits.report(paths, outcome, "zzls") == 0
    assert asked == ["zzls"]
    assert "alias zzls shadows /bin/zzls" in capsys.readouterr().err
