"""dotdbg.remote.relay without a terminal of ours: the command reads the payload, then our
input, from a pipe; its exit status comes back however soon it ends."""

from __future__ import annotations

import subprocess
import sys

RELAY = (
    "import sys; from dotdbg.remote.relay import relay; "
    "sys.exit(relay(sys.argv[1:], b'MARKER', b'the payload\\n', b'DONE'))"
)


def relayed(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", RELAY, *argv],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        timeout=60,
    )


def test_a_command_that_ends_at_once_gives_its_status() -> None:
    for _ in range(20):  # it may end before or after the payload is written, or while
        done = relayed("sh", "-c", "exit 3")
        assert (done.returncode, done.stderr) == (3, b"")


def test_the_payload_then_our_input_reach_the_command() -> None:
    done = relayed("cat", stdin=b"typed by the user\n")
    assert done.returncode == 0
    assert done.stdout == b"the payload\ntyped by the user\n"
