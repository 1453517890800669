"""A terminal of dotdbg's own between you and the command that gives the shell.

``dotdbg ssh`` and ``dotdbg shell -- CMD…`` run ssh (or CMD) on a pseudo-terminal this module
opens, so the session's files can travel on the shell's own input stream instead of in an
argument (which ``ps`` shows to every user, and Linux caps at 128 KiB). The remote script
(dotdbg.remote.bootstrap) turns echo off and prints a marker made from a random nonce when it
is ready to read; the relay then writes the payload, ended by the terminal's EOF key. The
remote terminal echoes what it reads, so the script prints a second marker once it has read
the payload (no ``stty -echo`` before, and no ``stty echo`` after: two processes fewer in
series on the remote side), and the relay drops what came between the two markers and holds
your keys meanwhile. Later, the session may ask for more (``fetch``: the archive, at its first
``dotdbg``): a marker with a key of the session's own, the bytes sent, their echo dropped up to
a second marker, the same way. From there it passes bytes both ways, as they are, until the
command ends: your terminal is in raw mode meanwhile, as ssh puts it, and window size changes reach
the command.

Until the marker, with ``shown=True`` (ssh), the command's output and your keys pass as well
(a password prompt, a host key question) and only the marker is taken out; with
``shown=False`` (``dotdbg shell``, where the relay types the script into a shell that echoes
it), that output is held back and shown only when the command ends before the marker.

Killed (even with -9), the relay's end closes the terminal: the command gets SIGHUP, the remote
side sees its connection end, and its traps remove the session directory.
"""

from __future__ import annotations

import errno
import os
import select
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Sequence
    from typing import Any
else:  # the same functions and numbers; signal wraps them in enums (enum, functools, operator,
    # collections: 10 ms of CPU at every session's start, measured)
    import _signal as signal

# (marker, bytes, done marker): what the command may ask for later, as often as it asks
Exchange = tuple[bytes, bytes, bytes]
CHUNK = 65536
# what the command must not inherit ignored: Python ignores SIGPIPE and SIGXFSZ, and a dotdbg
# started under nohup ignores SIGHUP, and ssh would outlive its terminal (kill -9 of dotdbg
# would leave it and the remote session running)
DEFAULT_SIGNALS = ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGPIPE", "SIGXFSZ")
HELD_BACK = 65536  # the most hidden output kept to show when the command ends before the marker
EOF_KEY = b"\x04"  # what the remote shell gets when our own stdin ends (Ctrl-D)
SWALLOWED = 4096  # the last bytes kept of what came between the two markers (the echo)


class Ended(Exception):
    """The command ended before the marker; ``said`` is what it printed meanwhile."""

    def __init__(self, code: int, said: bytes) -> None:
        super().__init__(code)
        self.code = code
        self.said = said


def relay(
    argv: Sequence[str],
    marker: bytes,
    payload: bytes,
    done: bytes,
    *,
    fetch: Exchange | None = None,
    typed: bytes = b"",
    shown: bool = True,
) -> int:
    """Run ``argv`` on a terminal of its own, ``typed`` written to it at once and ``payload``
    (then the EOF key) when ``marker`` comes, what it prints up to ``done`` dropped; the
    command's exit status (128+N when a signal N ended it). Raises Ended when the command
    ends before ``done``. ``fetch`` is sent each time the command asks for it."""
    terminal = Terminal()
    if not terminal.is_tty and shown:
        return piped(argv, payload)
    pid, master = _spawn(argv, terminal)
    session = _Session(pid, master, terminal, (marker, done), payload + terminal.eof_key(), shown)
    session.fetch = fetch
    session.send(typed)
    try:
        with terminal.raw(now=shown):
            return session.run()
    finally:
        os.close(master)


