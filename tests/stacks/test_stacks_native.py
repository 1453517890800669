"""Native frames merge: ranks waiting in one C call are one class, whatever ASLR did to the
addresses of the frames py-spy cannot name, and whatever a core calls the libraries."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.stacks import cxxnames, framekey, render
from dotdbg.stacks.record import Frame
from tests.stacks.stacks_support import stacks_json

DATA = Path(__file__).parent / "data"
# ctypes calls libc's sleep through libffi, whose inner frames py-spy names only by address
IN_A_C_CALL = "import ctypes; print('ready', flush=True); ctypes.CDLL(None).sleep(600)"


@pytest.mark.parametrize(
    ("frame", "key"),
    [
        (Frame("0x7fde4b9c2f7a", "/usr/lib/x86_64-linux-gnu/libffi.so.8.1.2", None, True),
         Frame("??", "libffi.so", None, True)),
        (Frame("??", "libffi.so.8", None, True), Frame("??", "libffi.so", None, True)),
        (Frame("clock_nanosleep@GLIBC_2.2.5", "/lib/libc.so.6", None, True),
         Frame("clock_nanosleep", "libc.so", None, True)),
        (Frame("step+0x1a", "/opt/app/libstep.so", None, True),
         Frame("step", "libstep.so", None, True)),
        (Frame("_start", "/root/.pyenv/versions/3.11.7/bin/python3.11", None, True),
         Frame("_start", "python3.11", None, True)),
        (Frame("run_mod", "Python/pythonrun.c", 1731, True),
         Frame("run_mod", "pythonrun.c", 1731, True)),
        (Frame("main", "/job/train.py", 7, False), Frame("main", "/job/train.py", 7, False)),
    ],
)  # fmt: skip
def test_native_frames_are_keyed_by_function_and_library(frame: Frame, key: Frame) -> None:
    assert framekey.key(frame) == key


@pytest.fixture
def six_ranks_in_one_c_call() -> Iterator[tuple[str, list[int]]]:
    token = f"dotdbgnative{os.getpid()}"
    procs = []
    try:
        for rank in range(6):
            env = {**os.environ, "RANK": str(rank)}
            argv = [sys.executable, "-c", IN_A_C_CALL, token]
            procs.append(subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env))
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        yield token, [proc.pid for proc in procs]
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def test_six_ranks_waiting_in_one_c_call_are_one_class(
    six_ranks_in_one_c_call: tuple[str, list[int]],
) -> None:
    token, _ = six_ranks_in_one_c_call
    report = stacks_json("--native", token, env=dict(os.environ))
    assert report["processes"] == 6
    (only,) = report["classes"]
    assert only["label"] == "ranks 0-5"
    frames = only["threads"][0]
    functions = [f["function"] for f in frames]
    assert functions[0] == "clock_nanosleep" and "sleep" in functions
    assert {"function": "??", "file": "libffi.so", "line": None, "native": True} in frames
    assert frames[functions.index("<module>")]["native"] is False  # Python and C, one stack


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("c10d::Work::wait", "c10d::Work::wait"),
        ("std::vector<int, std::allocator<int> >::push_back(int const&)",
         "std::vector<…>::push_back(int const&)"),
        ("c10d::Work::wait(std::chrono::duration<long, std::ratio<1l, 1000l> >)",
         "c10d::Work::wait(std::chrono::duration<…>)"),
        ("gloo::(anonymous namespace)::allreduce(gloo::detail::AllreduceOptionsImpl const&)",
         "gloo::(anonymous namespace)::allreduce(gloo::detail::AllreduceOptionsImpl const&)"),
        ("f(int (*)(char))::{lambda()#2}::operator()() const",
         "f(…)::{lambda()#2}::operator()() const"),
        ("operator<<(std::ostream&, foo<bar> const&)", "operator<<(std::ostream&, foo<…> const&)"),
        ("std::map<int, int>::operator->() const", "std::map<…>::operator->() const"),
        ("std::vector<bool>::operator[](unsigned long)",
         "std::vector<…>::operator[](unsigned long)"),
        ("h(a<b)", "h(a<b)"),  # unbalanced: not a name this understands, kept whole
    ],
)  # fmt: skip
def test_cpp_names_are_cut_for_reading(name: str, shown: str) -> None:
    assert cxxnames.cut(name) == shown


def test_a_pybind11_binding_shows_in_one_line() -> None:
    """The frame under every PyTorch op called from Python, as py-spy names it: 1,513 characters."""
    name = (DATA / "pybind_frame_name.txt").read_text().strip()
    text = render.frame_text(Frame(name, "libtorch_python.so", None, True))
    assert text == (
        "pybind11::cpp_function::initialize<…>(…)::{lambda(pybind11::detail::function_call&)#1}"
        "::_FUN (libtorch_python.so)"
    )
