"""What is on disk: the texts of the files dotdbg may touch and the manifest of its last run."""

from __future__ import annotations

import errno
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotdbg.errors import DotdbgError
from dotdbg.fileops import atomic_write, fsync_dir, read_state_file
from dotdbg.paths import Paths
from dotdbg.render import BASH_FILE, INPUTRC_FILE, PDBRC_FILE
from dotdbg.zshfish import FISH_FILE, ZSH_FILE

MANIFEST_VERSION = 1


@dataclass(frozen=True)
class State:
    """Texts of the files dotdbg may touch (None: missing) and the manifest of the last run."""

    texts: dict[Path, str | None]
    manifest: dict[str, Any]

    def text(self, path: Path) -> str | None:
        return self.texts.get(path)

    def block_record(self, path: Path) -> dict[str, Any]:
        record: dict[str, Any] = self.manifest.get("blocks", {}).get(str(path), {})
        return record


def block_files(paths: Paths) -> tuple[Path, ...]:
    return (paths.bashrc, paths.inputrc, paths.pdbrc, *paths.login_files, paths.zshrc)


def generated_path(paths: Paths, name: str) -> Path:
    """Where the generated file ``name`` goes: fish's straight into the folder fish reads."""
    return paths.fish_conf if name == FISH_FILE else paths.data_dir / name


def generated_files(paths: Paths) -> tuple[Path, ...]:
    names = (BASH_FILE, INPUTRC_FILE, PDBRC_FILE, ZSH_FILE, FISH_FILE)
    return tuple(generated_path(paths, name) for name in names)


def read_state(paths: Paths) -> State:
    texts = {path: read_text(path) for path in (*block_files(paths), *generated_files(paths))}
    return State(texts, read_manifest(paths))


def read_text(path: Path) -> str | None:
    """A file's exact text (any bytes survive a round trip); None when it does not exist."""
    try:
        return path.read_bytes().decode("utf-8", errors="surrogateescape")
    except FileNotFoundError:
        return None
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


def read_manifest(paths: Paths) -> dict[str, Any]:
    """dotdbg's records of its last run ({} when there are none, or only an older format's).

    An unreadable or damaged manifest is an error: without it uninstall cannot tell which
    files dotdbg created and which newline it added, so it must not guess.
    """
    shown = paths.display(paths.manifest_file)
    try:
        raw = read_state_file(paths.manifest_file)
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
    return hashlib.sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()


def save_manifest(paths: Paths, manifest: dict[str, Any] | None) -> None:
    """Write the manifest (None: remove it); a symlink in its place is replaced, not followed."""
    if manifest is None:
        if os.path.lexists(paths.manifest_file):
            paths.manifest_file.unlink()
            fsync_dir(paths.state_dir)
        return
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    atomic_write(paths.manifest_file, text.encode(), mode=0o600, follow=False)