def piped(argv: Sequence[str], payload: bytes) -> int:
    """No terminal here (our input is a file or a pipe), so none there, as with plain ssh:
    the command reads the payload, then our input, from a pipe closed at our input's end (the
    remote shell reads its end); its output is ours, not relayed, and there is no marker."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            _default_signals()
            os.close(write_end)
            os.dup2(read_end, 0)
            os.close(read_end)
            os.execvp(argv[0], list(argv))
        except OSError as error:
            os.write(2, f"dotdbg: error: cannot run {argv[0]}: {error.strerror}\n".encode())
        finally:
            os._exit(127)
    os.close(read_end)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # ssh gets Ctrl-C and decides
    try:
        status = _feed(pid, write_end, payload)
        if status is None:
            _, status = os.waitpid(pid, 0)
    finally:
        signal.signal(signal.SIGINT, previous)
    return _exit_code(status)


def _feed(pid: int, to: int, pending: bytes) -> int | None:
    """``pending``, then our input, into ``to`` until our input ends (then ``to`` is closed)
    or the command does (then its wait status, reaped here)."""
    buffer, reading = bytearray(pending), True
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    old_wakeup = signal.set_wakeup_fd(wake_write)
    old_child = signal.signal(signal.SIGCHLD, _nothing)
    try:
        while buffer or reading:
            reaped, status = os.waitpid(pid, os.WNOHANG)
            if reaped:
                return status
            readers = [wake_read, 0] if reading and not buffer else [wake_read]
            readable, writable, _ = select.select(readers, [to] if buffer else [], [])
            if wake_read in readable:
                os.read(wake_read, CHUNK)
            if to in writable:
                try:
                    del buffer[: os.write(to, buffer[:CHUNK])]
                except BrokenPipeError:
                    return None
            if 0 in readable:
                data = os.read(0, CHUNK)
                buffer += data
                reading = bool(data)
        return None
    finally:
        os.close(to)
        signal.set_wakeup_fd(old_wakeup)
        signal.signal(signal.SIGCHLD, old_child)
        os.close(wake_read)
        os.close(wake_write)


def _spawn(argv: Sequence[str], terminal: Terminal) -> tuple[int, int]:
    """The command as the leader of a session whose terminal is a new pty, given the modes
    and size of ours (ssh sends them to the remote pty)."""
    master, slave = os.openpty()
    terminal.copy_to(slave)
    pid = os.fork()
    if pid == 0:  # the child: the command, or 127 as a shell says it is not there
        try:
            _default_signals()
            os.close(master)
            os.setsid()
            import fcntl
            import termios

            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            if slave > 2:
                os.close(slave)
            os.execvp(argv[0], list(argv))
        except OSError as error:
            os.write(2, f"dotdbg: error: cannot run {argv[0]}: {error.strerror}\r\n".encode())
        finally:
            os._exit(127)
    os.close(slave)
    os.set_blocking(master, False)
    return pid, master


class Terminal:
    """Our own stdin, when it is a terminal: its modes and size, raw mode while we relay."""

    def __init__(self) -> None:
        self.fd = 0
        self.is_tty = os.isatty(self.fd)
        self.saved: list[Any] | None = None
        if self.is_tty:
            import termios

            self.saved = termios.tcgetattr(self.fd)

    def eof_key(self) -> bytes:
        """The EOF key of our terminal, which ours gives to the command's (and ssh to the
        remote one): Ctrl-D unless the user chose another."""
        if self.saved is not None:
            import termios

            key = self.saved[6][termios.VEOF]
            if isinstance(key, bytes) and key not in (b"", b"\0"):
                return key
        return EOF_KEY

    def copy_to(self, slave: int) -> None:
        if self.saved is None:
            return
        import termios

        termios.tcsetattr(slave, termios.TCSANOW, self.saved)
        self.copy_size(slave)

    def copy_size(self, to: int) -> None:
        if not self.is_tty:
            return
        import fcntl
        import termios

        try:
            size = fcntl.ioctl(self.fd, termios.TIOCGWINSZ, b"\0" * 8)
            fcntl.ioctl(to, termios.TIOCSWINSZ, size)
        except OSError:
            pass

    def raw(self, *, now: bool) -> _RawMode:
        return _RawMode(self, now)

    def set_raw(self) -> None:
        if self.saved is not None:
            import termios
            import tty

            tty.setraw(self.fd, termios.TCSANOW)  # TCSANOW: keys typed ahead are kept

    def restore(self) -> None:
        if self.saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


class _RawMode:
    """Raw mode from the start (``now``) or from the marker, the modes restored at the end,
    also when SIGTERM or SIGHUP end dotdbg."""

    def __init__(self, terminal: Terminal, now: bool) -> None:
        self.terminal = terminal
        self.now = now
        self.previous: dict[int, object] = {}

    def __enter__(self) -> None:
        for number in (signal.SIGTERM, signal.SIGHUP):
            self.previous[number] = signal.signal(number, _exit_on_signal)
        if self.now:
            self.terminal.set_raw()

    def __exit__(self, *_: object) -> None:
        self.terminal.restore()
        for number, handler in self.previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]


def _exit_on_signal(number: int, _frame: object) -> None:
    raise SystemExit(128 + number)


class _Session:
    """The bytes in flight between the user, the command and the payload."""

    def __init__(
        self,
        pid: int,
        master: int,
        terminal: Terminal,
        markers: tuple[bytes, bytes],
        payload: bytes,
        shown: bool,
    ) -> None:
        self.pid = pid
        self.master = master
        self.terminal = terminal
        self.marker, self.done = markers
        self.payload = payload
        self.shown = shown
        self.started = False  # the marker came and the payload is on its way
        self.ready = False  # the done marker came: the session's own output from here
        self.fetch: Exchange | None = None
        self.fetching = False  # fetch's bytes are on their way: its echo is dropped
        self.to_command = bytearray()
        self.seen = b""  # output before the marker: held (not shown) or its last bytes
        self.held = bytearray()  # not shown: what the command printed before the marker
        self.stdin_open = True
        self.status: int | None = None

    def send(self, data: bytes) -> None:
        self.to_command += data

    def run(self) -> int:
        terminal = self.terminal
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_write, False)
        old_wakeup = signal.set_wakeup_fd(wake_write)
        handlers = {
            signal.SIGCHLD: signal.signal(signal.SIGCHLD, _nothing),
            signal.SIGWINCH: signal.signal(
                signal.SIGWINCH, lambda *_: terminal.copy_size(self.master)
            ),
        }
        if not self.shown:  # Ctrl-C before the marker, in cooked mode: ends the command
            handlers[signal.SIGINT] = signal.signal(signal.SIGINT, self._interrupt)
        try:
            return self._loop(wake_read)
        finally:
            signal.set_wakeup_fd(old_wakeup)
            for number, handler in handlers.items():
                signal.signal(number, handler)
            os.close(wake_read)
            os.close(wake_write)

    def _interrupt(self, *_: object) -> None:
        if not self.started:
            _kill(self.pid, signal.SIGHUP)

    def _loop(self, wake: int) -> int:
        terminal = self.terminal
        while True:
            if self.status is None:
                self._reap()
            if self.status is not None:
                self._drain()
                return self._ended()
            readers = [self.master, wake]
            if self.stdin_open and self._reading_keys():
                readers.append(terminal.fd)
            writers = [self.master] if self.to_command else []
            try:
                readable, writable, _ = select.select(readers, writers, [])
            except InterruptedError:  # pragma: no cover - PEP 475 retries select itself
                continue
            if wake in readable:
                os.read(wake, CHUNK)
            if self.master in writable:
                self._write_command()
            if self.master in readable and not self._read_command():
                self.status = self._wait()
            if terminal.fd in readable:
                self._read_user()

    def _reading_keys(self) -> bool:
        """Your keys pass before the marker (shown: a password prompt) and in the session,
        but not while its echo is dropped."""
        if not self.started:
            return self.shown
        return self.ready and not self.fetching

    def _write_command(self) -> None:
        try:
            written = os.write(self.master, self.to_command[:CHUNK])
        except BlockingIOError:
            return
        except OSError:  # the command closed its terminal
            self.to_command.clear()
            return
        del self.to_command[:written]

    def _read_command(self) -> bool:
        """Pass (or hold) what the command printed; False at its terminal's end."""
        try:
            data = os.read(self.master, CHUNK)
        except BlockingIOError:
            return True
        except OSError as error:
            if error.errno == errno.EIO:  # every process of the command closed the terminal
                return False
            raise
        if not data:
            return False
        self._output(data)
        return True

    def _output(self, data: bytes) -> None:
        if not self.started:
            self._before_marker(data)
        elif not self.ready or self.fetching:
            self._before_done(data)
        elif self.fetch is not None:
            self._watch_fetch(data)
        else:
            _write_all(1, data)

    def _before_marker(self, data: bytes) -> None:
        seen = self.seen + data
        at = seen.find(self.marker)
        if at < 0:
            keep = len(self.marker) - 1  # the marker may be cut between two reads
            shown, self.seen = seen[:-keep] if keep else seen, seen[-keep:] if keep else b""
            self._show_or_hold(shown)
            return
        self._show_or_hold(seen[:at])
        self.seen = b""
        self.started = True
        self.send(self.payload)
        if not self.shown:
            self.held.clear()
            self.terminal.set_raw()
        self._before_done(seen[at + len(self.marker) :])

    def _before_done(self, data: bytes) -> None:
        """Between the markers: the terminal's echo of the payload (or of fetch), dropped."""
        done = self.fetch[2] if self.fetching and self.fetch is not None else self.done
        seen = self.seen + data
        at = seen.find(done)
        if at < 0:
            self.seen = seen[-SWALLOWED:]
            return
        self.seen = b""
        if self.fetching:
            self.fetching = False
        else:
            self.ready = True
        self._output(seen[at + len(done) :])

    def _watch_fetch(self, data: bytes) -> None:
        """The session's output, shown at once, and fetch sent when it asks. The last bytes
        are kept (already shown) to find a marker cut between two reads."""
        assert self.fetch is not None
        marker, sent, _ = self.fetch
        seen = self.seen + data
        at = seen.find(marker)
        if at < 0:
            _write_all(1, data)
            self.seen = seen[-(len(marker) - 1) :]
            return
        _write_all(1, data[: max(0, at - len(self.seen))])
        self.seen = b""
        self.fetching = True
        self.send(sent)
        self._before_done(seen[at + len(marker) :])

    def _show_or_hold(self, data: bytes) -> None:
        if self.shown:
            _write_all(1, data)
        else:
            self.held += data
            del self.held[:-HELD_BACK]

    def _read_user(self) -> None:
        try:
            data = os.read(0, CHUNK)
        except OSError:
            data = b""
        if data:
            self.send(data)
            return
        self.stdin_open = False
        if self.ready:  # our input ended: so does the remote shell's, as with plain ssh
            self.send(EOF_KEY)

    def _drain(self) -> None:
        """What the command printed before it ended, still in its terminal."""
        while True:
            try:
                data = os.read(self.master, CHUNK)
            except OSError:
                return
            if not data:
                return
            self._output(data)

    def _ended(self) -> int:
        assert self.status is not None
        if not self.started:
            raise Ended(self.status, bytes(self.held) + self.seen)
        if not self.ready:  # what it printed last, less the echo's lines
            raise Ended(self.status, _not_echoed(self.seen, self.payload))
        return self.status

    def _reap(self) -> None:
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            self.status = 1
            return
        if pid:
            self.status = _exit_code(status)

    def _wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        return _exit_code(status)


def _not_echoed(said: bytes, payload: bytes) -> bytes:
    """The lines of ``said`` that are not lines of ``payload`` (a terminal echoes each line of
    what it reads, before the script gets to print its own)."""
    sent = set(payload.splitlines())
    lines = said.replace(b"\r\n", b"\n").split(b"\n")
    return b"\n".join(line for line in lines if line.strip() and line not in sent)


def _default_signals() -> None:
    """In the child, before exec: the default action for DEFAULT_SIGNALS."""
    for name in DEFAULT_SIGNALS:
        signal.signal(getattr(signal, name), signal.SIG_DFL)


def _exit_code(status: int) -> int:
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code  # a signal: the shell's way to say it


def _nothing(*_: object) -> None:
    """SIGCHLD: only to wake select (through the wakeup fd)."""


def _kill(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [])
            continue
        except BrokenPipeError:
            return
        view = view[written:]


def show_held(said: bytes) -> None:
    """What a command printed before it ended without the marker, through dotdbg.visible."""
    from dotdbg.visible import visible

    text = said.decode(errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    for line in text.splitlines():
        if line.strip():
            print(visible(line), file=sys.stderr)
