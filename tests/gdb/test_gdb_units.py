"""The pure parts of ``dotdbg gdb``: frames, the pystack merge, ELF facts, finding
python-gdb.py, what is said when something is missing, argument checks."""

from __future__ import annotations

import itertools
import os
import sys
import time
from pathlib import Path

import pytest
from pystack.types import LocationInfo, NativeFrame, PyCodeObject, PyFrame, PyThread

from dotdbg.errors import DotdbgError
from dotdbg.gdb import elf, extension, forked, frames, interpreter, needs, program, run
from dotdbg.gdb.driver import parse_dump, run_dump
from dotdbg.gdb.interpreter import Interpreter
from dotdbg.gdb.pystack_dump import DumpFailure, merge
from dotdbg.stacks.jsonlines import read
from dotdbg.stacks.record import Frame, StackRecord, Thread, write


@pytest.mark.parametrize(
    ("function", "plumbing"),
    [
        ("_PyEval_EvalFrameDefault", False),  # the loop itself: replaced, or kept when unreadable
        ("_PyEval_Vector", True),
        ("_PyObject_MakeTpCall", True),
        ("PyObject_Call", True),
        ("cfunction_vectorcall_O", True),
        ("method_vectorcall_VARARGS", True),
        ("Py_RunMain", False),
        ("time_sleep", False),
        ("_CallPythonObject", False),
    ],
)
def test_plumbing(function: str, plumbing: bool) -> None:
    assert frames.is_plumbing(function) is plumbing


@pytest.mark.parametrize(
    ("innermost", "waiting"),
    [
        ("clock_nanosleep@GLIBC_2.2.5", True),
        ("__futex_abstimed_wait_common64 (inlined)", True),
        ("__GI___poll", True),
        ("epoll_wait", True),
        ("__libc_read", True),
        ("pthread_cond_timedwait@@GLIBC_2.3.2", True),
        ("pthread_create", False),
        ("sgemm_kernel", False),
        ("thread_run.lto_priv.0", False),
    ],
)
def test_waiting_is_told_by_the_innermost_native_frame(innermost: str, waiting: bool) -> None:
    assert frames.is_waiting([Frame(innermost, None, None, True)]) is waiting


def test_a_thread_running_python_is_not_waiting() -> None:
    assert not frames.is_waiting([Frame("step", "train.py", 3, False)])


def test_native_frames_keep_their_source_or_name_their_library() -> None:
    assert frames.native("f", "x.c", 3, "/lib/a.so") == Frame("f", "x.c", 3, True)
    assert frames.native("???", "???", 0, "/lib/a.so") == Frame("??", "/lib/a.so", None, True)
    assert frames.native(None, None, None, None) == Frame("??", None, None, True)


def test_main_thread_first() -> None:
    threads = [Thread(None, None, tid, False, None) for tid in (12, 10, 11)]
    assert [t.native_id for t in frames.main_first(threads, 11)] == [11, 10, 12]


def native(symbol: str) -> NativeFrame:
    return NativeFrame(0, symbol, "x.c", 1, 0, "/usr/bin/python3.11")


def chain(*specs: tuple[str, bool]) -> PyFrame:
    """Python frames outermost first, each (function, is_entry), linked as pystack links them."""
    built: list[PyFrame] = []
    for line, (name, entry) in enumerate(specs, 1):
        code = PyCodeObject("prog.py", name, LocationInfo(line, line, 0, 0))
        built.append(PyFrame(None, None, code, {}, {}, entry, False))
    for outer, inner in itertools.pairwise(built):
        outer.next, inner.prev = inner, outer
    return built[0]


def test_pystack_merge_puts_each_run_of_python_frames_at_its_evaluation_loop() -> None:
    thread = PyThread(
        tid=7,
        frame=chain(("<module>", True), ("sort_in_c", False), ("compare", True)),
        native_frames=[
            native("Py_RunMain"),
            native("_PyEval_EvalFrameDefault"),
            native("_PyObject_Call"),  # plumbing: dropped
            native("qsort_r"),
            native("_PyEval_EvalFrameDefault"),
            native("time_sleep"),
        ],
        holds_the_gil=0,
        is_gc_collecting=0,
        python_version=(3, 11),
    )
    merged = [(frame.function, frame.native) for frame in merge(thread)]
    assert merged == [
        ("Py_RunMain", True),
        ("<module>", False),
        ("sort_in_c", False),
        ("qsort_r", True),
        ("compare", False),
        ("time_sleep", True),
    ]


def test_pystack_merge_falls_back_to_python_frames_when_they_do_not_line_up() -> None:
    thread = PyThread(7, chain(("main", True)), [native("Py_RunMain")], 0, 0, (3, 11))
    assert [frame.function for frame in merge(thread)] == ["main"]


