"""./install.sh on a fresh home: a real venv, a real (non-editable) wheel, real links."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.homeshell import run_in_home

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def run_install_sh(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "LANG": "C.UTF-8"}
    return subprocess.run(
        [str(REPO / "install.sh"), *args], env=env, capture_output=True, text=True, timeout=600
    )


@pytest.mark.timeout(900)
def test_install_sh_installs_upgrades_and_uninstalls(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    original = b"# my bashrc\nexport KEEP=1\n"
    (home / ".bashrc").write_bytes(original)
    # A user of all three shells: the first install sets up those with files in the home.
    (home / ".zshrc").write_bytes(b"setopt autocd\n")
    (home / ".config" / "fish").mkdir(parents=True)

    first = run_install_sh(home)
    assert first.returncode == 0, first.stderr
    link = home / ".local/bin/dotdbg"
    assert link.is_symlink()
    assert "exec bash" in first.stdout
    # pip takes half a minute and more: a line says so before it starts (issue 26.5)
    assert first.stdout.index("installing dotdbg and its dependencies") < first.stdout.index(
        "exec bash"
    )
    assert "~/.bashrc: updated" in first.stdout  # says what changed
    # The installed wheel (not this checkout) must carry the templates: the shell file exists.
    assert (home / ".local/share/dotdbg/dotdbg.bash").read_text().startswith("# shellcheck")
    version = subprocess.run([str(link), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("dotdbg ")
    # ...and the cheatsheets (their index is cached in ~/.cache/dotdbg)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    sheet = subprocess.run([str(link), "cheat", "git", "bisect"], env=env, capture_output=True)
    assert sheet.returncode == 0 and b"git bisect start" in sheet.stdout
    assert (home / ".cache/dotdbg").is_dir()

    shell = run_in_home(["bash", "-i", "-c", "type -t gs; command -v dotdbg"], home)
    assert shell.stdout.split() == ["alias", str(link)]
    # a zsh user and a fish user open a new shell: the same tools, dotdbg on PATH
    zsh = run_in_home(["zsh", "-i", "-c", "whence -w gs l; whence -p dotdbg"], home)
    assert zsh.stdout.split() == ["gs:", "alias", "l:", "function", str(link)]
    fish = run_in_home(["fish", "-i", "-c", "functions -q gs l; and command -s dotdbg"], home)
    assert fish.stdout.split() == [str(link)]

    bashrc_after_first = (home / ".bashrc").read_bytes()
    # The rerun reinstalls the package in place: a file lost from the venv comes back.
    (shipped,) = (home / ".local/share/dotdbg/venv/lib").glob("python3*/site-packages/dotdbg")
    (shipped / "templates/pdbrc.j2").unlink()
    again = run_install_sh(home)
    assert again.returncode == 0, again.stderr
    assert (shipped / "templates/pdbrc.j2").is_file()
    assert "creating" not in again.stdout  # the same venv
    assert (home / ".bashrc").read_bytes() == bashrc_after_first

    gone = run_install_sh(home, "--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert (home / ".bashrc").read_bytes() == original
    assert (home / ".zshrc").read_bytes() == b"setopt autocd\n"
    assert not (home / ".config/fish/conf.d/dotdbg.fish").exists()
    assert not link.exists() and not link.is_symlink()
    assert not (home / ".local/bin").exists()  # install made it: it goes when empty
    assert not (home / ".local/share/dotdbg").exists()
    assert not (home / ".cache/dotdbg").exists()
    assert list((home / ".local/state/dotdbg/backups").iterdir())  # the backups stay
    assert "backups of your dotfiles are kept" in gone.stdout
    assert "your config is kept" not in gone.stdout  # there was none to keep


def test_help_and_a_bad_argument_touch_nothing(tmp_path: Path) -> None:
    shown = run_install_sh(tmp_path, "--help")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("usage: ./install.sh [--uninstall]\n")
    assert "DOTDBG_INSTALLER" in shown.stdout
    assert run_install_sh(tmp_path, "-h").stdout == shown.stdout
    bad = run_install_sh(tmp_path, "--bogus")
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.splitlines() == [
        "install.sh: error: unexpected argument --bogus",
        "hint: see `./install.sh --help`",
    ]
    assert list(tmp_path.iterdir()) == []  # no venv, no link, no config
