from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.aliases.shadows import defined_names, shadow_warnings
from dotdbg.config import bindable, load_config
from dotdbg.config.model import Config
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths


def load(home: Path, text: str) -> Config:
    paths = Paths.from_env(home)
    paths.config_file.parent.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text(text, encoding="utf-8")
    return load_config(paths)


def fails(home: Path, text: str) -> DotdbgError:
    with pytest.raises(DotdbgError) as caught:
        load(home, text)
    return caught.value


def names(config: Config) -> set[str]:
    return {a.name for a in config.aliases} | {f.name for f in config.functions}


def test_defaults_carry_the_methodology(tmp_path: Path) -> None:
    config = load_config(Paths.from_env(tmp_path))
    assert {"pyt", "pytc", "wn", "wnm", "gs", "gp", "gc"} <= {a.name for a in config.aliases}
    assert {"l", "lt", "la", "wrap", "git-replace", "df"} <= {f.name for f in config.functions}
    assert {a.name for a in config.pdb_aliases} == {"nl", "sl", "pd"}
    assert config.history is not None and config.history.control == "ignoredups:ignorespace"
    assert config.readline is not None and config.readline.history_search
    descs = [
        *(a.desc for a in config.aliases),
        *(f.desc for f in config.functions),
        *(p.desc for p in config.pdb_aliases),
    ]
    assert all(descs)


def test_issue_example_config(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        """
[packs]
gpu = false                      # switch a whole pack off
[aliases]
gs = "git status --short"        # short form
pyx = { command = "pytest -x", desc = "pytest, stop at the first failure", pack = "pytest" }
[functions]
mkcd = { body = 'mkdir -p "$1" && cd "$1"', desc = "make a dir and enter it" }
[pdb.aliases]
pl = "pp locals()"
""",
    )
    aliases = {a.name: a for a in config.aliases}
    assert "wn" not in aliases and "wnm" not in aliases
    assert aliases["gs"].command == "git status --short"
    assert aliases["gs"].pack == "git"
    assert aliases["pyx"].desc == "pytest, stop at the first failure"
    assert {f.name: f.body for f in config.functions}["mkcd"] == 'mkdir -p "$1" && cd "$1"'
    assert {p.name: p.command for p in config.pdb_aliases}["pl"] == "pp locals()"


def test_false_removes_a_default(tmp_path: Path) -> None:
    config = load(tmp_path, "[aliases]\ngl = false\n[functions]\ndf = false\n")
    assert "gl" not in names(config) and "df" not in names(config)


def test_removing_an_unknown_name_is_a_warning(tmp_path: Path) -> None:
    config = load(tmp_path, "[aliases]\nnothere = false\n")
    assert any("nothere" in w and ":2:1" in w for w in config.warnings)


def test_user_pack_can_be_switched_off(tmp_path: Path) -> None:
    text = '[packs]\nmine = false\n[aliases]\nxx = { command = "ls", pack = "mine" }\n'
    assert "xx" not in names(load(tmp_path, text))


def test_history_and_readline_packs_switch_off(tmp_path: Path) -> None:
    config = load(tmp_path, "[packs]\nhistory = false\nreadline = false\npdb = false\n")
    assert config.history is None and config.readline is None and not config.pdb_aliases


