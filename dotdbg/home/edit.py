"""Round-trip edits of the user's config.toml: one alias or function added, replaced or removed.

The text functions are pure: TOML text in, TOML text out, everything the user wrote outside the
edited entry kept as it was (``config.tomledit``). ``save_edit`` reads the config under the run
lock, validates the new text exactly as a hand edit would be validated, and hands the config and the
refreshed installed files to the one writer as a single plan.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from dotdbg.common.record import Record, replace
from dotdbg.config import load_config, tomledit
from dotdbg.config.names import BY_SECTION
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths

if TYPE_CHECKING:
    from dotdbg.config.model import Config
    from dotdbg.home.install import Result
    from dotdbg.home.render import Rendered

Section = Literal["aliases", "functions"]
VALUE_KEY: dict[Section, str] = {"aliases": "command", "functions": "body"}
KIND: dict[Section, str] = {"aliases": "alias", "functions": "function"}
SHORT: dict[Section, str] = {"aliases": "alias", "functions": "fn"}
A_KIND: dict[Section, str] = {"aliases": "an alias", "functions": "a function"}


# -- pure text edits ---------------------------------------------------------------------------


def set_entry(
    text: str,
    section: Section,
    name: str,
    value: str,
    desc: str | None,
    pack: str | None,
    bodies: Mapping[str, str] | None = None,
) -> str:
    """``text`` with ``[section] name`` defined as given, replacing any earlier definition;
    ``bodies``: a function's own bodies for zsh and fish."""
    if "\n" in value and section == "aliases":
        raise DotdbgError(
            "an alias is one line", hint="join commands with ; or &&, or use `dotdbg fn add`"
        )
    given = {VALUE_KEY[section]: value, **(bodies or {}), "desc": desc, "pack": pack}
    fields = {key: text for key, text in given.items() if text is not None}
    return tomledit.set_entry(text, section, name, fields)


def remove_entry(text: str, section: Section, name: str, in_defaults: bool) -> str:
    """``text`` without ``name``; a name the defaults define is switched off with ``= false``."""
    if in_defaults:
        return tomledit.set_entry(text, section, name, None)
    return tomledit.delete_entry(text, section, name)


# -- saving an edit ---------------------------------------------------------------------------


class Saved(Record):
    config: Config
    backup: Path | None  # the one folder of this edit: the config and the installed files
    install: Result | None  # None: dotdbg is not installed in this home
    action: str = ""  # what happened to the entry, e.g. "added", "switched off"
    shells: tuple[str, ...] = ()  # those installed for


def read_user_text(paths: Paths) -> str | None:
    """The user's config as written, Windows line endings (CRLF) included; None: no file."""
    try:
        data = paths.fs.read_bytes(paths.config_file)
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DotdbgError(
            f"cannot read {paths.display(paths.config_file)}: not UTF-8 (byte {error.start})",
            hint="save the file as UTF-8",
        ) from None
    except OSError as error:
        raise DotdbgError(
            f"cannot read {paths.display(paths.config_file)}: {error.strerror}",
            hint=f"check the file: ls -l {paths.display(paths.config_file)}",
        ) from None


# Takes the config text (LF line endings) and the config it makes; returns the new text and
# what happened to the entry.
Edit = Callable[[str, "Config"], tuple[str, str]]


class _Edited(Record):
    """An edit worked out from one config text: what to write, and what it makes."""

    old: str | None
    new: str
    action: str
    config: Config
    rendered: Rendered


def _work_out(paths: Paths, old: str | None, edit: Edit) -> _Edited:
    from dotdbg.home.install import current_render

    new, action = edit((old or "").replace("\r\n", "\n"), load_config(paths, user_text=old))
    config = load_config(paths, user_text=new)
    rendered = current_render(paths, config)
    if old is not None and "\r\n" in old:  # a file written on Windows keeps its endings
        new = new.replace("\n", "\r\n")
    return _Edited(old, new, action, config, rendered)


