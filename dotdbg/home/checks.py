"""Each shell's generated text is checked once: a text that passed is remembered by content.
And each render is remembered by its inputs: ``render.render_key`` → the digests of its texts,
so a dry run finds files that are that render without rendering.

The key is the sha256 of the text with the shell, dotdbg's version and the checkers' identity
(``ShellTarget.checker_key``), so `dotdbg status` and `diff` do not run shellcheck again on the
text `install` checked, while a new shellcheck, a new dotdbg or any changed byte checks again.
Only passes are remembered (a failure is checked again, and blamed with its place). Only the
commands that write (under the run lock) add keys; dry runs only read them.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence

from dotdbg import __version__
from dotdbg.config.model import Config
from dotdbg.home.render import Rendered
from dotdbg.home.state import digest
from dotdbg.paths import Paths
from dotdbg.shells import target_named
from dotdbg.shells.target import ShellTarget

KEEP = 64  # keys kept, newest last: a few configs' worth of each shell
KEEP_RENDERS = 8
FORMAT = "1"  # bump when what a check covers changes


def check_key(target: ShellTarget, text: str, part: str = "") -> str:
    """The key of ``text`` (or of one ``part`` of a text, by its name) checked for ``target``."""
    from dotdbg.common.sha256 import sha256

    head = "\0".join((FORMAT, __version__, target.name, target.checker_key(), part, ""))
    return sha256(head.encode() + text.encode("utf-8", "surrogateescape")).hexdigest()


def _part_keys(target: ShellTarget, text: str) -> dict[str, str]:
    """Each checked-alone part of ``text``: its name → its key."""
    parts = target.parts(text) if target.parts else {}
    return {name: check_key(target, part, name) for name, part in parts.items()}


def known_keys(paths: Paths) -> list[str]:
    """The keys of the texts that passed; none when the file is missing or unreadable."""
    try:
        raw = paths.fs.read_bytes(paths.check_cache_file, follow=False)
    except OSError:
        return []
    return (raw or b"").decode("ascii", "replace").split()


def rendered_keys(rendered: Rendered) -> dict[str, str]:
    """Each shell's check key, by shell name."""
    keys = {}
    for name in rendered.shells:
        target = target_named(name)
        keys[name] = check_key(target, rendered.shell_text(target))
    return keys


def part_keys(rendered: Rendered) -> list[str]:
    """The keys of the parts of each shell's text that its target checks on their own."""
    keys: list[str] = []
    for name in rendered.shells:
        target = target_named(name)
        keys += _part_keys(target, rendered.shell_text(target)).values()
    return keys


def check_rendered(paths: Paths, config: Config, rendered: Rendered) -> None:
    """Check each shell's text unless it passed before (raises DotdbgError); a target that
    caches parts is told which of them passed before. The shells' checks run side by side."""
    known = frozenset(known_keys(paths))
    checks = [
        _check_of(target_named(name), rendered, config, known)
        for name, key in rendered_keys(rendered).items()
        if key not in known
    ]
    side_by_side(checks)


def _check_of(
    target: ShellTarget, rendered: Rendered, config: Config, known: frozenset[str]
) -> Callable[[], None]:
    text = rendered.shell_text(target)
    if not target.check_known:
        return lambda: target.check(text, config)
    check_known = target.check_known
    passed = frozenset(part for part, k in _part_keys(target, text).items() if k in known)
    return lambda: check_known(text, config, passed)


def side_by_side(checks: Sequence[Callable[[], None]]) -> None:
    """Run ``checks`` at once, each in a thread: a check mostly waits for its shell's parser
    (bash -n, zsh -n, fish --no-execute), so three shells take about as long as the slowest,
    not as the three together. Every check runs to its end; the first that failed, in the
    order given, raises its error."""
    if len(checks) < 2:
        for check in checks:
            check()
        return
    import threading

    failures: list[BaseException | None] = [None] * len(checks)

    def run(index: int) -> None:
        try:
            checks[index]()
        except BaseException as error:  # handed to the caller, in order
            failures[index] = error

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(checks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for failure in failures:
        if failure is not None:
            raise failure


def remember(paths: Paths, rendered: Rendered) -> None:
    """Remember that ``rendered`` passed. Under the run lock; a failure only costs a check."""
    keys = (*rendered_keys(rendered).values(), *part_keys(rendered))
    known = known_keys(paths)
    if all(key in known for key in keys):
        return
    kept = [key for key in known if key not in keys] + list(keys)
    data = "".join(f"{key}\n" for key in kept[-KEEP:]).encode()
    with contextlib.suppress(OSError):
        paths.fs.write_atomic(paths.check_cache_file, data, 0o600, follow=False)
    _remember_render(paths, rendered)


def known_renders(paths: Paths) -> dict[str, dict[str, str]]:
    """render key → {file name: sha256 of its text}; {} when missing or unreadable."""
    try:
        found = json.loads(paths.fs.read_bytes(paths.render_cache_file, follow=False) or b"{}")
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _remember_render(paths: Paths, rendered: Rendered) -> None:
    if not rendered.key:
        return
    renders = known_renders(paths)
    renders.pop(rendered.key, None)
    renders[rendered.key] = {name: digest(text) for name, text in rendered.files.items()}
    kept = dict(list(renders.items())[-KEEP_RENDERS:])
    data = json.dumps(kept, indent=1).encode()
    with contextlib.suppress(OSError):
        paths.fs.write_atomic(paths.render_cache_file, data, 0o600, follow=False)
