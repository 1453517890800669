"""``dotdbg pyspy --json`` without the typer app: what every node of a job runs, so a job-wide
gather pays one bare Python start-up a node, not the CLI's (typer, pydantic: ~60 ms more each).

Only the options that form takes are understood here; anything else (``--help``, ``--job``, a
bad value) returns None and the full CLI answers instead, with its usual messages.
"""

from __future__ import annotations

from collections.abc import Sequence

_FLAGS = {"--json": "json", "--native": "native", "--all-users": "all_users", "-a": "all_users"}
_VALUES = {
    "--timeout": ("timeout", float),
    "--samples": ("samples", int),
    "--interval": ("interval", float),
    "--in-job": ("in_job", str),
    "--tree": ("tree", int),
}


def parse(args: Sequence[str]) -> dict[str, object] | None:
    """The options of ``pyspy --json …``; None for anything this parser does not take."""
    found: dict[str, object] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in _FLAGS:
            found[_FLAGS[arg]] = True
        elif arg in _VALUES and rest:
            name, kind = _VALUES[arg]
            try:
                found[name] = kind(rest.pop(0))
            except ValueError:
                return None
        elif arg.startswith("-") or "pattern" in found:
            return None
        else:
            found["pattern"] = arg
    if not found.pop("json", False) or not _in_range(found):
        return None
    return found


def _in_range(found: dict[str, object]) -> bool:
    timeout, samples, interval = (
        found.get(k, d) for k, d in (("timeout", 10.0), ("samples", 1), ("interval", 1.0))
    )
    return timeout >= 0.5 and 1 <= samples <= 100 and interval >= 0  # type: ignore[operator]


def main(args: Sequence[str]) -> int | None:
    """Run ``pyspy --json``; None when the arguments are not this fast path's to handle."""
    options = parse(args)
    if options is None:
        return None
    from dotdbg.common.holding import Stopped
    from dotdbg.errors import DotdbgError
    from dotdbg.stacks import run

    try:
        return run.pyspy_json(run.DumpOptions(**options), None)  # type: ignore[arg-type]
    except DotdbgError as error:
        import sys

        print("\n".join(error.lines()), file=sys.stderr)
        return error.exit_code
    except Stopped as stop:
        return stop.exit_code