def save_edit(paths: Paths, edit: Edit, command: str) -> Saved:
    """Apply ``edit`` to the user's config and install the result, as one change.

    The config is read under the run lock (a concurrent edit is never lost); the new text is
    checked like a hand edit and the generated bash like `dotdbg install` checks it (once
    before the lock too, so that a mistake fails before anything is created); one plan holds
    the config and, when dotdbg is installed, the installed files: one backup, one journal,
    all written or none.
    """
    from dotdbg.config.load import remember_tables
    from dotdbg.home import install
    from dotdbg.home.checks import remember
    from dotdbg.home.plan import Change, Plan, plan_install
    from dotdbg.home.state import is_installed, read_state
    from dotdbg.home.writer import apply, session

    early = _work_out(paths, read_user_text(paths), edit)
    with session(paths):
        old = read_user_text(paths)
        edited = early if old == early.old else _work_out(paths, old, edit)
        change = Change(paths.config_file, old, edited.new)
        installed = is_installed(paths)
        if installed:
            plan = plan_install(paths, edited.config, edited.rendered, read_state(paths))
            plan = replace(plan, changes=(change, *plan.changes))
        else:
            plan = Plan((change,), None, keep_manifest=True)
        folder = apply(paths, plan, command=command)
        remember(paths, edited.rendered)
        remember_tables(paths, edited.config)
    config = edited.config
    result = install.Result(plan, folder, config.warnings, config) if installed else None
    shells = edited.rendered.shells if installed else ()
    return Saved(config, folder, result, edited.action, shells)


def reload_line(paths: Paths, section: Section, name: str, removed: bool) -> str:
    """The command that makes the running shell see the change.

    Sourcing again defines what is new or changed (the generated file unaliases a name before
    defining a function of it); it cannot forget a name, so a removal says how.
    """
    from dotdbg.shells import target_named

    target = target_named(_running_shell(paths))
    if removed:
        forget = target.forget_function if section != "aliases" else target.forget_alias
        return f"{forget} {name}"
    return f"{target.source_command} {_shell_path(paths, target.name)}"


def _running_shell(paths: Paths) -> str:
    """The user's shell ($SHELL) when dotdbg is installed for it, else bash."""
    from dotdbg.home.state import read_manifest
    from dotdbg.shells import login_shell

    login = login_shell()
    try:
        installed = read_manifest(paths).get("shells", [])
    except DotdbgError:  # the edit is done: an unreadable record only costs the hint's shell
        return "bash"
    return login if login in installed else "bash"


def _shell_path(paths: Paths, shell: str = "bash") -> str:
    """The generated file as a shell word: ``~/…`` in the real home, quoted where needed."""
    from dotdbg.shells import target_named

    target = target_named(shell).generated_path(paths)
    if paths.home == Path.home() and target.is_relative_to(paths.home):
        return "~/" + shlex.quote(str(target.relative_to(paths.home)))
    return shlex.quote(str(target))


# -- the operations the CLI calls ------------------------------------------------------------


class Outcome(Record):
    action: str  # what happened to the entry, e.g. "added", "switched off"
    saved: Saved
    reload: str  # the line that makes a running shell see the change
    off_pack: str = ""  # the switched-off pack the entry is in: saved, but not defined
    left_out: tuple[str, ...] = ()  # why a shell installed for goes without the entry


def add(
    paths: Paths,
    section: Section,
    name: str,
    value: str,
    desc: str | None = None,
    pack: str | None = None,
    new_pack: bool = False,
    bodies: Mapping[str, str] | None = None,
) -> Outcome:
    """Define alias or function ``name`` in the user's config, replacing an earlier one.
    ``pack``: a pack the config knows, or a new one (``new_pack`` when it is close to a known
    one's name, which is taken for a typo). ``bodies``: a function's bodies for zsh, fish."""
    _check_name(section, name)

    def edit(text: str, before: Config) -> tuple[str, str]:
        _refuse_other_kind(before, section, name)
        if pack is not None and not new_pack:
            _refuse_pack_typo(before, pack)
        action = "replaced" if before.defines(section, name) else "added"
        return set_entry(text, section, name, value, desc, pack, bodies), action

    saved = save_edit(paths, edit, f"{SHORT[section]} add")
    reload = reload_line(paths, section, name, removed=False)
    off_pack = _off_pack(saved.config, section, name)
    missing = _left_out(saved, name) if section == "functions" else _alias_left_out(saved, name)
    return Outcome(saved.action, saved, reload, off_pack, missing)


def _alias_left_out(saved: Saved, name: str) -> tuple[str, ...]:
    from dotdbg.shells.zshfish import FISH_RESERVED

    if "fish" in saved.shells and name in FISH_RESERVED:
        return (f"fish has no alias {name}: fish reserves the name",)
    return ()


def _left_out(saved: Saved, name: str) -> tuple[str, ...]:
    """Why each shell installed for goes without function ``name``, with the option of
    `fn add` that gives it a body."""
    from dotdbg.shells import target_named
    from dotdbg.shells.zshfish import left_out

    fix = "`dotdbg fn add {name} --{shell} BODY …` gives it one"
    return tuple(
        item.warning("")
        for shell in saved.shells
        for item in left_out(saved.config, target_named(shell), fix)
        if item.name == name
    )


