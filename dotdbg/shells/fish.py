"""fish: ``dotdbg.fish`` straight in ``~/.config/fish/conf.d``, which fish loads by itself (no
block in any file of the user's; the PATH block has a file of its own there), quoted in fish's
single quotes, checked by ``fish --no-execute`` (``dotdbg.shells.zshfishcheck``)."""

from __future__ import annotations

from pathlib import Path

from dotdbg.shells import session, zshfish
from dotdbg.shells.bash import identity, load_block
from dotdbg.shells.posix import in_home
from dotdbg.shells.target import ShellTarget

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.config.model import Config
    from dotdbg.paths import Paths


def _conf_d(paths: Paths) -> Path:
    return paths.fish_conf.parent


def _fish_dir(paths: Paths) -> Path:
    """~/.config/fish: fish makes it the first time it runs."""
    return paths.fish_conf.parent.parent


def _path_conf(paths: Paths) -> Path:
    """A file of dotdbg's own in conf.d, read by every fish (`ssh HOST cmd`'s too), holding
    only the PATH block: dotdbg.fish is rendered once for every home and returns at once in a
    non-interactive fish."""
    return paths.fish_conf.with_name("dotdbg-path.fish")


def path_lines(folder: Path, home: Path) -> str:
    """``folder`` appended to PATH when it is not there (what ``posix.posix_path_lines``
    does for sh)."""
    shown = in_home(folder, home) or zshfish.fishquote(str(folder))
    return f"if not contains -- {shown} $PATH\n    set -gx PATH $PATH {shown}\nend\n"


def check(text: str, config: Config) -> None:
    from dotdbg.shells.zshfishcheck import check_fish

    check_fish(text, config, FISH)


def checker_key() -> str:
    from dotdbg.common.programs import which

    return identity(which("fish") or "no fish")


FISH = ShellTarget(
    name="fish",
    template="dotdbg.fish.j2",
    generated=zshfish.FISH_FILE,
    rc_file=None,
    load_block=load_block,  # unused: fish loads the file from conf.d
    quote_filter="fishquote",
    filters={
        "fishquote": zshfish.fishquote,
        "fish_definition": zshfish.fish_definition,
        "fish_alias": zshfish.fish_alias,
        "fish_aliases": zshfish.fish_aliases,
        "fish_cheat_alias": zshfish.fish_cheat_alias,
        "fish_key": zshfish.fish_key,
        "kept_functions": zshfish.kept_functions,
        "entry_names": zshfish.entry_names,
    },
    check=check,
    checker_key=checker_key,
    directory=_conf_d,
    path_file=_path_conf,
    path_lines=path_lines,
    used_if=_fish_dir,
    forget_alias="functions -e",  # a fish alias is a function
    forget_function="functions -e",
    runs_bash_bodies=False,
    refuses=zshfish.fish_refuses,
    session=session.FISH,
)
