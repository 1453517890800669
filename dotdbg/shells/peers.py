"""What else the user's shell files set up, read from their text (never run): the keys atuin,
navi, fzf and the user's own bindings take, and the aliases oh-my-zsh and bash-it define, so
that install and doctor name each one dotdbg shares with them and who wins.

Who wins: a binding made later in the same start-up replaces an earlier one. In bash, dotdbg's
Up/Down are in the inputrc, which bash reads before ~/.bashrc: any ``bind`` of those keys in
~/.bashrc wins whatever the order. fish reads conf.d (dotdbg's file) before config.fish.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dotdbg.common.record import Record

if TYPE_CHECKING:
    from dotdbg.config.model import Config
    from dotdbg.paths import Paths

# What each peer's init line binds, and how its own documentation lets the user give a key up.
_INIT = (
    (r"\batuin\s+init\s+(?:bash|zsh|fish)\b[^\n]*", "atuin", "atuin's search"),
    (r"\bnavi\s+widget\s+(?:bash|zsh|fish)\b", "navi", "navi's widget"),
    (
        r"\bfzf\s+--(?:bash|zsh|fish)\b|fzf/(?:[^\s/]+/)*key-bindings\.(?:bash|zsh|fish)",
        "fzf",
        "fzf's widgets",
    ),
    (r"\bmcfly\s+init\b", "mcfly", "mcfly's search"),
)
_BIND = r"""^\s*bind\s+(?:-m\s+\S+\s+)?(?:-x\s+)?['"]?"(?P<key>[^"]+)"\s*:"""
_BINDKEY = r"""^\s*bindkey\s+(?:-M\s+\S+\s+)?(?P<q>['"]?)(?P<key>\S+?)(?P=q)\s"""
_FISH_BIND = r"^\s*bind\s+(?:-M\s+\S+\s+)?(?P<key>\S+)\s"

# A key as dotdbg names it, from the spellings of readline, zsh's bindkey and fish's bind.
_SPELLINGS = {
    "up": (r"\e[A", r"\eOA", "^[[A", "^[OA", r"\e\[A", "up", "${terminfo[kcuu1]}"),
    "down": (r"\e[B", r"\eOB", "^[[B", "^[OB", "down", "${terminfo[kcud1]}"),
}


def key_name(spelling: str) -> str | None:
    """``\\C-g``, ``^G``, ``\\cg`` → ``ctrl-g``; ``\\e[A``, ``^[[A`` → ``up``; None: other."""
    spelling = spelling.strip("'\"")
    for name, forms in _SPELLINGS.items():
        if spelling in forms:
            return name
    ctrl = re.fullmatch(r"(?:\\C-|\^|\\c|ctrl-)([A-Za-z])", spelling)
    if ctrl:
        return f"ctrl-{ctrl[1].lower()}"
    alt = re.fullmatch(r"(?:\\e|\\M-|\^\[|alt-)([A-Za-z])", spelling)
    if alt:
        return f"alt-{alt[1].lower()}"
    return None


class Binding(Record):
    owner: str  # "atuin's search", "your binding"
    peer: str  # "atuin", "navi", "fzf", "mcfly", "" for the user's own
    key: str  # key_name's form
    line: int
    option: str = ""  # atuin's flags, read for --disable-up-arrow


def _peer_keys(peer: str, line: str) -> tuple[str, ...]:
    if peer == "atuin":
        up = () if "--disable-up-arrow" in line else ("up",)
        return (*up, *(() if "--disable-ctrl-r" in line else ("ctrl-r",)))
    return {
        "navi": ("ctrl-g",),
        "fzf": ("ctrl-r", "ctrl-t", "alt-c"),
        "mcfly": ("ctrl-r",),
    }[peer]


def bindings_in(text: str, shell: str) -> list[Binding]:
    """The keys ``text`` (a shell's rc file) binds: peers' init lines and the user's own."""
    found: list[Binding] = []
    own = {"bash": _BIND, "zsh": _BINDKEY, "fish": _FISH_BIND}[shell]
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        for pattern, peer, owner in _INIT:
            if re.search(pattern, line):
                found += [Binding(owner, peer, key, number, line) for key in _peer_keys(peer, line)]
        match = re.match(own, line)
        name = key_name(match["key"]) if match else None
        if name:
            found.append(Binding("your binding", "", name, number))
    return found


def dotdbg_keys(config: Config) -> dict[str, str]:
    """The keys dotdbg binds, by key_name, and what each does."""
    keys: dict[str, str] = {}
    if config.readline is not None and config.readline.history_search:
        keys |= {"up": "prefix history search", "down": "prefix history search"}
    if config.readline is not None and config.readline.esc_p_n:
        keys |= {"alt-p": "prefix history search", "alt-n": "prefix history search"}
    cheat = key_name(config.cheat.key) if config.cheat.key else None
    if cheat:
        keys[cheat] = "cheatsheet picker"
    return keys


class Clash(Record):
    key: str
    ours: str  # what dotdbg's binding does
    theirs: Binding
    where: str  # "~/.bashrc:12"
    they_win: bool

    def message(self) -> str:
        return f"{self.describe()}; {self.fix()}"

    def describe(self) -> str:
        """Who has the key, and why."""
        key = {"up": "Up", "down": "Down"}.get(self.key, self.key)
        key = re.sub(r"^(ctrl|alt)-(.)", lambda m: f"{m[1].title()}-{m[2].upper()}", key)
        theirs = f"{self.theirs.owner} ({self.where})"
        if not self.they_win:
            return (
                f"{key}: dotdbg's {self.ours} takes it from {theirs}, loaded before dotdbg's block"
            )
        why = (
            "bash reads the inputrc, where dotdbg binds it, before ~/.bashrc"
            if self.where.startswith("~/.bashrc") and self.key in ("up", "down", "alt-p", "alt-n")
            else "loaded after dotdbg's"
        )
        return f"{key}: {theirs} takes it from dotdbg's {self.ours} ({why})"

    def fix(self) -> str:
        if self.theirs.peer == "atuin" and self.key == "up":
            return "`atuin init bash --disable-up-arrow` (zsh, fish alike) gives Up back to dotdbg"
        if self.ours == "cheatsheet picker":
            return 'to choose, move dotdbg\'s picker with [cheat] key = "\\eg" in your config'
        return "to choose, remove one of the two bindings"


def clashes(
    config: Config, shell: str, text: str, where: str, block_line: int | None
) -> list[Clash]:
    """The keys dotdbg's files bind in ``shell`` that ``text`` (its rc file, shown as
    ``where``) binds too. ``block_line``: where dotdbg's block starts in it (None: dotdbg's file
    is read before it, as fish's conf.d)."""
    ours = dotdbg_keys(config)
    found = []
    for binding in bindings_in(text, shell):
        if binding.key not in ours:
            continue
        in_inputrc = shell == "bash" and binding.key in ("up", "down", "alt-p", "alt-n")
        later = block_line is None or in_inputrc or binding.line > block_line
        found.append(
            Clash(binding.key, ours[binding.key], binding, f"{where}:{binding.line}", later)
        )
    return found


# -- frameworks' aliases --------------------------------------------------------------------
_ALIAS = r"^\s*alias\s+(?:-g\s+)?(?:--\s+)?([^=\s'\"]+)=(.*)$"


def aliases_in(text: str) -> dict[str, str]:
    """``alias NAME=VALUE`` lines: NAME → VALUE with one level of quotes taken off."""
    found = {}
    for line in text.splitlines():
        match = re.match(_ALIAS, line)
        if match:
            value = match[2].strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            found[match[1]] = value
    return found


def oh_my_zsh_files(zshrc: str, home: Path) -> list[Path]:
    """The files of oh-my-zsh a ~/.zshrc loads: its lib/ and the plugins it lists."""
    if "oh-my-zsh.sh" not in zshrc:
        return []
    found = re.search(r"""^\s*(?:export\s+)?ZSH=["']?([^"'\s]+)""", zshrc, re.M)
    root = (found[1] if found else "$HOME/.oh-my-zsh").replace("${HOME}", "$HOME")
    root_path = Path(root.replace("$HOME", str(home)).replace("~", str(home), 1))
    listed = re.search(r"^\s*plugins=\(([^)]*)\)", zshrc, re.M)
    plugins = listed[1].split() if listed else []
    return [*sorted((root_path / "lib").glob("*.zsh"))] + [
        root_path / "plugins" / name / f"{name}.plugin.zsh" for name in plugins
    ]


def bash_it_files(bashrc: str, home: Path) -> list[Path]:
    """The alias files bash-it has enabled, when ~/.bashrc loads bash-it."""
    if "bash_it.sh" not in bashrc:
        return []
    found = re.search(r"""^\s*(?:export\s+)?BASH_IT=["']?([^"'\s]+)""", bashrc, re.M)
    root = Path((found[1] if found else "$HOME/.bash_it").replace("$HOME", str(home)))
    return sorted((root / "enabled").glob("*aliases*.bash")) + sorted(
        (root / "aliases" / "enabled").glob("*.bash")
    )


# -- what install and doctor say ------------------------------------------------------------
def _block_line(text: str) -> int | None:
    from dotdbg.home.blocks import START

    lines = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == START]
    return lines[0] if lines else None


