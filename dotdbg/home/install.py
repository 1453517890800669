"""Install, uninstall, restore and the login-file fix: lock, read, plan, then apply the plan.

Each reads the config and the files under the run lock (a concurrent `alias add` is never
half-seen), plans with the pure functions of ``plan``, and hands the plan to ``writer.apply``,
the one writer. A dry run (status, diff, --dry-run) takes no lock and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from dotdbg.common.programs import which as on_path
from dotdbg.common.record import Record, field, replace
from dotdbg.config import DEFAULTS_FILE, load_config
from dotdbg.config.load import remember_tables
from dotdbg.config.model import Config
from dotdbg.errors import DotdbgError
from dotdbg.home import blocks
from dotdbg.home.checks import check_rendered, known_renders, remember
from dotdbg.home.plan import (
    Plan,
    accepted_blocks,
    plan_install,
    plan_profile_fix,
    plan_restore,
    plan_uninstall,
)
from dotdbg.home.render import INPUTRC_FILE, PDBRC_FILE, Rendered, render_all, render_key
from dotdbg.home.state import State, block_files, digest, read_manifest, read_state
from dotdbg.paths import Paths
from dotdbg.shells import generated_path, login_shell, registered, target_named
from dotdbg.shells.target import ShellTarget
from dotdbg.shells.zshfish import left_out_warnings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.home.backup import Contents


class Result(Record):
    """What a run did (or, dry, would do); ``dotdbg.cli.report`` prints it."""

    plan: Plan
    backup_dir: Path | None = None
    warnings: tuple[str, ...] = field(default=())
    config: Config | None = None
    restored: str | None = None  # the backup a restore put back


def render_for(paths: Paths, config: Config, shells: Sequence[str] | None = None) -> Rendered:
    """The generated files for ``shells`` (None: ``selected_shells``)."""
    targets = _targets(paths, shells)
    return render_all(config, _shown_sources(paths, config), targets)


def _targets(paths: Paths, shells: Sequence[str] | None) -> list[ShellTarget]:
    return [target_named(name) for name in shells or selected_shells(paths)]


def _shown_sources(paths: Paths, config: Config) -> list[str]:
    # A config outside the home (XDG_CONFIG_HOME elsewhere, or the pushing machine's for
    # `dotdbg push`) is named by its full path.
    return [
        "dotdbg's defaults" if source == DEFAULTS_FILE else paths.display(source)
        for source in config.sources
    ]


def installed_render(
    paths: Paths, config: Config, state: State, shells: Sequence[str] | None = None
) -> Rendered | None:
    """The installed files, when they are exactly what rendering ``config`` gave before (the
    render cache of ``checks``): a render without rendering. None otherwise."""
    targets = _targets(paths, shells)
    key = render_key(config, _shown_sources(paths, config), targets)
    digests = known_renders(paths).get(key)
    if not isinstance(digests, dict):
        return None
    files = {}
    for name in (*(target.generated for target in targets), INPUTRC_FILE, PDBRC_FILE):
        text = state.text(generated_path(paths, name))
        if text is None or digests.get(name) != digest(text):
            return None
        files[name] = text
    return Rendered(files, tuple(target.name for target in targets), key)


def selected_shells(
    paths: Paths, which: Callable[[str], object] = on_path, login: str | None = None
) -> tuple[str, ...]:
    """The shells of the last install; on the first, those the user uses (``used_shells``)."""
    known = [target.name for target in registered()]
    recorded = read_manifest(paths).get("shells")
    kept = [name for name in known if isinstance(recorded, list) and name in recorded]
    return tuple(kept) or used_shells(paths, which, login)


def used_shells(
    paths: Paths, which: Callable[[str], object] = on_path, login: str | None = None
) -> tuple[str, ...]:
    """The login shell (``login``; None: $SHELL here) and each shell whose files are in the
    home, among those installed on the home's machine (``which``; `dotdbg push` asks the remote
    host); bash when there is none."""
    login = login_shell() if login is None else login
    used = [
        target.name
        for target in registered()
        if (target.name == login or (target.used_if and paths.fs.exists(target.used_if(paths))))
        and which(target.name)
    ]
    return tuple(used) or ("bash",)


def _neighbours(
    paths: Paths, config: Config, shells: Sequence[str], state: State, plan: Plan
) -> list[str]:
    """The keys and aliases dotdbg shares with what the user's rc files set up, as they will be
    once ``plan`` is applied."""
    from dotdbg.shells.peers import framework_aliases, key_clashes

    texts = {**state.texts, **{change.path: change.after for change in plan.changes}}
    keys = [clash.message() for clash in key_clashes(paths, config, shells, texts)]
    return [*keys, *framework_aliases(paths, config, shells, texts)]


def left_out_shells(
    paths: Paths, shells: Sequence[str], which: Callable[[str], object] = on_path
) -> list[str]:
    """One line naming the shells installed here that the first install left out."""
    others = [t.name for t in registered() if t.name not in shells and which(t.name)]
    if not others:
        return []
    every = ",".join([*shells, *others])
    one = len(others) == 1
    return [
        f"{' and '.join(others)} {'is' if one else 'are'} installed here too, not set up (not "
        f"your login shell, no files of {'its' if one else 'theirs'} in your home): "
        f"`dotdbg install --shell {every}` adds {'it' if one else 'them'}"
    ]


def checked_render(paths: Paths, config: Config, shells: Sequence[str] | None = None) -> Rendered:
    """The generated files, once each shell's checkers accept them (or accepted that text
    before: ``checks``)."""
    rendered = render_for(paths, config, shells)
    check_rendered(paths, config, rendered)
    return rendered


def current_render(
    paths: Paths,
    config: Config,
    state: State | None = None,
    shells: Sequence[str] | None = None,
    *,
    dry_run: bool = False,
) -> Rendered:
    """``checked_render``, without rendering when the installed files are that render
    (``installed_render``: no jinja2). Their check is confirmed as any text's is (a new
    shellcheck checks again), except in a dry run, which runs no checker on installed files."""
    reused = installed_render(paths, config, read_state(paths) if state is None else state, shells)
    if reused is not None and dry_run:
        return reused
    rendered = reused or render_for(paths, config, shells)
    check_rendered(paths, config, rendered)
    return rendered


def interrupted_run(paths: Paths) -> str:
    """``recover.interrupted``, imported only when a journal is there (a run died part-way):
    a look at the home spares recover's imports (backup, journal)."""
    if not paths.fs.lexists(paths.journal_file):
        return ""
    from dotdbg.home.recover import interrupted

    return interrupted(paths)


