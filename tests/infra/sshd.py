"""A real sshd on loopback addresses 127.0.0.2-4, with host and user keys made for the test.

One sshd listens on the three addresses (one port, found free); the client side gets an ssh
config file of its own (``ssh -F``) naming the hosts ``n1``-``n3`` (and the bare addresses),
with the test's key, a known_hosts file holding the test's host key, and batch mode, so nothing
in ~/.ssh or /etc/ssh is read or written. Authorized keys live in the temp dir too
(``AuthorizedKeysFile``), one file per user.

Test users (``add_user``) get a home of their own and are deleted when the server stops; a test
that pushes files to a remote home logs in as one of them. Their homes and the authorized keys
live in a directory of their own under /tmp (mode 0711), not below the test's temp dir: sshd
reads a user's keys as that user, and the user must reach their home, while pytest's temp dirs
are 0700.

    with SshServer(tmp_dir) as server:
        subprocess.run(["ssh", "-F", server.client_config, "n1", "true"])
        user = server.add_user("dotdbgt1")
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.infra.procs import free_ports, stop, wait_for

SSHD = Path("/usr/sbin/sshd")
ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
HOSTS = ("n1", "n2", "n3")  # aliases of ADDRESSES in the client config
USERADD = Path("/usr/sbin/useradd")
USERDEL = Path("/usr/sbin/userdel")


class SshUnavailable(RuntimeError):
    """sshd cannot start here; the message says why (a test skips with it)."""


@dataclass(frozen=True)
class TestUser:
    name: str
    home: Path
    uid: int


class SshServer:
    def __init__(self, root: Path, login: str = "root") -> None:
        self.root = root
        self.login = login  # the user the client config logs in as by default
        self.client_config = root / "ssh_config"
        self.key = root / "id_ed25519"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.users: list[TestUser] = []
        self.shared: Path | None = None  # the users' homes and everyone's authorized keys

    def __enter__(self) -> SshServer:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    # -- start and stop ----------------------------------------------------------------------
    def start(self) -> None:
        if os.getuid() != 0:
            raise SshUnavailable("sshd on loopback addresses needs root here (it changes user)")
        if not os.access(SSHD, os.X_OK) or not shutil.which("ssh-keygen"):
            raise SshUnavailable(f"openssh-server is not installed ({SSHD}, ssh-keygen)")
        self.root.mkdir(parents=True, exist_ok=True)
        self.shared = Path(tempfile.mkdtemp(prefix="dotdbg-sshd-"))
        self.shared.chmod(0o711)
        (self.shared / "authorized_keys").mkdir(mode=0o711)
        host_key = self.root / "ssh_host_ed25519_key"
        _keygen(host_key)
        _keygen(self.key)
        self.authorize(self.login)
        self.port = free_ports(1)
        (self.root / "sshd_config").write_text(self._server_config(host_key))
        self.client_config.write_text(self._client_config())
        public_host_key = host_key.with_suffix(".pub").read_text().split()[:2]
        (self.root / "known_hosts").write_text(
            "".join(
                f"[{address}]:{self.port} {' '.join(public_host_key)}\n" for address in ADDRESSES
            )
        )
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation dir
        log = self.root / "sshd.log"
        self.proc = subprocess.Popen(
            [str(SSHD), "-D", "-e", "-f", str(self.root / "sshd_config")],
            stdout=subprocess.DEVNULL,
            stderr=log.open("wb"),
            start_new_session=True,
        )
        try:
            wait_for(self._answers, 15, "sshd to accept a login")
        except TimeoutError as error:
            raise SshUnavailable(f"{error}: {log.read_text()[-500:]}") from None

    def _answers(self) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            raise SshUnavailable(f"sshd exited: {(self.root / 'sshd.log').read_text()[-500:]}")
        return self.ssh(HOSTS[0], "true", timeout=10).returncode == 0

    def _server_config(self, host_key: Path) -> str:
        listen = "".join(f"ListenAddress {address}:{self.port}\n" for address in ADDRESSES)
        return listen + (
            f"HostKey {host_key}\n"
            f"PidFile {self.root / 'sshd.pid'}\n"
            f"AuthorizedKeysFile {self.keys_dir}/%u\n"
            "StrictModes no\n"
            "PubkeyAuthentication yes\n"
            "PasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\n"
            "PermitRootLogin prohibit-password\n"
            "UsePAM no\n"
            "PrintMotd no\n"
            "LogLevel ERROR\n"
            "Subsystem sftp internal-sftp\n"
        )

    def _client_config(self) -> str:
        common = (
            f"    Port {self.port}\n"
            f"    User {self.login}\n"
            f"    IdentityFile {self.key}\n"
            "    IdentitiesOnly yes\n"
            f"    UserKnownHostsFile {self.root / 'known_hosts'}\n"
            "    GlobalKnownHostsFile /dev/null\n"
            "    StrictHostKeyChecking yes\n"
            "    BatchMode yes\n"
            "    LogLevel ERROR\n"
        )
        aliases = "".join(
            f"Host {host}\n    HostName {address}\n{common}"
            for host, address in zip(HOSTS, ADDRESSES, strict=True)
        )
        return aliases + f"Host {' '.join(ADDRESSES)}\n{common}"

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)
            self.proc = None
        for user in self.users:
            subprocess.run([str(USERDEL), "--force", "--remove", user.name], capture_output=True)
            _remove_runtime_dir(user.name)
        self.users = []
        if self.shared is not None:
            shutil.rmtree(self.shared, ignore_errors=True)
            self.shared = None

    # -- using it ----------------------------------------------------------------------------
    @property
    def ssh_options(self) -> str:
        """What ``ssh`` (or ClusterShell's ssh_options) needs to reach the test hosts."""
        return f"-F {self.client_config}"

    def ssh(self, host: str, command: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["ssh", "-F", str(self.client_config), host, command],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )

    @property
    def keys_dir(self) -> Path:
        assert self.shared is not None, "the server is not started"
        return self.shared / "authorized_keys"

    def authorize(self, user: str) -> None:
        public = self.key.with_suffix(".pub").read_text()
        keys = self.keys_dir / user
        keys.write_text(public)
        keys.chmod(0o644)

    def add_user(self, name: str, shell: str = "/bin/bash") -> TestUser:
        """A user with a home of its own, deleted when the server stops. The name gets this
        process's tag: two copies of the suite running at once must not delete each other's users.
        """
        assert self.shared is not None, "the server is not started"
        name = f"{name}x{_RUN_TAG}"
        home = self.shared / "homes" / name
        home.parent.mkdir(mode=0o711, exist_ok=True)
        subprocess.run([str(USERDEL), "--force", "--remove", name], capture_output=True)
        _remove_runtime_dir(name)
        subprocess.run(
            # password "*": none, but not locked (sshd refuses a locked account without PAM)
            [str(USERADD), "-m", "-d", str(home), "-s", shell, "-p", "*", name],
            check=True,
            capture_output=True,
        )
        user = TestUser(name, home, pwd.getpwnam(name).pw_uid)
        self.users.append(user)
        self.authorize(name)
        return user


# base 36 of the pid: short enough for useradd's 32 characters, distinct per process alive
_RUN_TAG = "".join(
    "0123456789abcdefghijklmnopqrstuvwxyz"[os.getpid() // 36**place % 36] for place in range(4)
)


def _remove_runtime_dir(name: str) -> None:
    """fish's runtime dir for a user without XDG_RUNTIME_DIR (no PAM here): one left by an
    earlier user of that name (another uid) makes fish put its notifier FIFO in the home."""
    shutil.rmtree(Path("/tmp", f"fish.{name}"), ignore_errors=True)  # sshd passes no TMPDIR


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
        check=True,
        capture_output=True,
    )
