"""The templates compiled to Python (``home/templatecode.py``, issue 27: a render imports no
jinja2): the file is the compiler's output for today's templates, renders exactly what jinja2
renders, and is never used for a template edited since."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dotdbg.config import load_config
from dotdbg.home import render, templatecode
from dotdbg.home.install import render_for
from dotdbg.home.templatecompiler import Unsupported, compile_templates
from dotdbg.home.templaterun import TemplateError
from dotdbg.paths import Paths, resource_dir

FILE = Path(templatecode.__file__)
SHELLS = ("bash", "zsh", "fish")


def test_the_code_is_the_compilers_output_for_the_templates(update_golden: bool) -> None:
    code = compile_templates(render._environment(), resource_dir("templates"))
    if update_golden:
        FILE.write_text(code, encoding="utf-8")
    assert FILE.read_text(encoding="utf-8") == code, (
        "run: pytest tests/test_template_code.py --update-golden"
    )
    assert render.template_digests() == templatecode.SOURCES


def renders(paths: Paths, user_toml: str | None, by_jinja2: bool) -> dict[str, str]:
    """Every generated file and the starter config, through the code or through jinja2."""
    original = dict(templatecode.SOURCES)
    if by_jinja2:
        templatecode.SOURCES.clear()  # as after an edit of a template: the code is not used
    try:
        config = load_config(paths, user_text=user_toml)
        files = render_for(paths, config, SHELLS).files
        return {**files, "config.toml": render.render_starter_config(config)}
    finally:
        templatecode.SOURCES.update(original)


CONFIGS = [
    None,
    "[packs]\nhistory = false\nreadline = false\n",
    '[aliases]\nq = "echo \'it\'\\"s\\" $(date) `id` !! ünï"\ngl = false\n'
    "[functions]\n"
    'mkcd = { body = \'mkdir -p "$1" && cd "$1"\','
    " fish = 'mkdir -p $argv[1]; and cd $argv[1]' }\n"
    "zonly = { zsh = 'print -r -- $1' }\n"
    "[fish]\nabbreviations = true\n"
    '[readline]\nbindings = { "\\\\C-x\\\\C-r" = "re-read-init-file" }\n'
    "esc_p_n = true\nbracketed_paste = false\n[history]\nflush_each_command = false\n",
    '[cheat]\nkey = ""\nalias = ""\n[history]\ncontrol = "ignoreboth"\n',
]


@pytest.mark.parametrize("user_toml", CONFIGS)
def test_the_code_renders_what_jinja2_renders(tmp_path: Path, user_toml: str | None) -> None:
    paths = Paths.from_env(tmp_path)
    assert renders(paths, user_toml, by_jinja2=False) == renders(paths, user_toml, by_jinja2=True)


words = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=12).filter(str.strip)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    aliases=st.dictionaries(st.from_regex(r"zz[a-z0-9_.-]{0,5}", fullmatch=True), words),
    abbreviations=st.booleans(),
)
def test_any_aliases_render_as_jinja2_renders_them(
    tmp_path: Path, aliases: dict[str, str], abbreviations: bool
) -> None:
    rows = "".join(f"{render.tomlquote(n)} = {render.tomlquote(c)}\n" for n, c in aliases.items())
    user = f"[fish]\nabbreviations = {str(abbreviations).lower()}\n[aliases]\n{rows}"
    paths = Paths.from_env(tmp_path)
    assert renders(paths, user, by_jinja2=False) == renders(paths, user, by_jinja2=True)


def test_an_edited_template_is_rendered_by_jinja2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Never the text of a template as it was compiled: an edit is rendered as it is now."""
    shutil.copytree(resource_dir("templates"), tmp_path / "templates")
    monkeypatch.setattr(render, "resource_dir", lambda name: tmp_path / name)
    pdbrc = tmp_path / "templates" / "pdbrc.j2"
    pdbrc.write_text(pdbrc.read_text() + "# edited after the compile\n")
    paths = Paths.from_env(tmp_path / "home")
    files = render_for(paths, load_config(paths), ("bash",)).files
    assert files["pdbrc"].endswith("# edited after the compile\n")


# -- the compiler and its run-time, template by template ---------------------------------------


def both(tmp_path: Path, template: str, **variables: Any) -> tuple[str, str]:
    """``template`` rendered by jinja2 (dotdbg's options) and by its compiled code."""
    by_code = _render_code(_compiled(tmp_path, template), variables)
    return render._environment().from_string(template).render(variables), by_code


def _render_code(namespace: dict[str, Any], variables: dict[str, Any]) -> str:
    from dotdbg.home.templaterun import builtin_filters

    filters = render.own_filters()
    filters = {**builtin_filters(filters), **filters}
    out: list[str] = []
    namespace["TEMPLATES"]["t.j2"](dict(variables), filters, out.append)
    return "".join(out)


