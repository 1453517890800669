"""The stack record itself: a named tuple made without importing typing, in Python 3.8 syntax
(gdb's own Python imports ``record.py``)."""

from __future__ import annotations

import ast
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.stacks import record
from dotdbg.stacks.record import Frame, StackRecord, Thread, from_json

THREAD = Thread("MainThread", 1, 5, True, None, (Frame("wait", "/a.py", 3),))


def test_a_record_is_a_named_tuple_of_its_annotated_fields_with_their_defaults() -> None:
    bare = StackRecord("h", 7, None, 3, None, None, "train.py", "py-spy")
    assert StackRecord._fields == tuple(StackRecord.__annotations__)
    assert (bare.threads, bare.error, bare.world_size) == ((), None, None)
    assert bare.label == "rank 3" and bare._replace(rank=None).label == "h:7"
    assert StackRecord.__doc__ is not None and StackRecord.__doc__.startswith("One process's")
    assert not hasattr(bare, "__dict__")  # slots: a million of them stay small
    with pytest.raises(AttributeError):
        bare.pid = 8  # type: ignore[misc]
    full = bare._replace(threads=(THREAD,), error="e", world_size=4)
    assert full == StackRecord(**full._asdict()) and hash(full) == hash(from_json(full.to_json()))
    assert from_json(full.to_json()) == full == pickle.loads(pickle.dumps(full))
    assert repr(full).startswith("StackRecord(host='h', pid=7, ppid=None, rank=3,")


def test_record_py_stays_python_3_8_syntax() -> None:
    ast.parse(Path(record.__file__).read_text(), feature_version=(3, 8))


def test_the_record_imports_no_typing() -> None:
    code = "import sys, dotdbg.stacks.record; print('typing' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "False\n"