@pytest.mark.parametrize(
    ("text", "where", "message", "hint"),
    [
        ('[aliases]\n"g s" = "git status"\n', ":2:1", "not a valid alias name", "letters"),
        ('[aliases]\nx = "a\\nb"\n', ":2:1", "newline", "functions"),
        ("[aliases]\nx = 3\n", ":2:1", "must be a string, a table or false", 'x = "..."'),
        ("[aliaes]\nx = 'ls'\n", ":1:1", "unknown key 'aliaes'", "did you mean 'aliases'"),
        ("[packs]\ngpus = false\n", ":2:1", "unknown pack 'gpus'", "did you mean 'gpu'"),
        ("[packs]\ngpu = 0\n", ":2:1", "must be true or false", "gpu = false"),
        ("[history]\nsize = 'big'\n", ":2:1", "must be an integer", "size = 100000"),
        ("[history]\ncontrol = 'ignoredupes'\n", ":2:1", "unknown word", "ignoredups"),
        ("[aliases]\nx = { command = 'ls', desk = 'typo' }\n", ":2:23", "unknown key", "desc"),
        ("[aliases]\nx = { desc = 'no command' }\n", ":2:1", "has no command", "command ="),
        ("[aliases]\ngs = ''\n", ":2:1", "is empty", "give it a command"),
        ("[functions]\nmy.f = { body = 'true' }\n", ":2:1", "is a table inside", '"my.f" ='),
        ('[aliases]\nx = "a\\u0000b"\n', ":2:1", "aliases.x contains a NUL", "remove it"),
        ("[functions]\nf = { body = 'echo \\u0000' }\n", ":2:1", "", ""),
        ('[functions]\nf = { body = "echo \\u0000" }\n', ":2:7", "NUL character", "remove"),
        ('[aliases]\n"x\\u0000" = "ls"\n', ":1:1", "a name in aliases contains a NUL", ""),
        ('[pdb.aliases]\n"a b" = "p 1"\n', ":2:1", "valid pdb alias name in", "digit"),
        ('[pdb.aliases]\npl = "p 1\\np 2"\n', ":2:1", "pdb.aliases.pl contains a newline", ";;"),
        ("[pdb.aliases]\npl = 3\n", ":2:1", "pdb.aliases.pl must be a string", 'pl = "..."'),
        ("[pdb]\naliases = { pl = { command = 'p 1', x = 1 } }\n", ":2:37", "pdb.aliases.pl.x", ""),
        ("[history]\nsize = -5\n", ":2:1", "-1 (unlimited) or more, not -5", "size = 100000"),
        ("aliases = 3\n", ":1:1", "aliases must be a table, not an integer", "[aliases]"),
        (
            "[aliases]\nx = { command = 'ls', desc = \"a\\rb\" }\n",
            ":2:23",
            "desc contains a newline",
            "",
        ),
        ("[readline]\nbindings = { '\\' = 'abort' }\n", ":2:14", "readline key", "C-x"),
        ("\ufeff[aliases]\nx = 'ls'\n", ":1:1", "byte-order mark", "without BOM"),
        (
            "[readline]\nbindings = { '\\C-x' = 'not a function' }\n",
            ":2:14",
            "not a readline",
            "bind -l",
        ),
        (
            '[readline]\nbindings = { "\\\\C-x\\\\C-y" = "no-such-fn" }\n',
            ":2:14",
            "readline has no function 'no-such-fn'",
            "`bind -l` lists",
        ),
        (
            "[readline]\nbindings = { '\\C-xk' = 'kill-whole-lin' }\n",
            ":2:14",
            "readline has no function 'kill-whole-lin'",
            "did you mean 'kill-whole-line'?",
        ),
        ("[readline]\nbindings = { '\\C-xb' = 'vi-bWord' }\n", "", "", ""),
        ("[readline]\nbindings = { '\\C-xk' = 'Kill-Whole-Line' }\n", "", "", ""),
        ('[[cheat.paths]]\nname = "c"\n', ":1:1", "has no path", "path ="),
        (
            '[[cheat.paths]]\nname = "c"\npath = "~"\n[[cheat.paths]]\nname = 1\n',
            ":5:1",
            "string",
            "",
        ),
        ("[aliases]\nx = 'ls'\n[aliases]\ny='ls'\n", ":3:9", "TOML syntax error", "fix the TOML"),
        ('[aliases\nx = "ls"\n', ":1:9", "TOML syntax error", ""),
        ('[aliases]\nx = "ls', ":2:8", "TOML syntax error: unterminated string", "fix the TOML"),
        ('x = { command = "ls"\n\n', ":1:21", "unclosed inline table", ""),
        # a lone backslash at the end escapes the binding's closing quote in every new shell
        ('[cheat]\nkey = "\\\\C-g\\\\"\n', ":2:1", "is not a key sequence", "lone backslash"),
        ("[readline]\nbindings = { '\\C-x\\' = 'abort' }\n", ":2:14", "readline key", "C-x"),
        (
            "x = " + "[" * 5000 + "]" * 5000 + "\n",
            "",
            "nests arrays or tables too deeply",
            "flatten",
        ),
        (
            "[aliases]\ny = " + "{a=" * 3000 + "1" + "}" * 3000 + "\n",
            "",
            "nests arrays or tables too deeply",
            "",
        ),
    ],
)
def test_bad_config_says_where_what_and_how(
    tmp_path: Path, text: str, where: str, message: str, hint: str
) -> None:
    if not message:  # a valid case in the table
        load(tmp_path, text)
        return
    error = fails(tmp_path, text)
    assert error.location.endswith(where), error.location
    assert error.location.startswith(str(Paths.from_env(tmp_path).config_file))
    assert message in error.message
    assert hint in error.hint


