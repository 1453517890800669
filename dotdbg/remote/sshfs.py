"""A home filesystem on another host (dotdbg.home.homefs.HomeFS), over one ssh connection.

One ``ssh HOST exec /bin/sh`` stays open for the whole run; each operation is a short sh
snippet written to its stdin, answered by one line of output (data in base64) and a status
line ``@@NONCE STATUS MESSAGE``. The nonce is random, made here and sent on stdin, so nothing
the user's rc files print on the way in (sshd's ``$SHELL -c`` reads ``~/.bashrc``) can pass for
an answer: the home comes from a record that nonce delimits, and is refused unless it is an
absolute path to a directory. Only sh and coreutils are needed on the host (and flock for the
lock), no Python. A file is written as a local install writes it: into a temp file in the same
directory (named as ``fileops.TMP_SUFFIX`` says, with the remote shell's pid), synced, then
renamed over the old one, so a connection that drops at any moment leaves the old file or the
new one. A failure comes back as the OSError the local call would raise: the errno is read
from the message the remote program printed (its C library's strerror text).
"""

from __future__ import annotations

import base64
import contextlib
import errno
import functools
import os
import re
import secrets
import shlex
import subprocess
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import ParamSpec, TypeVar

from dotdbg.errors import DotdbgError
from dotdbg.home.fileops import TMP_SUFFIX
from dotdbg.home.homefs import NOT_PLAIN, FileInfo, HomeFS
from dotdbg.visible import one_line

P = ParamSpec("P")
R = TypeVar("R")
LOCK_FD = 8
# errnos a remote program may report, found by their strerror text in its message
KNOWN_ERRORS = (
    errno.ENOENT,
    errno.EACCES,
    errno.EPERM,
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EROFS,
    errno.ELOOP,
    errno.EEXIST,
    errno.ENOTEMPTY,
    errno.ENOTDIR,
    errno.EISDIR,
    errno.EIO,
)
# Run once at the start: a private dir for each snippet's stderr, removed when the shell ends
# (also when a dropped connection ends it with a signal: dotdbg killed, its ssh then gone), and
# what the remote session needs to answer: one record, its fields between the nonce's marks
# (the home in base64: any byte, a newline too, stays inside its field).
NONCE = "@NONCE@"
PRELUDE = (
    "e=; trap '[ -z \"$e\" ] || rm -rf \"$e\"' EXIT; trap 'exit 1' HUP INT TERM PIPE; "
    'e=$(mktemp -d "${TMPDIR:-/tmp}/dotdbg-push.XXXXXXXXXX") || exit 1; '
    'h=$(printf %s "$HOME" | base64 -w0) && [ -d "$HOME" ] && d=1 || d=0; '
    'printf "\\n<%s %s %s %s %s %s>\\n" @NONCE@ "$h" "$d" "$(umask)" "$$" @NONCE@'
)


def _changes(method: Callable[P, R]) -> Callable[P, R]:
    """A method that writes: the stat answers cached before it and during it are dropped."""

    @functools.wraps(method)
    def writing(*args: P.args, **kwargs: P.kwargs) -> R:
        fs = args[0]
        assert isinstance(fs, SshFS)
        fs._infos.clear()
        try:
            return method(*args, **kwargs)
        finally:
            fs._infos.clear()

    return writing


