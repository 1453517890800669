"""An interactive bash under memlimit reports a kill by the limit before its next prompt.

bash draws its prompt as soon as its child is killed, before memlimit next looks at the
counters: said by memlimit then, the report lands after the prompt. So memlimit starts bash with
an rcfile that reads ~/.bashrc as usual and then adds a PROMPT_COMMAND hook: before each prompt
the hook asks memlimit (SIGUSR1, a builtin `kill`, no program started) and prints the reply it
reads from a FIFO. memlimit holds a report for a moment so that the prompt can ask for it; one
no prompt asks for in time (a background job, another shell inside) goes to stderr as before.
"""

from __future__ import annotations

import os

from dotdbg.memlimit.supervise import REQUEST_NAME

# Every memlimit run asks runs_bash; the rest is for shell runs alone, so shlex and pathlib
# (re, fnmatch, urllib.parse: ~5 ms) are imported where a shell run needs them (issue 27).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

HOLD_SECONDS = 1.0  # how long a report waits for the prompt to ask; a prompt asks within ms
END = "."  # ends each reply, so the hook reads exactly one
REPLY_TIMEOUT = 1  # seconds the hook waits for memlimit, if it is busy


def runs_bash(argv: Sequence[str]) -> bool:
    """A plain bash with no arguments: the interactive shell memlimit starts by default."""
    return len(argv) == 1 and os.path.basename(argv[0]) == "bash"


def rcfile_text(supervisor: int, fifo: Path) -> str:
    """What the shell reads instead of ~/.bashrc: ~/.bashrc itself, then the hook."""
    import shlex

    channel = shlex.quote(str(fifo))
    return f"""\
# memlimit {supervisor}: ~/.bashrc, then a report of each kill by the limit before the prompt.
if [[ -f ~/.bashrc ]]; then . ~/.bashrc; fi
__memlimit_report() {{
    local status=$? line
    {{
        while read -r -t 0 && read -r line; do  # a late reply to an earlier prompt
            [[ $line == {END} ]] || printf '%s\\n' "$line" >&2
        done
        if kill -{REQUEST_NAME} {supervisor} 2>/dev/null; then
            while read -r -t {REPLY_TIMEOUT} line && [[ $line != {END} ]]; do
                printf '%s\\n' "$line" >&2
            done
        fi
    }} <>{channel}
    return "$status"
}}
PROMPT_COMMAND="__memlimit_report${{PROMPT_COMMAND:+;$PROMPT_COMMAND}}"
"""


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the directories that shell runs killed -9 left in ``folder`` (no cleanup ran),
    and return them. Each names its memlimit's pid on its rcfile's first line: a directory
    whose memlimit still runs, or that another user owns, is left alone."""
    removed = []
    for directory in folder.glob("memlimit-*"):
        owner = _owner_pid(directory)
        if owner is not None and not _running(owner):
            import shutil  # only here: it imports bz2 and lzma, milliseconds of memlimit's start

            shutil.rmtree(directory, ignore_errors=True)
            removed.append(directory)
    return removed


def _owner_pid(directory: Path) -> int | None:
    import re
    import stat

    try:
        info = directory.lstat()
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return None
        with open(directory / "bashrc", "rb") as rcfile:
            first = rcfile.readline(200)
    except OSError:
        return None
    found = re.match(rb"# memlimit (\d+):", first)
    return int(found[1]) if found else None


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process of that pid
        return True
    return True


class PromptChannel:
    """The rcfile and the FIFO of one run, in a private directory; memlimit keeps the FIFO open
    (read-write, so that a reply waits there even before the shell opens it)."""

    def __init__(self, directory: Path, fd: int) -> None:
        self.directory, self.fd = directory, fd

    @classmethod
    def open(cls) -> PromptChannel:
        import tempfile  # only a shell run needs it
        from pathlib import Path

        directory = Path(tempfile.mkdtemp(prefix="memlimit-"))
        try:
            os.mkfifo(directory / "reports", 0o600)
            fd = os.open(directory / "reports", os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
            (directory / "bashrc").write_text(rcfile_text(os.getpid(), directory / "reports"))
        except BaseException:
            import shutil  # only here: it imports bz2 and lzma, milliseconds of memlimit's start

            shutil.rmtree(directory, ignore_errors=True)
            raise
        return cls(directory, fd)

    def command(self, argv: Sequence[str]) -> list[str]:
        return [argv[0], "--rcfile", str(self.directory / "bashrc")]

    def reply(self, lines: Sequence[str]) -> bool:
        """Send one reply; False if it could not be written (the caller says it elsewhere)."""
        data = "".join(f"{line}\n" for line in [*lines, END]).encode()
        try:
            return os.write(self.fd, data) == len(data)
        except BlockingIOError:  # nobody read the replies before (FIFO full)
            return False

    def close(self) -> None:
        os.close(self.fd)
        import shutil  # only here: it imports bz2 and lzma, milliseconds of memlimit's start

        shutil.rmtree(self.directory, ignore_errors=True)
