"""What is on disk: the texts of the files dotdbg may touch and the manifest of its last run."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths
from dotdbg.render import BASH_FILE, INPUTRC_FILE, PDBRC_FILE

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
    return (paths.bashrc, paths.inputrc, paths.pdbrc, *paths.login_files)


def generated_files(paths: Paths) -> tuple[Path, ...]:
    return tuple(paths.data_dir / name for name in (BASH_FILE, INPUTRC_FILE, PDBRC_FILE))


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
    try:
        manifest: dict[str, Any] = json.loads(paths.manifest_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (ValueError, OSError):
        # A damaged manifest only loses the created/separator memory; blocks have markers.
        return {}
    return manifest if manifest.get("version") == MANIFEST_VERSION else {}


def is_installed(paths: Paths) -> bool:
    """Whether `dotdbg install` ran (`doctor --fix` alone keeps a manifest without files)."""
    return bool(read_manifest(paths).get("generated"))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()