def _with_interrupted(paths: Paths, plan: Plan) -> Plan:
    """A dry run's plan, noting a run that died part-way: the next real run finishes it."""
    pending = interrupted_run(paths)
    return replace(plan, notes=(pending, *plan.notes)) if pending else plan


@contextmanager
def _session_unless(dry_run: bool, paths: Paths) -> Iterator[None]:
    """A dry run takes no lock: every write is a rename, so it reads each file whole."""
    if dry_run:
        yield
    else:
        from dotdbg.home.writer import session  # the writer: not a dry run's import

        with session(paths):
            yield


def install(
    paths: Paths,
    config: Config | None = None,
    *,
    dry_run: bool = False,
    shells: Sequence[str] | None = None,
    prerendered: Rendered | None = None,
    advise: bool = True,
) -> Result:
    """``config``: None reads it under the lock (tests hand one in). ``shells``: those to
    install for, the others' files removed (None: ``selected_shells``). ``prerendered``: the
    checked render of ``config`` made for another home (``dotdbg push`` renders once for all
    its hosts: the text names the home only as $HOME). ``advise``: work out the warnings
    (status and diff print none: the peers' keys read from the rc files cost them 2-3 ms)."""
    early: tuple[Config, Rendered] | None = None
    if config is None and not dry_run:
        # Checked once before the lock too, so that a bad config fails before anything
        # (the lock, the state directory) is created.
        read = load_config(paths)
        early = (read, current_render(paths, read, shells=shells))
    with _session_unless(dry_run, paths):
        config = config or load_config(paths)
        state = read_state(paths)
        same = early is not None and early[0] == config
        if prerendered is not None:
            rendered = prerendered
        elif early and same:
            rendered = early[1]
        else:  # an installed home, untouched since, renders nothing
            rendered = current_render(paths, config, state, shells, dry_run=dry_run)
        plan = plan_install(paths, config, rendered, state)
        warnings = _warnings(paths, config, rendered, state, plan, shells) if advise else ()
        if dry_run:
            return Result(_with_interrupted(paths, plan), None, warnings, config)
        from dotdbg.home.writer import apply

        backup_dir = apply(paths, plan, command="install")
        remember(paths, rendered)
        if prerendered is None:  # `dotdbg push`'s config is the pushing machine's, not this home's
            remember_tables(paths, config)
    return Result(plan, backup_dir, warnings, config)


def _warnings(
    paths: Paths,
    config: Config,
    rendered: Rendered,
    state: State,
    plan: Plan,
    shells: Sequence[str] | None,
) -> tuple[str, ...]:
    """What install says besides its changes: the config's warnings, the functions a shell
    goes without, the keys and aliases shared with the user's other tools, the shells left
    out of a first install."""
    warnings = (
        *config.warnings,
        *left_out_warnings(config, _rewritten_shells(paths, plan, rendered.shells)),
        *_neighbours(paths, config, rendered.shells, state, plan),
    )
    if shells is None and not state.manifest.get("shells"):
        warnings = (*warnings, *left_out_shells(paths, rendered.shells))
    return warnings


