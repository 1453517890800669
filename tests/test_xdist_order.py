"""The suite's xdist scheduler (tests/conftest.py) hands out the scope that took longest in the
last run first, and keeps xdist's order (the most tests first) when no run left figures."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tests.conftest import SCOPE_SECONDS, pytest_xdist_make_scheduler

COLLECTION = [
    *(f"tests/many.py::test_{n}" for n in range(5)),
    *(f"tests/some.py::test_{n}" for n in range(3)),
    "tests/e2e/test_install_sh.py::test_install",
    "tests/one.py::test_0",
]


class Cache:
    def __init__(self, seconds: dict[str, float] | None) -> None:
        self.values = {} if seconds is None else {SCOPE_SECONDS: seconds}

    def get(self, key: str, default: Any) -> Any:
        return self.values.get(key, default)


class Config:
    """What xdist's scheduler reads of a run started with ``-n 2``."""

    def __init__(self, seconds: dict[str, float] | None) -> None:
        self.cache = Cache(seconds)
        self.option = SimpleNamespace(loadscopereorder=True)

    def getvalue(self, name: str) -> Any:
        return {"tx": ["2*popen"]}[name]


class Worker:
    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.modules: list[str] = []
        self.shutting_down = False

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.modules.append(COLLECTION[indexes[0]].split("::")[0])

    def shutdown(self) -> None:
        self.shutting_down = True


def first_units(seconds: dict[str, float] | None) -> list[list[str]]:
    """The modules each of two workers is sent at the start (a second one where its first
    leaves it two tests or fewer to run)."""
    scheduler: Any = pytest_xdist_make_scheduler(Config(seconds), None)  # type: ignore[arg-type]
    workers = [Worker("gw0"), Worker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
        scheduler.add_node_collection(worker, COLLECTION)
    scheduler.schedule()
    return [worker.modules for worker in workers]


def test_the_longest_scope_of_the_last_run_goes_first() -> None:
    took = {"tests/e2e/test_install_sh.py": 48.0, "tests/many.py": 3.0, "tests/one.py": 9.0}
    assert first_units(took) == [
        ["tests/e2e/test_install_sh.py", "tests/many.py"],
        ["tests/one.py", "tests/some.py"],  # some.py: no figure yet, after those that have one
    ]


def test_without_figures_the_most_tests_go_first() -> None:
    assert first_units(None) == [["tests/many.py"], ["tests/some.py"]]