def test_invalid_utf8_config(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    paths.config_file.parent.mkdir(parents=True)
    paths.config_file.write_bytes(b"[aliases]\nx = '\xff'\n")
    with pytest.raises(DotdbgError, match="UTF-8"):
        load_config(paths)


def test_user_text_replaces_the_file_for_checking_an_edit(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    config = load_config(paths, user_text='[aliases]\nzz = "echo zz"\n')
    assert "zz" in names(config)
    assert not paths.config_file.exists()


def test_shadow_warnings_say_how_to_reach_the_original(tmp_path: Path) -> None:
    config = load(tmp_path, '[aliases]\nls2 = "ls"\ncd = "echo"\nif = "echo"\n')
    fake_path = {"df": "/bin/df", "ls2": "/usr/bin/ls2"}
    lines = shadow_warnings(config, fake_path.get)
    expected = "alias ls2 shadows /usr/bin/ls2; the original is still `command ls2`, `\\ls2`"
    assert f"{expected}, `/usr/bin/ls2`" in lines
    assert any(
        line.startswith("function df shadows /bin/df") and "`\\df`" not in line for line in lines
    )
    assert any("builtin cd" in line for line in lines)
    assert any("keyword if" in line for line in lines)


def test_a_name_cannot_be_both_alias_and_function(tmp_path: Path) -> None:
    error = fails(tmp_path, '[aliases]\nl = "ls -l"\n')
    assert error.message == "l is both an alias and a function"
    assert error.hint == "remove one of them, e.g. aliases.l = false"
    assert error.location.endswith("config.toml:2:1")


def test_removing_an_unknown_pdb_alias_warns_at_its_line(tmp_path: Path) -> None:
    config = load(tmp_path, "# mine\n[pdb.aliases]\npl = false\n")
    assert [w.split(": ", 1)[1] for w in config.warnings] == [
        "pdb.aliases.pl = false removes nothing"
    ]
    assert config.warnings[0].startswith(f"{Paths.from_env(tmp_path).config_file}:3:1: ")


def test_a_config_that_cannot_be_read_is_an_error_not_ignored(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    paths.config_file.mkdir(parents=True)
    with pytest.raises(DotdbgError) as caught:
        load_config(paths)
    assert caught.value.message == "cannot read config: Is a directory"
    assert caught.value.location == str(paths.config_file)
    assert caught.value.hint.startswith("check the file")


def test_functions_know_whether_their_body_is_the_users(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        "[functions]\nmine = 'true'\nl = { body = 'ls \"$@\"' }\ndf = { desc = 'disk free' }\n",
    )
    user_body = {f.name: f.user_body for f in config.functions}
    assert user_body["mine"] and user_body["l"]
    assert not user_body["df"] and not user_body["wrap"]


def test_any_well_formed_readline_name_passes_without_bash_to_ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bindable, "readline_functions", lambda: None)
    config = load(tmp_path, "[readline]\nbindings = { '\\C-xk' = 'no-such-fn' }\n")
    assert config.readline is not None
    assert config.readline.bindings == (("\\C-xk", "no-such-fn"),)


def test_a_shadow_already_installed_is_not_told_again(tmp_path: Path) -> None:
    config = load(tmp_path, '[aliases]\nls2 = "ls"\n')
    fake_path = {"df": "/bin/df", "ls2": "/usr/bin/ls2"}
    installed = "alias ls2='ls'\n# df: …\nunalias df 2>/dev/null\ndf() {\n    command df\n}\n"
    assert defined_names(installed) == {"ls2", "df"}
    golden = (Path(__file__).parent.parent / "golden/defaults.dotdbg.bash").read_text()
    assert {"df", "l", "wrap", "git-replace", "gs", "pyt"} <= defined_names(golden)
    assert shadow_warnings(config, fake_path.get, said=defined_names(installed)) == []
    assert len(shadow_warnings(config, fake_path.get, said=defined_names(None))) == 2


def test_the_defaults_are_parsed_once_per_process(tmp_path: Path) -> None:
    # issue 22.4: install and an edit load the config twice; defaults.toml was parsed each time
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "import dotdbg.config.source as source\n"
        "from dotdbg.config import DEFAULTS_FILE, load_config\n"
        "from dotdbg.paths import Paths\n"
        "parsed = []\n"
        "real = source.Source.parse\n"
        "def counted(self):\n"
        "    parsed.append(self.path)\n"
        "    return real(self)\n"
        "source.Source.parse = counted\n"
        "paths = Paths.from_env(Path(sys.argv[1]))\n"
        "first = load_config(paths)\n"
        "second = load_config(paths, user_text='[aliases]\\nq = \"w\"\\n')\n"
        "assert first.aliases != second.aliases\n"
        "print(parsed.count(DEFAULTS_FILE), len(parsed))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["1", "2"], done.stderr