def _rewritten_shells(paths: Paths, plan: Plan, shells: Sequence[str]) -> list[ShellTarget]:
    """The shells whose file this plan writes: what each goes without is said then, not at
    every install that leaves the file as it was (`fn add` says it when it happens)."""
    pending = {change.path for change in plan.pending}
    targets = [target_named(shell) for shell in shells]
    return [target for target in targets if target.generated_path(paths) in pending]


def uninstall(paths: Paths, *, dry_run: bool = False) -> Result:
    with _session_unless(dry_run, paths):
        state = read_state(paths)
        plan = plan_uninstall(paths, state, _accepted(paths, state))
        if dry_run:
            return Result(_with_interrupted(paths, plan))
        from dotdbg.home.writer import apply

        backup_dir = apply(paths, plan, command="uninstall")
    return Result(plan, backup_dir)


def kept_state(paths: Paths) -> list[Path]:
    """What uninstall leaves of dotdbg's own: the check, render and parse caches, the run
    lock, the cache folder (``purge`` removes them) and the backups (kept: your old files)."""
    candidates = (
        paths.check_cache_file,
        paths.render_cache_file,
        paths.parse_cache_file,
        paths.lock_file,
        paths.cache_dir,
        paths.backups_dir,
    )
    return [path for path in candidates if _maybe_there(paths, path)]


def _maybe_there(paths: Paths, path: Path) -> bool:
    """Whether ``path`` is there, or may be: one that cannot be read (EIO) is named as kept, not
    an error after the uninstall is done (the sweep of issue 21 found it)."""
    try:
        return paths.fs.lexists(path)
    except OSError:
        return True


def purge(paths: Paths) -> list[Path]:
    """Remove the state ``kept_state`` names but the backups; what was removed."""
    removed = []
    for path in kept_state(paths):
        if path == paths.backups_dir:
            continue
        if paths.fs.is_dir(path):
            paths.fs.remove_tree(path)
        else:
            paths.fs.remove(path)
        removed.append(path)
    return removed


def _accepted(paths: Paths, state: State) -> dict[Path, set[str]]:
    """The blocks install would write now: they prove a block dotdbg's when its records are
    gone. Rendered only then; none when the config cannot be read (records alone decide)."""
    unrecorded = [
        path
        for path in block_files(paths)
        if (blocks.START in (state.text(path) or "") and not state.block_record(path))
        or (blocks.PATH.start in (state.text(path) or "") and not state.path_record(path))
    ]
    if not unrecorded:
        return {}
    try:
        config = load_config(paths)
        return accepted_blocks(paths, config, state, render_for(paths, config))
    except DotdbgError:
        return {}


def fix_profile(paths: Paths, *, dry_run: bool = False) -> Result:
    from dotdbg.home.writer import apply

    with _session_unless(dry_run, paths):
        plan = plan_profile_fix(paths, read_state(paths))
        backup_dir = None if dry_run or not plan.pending else apply(paths, plan, command="fix")
    return Result(plan, backup_dir)


def restore(paths: Paths, stamp: str | None = None, *, dry_run: bool = False) -> Result:
    """Put back backup ``stamp``, or by default step one command further back."""
    from dotdbg.home.backup import step_back, verified_copy
    from dotdbg.home.writer import apply

    with _session_unless(dry_run, paths):
        backup = step_back(paths) if stamp is None else _named(paths, stamp)
        copies = {path: verified_copy(paths, backup, path) for path in backup.saved}
        state = read_state(paths, also=(*backup.saved, *backup.absent))
        plan = plan_restore(paths, backup, state, copies)
        backup_dir = (
            None if dry_run else apply(paths, plan, command="restore", restored=backup.folder.name)
        )
    return Result(plan, backup_dir, restored=backup.folder.name)


def _named(paths: Paths, stamp: str) -> Contents:
    from dotdbg.home.backup import backup_dirs, read_backup

    folder = paths.backups_dir / stamp
    if "/" in stamp or stamp.startswith(".") or not paths.fs.is_dir(folder):
        names = ", ".join(b.name for b in backup_dirs(paths)[-5:]) or "none yet"
        raise DotdbgError(
            f"no backup named {stamp!r}",
            hint=f"recent backups: {names} (`dotdbg restore --list`)",
        )
    return read_backup(paths, folder)


def create_config(paths: Paths, text: str) -> Path | None:
    """Write a new config file (`dotdbg init`); an existing one is an error, left alone."""
    from dotdbg.home.plan import Change
    from dotdbg.home.writer import apply, session

    with session(paths):
        if paths.fs.exists(paths.config_file):
            raise DotdbgError(
                f"{paths.display(paths.config_file)} already exists; dotdbg left it alone",
                hint="edit it, or move it away to get a fresh starter file",
            )
        plan = Plan((Change(paths.config_file, None, text),), None, keep_manifest=True)
        return apply(paths, plan, command="init")
