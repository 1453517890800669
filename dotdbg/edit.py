"""Round-trip edits of the user's config.toml: one alias or function added, replaced or removed.

The text functions are pure: TOML text in, TOML text out, everything the user wrote outside the
edited entry kept as it was (tomlkit). ``save_edit`` is the writer: it validates the new text
exactly as a hand edit would be validated, backs the old file up, writes atomically and refreshes
an installed dotdbg, all under one run lock and into one backup folder.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from dotdbg import tomledit
from dotdbg.backup import Backup
from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.fileops import atomic_write, run_lock
from dotdbg.paths import Paths
from dotdbg.sections import ALIAS_NAME, FUNCTION_NAME

if TYPE_CHECKING:
    from dotdbg.install import Report
    from dotdbg.settings import Config

Section = Literal["aliases", "functions"]
VALUE_KEY: dict[Section, str] = {"aliases": "command", "functions": "body"}
KIND: dict[Section, str] = {"aliases": "alias", "functions": "function"}
A_KIND: dict[Section, str] = {"aliases": "an alias", "functions": "a function"}


# -- pure text edits ---------------------------------------------------------------------------


def set_entry(
    text: str, section: Section, name: str, value: str, desc: str | None, pack: str | None
) -> str:
    """``text`` with ``[section] name`` defined as given, replacing any earlier definition."""
    if "\n" in value and section == "aliases":
        raise DotdbgError(
            "an alias is one line", hint="join commands with ; or &&, or use `dotdbg fn add`"
        )
    given = {VALUE_KEY[section]: value, "desc": desc, "pack": pack}
    fields = {key: text for key, text in given.items() if text is not None}
    return tomledit.set_entry(text, section, name, fields)


def remove_entry(text: str, section: Section, name: str, in_defaults: bool) -> str:
    """``text`` without ``name``; a name the defaults define is switched off with ``= false``."""
    if in_defaults:
        return tomledit.set_entry(text, section, name, None)
    return tomledit.delete_entry(text, section, name)


# -- the writer --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Saved:
    config: Config
    backup: Path | None  # the one folder of this edit: the config and the installed files
    install: Report | None  # None: dotdbg is not installed in this home


def read_user_text(paths: Paths) -> str:
    """The user's config as written, Windows line endings (CRLF) included."""
    try:
        with paths.config_file.open(encoding="utf-8", newline="") as file:
            return file.read()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as error:
        raise DotdbgError(f"cannot read {paths.display(paths.config_file)}: {error}") from None


def save_edit(paths: Paths, change: Callable[[str], str]) -> Saved:
    """Apply ``change`` to the user's config, check it like a hand edit, back up, write, install."""
    from dotdbg import install
    from dotdbg.render import BASH_FILE, check_bash
    from dotdbg.state import is_installed

    with run_lock(paths):
        existed = paths.config_file.exists()
        old = read_user_text(paths)
        new = change(old.replace("\r\n", "\n"))
        config = load_config(paths, user_text=new)
        # What `dotdbg install` would check, before anything is written: a body that breaks
        # `bash -n` changes nothing.
        check_bash(install.render_for(paths, config).files[BASH_FILE], config)
        # One folder for the config and the installed files: one restore undoes the edit.
        backup = Backup(paths)
        backup.save([paths.config_file])
        if "\r\n" in old:  # a file written on Windows keeps its line endings
            new = new.replace("\n", "\r\n")
        atomic_write(paths.config_file, new.encode("utf-8"))
        try:
            report = (
                install.install(paths, config, backup=backup, locked=True)
                if is_installed(paths)
                else None
            )
        except DotdbgError as error:
            # The shell files could not follow: put the config back, so that nothing changed.
            if existed:
                atomic_write(paths.config_file, old.encode("utf-8"))
            else:
                paths.config_file.unlink()
            error.hint = f"{error.hint}; your config was left as it was".lstrip("; ")
            raise
    return Saved(config, backup.dir, report)


def defined_in_defaults(paths: Paths, section: Section, name: str) -> bool:
    defaults = load_config(paths, user_text="")
    items = defaults.aliases if section == "aliases" else defaults.functions
    return any(item.name == name for item in items)


