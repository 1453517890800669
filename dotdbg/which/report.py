"""What the probe found, as the lines ``dotdbg which`` prints and the object ``--json`` prints.

Pure: the probe's answer in, text out. Every string came from another process, so each goes
through ``dotdbg.visible`` before it reaches the terminal.
"""

from __future__ import annotations

import os
from typing import Any

from dotdbg.visible import one_line

Found = dict[str, Any]


def summary(found: Found) -> dict[str, Any]:
    """The answer scripts read: the file imported, why, and every other copy's role."""
    winner = found.get("found")
    editables = found.get("editables", [])
    imported = _origin_key(winner) if winner else None
    copies = []
    for copy in _unique(found.get("copies", [])):
        role = "imported" if _origin_key(copy) == imported else "shadowed"
        if winner and winner["kind"] == "namespace package" and copy["kind"] == winner["kind"]:
            role = "namespace portion"
        copies.append(
            {
                **copy,
                "role": role,
                "source": _source(copy["entry"], found["path"]),
                "editable": _editable_of(copy, editables),
            }
        )
    out: dict[str, Any] = {
        "python": found["python"],
        "version": found["version"],
        "module": found["module"],
        "imported": winner,
        "preloaded": found.get("preloaded", False),
        "copies": copies,
    }
    if winner:
        out["imported"] = {**winner, "editable": _editable_of(winner, editables)}
    if "attr" in found:
        out["attr"] = found["attr"]
    return out


def lines(result: dict[str, Any]) -> list[str]:
    module = one_line(result["module"])
    winner = result["imported"]
    if winner is None:
        out = [f"{module}: not importable with {one_line(result['python'])}"]
        for copy in result["copies"]:
            out.append(f"  a copy exists: {_where(copy)}  ({copy['source']})")
        if result["copies"] and "." in module:
            top = module.split(".")[0]
            out.append(f"  but another {top} comes first: see `dotdbg which {top}`")
        return out
    out = [f"{module} → {_where(winner)}  ({_kind(winner)})"]
    out.append(f"  python: {one_line(result['python'])} {result['version']}")
    if result["preloaded"]:
        out.append("  already imported when the interpreter started (a .pth file or sitecustomize)")
    portions = [c for c in result["copies"] if c["role"] == "namespace portion"]
    for copy in portions:
        out.append(f"  portion: {_where(copy)}  ({copy['source']})")
    found_in = next((c for c in result["copies"] if c["role"] == "imported"), None)
    if found_in is not None:
        out.append(f"  found in: {_entry(found_in)}  ({found_in['source']})")
    shadowed = [c for c in result["copies"] if c["role"] == "shadowed"]
    for copy in shadowed:
        out.append(f"  shadows: {_where(copy)}  ({copy['source']}{_editable_note(copy)})")
    if found_in is not None and found_in["source"] == "current directory" and shadowed:
        out.append(
            "  note: the current directory comes first on sys.path; run from another directory "
            "or rename the local copy to import the other one"
        )
    if "attr" in result:
        out.append(_attr_line(module, result["attr"]))
    return out


def _attr_line(module: str, attr: dict[str, Any]) -> str:
    name = one_line(attr["name"])
    if "error" in attr:
        return f"  {module}:{name}: {one_line(attr['error'])}"
    place = one_line(attr["file"] or "?") + (f":{attr['line']}" if attr.get("line") else "")
    text = f"  {module}:{name} → {place}"
    if attr.get("inherited_from"):
        text += f"  (inherited from {one_line(attr['inherited_from'])})"
    elif attr.get("module") not in (None, module.split(":")[0]):
        text += f"  (defined in {one_line(attr['module'])})"
    return text


def _where(copy: dict[str, Any]) -> str:
    if copy["origin"]:
        return one_line(copy["origin"])
    return ", ".join(one_line(place) for place in copy["locations"]) or one_line(copy["kind"])


def _entry(copy: dict[str, Any]) -> str:
    return one_line(copy["entry"] or ".")


def _kind(copy: dict[str, Any]) -> str:
    note = _editable_note(copy)
    return f"{copy['kind']}{note}"


def _editable_note(copy: dict[str, Any]) -> str:
    dist = copy.get("editable")
    if not dist:
        return ""
    return f", editable install of {one_line(dist['dist'])} {one_line(dist['version'])}"


def _source(entry: str, path: list[dict[str, str]]) -> str:
    if entry.startswith("finder "):
        return f"found by {entry[len('finder ') :]}"
    return next((p["source"] for p in path if p["entry"] == entry), "sys.path")


def _editable_of(copy: dict[str, Any], editables: list[dict[str, str]]) -> dict[str, str] | None:
    places = [copy["origin"]] if copy.get("origin") else list(copy.get("locations", []))
    for dist in editables:
        folder = os.path.realpath(dist["dir"])
        if any(_inside(os.path.realpath(place), folder) for place in places):
            return dist
    if "__editable__" in copy.get("entry", ""):
        return {"dist": copy["entry"].split("__editable___")[-1], "version": "", "dir": ""}
    return None


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _origin_key(copy: dict[str, Any]) -> tuple[str, ...]:
    if copy["origin"]:
        return (os.path.realpath(copy["origin"]),)
    return tuple(sorted(os.path.realpath(place) for place in copy["locations"]))


def _unique(copies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy reached through two entries (a finder and its sys.path entry) is shown once."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for copy in copies:
        key = _origin_key(copy)
        if key not in seen:
            seen.add(key)
            out.append(copy)
    return out