class SshFS(HomeFS):
    """The home of ``host`` as ssh logs in there; ``options`` are ssh's (``-F FILE``, ``-p``)."""

    def __init__(self, host: str, options: Sequence[str] = ()) -> None:
        self.host = host
        argv = ["ssh", "-T", "-o", "BatchMode=yes", *options, host, "exec /bin/sh"]
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self._lock = threading.Lock()
        # stat and lstat answers, dropped at every write and lock: plan and apply ask about the
        # same few paths 98 times in one install (measured), each a round trip and a process
        self._infos: dict[tuple[Path, bool], FileInfo | None] = {}
        self._nonce = secrets.token_hex(16)
        self._status = f"@@{self._nonce} ".encode()
        self.home, self._umask, self.pid = self._prelude()

    # -- the connection ------------------------------------------------------------------------
    def _prelude(self) -> tuple[Path, int, int]:
        said = self._send(
            f"{PRELUDE.replace(NONCE, self._nonce)}\nprintf '\\n@@{self._nonce} 0 \\n'\n"
        )
        return prelude_answer(said, self._nonce, self.host)

    def _call(self, snippet: str) -> str:
        """Run ``snippet`` in the remote shell; its output, or the OSError it failed with."""
        return self._send(
            f'{{ {snippet}\n}} 2>"$e/err"; s=$?; m=; [ -s "$e/err" ] && read -r m <"$e/err"; '
            f'printf \'\\n@@{self._nonce} %s %s\\n\' "$s" "$m"\n'
        )

    def _send(self, request: str) -> str:
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        with self._lock:
            try:
                stdin.write(request.encode())
                stdin.flush()
            except (OSError, ValueError):  # ValueError: the pipe was closed after a loss
                raise self._lost() from None
            lines = []
            while not (line := stdout.readline()).startswith(self._status):
                if not line:
                    raise self._lost()
                lines.append(line)
        status, _, message = line.decode(errors="replace")[len(self._status) :].partition(" ")
        if status != "0":
            raise _os_error(message.strip())
        return b"".join(lines).decode(errors="replace").rstrip("\n")

    def _lost(self) -> DotdbgError:
        self._process.kill()
        try:
            said = self._process.communicate()[1].decode(errors="replace").strip().splitlines()
        except (OSError, ValueError):  # already read after an earlier loss
            said = []
        reason = said[-1] if said else "the connection closed"
        return DotdbgError(f"ssh failed: {reason}", location=self.host)

    def close(self) -> None:
        """End the remote shell (its EXIT trap removes its own temp dir); idempotent."""
        if self._process.poll() is None:
            with contextlib.suppress(OSError):
                self._process.communicate(b"exit 0\n", timeout=10)
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def kill(self) -> None:
        """Drop the connection at once, as a network fault would (the tests' fault)."""
        self._process.kill()
        self._process.wait()

    # -- reading -------------------------------------------------------------------------------
    def read_bytes(self, path: Path, *, follow: bool = True) -> bytes | None:
        p = _q(path)
        symlink = "" if follow else f"[ -L {p} ] && {_fail(path, errno.ELOOP)}; "
        out = self._call(
            f"if [ ! -e {p} ] && [ ! -L {p} ]; then echo -; else {symlink}base64 -w0 <{p}; fi"
        )
        return None if out == "-" else base64.b64decode(out)

    def stat(self, path: Path) -> FileInfo | None:
        return self._info(path, follow=True)

    def lstat(self, path: Path) -> FileInfo | None:
        return self._info(path, follow=False)

    def _info(self, path: Path, follow: bool) -> FileInfo | None:
        if (path, follow) not in self._infos:
            self._infos[path, follow] = self._ask_info(path, follow)
        return self._infos[path, follow]

    def _ask_info(self, path: Path, follow: bool) -> FileInfo | None:
        p = _q(path)
        there = f"[ -e {p} ]" if follow else f"{{ [ -e {p} ] || [ -L {p} ]; }}"
        flag = "-L " if follow else ""
        out = self._call(f"if {there}; then stat {flag}-c '%f %u %g %s' -- {p}; else echo -; fi")
        if out == "-":
            return None
        mode, uid, gid, size = out.split()
        return FileInfo(int(mode, 16), int(uid), int(gid), int(size))

    def realpath(self, path: Path) -> Path:
        return Path(self._call(f"realpath -m -- {_q(path)}"))

    def listdir(self, path: Path) -> list[str]:
        p = _q(path)
        not_dir = _fail(path, errno.ENOTDIR)
        out = self._call(
            f"{{ [ -d {p} ] || [ ! -e {p} ] || {not_dir}; }} && "
            f"find {p} -mindepth 1 -maxdepth 1 -printf '%f\\0'"
        )
        return [name for name in out.split("\0") if name]

    # -- writing -------------------------------------------------------------------------------
    @_changes
    def write_atomic(
        self, path: Path, data: bytes, mode: int | None = None, *, follow: bool = True
    ) -> None:
        target = self.real_target(path) if follow else path
        name = f".{target.name}.{self.pid}.{secrets.token_hex(4)}{TMP_SUFFIX}"
        t, p = _q(target.parent / name), _q(target)
        keep = (
            f"if [ -f {p} ] && [ ! -L {p} ]; then chmod --reference={p} {t} && "
            f"{{ chown --reference={p} {t} 2>/dev/null || :; }}; "
            f"else chmod {self._mode(mode)} {t}; fi"
        )
        self._call(
            f"{{ {_write(t, data)} && {keep} && sync {t} && mv -f -- {t} {p} && "
            f"sync {_q(target.parent)}; }} || {{ rm -f -- {t}; false; }}"
        )

    def _mode(self, mode: int | None) -> str:
        return f"{self.new_file_mode() if mode is None else mode:o}"

    @_changes
    def write_new(self, path: Path, data: bytes) -> None:
        p = _q(path)
        self._call(
            f"(set -C; {_write(p, data)}) && chmod 600 {p} && sync {p} && sync {_q(path.parent)}"
        )

    @_changes
    def rename(self, source: Path, target: Path) -> None:
        self._call(f"mv -fT -- {_q(source)} {_q(target)} && sync {_q(target.parent)}")

    @_changes
    def chmod(self, path: Path, mode: int) -> None:
        self._call(f"chmod {mode:o} -- {_q(path)}")

    @_changes
    def mkdir(self, path: Path, mode: int | None = None, *, exist_ok: bool = False) -> None:
        p = _q(path)
        made = f"mkdir -m {self.new_dir_mode() if mode is None else mode:o} -- {p}"
        if exist_ok:
            made = f"{{ [ -d {p} ] || {made}; }}"
        self._call(f"{made} && sync {_q(path.parent)}")

    @_changes
    def remove(self, path: Path) -> None:
        p = _q(path)
        there = f"{{ [ -e {p} ] || [ -L {p} ] || {_fail(path, errno.ENOENT)}; }}"
        self._call(f"{there} && rm -f -- {p} && sync {_q(path.parent)}")

    @_changes
    def rmdir(self, path: Path) -> None:
        self._call(f"rmdir -- {_q(path)}")

    @_changes
    def remove_tree(self, path: Path) -> None:
        with contextlib.suppress(OSError):
            self._call(f"rm -rf -- {_q(path)}; true")

    @contextlib.contextmanager
    def lock(self, path: Path) -> Iterator[None]:
        """flock on a file descriptor the remote shell holds until the context ends."""
        info = self.lstat(path)
        if info is not None and info.is_symlink:
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
        if info is not None and not info.is_file:
            raise OSError(errno.EINVAL, NOT_PLAIN, str(path))
        p = _q(path)
        self._infos.clear()  # what another run changed before it let go of the lock
        # `command`: a redirection that fails on the special builtin exec would end the shell
        self._call(f"command exec {LOCK_FD}>>{p} && chmod 600 {p} && flock {LOCK_FD}")
        try:
            yield
        finally:
            with contextlib.suppress(OSError, DotdbgError):
                self._call(f"exec {LOCK_FD}>&-")

    # -- the machine ---------------------------------------------------------------------------
    def euid(self) -> int:
        return int(self._call("id -u"))

    def user_name(self, uid: int) -> str:
        return self._call(f"id -nu {uid} 2>/dev/null || echo 'uid {uid}'")

    def can_write(self, directory: Path) -> bool:
        return self._call(f"[ -w {_q(directory)} ] && echo 1 || echo 0") == "1"

    def process_alive(self, pid: int) -> bool:
        return self._call(f"[ -d /proc/{pid} ] && echo 1 || echo 0") == "1"

    def umask(self) -> int:
        return self._umask

    def has_program(self, name: str) -> bool:
        return self._call(f"command -v {shlex.quote(name)} >/dev/null && echo 1 || echo 0") == "1"