def remove(paths: Paths, section: Section, name: str) -> Outcome:
    """Remove ``name``; one the defaults define is switched off (``name = false``)."""

    def edit(text: str, before: Config) -> tuple[str, str]:
        _refuse_unknown(before, section, name)
        in_defaults = before.in_defaults(section, name)
        action = "switched off" if in_defaults else "removed"
        return remove_entry(text, section, name, in_defaults), action

    saved = save_edit(paths, edit, f"{SHORT[section]} rm")
    return Outcome(saved.action, saved, reload_line(paths, section, name, removed=True))


def switch_on(paths: Paths, section: Section, name: str) -> Outcome:
    """Switch a default that ``name = false`` removed back on (the line goes)."""

    def edit(text: str, before: Config) -> tuple[str, str]:
        off = before.off(section, name)
        if before.defines(section, name):
            raise DotdbgError(
                f"{KIND[section]} {name} is on already",
                hint=f"`dotdbg aliases {name}` shows it",
            )
        if off is None:
            _refuse_unknown(before, section, name)
        assert off is not None
        if not off.removed:
            raise _in_off_pack(name, off.pack)
        return tomledit.delete_entry(text, section, name), "switched on"

    saved = save_edit(paths, edit, f"{SHORT[section]} on")
    reload = reload_line(paths, section, name, removed=False)
    return Outcome(saved.action, saved, reload, _off_pack(saved.config, section, name))


def switch_pack(paths: Paths, pack: str, on: bool) -> Saved:
    """Switch ``pack`` on (its `= false` line goes) or off (`pack = false` under [packs])."""

    def edit(text: str, before: Config) -> tuple[str, str]:
        if pack not in dict(before.packs):
            raise _unknown_pack(before, pack)
        if before.pack_enabled(pack) == on:
            raise DotdbgError(
                f"pack {pack} is {'on' if on else 'off'} already",
                hint="`dotdbg aliases` lists what each pack defines",
            )
        if on:
            return tomledit.delete_entry(text, "packs", pack), "switched on"
        return tomledit.set_entry(text, "packs", pack, None), "switched off"

    return save_edit(paths, edit, f"pack {'on' if on else 'off'}")


def _in_off_pack(name: str, pack: str) -> DotdbgError:
    return DotdbgError(
        f"{name} is in pack {pack}, which is switched off",
        hint=f"`dotdbg pack on {pack}` switches the pack on",
    )


def _unknown_pack(config: Config, pack: str) -> DotdbgError:
    known = sorted(dict(config.packs))
    import difflib  # only for a mistyped pack

    close = difflib.get_close_matches(pack, known, n=1)
    return DotdbgError(
        f"there is no pack {pack!r}" + (f": did you mean {close[0]!r}?" if close else ""),
        hint=f"known packs: {', '.join(known)}",
    )


def _refuse_pack_typo(config: Config, pack: str) -> None:
    """A pack name close to a known one is taken for a typo; a clearly new one is fine."""
    known = dict(config.packs)
    if pack in known:
        return
    import difflib  # only for a mistyped pack

    close = difflib.get_close_matches(pack, known, n=1)
    if close:
        raise DotdbgError(
            f"there is no pack {pack!r}: did you mean {close[0]!r}?",
            hint=f"add --new-pack to start a new pack named {pack}",
        )


def _refuse_unknown(config: Config, section: Section, name: str) -> None:
    if config.defines(section, name):
        return
    _refuse_other_kind(config, section, name, removing=True)
    if off_pack := _off_pack(config, section, name):
        raise DotdbgError(
            f"{name} is in pack {off_pack}, which is switched off: there is nothing to remove",
            hint=f"`{off_pack} = false` under [packs] already keeps it out of your shell",
        )
    raise DotdbgError(
        f"there is no {KIND[section]} named {name}",
        hint="`dotdbg aliases` lists every alias and function",
    )


def _check_name(section: Section, name: str) -> None:
    """The config's own name rule, checked before the name is written anywhere."""
    rule = BY_SECTION[section]
    if not rule.allows(name):
        raise DotdbgError(f"{name!r} is not a valid {rule.kind} name", hint=rule.hint)


def _off_pack(config: Config, section: Section, name: str) -> str:
    """The switched-off pack that keeps ``name`` out of ``config`` although a file defines it."""
    off = config.off(section, name)
    return off.pack if off is not None and not off.removed else ""


def _refuse_other_kind(config: Config, section: Section, name: str, removing: bool = False) -> None:
    other: Section = "functions" if section == "aliases" else "aliases"
    if config.defines(other, name):
        command = f"dotdbg {'fn' if other == 'functions' else 'alias'} rm {name}"
        raise DotdbgError(
            f"{name} is {A_KIND[other]}",
            hint=f"`{command}` removes it"
            if removing
            else f"`{command}` first, or pick another name",
        )
