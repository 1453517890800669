"""alias/fn add/rm, suggest and expand from a built wheel in a fresh venv (not editable), in a
temporary HOME where that installed dotdbg ran `dotdbg install`, checked in a real bash."""

from __future__ import annotations

import subprocess
import sysconfig
from pathlib import Path

import pytest

from tests.alias.realbash import bash_parses
from tests.infra.fixtures import venv_with

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def dotdbg_bin(dotdbg_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `dotdbg` of a venv holding the wheel; the dependencies are this run's own."""
    root = tmp_path_factory.mktemp("venv")
    python = venv_with(dotdbg_wheel, root)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # A path listed in a .pth file comes after the venv's own site-packages, and the .pth files
    # in it (this checkout's editable hook) are not run: `dotdbg` is the wheel's.
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return root / "bin" / "dotdbg"


@pytest.fixture
def home(tmp_path: Path, dotdbg_bin: Path) -> Path:
    (tmp_path / ".bashrc").write_text("# my bashrc\n")
    run(dotdbg_bin, tmp_path, "install")
    return tmp_path


def run(dotdbg_bin: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home), "PATH": f"{dotdbg_bin.parent}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    done = subprocess.run(
        [str(dotdbg_bin), *args], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done


def interactive_bash(home: Path, dotdbg_bin: Path, script: str) -> str:
    env = {"HOME": str(home), "PATH": f"{dotdbg_bin.parent}:/usr/bin:/bin", "TERM": "dumb"}
    return subprocess.run(
        ["bash", "--noediting", "-i"],
        input=script,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout


def test_the_installed_wheel_is_not_this_checkout(dotdbg_bin: Path, home: Path) -> None:
    where = subprocess.run(
        [str(dotdbg_bin.with_name("python")), "-c", "import dotdbg; print(dotdbg.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=home,  # not this checkout, which `python -c` would import first
    ).stdout
    assert where.startswith(str(dotdbg_bin.parent.parent)), where


def test_edits_reach_a_running_shell_through_the_printed_line(dotdbg_bin: Path, home: Path) -> None:
    config = home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("# mine\n[aliases]\ngs = false  # not this one\n\n# -- functions --\n")
    out = interactive_bash(
        home,
        dotdbg_bin,
        "eval \"$(dotdbg alias add hi 'echo hello' 2>/dev/null)\"\n"
        'eval "$(dotdbg fn add greet \'echo "hi $1"\' 2>/dev/null)"\n'
        "hi there; greet bob\n"
        'eval "$(dotdbg alias rm hi 2>/dev/null)"\n'
        "type -t hi || echo hi-is-gone\n",
    )
    assert "hello there\nhi bob\nhi-is-gone\n" in out
    assert config.read_text() == (
        "# mine\n[aliases]\ngs = false  # not this one\n\n# -- functions --\n\n"
        "[functions]\ngreet = 'echo \"hi $1\"'\n"
    )


def test_suggest_and_apply(dotdbg_bin: Path, home: Path) -> None:
    (home / ".bash_history").write_text(
        "#1700000000\nnvidia-smi --query-gpu=memory.used --format=csv\n" * 4
        + "#1700000100\ngit status\n" * 3
    )
    listed = run(dotdbg_bin, home, "suggest").stdout
    assert "1  n         4    184  nvidia-smi --query-gpu=memory.used --format=csv" in listed
    assert "gs: 3 times, 24 keystrokes (git status)" in listed
    assert run(dotdbg_bin, home, "suggest", "--apply", "1").stdout.startswith("source ")
    out = interactive_bash(home, dotdbg_bin, "type n\n")
    assert "n is aliased to `nvidia-smi --query-gpu=memory.used --format=csv'" in out


def test_expand_agrees_with_the_shell_the_wheel_installed(dotdbg_bin: Path, home: Path) -> None:
    line = "pyt tests/test_x.py -k foo && gs; case x in (gs) gd;; esac"
    expanded = run(dotdbg_bin, home, "expand", line).stdout
    assert expanded == (
        "pytest --disable-warnings -rA tests/test_x.py -k foo && git status; "
        "case x in (gs) git diff;; esac\n"
    )
    installed = home / ".local/share/dotdbg/dotdbg.bash"
    real = bash_parses(line, {}, setup=f"source {installed}\n", home=home)
    assert real and bash_parses(expanded, {}) == real
    assert "l is a dotdbg function" in run(dotdbg_bin, home, "expand", "l src").stderr


@pytest.mark.parametrize(
    "args", [("alias", "add", "g s", "git status"), ("alias", "add", "x", "echo a\necho b")]
)
def test_bad_input_is_one_error_and_nothing_written(
    dotdbg_bin: Path, home: Path, args: tuple[str, ...]
) -> None:
    env = {"HOME": str(home), "PATH": f"{dotdbg_bin.parent}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    done = subprocess.run([str(dotdbg_bin), *args], env=env, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("dotdbg: error: ")
    assert "Traceback" not in done.stderr
    assert not (home / ".config/dotdbg/config.toml").exists()
