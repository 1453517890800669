"""What travels with ``dotdbg ssh``, unpacked and run here as the remote would: the payload
on the script's stdin through base64, gzip and tar; ``dotdbg cheat`` through the session's
shim on python3 >= 3.8, and the reason when there is none; the cache of the payload; the ssh
words."""

from __future__ import annotations

import base64
import gzip
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from dotdbg.cheat.fast import builtin_dir
from dotdbg.errors import UsageError
from dotdbg.paths import Paths
from dotdbg.remote import bootstrap, bundle, session, sshargs
from dotdbg.remote import payload as payload_module
from dotdbg.shells import target_named
from dotdbg.shells.posix import BASH_FILE
from dotdbg.shells.zshfish import FISH_FILE, ZSH_FILE

PYENV = Path.home() / ".pyenv" / "versions"


Payload = tuple[str, tuple[str, ...]]  # the base64 lines, the shells besides bash they carry
NONCE = "0123456789abcdef01234567"


@pytest.fixture(scope="module")
def payload(tmp_path_factory: pytest.TempPathFactory) -> Payload:
    home = tmp_path_factory.mktemp("local")
    sheets = home / ".config" / "dotdbg" / "cheatsheets"
    sheets.mkdir(parents=True)
    (sheets / "mine").write_text("# my own entry\nrun-my-thing --fast\n")
    return piped_payload(home)


def piped_payload(home: Path) -> Payload:
    """The stream as it travels where the input is no terminal: the archive comes with it."""
    files, archive, names, _ = payload_module.build_payload(Paths.from_env(home))
    return session.streams(files, archive, "n1", terminal=False)[0], names


def run_script(directory: Path, payload: Payload, typed_ahead: bytes = b"") -> bytes:
    """The remote script run here as the remote would run it, on ``directory`` instead of a
    mktemp one, its shell swapped for true, the payload on its stdin as the relay sends it;
    what it printed."""
    text, names = payload
    script = bootstrap.remote_script("n1", len(text), NONCE, names)
    script = script.replace(
        'd=$(mktemp -d "${TMPDIR:-/tmp}/dotdbg-ssh.XXXXXXXXXX")', f"d={directory}"
    )
    script = script.replace("trap c EXIT", ":").replace(bootstrap.GUARD, ":")
    for shell in bootstrap.SHELLS:
        script = script.replace(shell.launch, "wait")  # for the archive, unpacked meanwhile
    done = subprocess.run(
        ["sh", "-c", script],
        input=typed_ahead + bootstrap.framed(NONCE, text),
        capture_output=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "SHELL": "/bin/bash"},
    )
    return done.stdout