def prelude_answer(said: str, nonce: str, host: str) -> tuple[Path, int, int]:
    """(home, umask, pid) from the prelude's record, wherever the rc files' text put it; a
    DotdbgError when there is no such record or its home is not an absolute path to a
    directory there."""
    found = re.findall(rf"<{nonce} (\S*) ([01]) ([0-7]+) ([0-9]+) {nonce}>", said)
    if len(found) != 1:
        raise DotdbgError(
            "cannot read the remote home: its answer did not come back whole",
            hint="check that `ssh HOST true` prints nothing odd and that the host has base64",
            location=host,
        )
    encoded, is_dir, umask, pid = found[0]
    try:
        home = base64.b64decode(encoded, validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        home = ""
    if not home.startswith("/") or is_dir != "1" or "\n" in home:
        raise DotdbgError(
            f"the remote $HOME ({one_line(home) or 'empty'}) is not a directory there, "
            "so dotdbg changed nothing",
            hint="set HOME in the account there (its passwd entry), then run it again",
            location=host,
        )
    return Path(home), int(umask, 8), int(pid)


def _q(path: Path) -> str:
    return shlex.quote(str(path))


def _write(target: str, data: bytes) -> str:
    """sh that writes ``data`` to ``target`` (base64 through the builtin printf)."""
    encoded = base64.b64encode(data).decode() or "''"
    return f"printf %s {encoded} | base64 -d >{target}"


def _fail(path: Path, code: int) -> str:
    """sh that fails with the message a C program would print for ``code``."""
    return f"{{ echo {shlex.quote(f'{path}: {os.strerror(code)}')} >&2; false; }}"


def _os_error(message: str) -> OSError:
    """The OSError a remote program's message stands for (EIO when it names none); its file
    is the path the message starts with (``/x/y: No space left on device``), if it names one
    (``base64: write error: …`` does not)."""
    for code in KNOWN_ERRORS:
        strerror = os.strerror(code)
        if strerror in message:
            named = message.partition(f": {strerror}")[0]
            path = named if named.startswith("/") and ": " not in named else None
            return OSError(code, strerror, path)
    return OSError(errno.EIO, message or "the remote command failed")
