from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dotdbg.aliases.expand import expand
from tests.alias.realbash import bash_parses, bash_runs

ALIASES = {
    "pyt": "pytest --disable-warnings -rA",
    "ll": "ls -l",
    "ls": "ls -F",
    "gs": "git status",
    "sudo": "sudo ",
    "a": "b ",
    "b": "c",
    "loop1": "loop2 x",
    "loop2": "loop1 y",
    "both": "echo one; echo two",
    "X": "Y=1 ll",
}

CASES = [
    "pyt tests/test_x.py -k foo",
    "ll /tmp",
    "ls",
    "echo ll gs",
    "\\ls -a",
    "'ls' -a",
    '"ll"',
    "l\\l",
    "sudo ll /root",
    "a b",
    "loop1 z",
    "gs; ll && ll || ll | ll & ll",
    "(ll) ; { gs; }",
    "if gs; then ll; else pyt; fi",
    "while gs; do ll; done",
    "X=1 Y=2 ll",
    "both; gs",
    "X",
    "gs # ll in a comment\nll",
    "! gs",
    "time ll",
    "ll > out; ll 2>&1 | ll",
    "for f in ll gs; do ll $f; done",
    "case ll in ll) ll;; gs) gs;; esac",
    "function ll { gs; }",
    "cat <<EOF\nll\nEOF\nll",
    'cat <<-"E F" && ll\n\tll\n\tE F\nll',
    "[[ -n ll ]] && ll",
    "x=(ll gs) ll",
    "((x = 1)) && ll",
    "case x in (ll) ll;; esac",
    "case ll in ll|gs) ll ;& gs) gs ;;& *) ll ;; esac",
    "case x in\n  ll | gs )\n    ll\n    ;;\n  (*) gs ;;\nesac",
    "case x in a) case y in ll) ll;; esac;; ll) ll; esac; ll",
    "case x\nin ll) (ll) ;; gs) { ll; } ;; esac",
    "(( ll )) && ll",
    "if (( ll > 1 )); then ll; fi",
    "for ((i = 0; i < 2; i++)) do ll; done",
    "((ll) )",
    "coproc N { ll; }",
]


@pytest.mark.parametrize("command", CASES)
def test_expansion_parses_as_bash_parses_the_original(command: str) -> None:
    original = bash_parses(command, ALIASES)
    assert original, f"bash could not parse {command!r}"
    assert bash_parses(expand(command, ALIASES).text, {}) == original


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("pyt tests/test_x.py -k foo", "pytest --disable-warnings -rA tests/test_x.py -k foo"),
        ("ll /tmp", "ls -F -l /tmp"),
        ("sudo ll /root", "sudo ls -F -l /root"),
        ("a b", "c c"),
        ("loop1 z", "loop1 y x z"),
        ("\\ls -a", "\\ls -a"),
        ("echo ll", "echo ll"),
        ("gs;ll", "git status;ls -F -l"),
    ],
)
def test_expanded_text(command: str, expected: str) -> None:
    assert expand(command, ALIASES).text == expected


ECHOING = {"ll": "echo LL", "gs": "echo GS ", "two": "echo 2; echo two"}


@pytest.mark.parametrize(
    "command",
    [
        "echo $(ll x) \"$(gs ll)\" `gs` '$(ll)' $((1 + 2))",
        'echo "$(ll $(gs))"',
        "cat <(two) <(ll)",
        "echo $(two)",
    ],
)
def test_commands_inside_substitutions_run_as_bash_runs_them(command: str) -> None:
    expanded = expand(command, ECHOING).text
    assert "$(ll" not in expanded.replace("'$(ll)'", "")
    ran = bash_runs(command, ECHOING)
    assert ran.strip()
    assert bash_runs(expanded, {}) == ran


def test_functions_are_named_not_inlined() -> None:
    result = expand("l src | lt; echo l; wrap l", {"lt": "l -t"}, functions={"l", "wrap"})
    assert result.text == "l src | l -t; echo l; wrap l"
    assert result.functions == ("l", "l", "wrap")
    assert result.aliases == ("lt",)


# -- hypothesis: random alias sets and commands against the real bash ---------------------------

NAMES = ["a", "b", "c", "ls", "gs"]
PLAIN = ["echo", "x", "-l", "X=1", "'a'", "\\b", '"c d"', "$(x)", "> o", "2>&1", "<<<w"]
SEPARATORS = ["; ", " && ", " || ", " | ", "\n", " & ", ";"]
PREFIXES = ["", "", "! ", "time ", "X=2 ", "{ "]
WRAPPERS = [
    "{}",
    "( {} )",
    "{{ {}; }}",
    "if {0}; then {0}; else {0}; fi",
    "while {0}; do {0}; done",
    "f() {{ {}; }}",
    "{} # a comment with b",
    "case a in (b | c) {0};; gs) {0} ;& esac",
    "(( a + b )) && {0}",
    "for ((a = 0; a < 1; a++)) do {0}; done",
    "coproc N {{ {0}; }}",
]

words = st.sampled_from(NAMES + PLAIN)
simple_commands = st.tuples(
    st.sampled_from(PREFIXES[:-1]), st.lists(words, min_size=1, max_size=4).map(" ".join)
).map("".join)
alias_values = st.tuples(
    st.sampled_from(PREFIXES),
    st.lists(words, min_size=1, max_size=3).map(" ".join),
    st.sampled_from(["", " ", "  ", "; echo v", " | cat", " > o", "; ", "\t"]),
).map("".join)


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    parts = draw(st.lists(simple_commands, min_size=1, max_size=3))
    line = draw(st.sampled_from(SEPARATORS)).join(parts)
    return draw(st.sampled_from(WRAPPERS)).format(line)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    aliases=st.dictionaries(st.sampled_from(NAMES), alias_values, max_size=4), line=command_lines()
)
def test_random_aliases_expand_as_bash_expands_them(aliases: dict[str, str], line: str) -> None:
    original = bash_parses(line, aliases)
    assume(original)  # bash rejected it (e.g. `X=1` alone before `|`): nothing to compare
    assert bash_parses(expand(line, aliases).text, {}) == original


def test_a_value_that_ends_inside_a_quote_is_reported() -> None:
    # Bash reads on from the value into the typed text; the model expands value by value.
    result = expand("q y' ll; ll", {"q": "echo 'x", "ll": "ls -l"})
    assert result.open_ended == ("q",)
    assert expand("ll; ll", {"ll": "ls -l"}).open_ended == ()
