"""The validated configuration as frozen records (``dotdbg.common.record``): what is enabled,
what is switched off, and what the defaults define. ``dotdbg.config.load`` builds a ``Config``;
everything else reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dotdbg.common.record import Record, field
from dotdbg.config.position import find, locate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.config.source import Source


class Alias(Record):
    name: str
    command: str
    desc: str
    pack: str


class Function(Record):
    name: str
    body: str
    desc: str
    pack: str
    zsh: str | None = None  # a body for zsh in place of ``body``
    fish: str | None = None  # fish cannot read a bash body: without this, fish has no ``name``
    user_keys: frozenset[str] = frozenset()  # which of body, zsh and fish the user wrote

    @property
    def user_body(self) -> bool:
        """Whether the body is written in the user's config, not dotdbg's defaults."""
        return "body" in self.user_keys

    def user_wrote(self, shell: str) -> bool:
        """Whether the body ``shell`` gets comes from the user's config (it is checked)."""
        own = {"zsh": self.zsh, "fish": self.fish}.get(shell)
        return shell in self.user_keys if own is not None else self.user_body

    def body_for(self, shell: str, runs_bash_bodies: bool = True) -> str:
        """The body this shell gets: its own, else the bash one where the shell runs bash
        bodies ("" when there is none: the function is left out)."""
        own = {"zsh": self.zsh, "fish": self.fish}.get(shell)
        if own is not None:
            return own
        return self.body if runs_bash_bodies else ""


class PdbAlias(Record):
    name: str
    command: str
    desc: str
    pack: str


class History(Record):
    control: str
    size: int
    file_size: int
    append: bool
    flush_each_command: bool


class Readline(Record):
    history_search: bool
    bracketed_paste: bool
    esc_p_n: bool
    bindings: tuple[tuple[str, str], ...]


class CheatPath(Record):
    name: str
    path: str
    readonly: bool


class Cheat(Record):
    key: str
    alias: str
    paths: tuple[CheatPath, ...]


class Fish(Record):
    abbreviations: bool  # aliases become abbreviations, expanded as they are typed


class Off(Record):
    """An alias, function or pdb alias the config knows but keeps out of the shell."""

    section: str  # "aliases", "functions" or "pdb.aliases"
    name: str
    pack: str
    value: str  # its command or body
    removed: bool  # `name = false` in the user's file; else its pack is switched off


class Config(Record):
    """The merged configuration. ``aliases``, ``functions`` and ``pdb_aliases`` hold what is
    enabled; ``switched_off`` what the config keeps out, and why; ``default_names`` what
    dotdbg's defaults define in each section. Nothing after ``load_config`` parses TOML:
    ``origins`` keeps the texts only to point at a setting (``where``).
    """

    packs: tuple[tuple[str, bool], ...]
    aliases: tuple[Alias, ...]
    functions: tuple[Function, ...]
    pdb_aliases: tuple[PdbAlias, ...]
    history: History | None
    readline: Readline | None
    cheat: Cheat
    sources: tuple[Path, ...]
    fish: Fish = Fish(abbreviations=False)
    switched_off: tuple[Off, ...] = ()
    default_names: tuple[tuple[str, frozenset[str]], ...] = ()  # section → names
    warnings: tuple[str, ...] = field(default=(), compare=False)
    cut: tuple[str, ...] = field(default=(), compare=False)  # values too big, shown cut
    origins: tuple[Source, ...] = field(default=(), compare=False, repr=False)

    def pack_enabled(self, pack: str) -> bool:
        return dict(self.packs).get(pack, True)

    def in_defaults(self, section: str, name: str) -> bool:
        """Whether dotdbg's defaults define ``name`` in ``section`` (on or off)."""
        return name in dict(self.default_names).get(section, frozenset())

    def off(self, section: str, name: str) -> Off | None:
        """Why ``name`` is not in the shell although a file defines it; None when it is on
        or nothing defines it."""
        return next((o for o in self.switched_off if (o.section, o.name) == (section, name)), None)

    def defines(self, section: str, name: str) -> bool:
        """Whether ``name`` is an enabled entry of ``section`` ("aliases", "functions")."""
        items = self.aliases if section == "aliases" else self.functions
        return any(item.name == name for item in items)

    def where(self, key_path: Sequence[str]) -> str:
        """``file:line:col`` of a setting, in the user's file when it is set there."""
        for origin in reversed(self.origins):
            found = find(origin.text, key_path)
            if found is not None:
                return f"{origin.path}:{found[0]}:{found[1]}"
        if not self.origins:
            return ""
        first = self.origins[0]
        line, column = locate(first.text, key_path)
        return f"{first.path}:{line}:{column}"
