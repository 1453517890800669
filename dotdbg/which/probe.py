"""Run inside the interpreter the user would run (``python -c``), never imported by dotdbg.

Prints one JSON object on stdout: ``sys.path`` with where each entry came from, the spec the
import system would pick for MODULE (found by asking ``sys.meta_path``'s finders, as ``import``
does, without running the module), every copy of it on ``sys.path``, the editable installs,
and, when an attribute was asked for, where it is defined (that part imports the module).
Standard library only, and it must run on every Python the user may have.

argv: MODULE ATTR (ATTR empty for none).
"""

from __future__ import annotations

import sys

# The current directory comes first on sys.path under `python -c`: a json.py there would be
# imported in place of the standard library's. Our own imports look past it.
_modules_at_start = {name: getattr(m, "__file__", None) for name, m in sys.modules.items()}
_saved_path = sys.path[:]
sys.path[:] = [entry for entry in sys.path if entry not in ("", ".")]
import importlib.machinery  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sysconfig  # noqa: E402

sys.path[:] = _saved_path


def path_sources() -> list[dict[str, str]]:
    python_path = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    stdlib = {os.path.realpath(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib")}
    site_dirs = {os.path.realpath(sysconfig.get_paths()[key]) for key in ("purelib", "platlib")}
    user_site = os.path.realpath(getattr(__import__("site"), "USER_SITE", "") or "/nonexistent")
    out = []
    for entry in sys.path:
        real = os.path.realpath(entry or ".")
        if entry in ("", ".") or real == os.path.realpath("."):
            source = "current directory"
        elif entry in python_path or real in {os.path.realpath(p) for p in python_path}:
            source = "PYTHONPATH"
        elif real in site_dirs:
            source = "site-packages"
        elif real == user_site:
            source = "user site-packages"
        elif real in stdlib or real.startswith(tuple(stdlib)) or entry.endswith(".zip"):
            source = "standard library"
        else:
            source = "added by a .pth file or at start-up"
        out.append({"entry": entry, "real": real, "source": source})
    return out


def describe(spec: object) -> dict[str, object]:
    origin = getattr(spec, "origin", None)
    locations = list(getattr(spec, "submodule_search_locations", None) or [])
    loader = getattr(spec, "loader", None)
    if origin in (None, "namespace") and locations:
        kind = "namespace package"
        origin = None
    elif origin in ("built-in", "frozen"):
        kind = str(origin)
    elif locations:
        kind = "package"
    elif isinstance(loader, importlib.machinery.ExtensionFileLoader):
        kind = "extension module"
    else:
        kind = "module"
    return {"origin": origin, "kind": kind, "locations": locations}


def find_spec(name: str) -> tuple[object, str]:
    """The spec ``import name`` would use and the finder that gave it, parents not run."""
    path = None
    spec: object = None
    finder_name = ""
    parts = name.split(".")
    for depth in range(1, len(parts) + 1):
        spec, finder_name = None, ""
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            found = find(".".join(parts[:depth]), path) if find else None
            if found is not None:
                spec = found
                finder_name = getattr(finder, "__name__", type(finder).__name__)
                break
        if spec is None:
            return None, ""
        path = getattr(spec, "submodule_search_locations", None)
        if path is None and depth < len(parts):
            return None, ""
    return spec, finder_name


def copies(name: str) -> list[dict[str, object]]:
    """The module's copy in each sys.path entry and from each other finder (an editable
    install's), whichever the import picks; for a dotted name, under each parent copy."""
    top, _, rest = name.partition(".")
    starts: list[tuple[str, object]] = []
    for entry in sys.path:
        starts.append((entry, importlib.machinery.PathFinder.find_spec(top, [entry or "."])))
    for finder in sys.meta_path:
        if finder in SKIPPED_FINDERS or not hasattr(finder, "find_spec"):
            continue
        label = getattr(finder, "__name__", type(finder).__name__)
        try:
            starts.append(("finder " + label, finder.find_spec(top, None)))
        except Exception:  # a third-party finder's bug is not the user's question
            continue
    out = []
    for entry, spec in starts:
        for part in rest.split(".") if rest else []:
            locations = getattr(spec, "submodule_search_locations", None)
            spec = importlib.machinery.PathFinder.find_spec(part, list(locations or []))
            if spec is None:
                break
        if spec is not None:
            out.append(dict(describe(spec), entry=entry))
    return out


SKIPPED_FINDERS = (
    importlib.machinery.PathFinder,
    importlib.machinery.BuiltinImporter,
    importlib.machinery.FrozenImporter,
)


def editables() -> list[dict[str, str]]:
    try:
        from importlib import metadata
        from urllib.parse import unquote, urlparse
    except ImportError:
        return []
    out = []
    for dist in metadata.distributions():
        try:
            text = dist.read_text("direct_url.json")
            data = json.loads(text) if text else {}
        except (OSError, ValueError):
            continue
        if not data.get("dir_info", {}).get("editable"):
            continue
        url = urlparse(data.get("url", ""))
        folder = unquote(url.path) if url.scheme == "file" else data.get("url", "")
        out.append({"dist": dist.metadata["Name"] or "", "version": dist.version, "dir": folder})
    return out


def attribute(name: str, attr: str) -> dict[str, object]:
    import importlib
    import inspect

    top = name.split(".")[0]
    for loaded in [m for m in sys.modules if m == top or m.startswith(top + ".")]:
        if loaded not in _modules_at_start:  # our own `import json` must not answer for theirs
            del sys.modules[loaded]
    try:
        obj: object = importlib.import_module(name)
    except BaseException as error:  # the user's module may raise anything, SystemExit too
        return {"error": f"importing {name} failed: {type(error).__name__}: {error}"}
    owner: object = None
    for part in attr.split("."):
        owner = obj
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return {"error": f"{name} has no attribute {attr!r} ({part!r} is missing)"}
    out: dict[str, object] = {"qualname": getattr(obj, "__qualname__", attr)}
    if inspect.isclass(owner):
        last = attr.split(".")[-1]
        definer = next((k for k in inspect.getmro(owner) if last in vars(k)), None)
        if definer is not None and definer is not owner:
            out["inherited_from"] = f"{definer.__module__}.{definer.__qualname__}"
    target = inspect.unwrap(obj) if callable(obj) else obj
    target = getattr(target, "__func__", target)
    try:
        out["file"] = inspect.getsourcefile(target)  # type: ignore[arg-type]
        out["line"] = inspect.getsourcelines(target)[1]  # type: ignore[arg-type]
    except (TypeError, OSError):
        out["file"] = getattr(inspect.getmodule(target), "__file__", None)
        out["line"] = None
    out["module"] = getattr(target, "__module__", None) or name
    return out


def main(name: str, attr: str) -> dict[str, object]:
    spec, finder = find_spec(name)
    result: dict[str, object] = {
        "python": sys.executable,
        "version": ".".join(str(part) for part in sys.version_info[:3]),
        "cwd": os.getcwd(),
        "path": path_sources(),
        "module": name,
        "found": dict(describe(spec), finder=finder) if spec is not None else None,
        "preloaded": name in _modules_at_start,  # by site, a .pth file or sitecustomize
        "preloaded_file": _modules_at_start.get(name),
        "copies": copies(name),
        "editables": editables(),
    }
    if attr and spec is not None:
        result["attr"] = dict(attribute(name, attr), name=attr)
    return result


if __name__ == "__main__":
    # what the user's module prints while it is imported goes to stderr, not into our JSON
    _json_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    _json_out.write(json.dumps(main(sys.argv[1], sys.argv[2])))
    _json_out.close()