def _read(paths: Paths, path: Path) -> str:
    try:
        data = paths.fs.read_bytes(path)
    except OSError:
        return ""
    return data.decode(errors="replace") if data else ""


def _framework_line(text: str, marker: str) -> int | None:
    lines = [n for n, line in enumerate(text.splitlines(), 1) if marker in line]
    return lines[-1] if lines else None


def key_clashes(
    paths: Paths, config: Config, shells: Sequence[str], texts: Mapping[Path, str | None]
) -> list[Clash]:
    """Each key dotdbg shares with a peer or a binding of the user's, in each of ``shells``;
    ``texts``: the rc files as they are (or will be, for install)."""
    found: list[Clash] = []
    for shell in shells:
        if shell not in ("bash", "zsh", "fish"):
            continue  # a shell registered since: its rc files are not read
        if shell == "fish":
            rc = paths.config_home / "fish" / "config.fish"
            found += clashes(config, shell, _read(paths, rc), paths.display(rc), None)
            continue
        rc = paths.bashrc if shell == "bash" else paths.zshrc
        text = texts.get(rc) or ""
        found += clashes(config, shell, text, paths.display(rc), _block_line(text))
    return found


def framework_aliases(
    paths: Paths, config: Config, shells: Sequence[str], texts: Mapping[Path, str | None]
) -> list[str]:
    """dotdbg's aliases that replace a framework's of the same name (or that it replaces)."""
    said = []
    frameworks = (
        ("zsh", paths.zshrc, "oh-my-zsh", "oh-my-zsh.sh", oh_my_zsh_files),
        ("bash", paths.bashrc, "bash-it", "bash_it.sh", bash_it_files),
    )
    ours = {alias.name: alias.command for alias in config.aliases}
    for shell, rc, name, marker, files in frameworks:
        text = texts.get(rc) or ""
        if shell not in shells or marker not in text:
            continue
        theirs: dict[str, str] = {}
        for path in files(text, paths.home):
            theirs |= aliases_in(_read(paths, path))
        differ = sorted(n for n in theirs.keys() & ours.keys() if theirs[n] != ours[n])
        if not differ:
            continue
        block, loaded = _block_line(text), _framework_line(text, marker)
        shown = ", ".join(f"{n} ({theirs[n]})" for n in differ)
        if block is not None and loaded is not None and block > loaded:
            said.append(
                f"dotdbg's aliases replace {name}'s {shown} in {shell}: `dotdbg alias rm NAME` "
                f"keeps {name}'s ([aliases] in docs/shells.md)"
            )
        else:
            said.append(f"{name}'s {shown} replace dotdbg's in {shell} ({name} is loaded later)")
    return said