@pytest.fixture(scope="module")
def unpacked(payload: Payload, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session dir as the remote script leaves it."""
    directory = tmp_path_factory.mktemp("session")
    assert run_script(directory, payload) == b""  # no terminal, no marker (the e2e tests have one)
    return directory


def tools_dir(root: Path, *links: tuple[str, str]) -> Path:
    """A PATH of its own: sh and cat, plus (name, target) links."""
    root.mkdir()
    for name, target in [("sh", "/bin/sh"), ("cat", "/bin/cat"), *links]:
        (root / name).symlink_to(target)
    return root


def shim(unpacked: Path, path: str, *args: str) -> subprocess.CompletedProcess[str]:
    (unpacked / "python").unlink(missing_ok=True)  # the interpreter the shim remembered
    env = {"PATH": path, "HOME": str(unpacked), "NO_COLOR": "1"}
    return subprocess.run(
        [str(unpacked / "bin" / "dotdbg"), *args], capture_output=True, text=True, env=env
    )


def test_the_command_holds_no_payload_and_fits_one_terminal_line(payload: Payload) -> None:
    text, names = payload
    command = bootstrap.remote_command("gpu01", len(text), NONCE, names)
    assert command.startswith("exec /bin/sh -c '") and "\n" not in command
    assert text[:76] not in command and "pytest" not in command
    typed = bootstrap.typed_line(len(text), NONCE, names)
    assert len(typed) < 4000, len(typed)  # a terminal in canonical mode takes 4095 per line
    assert bootstrap.marker(NONCE) not in typed  # a shell's echo of the line is no marker
    assert "$(x)" not in bootstrap.remote_command("a b;$(x)", 1, NONCE)


def test_keys_typed_ahead_are_skipped(payload: Payload, tmp_path: Path) -> None:
    run_script(tmp_path, payload, typed_ahead=b"ls -la\npartial line")
    assert (tmp_path / "session.bash").is_file()


def test_zsh_and_fish_files_travel_and_parse(payload: Payload, unpacked: Path) -> None:
    checks = {"zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}
    names = payload[1]
    assert names == tuple(name for name in checks if shutil.which(name))
    for shell in (bootstrap.ZSH, bootstrap.FISH):
        if shell.name not in names:
            continue
        for name in (shell.rendered, *(name for name, _ in shell.rc_files)):
            assert (unpacked / name).stat().st_mode & 0o077 == 0
            subprocess.run([*checks[shell.name], str(unpacked / name)], check=True)
            assert not re.search("@[A-Z]+@", (unpacked / name).read_text()), name  # filled in


def test_unpacked_session_is_private_and_complete(unpacked: Path) -> None:
    for name in ("session.bash", "dotdbg.bash", "inputrc", "bin/dotdbg", "py/session_cheat.py"):
        assert (unpacked / name).is_file(), name
    assert os.access(unpacked / "bin" / "dotdbg", os.X_OK)
    assert all(p.stat().st_mode & 0o077 == 0 for p in unpacked.rglob("*") if p.is_file())
    subprocess.run(["bash", "-n", str(unpacked / "session.bash")], check=True)


def test_cheat_runs_on_the_remote_python_with_the_travelling_sheets(unpacked: Path) -> None:
    found = shim(unpacked, "/usr/bin:/bin", "cheat", "-c", "tar", "xz")
    assert found.returncode == 0, found.stderr
    assert "tar -xf <archive.tar.xz>" in found.stdout
    mine = shim(unpacked, "/usr/bin:/bin", "cheat", "-c", "mine")
    assert mine.stdout.strip() == "run-my-thing --fast"  # the user's own sheets came too


def oldest_python() -> Path | None:
    for version in ("3.8", "3.9"):
        found = sorted(PYENV.glob(f"{version}.*/bin/python{version}")) if PYENV.is_dir() else []
        system = shutil.which(f"python{version}")
        if found or system:
            return found[0] if found else Path(str(system))
    return None


def test_cheat_runs_on_python_3_8(unpacked: Path, tmp_path: Path) -> None:
    python = oldest_python()
    if python is None:
        pytest.skip("no python3.8 or 3.9 here to run the travelling cheat code on")
    tools = tools_dir(tmp_path / "bin", ("python3", str(python)))
    for args in (["-c", "tar", "xz"], ["--pick"], ["--names"], ["--json", "git"]):
        result = shim(unpacked, str(tools), "cheat", *args)
        assert result.returncode == 0, (args, result.stderr)
        assert result.stdout


def test_without_python3_cheat_says_why(unpacked: Path, tmp_path: Path) -> None:
    result = shim(unpacked, str(tools_dir(tmp_path / "bin")), "cheat", "tar")
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        "dotdbg: error: dotdbg cheat (ch, Ctrl-G) needs python3 >= 3.8 here (no python3)"
    )


def test_shim_names_what_does_not_travel(unpacked: Path) -> None:
    other = shim(unpacked, "/usr/bin:/bin", "status")
    assert other.returncode == 2 and "only `dotdbg cheat`" in other.stderr
    edit = shim(unpacked, "/usr/bin:/bin", "cheat", "--edit", "tar")
    assert edit.returncode == 2
    assert "dotdbg cheat --edit is not available in a dotdbg ssh session" in edit.stderr


def test_payload_is_cached_until_an_input_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    paths = Paths.from_env()
    cache = paths.cache_dir / session.CACHE_NAME
    first = session.session_payload(str(cache))[:2]
    stamp = cache.stat().st_mtime_ns
    assert cache.stat().st_mode & 0o077 == 0  # it holds the user's aliases
    assert session.session_payload(str(cache))[:2] == first
    assert cache.stat().st_mtime_ns == stamp
    sheet = paths.user_cheat_dir / "new"
    sheet.parent.mkdir(parents=True)
    sheet.write_text("# a new entry\nnew-thing\n")
    assert session.session_payload(str(cache))[:2] != first
    # a shell installed here (or gone) since: its files travel (or not) from the next session
    monkeypatch.setattr(bootstrap, "others_here", lambda: ("zsh",))
    assert session.session_payload(str(cache))[2] == ("zsh",)


def test_session_shells_name_the_files_render_makes() -> None:
    assert bootstrap.BASH.rendered == BASH_FILE
    assert (bootstrap.ZSH.rendered, bootstrap.FISH.rendered) == (ZSH_FILE, FISH_FILE)
    for shell in bootstrap.SHELLS:
        assert shell.name == target_named(shell.name).name
        for _, source in shell.rc_files:
            assert (Path(payload_module.HERE) / source).is_file()


@pytest.mark.parametrize(
    ("argv", "options"),
    [
        (["h"], []),
        (["h", "-p", "2222", "-i", "key", "-A"], ["-p", "2222", "-i", "key", "-A"]),
        (["h", "-p2222", "-vJ", "jump"], ["-p2222", "-vJ", "jump"]),
        (["h", "-o", "ServerAliveInterval=5"], ["-o", "ServerAliveInterval=5"]),
    ],
)
def test_ssh_words_pass_through(argv: list[str], options: list[str]) -> None:
    assert sshargs.split(argv) == ("h", options)
    assert sshargs.ssh_argv("h", options, "CMD", "/l")[-2:] == ["h", "CMD"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "dotdbg ssh needs a HOST"),
        (["-p", "22", "h"], "HOST comes first, then ssh's options (got '-p')"),
        (
            ["h", "-l", "me", "ls"],
            "dotdbg ssh starts an interactive shell; it runs no command ('ls')",
        ),
        (["h", "--", "ls"], "dotdbg ssh starts an interactive shell; it runs no command ('ls')"),
    ],
)
def test_bad_ssh_words_are_usage_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as raised:
        sshargs.split(argv)
    assert raised.value.message == message


def test_users_own_log_option_is_kept() -> None:
    argv = sshargs.ssh_argv("h", ["-E", "mine.log"], "CMD", "/ours")
    assert "/ours" not in argv and argv.count("-E") == 1


def test_help_and_version_start_no_ssh(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "PATH": "/nonexistent"}  # no ssh to start
    dotdbg = Path(sys.executable).with_name("dotdbg")
    for words, first in ((["--help"], "usage: dotdbg ssh HOST"), (["--version"], "dotdbg ")):
        done = subprocess.run([str(dotdbg), "ssh", *words], capture_output=True, text=True, env=env)
        assert done.returncode == 0 and done.stdout.startswith(first), done.stderr


@pytest.mark.parametrize(
    ("names", "brings"),
    [((), "bash"), (("zsh",), "bash or zsh"), (("zsh", "fish"), "bash, zsh or fish")],
)
def test_the_fallback_line_names_the_shells_that_travel(
    names: tuple[str, ...], brings: str
) -> None:
    """Without zsh or fish here, their files do not travel and a zsh user gets bash."""
    script = bootstrap.remote_script("h", 10, NONCE, names)
    assert f"dotdbg ssh brings {brings}: this session is bash" in script
    assert ("zsh)" in script) == ("zsh" in names)


def archive_members(stream_text: str) -> dict[str, tarfile.TarInfo]:
    """The archive at the stream's end (``printf %s 'BASE64 LINES' >"$d/.a"``)."""
    encoded = stream_text.rsplit("printf %s '\n", 1)[1].split("'", 1)[0]
    data = gzip.decompress(base64.b64decode(encoded))
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        return {member.name: member for member in tar.getmembers()}


def test_a_personal_copy_of_a_builtin_sheet_travels_once(tmp_path: Path) -> None:
    """``dotdbg cheat --edit git`` quit without a change: the copy is a link in the archive."""
    builtin = Path(str(builtin_dir())) / "git"
    plain = piped_payload(tmp_path / "plain")[0]
    home = tmp_path / "copied"
    sheets = home / ".config" / "dotdbg" / "cheatsheets"
    sheets.mkdir(parents=True)
    (sheets / "git").write_bytes(builtin.read_bytes())
    copied = piped_payload(home)[0]
    members = archive_members(copied)
    linked = [m for m in members.values() if m.islnk()]
    assert [(m.name, m.linkname) for m in linked] == [
        (f"{bundle.CODE_DIR}/dotdbg/cheatsheets/git", f"{bundle.PERSONAL_SHEETS}/git")
    ]
    assert len(copied) - len(plain) < 400, (len(copied), len(plain))


@pytest.mark.parametrize(
    ("source", "travels"),
    [
        ('"""A package."""\n', ""),
        ('"""A package."""\n# a comment\n', ""),
        ('"""A module."""\n\n\ndef f():\n    """Its doc."""\n', "def f():\n    pass\n"),
        ("x = 1  # kept\n", "x = 1\n"),
    ],
)
def test_what_is_left_of_a_module_without_its_docstrings(source: str, travels: str) -> None:
    assert bundle.without_docstrings(source) == travels


def test_a_200_kb_personal_sheet_travels(tmp_path: Path) -> None:
    home = tmp_path / "local"
    sheets = home / ".config" / "dotdbg" / "cheatsheets"
    sheets.mkdir(parents=True)
    (sheets / "big").write_text(big_sheet())
    text, names = piped_payload(home)
    directory = tmp_path / "session"
    directory.mkdir()
    run_script(directory, (text, names))
    arrived = directory / bundle.PERSONAL_SHEETS / "big"
    assert arrived.read_text() == big_sheet()
    found = shim(directory, "/usr/bin:/bin", "cheat", "-c", "entry-1999")
    assert found.stdout.strip() == "run-step-1999 --seed 1999", found.stderr


def big_sheet() -> str:
    """About 200 KB of sheet, little of it repeated (gzip does not make it small)."""
    import hashlib

    return "".join(
        f"# entry-{n} {hashlib.sha256(str(n).encode()).hexdigest()}\nrun-step-{n} --seed {n}\n\n"
        for n in range(2000)
    )


def test_the_session_dotdbg_is_executable_the_moment_it_appears(tmp_path: Path) -> None:
    """The shim becomes ``bin/dotdbg`` in the background while the user may already type
    ``dotdbg``: the rename that makes it appear comes after the chmod, never before."""
    session_dir = tmp_path / "session"
    session_dir.mkdir()
    (session_dir / bootstrap.SHIM).write_text("#!/bin/sh\necho shim\n")
    spy = tmp_path / "spy"
    spy.mkdir()
    (spy / "mv").write_text(  # what mv finds, as a typed `dotdbg` would the moment after
        '#!/bin/sh\n[ -x "$1" ] && echo executable >>"$LOG" || echo not >>"$LOG"\n'
        'exec /bin/mv "$@"\n'
    )
    (spy / "mv").chmod(0o755)
    log = tmp_path / "log"
    script = f"d={session_dir}; {bootstrap._install_step()} wait"
    env = {"PATH": f"{spy}:/usr/bin:/bin", "LOG": str(log)}
    subprocess.run(["sh", "-c", script], env=env, check=True, timeout=30)
    assert log.read_text() == "executable\n"
    shown = subprocess.run([session_dir / "bin" / "dotdbg"], capture_output=True, text=True)
    assert shown.stdout == "shim\n"
