"""What dotdbg knows of one shell: the ``ShellTarget`` each shell's module defines and the
registry in ``dotdbg.shells`` holds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from dotdbg.common.record import Record, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from dotdbg.config.model import Config, Function
    from dotdbg.paths import Paths
    from dotdbg.shells.session import SessionShell


def _data_dir(paths: Paths) -> Path:
    return paths.data_dir


def _refuses_nothing(function: Function) -> str:
    return ""


class ShellTarget(Record):
    name: str  # "bash"
    template: str  # in templates/: "dotdbg.bash.j2"
    generated: str  # the generated file's name: "dotdbg.bash"
    # The home file that gets a managed block loading the generated file (~/.bashrc); None:
    # the shell reads the generated file by itself (``directory`` is a folder it loads).
    rc_file: Callable[[Paths], Path] | None
    # The block's body: (generated file, home) -> lines that load it.
    load_block: Callable[[Path, Path], str]
    quote_filter: str  # the template filter that quotes a value for this shell: "shquote"
    filters: Mapping[str, Callable[..., Any]]  # the template's own filters, quote_filter included
    # Raises DotdbgError (one line, blaming the entry of the config at fault) unless the text
    # passes the shell's checkers (bash -n and shellcheck for bash). Nothing runs the text.
    check: Callable[[str, Config], None]
    # Which checkers ``check`` runs, and their versions: part of the check cache's key, so that a
    # new shellcheck checks again.
    checker_key: Callable[[], str]
    directory: Callable[[Paths], Path] = field(default=_data_dir)  # where the file goes
    # Optional finer cache: the parts of a text whose check depends on that part alone, by
    # name (bash: {"shellcheck": what shellcheck reads}, the same after an alias edit), and a
    # check told the names of the parts that passed before. Without them, ``check`` runs on
    # every text not checked before.
    parts: Callable[[str], Mapping[str, str]] | None = None
    check_known: Callable[[str, Config, frozenset[str]], None] | None = None
    # The file every shell of this kind reads, also non-interactive ones (`ssh HOST cmd`), that
    # gets the PATH block putting dotdbg's folder on PATH (``launcher``); None: no such block.
    path_file: Callable[[Paths], Path] | None = None
    # The PATH block's body in this shell's language: (folder, home) -> lines appending it.
    path_lines: Callable[[Path, Path], str] | None = None
    # The file whose presence says the user uses this shell (its rc file, fish's folder): the
    # first install sets up those shells and the login shell, no other.
    used_if: Callable[[Paths], Path] | None = None
    # The reload line an edit prints: the command that reads the generated file again, and
    # those that forget an alias and a function (reading the file again cannot forget a name).
    source_command: str = "source"
    forget_alias: str = "unalias"
    forget_function: str = "unset -f"
    # Which functions of the config this shell goes without: those with no body for it (its
    # own, or the bash one where it runs bash bodies), and those ``refuses`` gives a reason for
    # (a name the shell reserves, a bash body using what the shell does not have).
    runs_bash_bodies: bool = True
    refuses: Callable[[Function], str] = _refuses_nothing
    # How a ``dotdbg ssh`` / ``dotdbg shell`` session starts this shell (shells.session); None:
    # a session never starts it (it runs bash).
    session: SessionShell | None = None

    def generated_path(self, paths: Paths) -> Path:
        return self.directory(paths) / self.generated
