"""zsh: ``dotdbg.zsh`` in dotdbg's data directory, loaded by a block in ``${ZDOTDIR:-~}/.zshrc``
(the same lines as bash's block), quoted in POSIX single quotes, checked by ``zsh -n``
(``dotdbg.shells.zshfishcheck``)."""

from __future__ import annotations

from pathlib import Path

from dotdbg.shells import session, zshfish
from dotdbg.shells.bash import identity, load_block
from dotdbg.shells.posix import posix_path_lines, shquote
from dotdbg.shells.target import ShellTarget

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.config.model import Config
    from dotdbg.paths import Paths


def _zshrc(paths: Paths) -> Path:
    return paths.zshrc


def _zshenv(paths: Paths) -> Path:
    return paths.zshenv


def check(text: str, config: Config) -> None:
    from dotdbg.shells.zshfishcheck import check_zsh

    check_zsh(text, config, ZSH)


def checker_key() -> str:
    from dotdbg.common.programs import which

    return identity(which("zsh") or "no zsh")


ZSH = ShellTarget(
    name="zsh",
    template="dotdbg.zsh.j2",
    generated=zshfish.ZSH_FILE,
    rc_file=_zshrc,
    load_block=load_block,
    quote_filter="shquote",
    filters={
        "shquote": shquote,
        "zsh_definition": zshfish.zsh_definition,
        "zsh_history_size": zshfish.zsh_history_size,
        "zsh_history_options": zshfish.zsh_history_options,
        "zsh_key": zshfish.zsh_key,
        "kept_functions": zshfish.kept_functions,
        "entry_names": zshfish.entry_names,
    },
    check=check,
    checker_key=checker_key,
    path_file=_zshenv,  # every zsh reads it, `ssh HOST cmd`'s too
    path_lines=posix_path_lines,
    used_if=_zshrc,
    forget_function="unfunction",
    refuses=zshfish.zsh_refuses,
    session=session.ZSH,
)