def test_elf_facts_of_debians_python_and_its_debug_file() -> None:
    facts = elf.read_facts("/usr/bin/python3.11")
    if facts is None:
        pytest.skip("no /usr/bin/python3.11")
    assert facts.build_id and len(facts.build_id) == 40
    assert ".text" in facts.sections
    found = elf.separate_debug_file("/usr/bin/python3.11", facts)
    if found is not None:  # python3-dbg installed
        assert found.endswith(f"/.build-id/{facts.build_id[:2]}/{facts.build_id[2:]}.debug")
    assert elf.has_symbols("/usr/bin/python3.11", str(Path("/nonexistent"))) is False


def test_elf_facts_of_something_else(tmp_path: Path) -> None:
    (tmp_path / "text").write_text("#!/bin/sh\n")
    assert elf.read_facts(str(tmp_path / "text")) is None
    assert elf.read_facts(str(tmp_path / "missing")) is None
    assert not elf.is_elf(str(tmp_path / "text"))


def fake_install(root: Path, bindir: str, name: str) -> Path:
    exe = root / bindir / name
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_bytes(b"\x7fELF")
    return exe


def test_kinds_of_install(tmp_path: Path) -> None:
    conda = fake_install(tmp_path / "conda/envs/ml", "bin", "python3.10")
    (tmp_path / "conda/envs/ml/conda-meta").mkdir()
    tree = fake_install(tmp_path / "cpython", ".", "python")
    (tmp_path / "cpython/pyconfig.h").touch()
    (tmp_path / "cpython/Makefile").touch()
    pyenv = fake_install(tmp_path / ".pyenv/versions/3.12.1", "bin", "python3.12")
    assert interpreter.describe(str(conda)).kind == "conda"
    assert interpreter.describe(str(tree)).kind == "build-tree"
    described = interpreter.describe(str(pyenv))
    assert (described.kind, described.version, described.full_version) == (
        "pyenv",
        "3.12",
        "3.12.1",
    )
    assert interpreter.describe("/usr/bin/python3").kind == "distro"


def test_a_venv_is_described_by_its_base_interpreter() -> None:
    assert interpreter.describe(sys.executable).exe == os.path.realpath(sys.executable)
    assert "/venv" not in interpreter.describe(sys.executable).exe


def test_a_venv_made_with_copies_points_home(tmp_path: Path) -> None:
    copy = fake_install(tmp_path / "venv", "bin", "python3.11")
    base = fake_install(tmp_path / "base", "bin", "python3.11")
    (tmp_path / "venv/pyvenv.cfg").write_text(f"home = {base.parent}\nversion = 3.11.4\n")
    assert interpreter.describe(str(copy)).exe == str(base)


def test_extension_beside_the_interpreter_is_found_exactly(tmp_path: Path) -> None:
    exe = fake_install(tmp_path / "py", "bin", "python3.11")
    beside = Path(f"{exe}-gdb.py")
    beside.write_text("# libpython\n")
    found = extension.find(interpreter.describe(str(exe)), data_dirs=[str(tmp_path / "gdb")])
    assert found == extension.Extension(str(beside), True)


def test_extension_of_the_same_minor_version_is_used_and_said(tmp_path: Path) -> None:
    data = tmp_path / "share/gdb"
    other = data / "auto-load/usr/bin/python3.11-gdb.py"
    other.parent.mkdir(parents=True)
    other.write_text("# libpython\n")
    (data / "auto-load/usr/bin/python3.11d-gdb.py").write_text("# debug build's\n")
    exe = fake_install(tmp_path / "py", "bin", "python3.11")
    found = extension.find(interpreter.describe(str(exe)), data_dirs=[str(data)])
    assert found == extension.Extension(str(other), False)


def test_no_extension_when_the_version_is_unknown(tmp_path: Path) -> None:
    exe = fake_install(tmp_path / "py", "bin", "embedded-app")
    assert extension.find(interpreter.describe(str(exe)), data_dirs=[str(tmp_path)]) is None


def test_the_real_debian_extension(tmp_path: Path) -> None:
    if not os.path.exists("/usr/share/gdb/auto-load/usr/bin/python3.11-gdb.py"):
        pytest.skip("python3-dbg is not installed")
    found = extension.find(interpreter.describe("/usr/bin/python3.11"))
    assert found == extension.Extension("/usr/share/gdb/auto-load/usr/bin/python3.11-gdb.py", True)


@pytest.mark.parametrize(
    ("kind", "exe", "full", "says"),
    [
        ("distro", "/usr/bin/python3.11", None, "sudo apt-get install python3.11-dbg"),
        ("pyenv", "/h/.pyenv/versions/3.12.1/bin/python3.12", "3.12.1",
         "curl -fsSL https://raw.githubusercontent.com/python/cpython/v3.12.1/Tools/gdb/"
         "libpython.py -o /h/.pyenv/versions/3.12.1/bin/python3.12-gdb.py"),
        ("build-tree", "/src/cpython/python", None, "make -C /src/cpython python-gdb.py"),
    ],
)  # fmt: skip
def test_missing_extension_says_how_to_get_it(
    kind: str, exe: str, full: str | None, says: str
) -> None:
    version = "3.12" if full else ("3.11" if "3.11" in exe else "3.13")
    if kind == "distro" and not os.path.exists("/etc/debian_version"):
        pytest.skip("the apt hint is for Debian and Ubuntu")
    line = needs.missing_extension(Interpreter(exe, version, kind, None, full))
    assert line == f"no python-gdb.py for {exe}: {says}"


