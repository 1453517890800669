"""``--native`` where py-spy could not take a process (issue 23.3): ``dotdbg gdb --json`` dumps
it instead, with real processes and the real dotdbg gdb (pystack, else gdb). A node without
py-spy at all is in tests/stacks/test_stacks_slurm.py."""

from __future__ import annotations

from dotdbg.procs.pyprocs import compile_pattern
from dotdbg.pyspy.outcome import NO_PY_SPY
from dotdbg.stacks import fallback, identity, local
from tests.infra.spawner import IDLE, Spawner


def test_what_gdb_may_get_past_is_dumped_again_and_the_rest_kept(spawn: Spawner) -> None:
    for _ in range(4):
        spawn.python(IDLE)
    targets = local.select(compile_pattern(spawn.token, "PATTERN"), None, False)
    assert len(targets) == 4
    reasons = (
        "failed: py-spy: Failed to find python version from target process",
        "denied: ptrace refused: py-spy may not attach",
        "traced: already traced by strace (pid 4242)",
        "timeout: py-spy did not finish within 10s",
    )
    pairs = zip(targets, reasons, strict=True)
    tried = [identity.of_scanned(t, "py-spy")._replace(error=e) for t, e in pairs]
    got = fallback.retried(targets, tried, timeout=60)
    for record in got[:2]:
        assert record.error is None and record.source in ("pystack", "gdb")
        (main, *_) = record.threads
        python = [f.function for f in main.frames if not f.native]
        assert python == ["<module>"]
        assert any(f.native and "sleep" in f.function for f in main.frames)
    assert got[2:] == tried[2:]  # a held tracer, a dump out of time: gdb would fare no better


def test_where_gdb_fails_too_both_reasons_are_kept(spawn: Spawner) -> None:
    proc = spawn.python(IDLE)
    (target,) = local.select(compile_pattern(spawn.token, "PATTERN"), None, False)
    proc.kill()
    proc.wait()
    tried = identity.of_scanned(target, "py-spy")._replace(error=NO_PY_SPY)
    (got,) = fallback.retried([target], [tried], timeout=60)
    assert got.threads == ()
    assert got.error == f"{NO_PY_SPY}; dotdbg gdb: error: there is no process {proc.pid}"
