"""The one way the benchmarks time things (issue 22.4): one run's wall and CPU seconds,
interleaved rounds, and the median of per-round ratios against a floor.

A script in this folder imports it as ``timing`` (Python puts the script's folder first on
``sys.path``). CPU time is the child's own accounting (user + system), steadier than wall time
on a busy machine; a ratio is taken per round, both sides timed back to back, so load from
other processes hits them alike.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, NamedTuple


class Sample(NamedTuple):
    wall: float  # seconds
    cpu: float  # seconds of user + system time of the child and what it waited for
    output: str = ""  # stdout, when asked for


def run_once(
    argv: Sequence[str],
    env: Mapping[str, str] | None = None,
    *,
    stdin: str | None = None,
    capture: bool = False,
    check: bool = True,
    timeout: float = 600,
) -> Sample:
    """One run of ``argv``; its output goes to /dev/null (not a terminal, as in a pipe) unless
    ``capture``. Without stdin or capture it is started with posix_spawn, the cheapest start
    there is, so that the timing holds as little of this process as possible."""
    if stdin is None and not capture:
        return _spawned(argv, env, check)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        list(argv),
        env=_as_a_user_runs(env),
        input=stdin,
        text=True,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=check,
        timeout=timeout,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Sample(wall, cpu, done.stdout or "")


def _as_a_user_runs(env: Mapping[str, str] | None) -> dict[str, str]:
    """``env`` without PYTHONDONTWRITEBYTECODE: a user's Python keeps its .pyc files, and
    without them every run would compile the modules again."""
    found = dict(os.environ if env is None else env)
    found.pop("PYTHONDONTWRITEBYTECODE", None)
    return found


def _spawned(argv: Sequence[str], env: Mapping[str, str] | None, check: bool) -> Sample:
    quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
    program = argv[0] if "/" in argv[0] else _which(argv[0], env)
    started = time.perf_counter()
    environment = _as_a_user_runs(env)
    pid = os.posix_spawn(program, list(argv), environment, file_actions=quiet)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if check and code != 0:
        raise SystemExit(f"{' '.join(argv)} failed: exit {code}")
    return Sample(wall, usage.ru_utime + usage.ru_stime)


def _which(name: str, env: Mapping[str, str] | None) -> str:
    import shutil

    found = shutil.which(name, path=(os.environ if env is None else env).get("PATH"))
    if found is None:
        raise SystemExit(f"{name} is not on PATH")
    return found


def interleaved(
    commands: Mapping[str, Callable[[int], Sample]], rounds: int, seed: int | None = None
) -> dict[str, list[Sample]]:
    """``rounds`` samples of each command, after one warm-up run each (page cache, .pyc files);
    every round runs each command once, in a shuffled order when ``seed`` is given. A command
    is called with the round's number (a new alias each run, say)."""
    for command in commands.values():
        command(-1)
    samples: dict[str, list[Sample]] = {name: [] for name in commands}
    order = list(commands)
    shuffle = random.Random(seed) if seed is not None else None
    for number in range(rounds):
        if shuffle is not None:
            shuffle.shuffle(order)
        for name in order:
            samples[name].append(commands[name](number))
    return samples


Field = Literal["wall", "cpu"]


def _value(sample: Sample, field: Field) -> float:
    return sample.wall if field == "wall" else sample.cpu


def median_ratio(
    samples: Sequence[Sample], floor: Sequence[Sample], field: Field = "wall"
) -> float:
    """The median over the rounds of (this round's sample / this round's floor)."""
    pairs = zip(samples, floor, strict=True)
    return statistics.median(
        _value(s, field) / _value(f, field) for s, f in pairs if _value(f, field) > 0
    )


def median_of(samples: Sequence[Sample], field: Field = "wall") -> float:
    return statistics.median(_value(sample, field) for sample in samples)


def load_line(rounds: int) -> str:
    return (
        f"median of {rounds} interleaved rounds; load average {os.getloadavg()[0]:.2f} "
        f"on {os.cpu_count()} CPUs"
    )


RECORD = "DOTDBG_BENCHMARK_RECORD"  # a file each verdict is appended to, one JSON line each


def verdict(row: str, value: float, target: float, unit: str = "x") -> str:
    """`` (target met)`` or `` (target NOT met)`` for one row of issue 27's table (lower is
    better); the row also goes to the file named by $DOTDBG_BENCHMARK_RECORD, where the
    `benchmark` tests (pytest --benchmarks) read it."""
    met = value <= target
    record = os.environ.get(RECORD)
    if record:
        import json

        line = {"row": row, "value": value, "target": target, "unit": unit, "met": met}
        with open(record, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    return "  (target met)" if met else "  (target NOT met)"