def reload_line(paths: Paths, section: Section, name: str, removed: bool) -> str:
    """The command that makes the running shell see the change.

    Sourcing again defines what is new or changed (the generated file unaliases a name before
    defining a function of it); it cannot forget a name, so a removal says how.
    """
    if removed:
        return f"unalias {name}" if section == "aliases" else f"unset -f {name}"
    return f"source {_shell_path(paths)}"


def _shell_path(paths: Paths) -> str:
    """The generated file as a shell word: ``~/…`` in the real home, quoted where needed."""
    from dotdbg.render import BASH_FILE

    target = paths.data_dir / BASH_FILE
    if paths.home == Path.home() and target.is_relative_to(paths.home):
        return "~/" + shlex.quote(str(target.relative_to(paths.home)))
    return shlex.quote(str(target))


# -- the operations the CLI calls ------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    action: str  # what happened to the entry, e.g. "added", "switched off"
    saved: Saved
    reload: str  # the line that makes a running shell see the change
    off_pack: str = ""  # the switched-off pack the entry is in: saved, but not defined


def add(
    paths: Paths,
    section: Section,
    name: str,
    value: str,
    desc: str | None = None,
    pack: str | None = None,
) -> Outcome:
    """Define alias or function ``name`` in the user's config, replacing an earlier one."""
    _check_name(section, name)
    before = load_config(paths)
    _refuse_other_kind(before, section, name)
    existed = _defines(before, section, name)
    saved = save_edit(paths, lambda text: set_entry(text, section, name, value, desc, pack))
    reload = reload_line(paths, section, name, removed=False)
    off_pack = _off_pack(saved.config, section, name)
    return Outcome("replaced" if existed else "added", saved, reload, off_pack)


def remove(paths: Paths, section: Section, name: str) -> Outcome:
    """Remove ``name``; one the defaults define is switched off (``name = false``)."""
    before = load_config(paths)
    if not _defines(before, section, name):
        _refuse_other_kind(before, section, name, removing=True)
        if off_pack := _off_pack(before, section, name):
            raise DotdbgError(
                f"{name} is in pack {off_pack}, which is switched off: there is nothing to remove",
                hint=f"`{off_pack} = false` under [packs] already keeps it out of your shell",
            )
        raise DotdbgError(
            f"there is no {KIND[section]} named {name}",
            hint="`dotdbg aliases` lists every alias and function",
        )
    in_defaults = defined_in_defaults(paths, section, name)
    saved = save_edit(paths, lambda text: remove_entry(text, section, name, in_defaults))
    reload = reload_line(paths, section, name, removed=True)
    return Outcome("switched off" if in_defaults else "removed", saved, reload)


def _check_name(section: Section, name: str) -> None:
    """The config's own name rule, checked before the name is written anywhere."""
    pattern = ALIAS_NAME if section == "aliases" else FUNCTION_NAME
    if not pattern.fullmatch(name):
        raise DotdbgError(
            f"{name!r} is not a valid {KIND[section]} name",
            hint="use letters, digits and _ (aliases also . : + - @ %); no spaces, quotes, / $ =",
        )


def _defines(config: Config, section: Section, name: str) -> bool:
    items = config.aliases if section == "aliases" else config.functions
    return any(item.name == name for item in items)


def _off_pack(config: Config, section: Section, name: str) -> str:
    """The switched-off pack that keeps ``name`` out of ``config`` although a file defines it."""
    specs = [origin.parse().get(section, {}).get(name) for origin in config.origins]
    if _defines(config, section, name) or specs[-1] is False or not any(specs):
        return ""
    packs = [spec["pack"] for spec in specs if isinstance(spec, dict) and "pack" in spec]
    pack = packs[-1] if packs else "user"
    return "" if config.pack_enabled(pack) else pack


def _refuse_other_kind(config: Config, section: Section, name: str, removing: bool = False) -> None:
    other: Section = "functions" if section == "aliases" else "aliases"
    if _defines(config, other, name):
        command = f"dotdbg {'fn' if other == 'functions' else 'alias'} rm {name}"
        raise DotdbgError(
            f"{name} is {A_KIND[other]}",
            hint=f"`{command}` removes it"
            if removing
            else f"`{command}` first, or pick another name",
        )
