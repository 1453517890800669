"""What is on disk: the texts of the files dotdbg may touch and the manifest of its last run,
read up front through the home's filesystem (``paths.fs``); the planner works on this alone."""

from __future__ import annotations

import errno
import json
from collections.abc import Iterable
from pathlib import Path

from dotdbg.common.record import Record, field
from dotdbg.errors import DotdbgError
from dotdbg.home.homefs import HomeFS
from dotdbg.home.launcher import path_dir
from dotdbg.home.render import INPUTRC_FILE, PDBRC_FILE
from dotdbg.paths import Paths
from dotdbg.shells import registered

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MANIFEST_VERSION = 1


class State(Record):
    """Texts of the files dotdbg may touch (None: missing) and the manifest of the last run."""

    texts: dict[Path, str | None]
    manifest: dict[str, Any]
    system_inputrc: bool = field(default=False)  # /etc/inputrc exists: a new ~/.inputrc loads it
    path_dir: Path | None = None  # the folder the PATH block adds (``launcher.path_dir``)

    def text(self, path: Path) -> str | None:
        return self.texts.get(path)

    def block_record(self, path: Path) -> dict[str, Any]:
        record: dict[str, Any] = self.manifest.get("blocks", {}).get(str(path), {})
        return record

    def path_record(self, path: Path) -> dict[str, Any]:
        """The record of the PATH block in ``path`` (``blocks.PATH``)."""
        record: dict[str, Any] = self.manifest.get("path_blocks", {}).get(str(path), {})
        return record

    def recorded_block_files(self) -> tuple[Path, ...]:
        """The files the last run put a block in: one that has moved since ($INPUTRC or
        $ZDOTDIR set now) still has its block taken out."""
        return recorded_block_files(self.manifest)


def recorded_block_files(manifest: dict[str, Any]) -> tuple[Path, ...]:
    found = [*manifest.get("blocks", {}), *manifest.get("path_blocks", {})]
    return tuple(Path(name) for name in found if isinstance(name, str) and name.startswith("/"))


SYSTEM_INPUTRC = Path("/etc/inputrc")


def block_files(paths: Paths) -> tuple[Path, ...]:
    """Every home file that can hold a dotdbg block: each shell's rc file and the file with
    its PATH block, ~/.inputrc, ~/.pdbrc and the login files."""
    rc_files = [target.rc_file(paths) for target in registered() if target.rc_file]
    path_files = [target.path_file(paths) for target in registered() if target.path_file]
    files = (*rc_files, *path_files, paths.inputrc, paths.pdbrc, *paths.login_files)
    return tuple(dict.fromkeys(files))


def generated_files(paths: Paths) -> tuple[Path, ...]:
    shells = [target.generated_path(paths) for target in registered()]
    return (*shells, *(paths.data_dir / name for name in (INPUTRC_FILE, PDBRC_FILE)))


def read_state(paths: Paths, also: Iterable[Path] = ()) -> State:
    """Every file dotdbg may touch (and ``also``), its records, and /etc/inputrc's presence."""
    fs = paths.fs
    manifest = read_manifest(paths)
    recorded = recorded_block_files(manifest)
    files = dict.fromkeys((*block_files(paths), *recorded, *generated_files(paths), *also))
    texts = {path: read_text(fs, path) for path in files}
    return State(texts, manifest, fs.exists(SYSTEM_INPUTRC), path_dir(paths))


def read_text(fs: HomeFS, path: Path) -> str | None:
    """A file's exact text (any bytes survive a round trip); None when it does not exist."""
    try:
        data = fs.read_bytes(path)
    except IsADirectoryError:
        raise DotdbgError(
            f"{path} is a directory", hint="move it away; dotdbg expects a file"
        ) from None
    except PermissionError:
        raise DotdbgError(
            f"cannot read {path}: permission denied", hint=f"check: ls -l {path}"
        ) from None
    except OSError as error:  # e.g. a file where a directory belongs
        raise DotdbgError(
            f"cannot read {path}: {error.strerror}", hint=f"check: ls -ld {path.parent}"
        ) from None
    return None if data is None else data.decode("utf-8", errors="surrogateescape")


def read_manifest(paths: Paths) -> dict[str, Any]:
    """dotdbg's records of its last run ({} when there are none, or only an older format's).

    An unreadable or damaged manifest is an error: without it uninstall cannot tell which
    files dotdbg created and which newline it added, so it must not guess.
    """
    shown = paths.display(paths.manifest_file)
    try:
        raw = paths.fs.read_bytes(paths.manifest_file, follow=False)
    except OSError as error:
        why = "it is a symlink" if error.errno == errno.ELOOP else error.strerror
        raise DotdbgError(
            f"cannot read {shown}: {why}", hint="nothing was changed; check the file"
        ) from None
    if raw is None:
        return {}
    try:
        manifest = json.loads(raw)
    except ValueError:
        manifest = None
    if not isinstance(manifest, dict):
        raise DotdbgError(
            f"{shown} is damaged (not dotdbg's JSON records), so dotdbg changed nothing",
            hint=f"move it away (mv {shown} {shown}.damaged) and run the command again",
        )
    return manifest if manifest.get("version") == MANIFEST_VERSION else {}


def is_installed(paths: Paths) -> bool:
    """Whether `dotdbg install` ran (`doctor --fix` alone keeps a manifest without files)."""
    return bool(read_manifest(paths).get("generated"))


def digest(text: str) -> str:
    from dotdbg.common.sha256 import sha256

    return sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()


def save_manifest(paths: Paths, manifest: dict[str, Any] | None) -> None:
    """Write the manifest (None: remove it); a symlink in its place is replaced, not followed."""
    if manifest is None:
        if paths.fs.lexists(paths.manifest_file):
            paths.fs.remove(paths.manifest_file)
        return
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    paths.fs.write_atomic(paths.manifest_file, text.encode(), mode=0o600, follow=False)