def test_missing_symbols_of_a_pyenv_build() -> None:
    found = Interpreter("/h/.pyenv/versions/3.12.1/bin/python3.12", "3.12", "pyenv", None, "3.12.1")
    hint = needs.missing_symbols(found)
    assert hint.endswith(': PYTHON_CFLAGS="-g" pyenv install --force 3.12.1')


def test_init_commands_trust_only_the_extension_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEBUGINFOD_URLS", raising=False)
    wanted = needs.Needs(None, extension.Extension("/x/python3.11-gdb.py", True), True, ())
    commands = needs.init_commands(wanted)
    assert "add-auto-load-safe-path /x/python3.11-gdb.py" in commands
    assert "set debuginfod enabled off" in commands
    assert not any(command.split()[-1] == "safe-path /" for command in commands)
    monkeypatch.setenv("DEBUGINFOD_URLS", "https://debuginfod.example")
    assert "set debuginfod enabled on" in needs.init_commands(wanted)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "expected one process id, got nothing"),
        (["12", "13"], "expected one process id, got 12 13"),
        (["train.py"], "expected one process id, got train.py"),
    ],
)
def test_a_pid_is_needed(args: list[str], message: str) -> None:
    with pytest.raises(DotdbgError, match=message):
        run.parse(args, None, None, False, False, False, False, "auto", 30.0, False)


def test_options_that_do_not_go_together() -> None:
    def parse(**given: object) -> run.Request:
        options: dict[str, object] = {
            "words": ["12"], "core": None, "exe": None, "interactive": False, "tui": False,
            "break_in": False, "as_json": False, "via": "auto", "timeout": 30.0, "check": False,
        }  # fmt: skip
        return run.parse(**{**options, **given})  # type: ignore[arg-type]

    with pytest.raises(DotdbgError, match="--json prints a dump"):
        parse(as_json=True, interactive=True)
    with pytest.raises(DotdbgError, match="--exe goes with --core"):
        parse(exe="/usr/bin/python3")
    with pytest.raises(DotdbgError, match="not both"):
        parse(core="core.1")
    assert parse(tui=True).prompt
    assert parse(words=[], core="core.1").core == "core.1"
    assert parse(words=["python", "x.py"], break_in=True).command == ("python", "x.py")


def test_break_in_runs_a_shebang_script_through_its_interpreter(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("#!/usr/bin/env python3\nprint('hi')\n")
    resolved = program.resolve([str(script), "--lr", "1"])
    assert resolved[1:] == [str(script), "--lr", "1"]
    assert elf.is_elf(resolved[0])


def test_break_in_refuses_what_gdb_cannot_run(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("plain text\n")
    with pytest.raises(DotdbgError, match="neither a program gdb can run"):
        program.resolve([str(tmp_path / "notes")])
    with pytest.raises(DotdbgError, match="command 'no-such-program-here' not found"):
        program.resolve(["no-such-program-here"])
    with pytest.raises(DotdbgError, match="--break-in needs the command to run"):
        program.resolve([])


def test_gdb_output_without_a_stack_says_why() -> None:
    with pytest.raises(DumpFailure) as refused:
        no_threads = '@dotdbg-json@ {"python": true, "threads": []}\n'
        parse_dump(no_threads, "ptrace: Operation not permitted.\n")
    assert refused.value.kind == "denied"
    with pytest.raises(DumpFailure) as gone:
        parse_dump("", "ptrace: No such process.\n")
    assert gone.value.kind == "gone"


def test_gdb_output_that_is_not_utf8_is_a_failure_not_a_traceback() -> None:
    script = "printf 'warning: cannot read /lib/caf\\351.so\\n' >&2"
    with pytest.raises(DumpFailure) as failed:
        run_dump(["sh", "-c", script], timeout=10)
    assert failed.value.kind == "unreadable"
    assert "/lib/caf\ufffd.so" in failed.value.reason


def test_stack_records_round_trip(tmp_path: Path) -> None:
    thread = Thread("MainThread", 1, 10, True, None, (Frame("f", "x.py", 3, False),))
    record = StackRecord("host", 10, 1, 0, 0, "torchrun", "train.py", "gdb", (thread,))
    with open(tmp_path / "stacks.jsonl", "w") as handle:
        write([record, record], handle)
    with open(tmp_path / "stacks.jsonl") as handle:
        assert list(read(handle)) == [record, record]


def test_forked_call_returns_raises_and_times_out() -> None:
    assert forked.call(sorted, [3, 1, 2], timeout=10) == [1, 2, 3]
    with pytest.raises(DumpFailure, match="nope"):
        forked.call(_fails, timeout=10)
    started = time.monotonic()
    with pytest.raises(forked.ChildTimeout):
        forked.call(time.sleep, 30, timeout=0.1)
    assert time.monotonic() - started < 5


def _fails() -> None:
    raise DumpFailure("unreadable", "nope")