class Item:
    def __init__(self, name: str, on: bool) -> None:
        self.name, self.on = name, on


ITEMS = [Item("a b", True), Item("c'd", False), Item("e", True)]


@pytest.mark.parametrize(
    ("template", "variables"),
    [
        ("{{ xs | map(attribute='name') | join(', ') }}", {"xs": ITEMS}),
        ("{{ xs | map(attribute='name') | map('shquote') | join(' ') }}", {"xs": ITEMS}),
        ("{{ xs | selectattr('on') | map(attribute='name') | list }}", {"xs": ITEMS}),
        ("{{ xs | rejectattr('on') | join(attribute='name') }}", {"xs": ITEMS}),
        ("{{ ds | map(attribute='k.0') | join }}", {"ds": [{"k": "xy"}, {"k": "zw"}]}),
        ("{{ ws | reject('in', ('b', 'c')) | join('|') }}", {"ws": ["a", "b", "c", "d"]}),
        ("{{ ws | select | list }}", {"ws": ["", "a", 0, 1]}),
        ("{{ missing | default('all') }}-{{ there | default('x') }}", {"there": ""}),
        ("{{ '' | default('x', true) }}", {}),
        ("{% for k, v in pairs %}{{ k ~ '=' ~ v }};{% endfor %}", {"pairs": [("a", 1), ("b", 2)]}),
        ("{% set n = 1 %}{% for x in xs %}{% set n = 2 %}{{ n }}{% endfor %}{{ n }}", {"xs": "ab"}),
        ("{% with p = 'w' %}{{ p }}{% endwith %}{{ p | default('out') }}", {}),
        ("{% if a %}A{% elif b %}B{% else %}C{% endif %}", {"a": 0, "b": [1]}),
        ("{{ 'y' if a != 1 and not b or c else 'n' }}{{ d['k'] }}{{ d.k }}", {
            "a": 2, "b": False, "c": 0, "d": {"k": "v"},
        }),
        ("  {% if x %}\n  line\n  {% endif %}\nend{{ x }}\n\n", {"x": 1}),
    ],
)  # fmt: skip
def test_each_construct_renders_as_in_jinja2(
    tmp_path: Path, template: str, variables: dict[str, Any]
) -> None:
    by_jinja2, by_code = both(tmp_path, template, **variables)
    assert by_code == by_jinja2


@pytest.mark.parametrize(
    "template",
    ["{{ nothing }}", "{{ d.missing }}", "{% for x in nothing %}{% endfor %}", "{{ d.a.b }}"],
)
def test_an_undefined_value_is_an_error_as_in_jinja2(tmp_path: Path, template: str) -> None:
    with pytest.raises(jinja2.UndefinedError):
        render._environment().from_string(template).render(d={"a": SimpleNamespace()})
    with pytest.raises(TemplateError):
        _render_code(_compiled(tmp_path, template), {"d": {"a": SimpleNamespace()}})


def _compiled(tmp_path: Path, template: str) -> dict[str, Any]:
    folder = tmp_path / "templates"
    folder.mkdir(exist_ok=True)
    (folder / "t.j2").write_text(template)
    namespace: dict[str, Any] = {}
    exec(compile_templates(render._environment(), folder), namespace)
    return namespace


@pytest.mark.parametrize(
    ("template", "said"),
    [
        ("{% macro m() %}x{% endmacro %}", "Macro"),
        ("{% for x in xs %}{{ loop.index }}{% endfor %}", "the loop variable"),
        ("{% for x in xs if x %}{% endfor %}", "a for loop with else"),
        ("\n{{ xs | join(*args) }}", "t.j2:2: a filter with"),
        ("{{ 1 + 2 }}", "Add"),
    ],
)
def test_the_compiler_refuses_what_it_does_not_translate(
    tmp_path: Path, template: str, said: str
) -> None:
    with pytest.raises(Unsupported, match=said):
        _compiled(tmp_path, template)


@pytest.mark.slow
def test_a_wheel_without_jinja2_renders_every_file(wheel_venv: Path, tmp_path: Path) -> None:
    """The wheel carries the compiled templates and the templates they were compiled from
    (``dotdbg/templates``): its render needs no jinja2, and gives this checkout's text."""
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from dotdbg.config import load_config\n"
        "from dotdbg.home.install import render_for\n"
        "from dotdbg.paths import Paths\n"
        "paths = Paths.from_env(Path(sys.argv[1]))\n"
        "files = render_for(paths, load_config(paths), ('bash', 'zsh', 'fish')).files\n"
        "print(json.dumps([files, 'jinja2' in sys.modules]))\n"
    )
    python = wheel_venv / "bin" / "python"
    done = subprocess.run(
        [python, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    files, imported = json.loads(done.stdout)
    assert imported is False
    paths = Paths.from_env(tmp_path)
    assert files == render_for(paths, load_config(paths), SHELLS).files
