"""dotdbg.cli.parser, the parser of the fast commands: click's syntax, dotdbg's messages."""

from __future__ import annotations

import pytest

from dotdbg.cli.parser import (
    Argument,
    Command,
    Option,
    ShowHelp,
    ShowVersion,
    choice,
    help_text,
    integer,
    number,
    parse,
)
from dotdbg.errors import UsageError

COMMAND = Command(
    "demo",
    "A command to parse with, its summary long enough that the help has to wrap it onto a "
    "second line.",
    lambda values: 0,
    arguments=(
        Argument("size", "How much.", required=True),
        Argument("command", "What to run.", metavar="CMD", many=True),
    ),
    options=(
        Option(["--all", "-a"], "Everything.", default=False),
        Option(["--tree", "-t"], "As a tree.", default=False),
        Option(
            ["--interval", "-n"], "Seconds.", metavar="SECONDS", convert=number(0.1), default=0.5
        ),
        Option(["--samples"], "How many.", metavar="N", convert=integer(1, 100), default=1),
        Option(
            ["--sort"], "Order [rss].", metavar="KEY", convert=choice("rss", "pid"), default="rss"
        ),
        Option(["--device", "-d"], "Repeatable.", metavar="N", default=[]),
        Option(["--random"], "On.", dest="random"),
        Option(["--no-random"], "Off.", dest="random", const=False),
        Option(["--secret"], "Not shown.", metavar="X", hidden=True),
    ),
)


def test_defaults_and_the_words_after_dashes() -> None:
    values = parse(COMMAND, ["5G", "--", "python", "-c", "--all"])
    assert values == {
        "all": False,
        "tree": False,
        "interval": 0.5,
        "samples": 1,
        "sort": "rss",
        "device": [],
        "random": None,
        "secret": None,
        "size": "5G",
        "command": ["python", "-c", "--all"],
    }


@pytest.mark.parametrize(
    ("argv", "dest", "value"),
    [
        (["1", "--interval", "2"], "interval", 2.0),
        (["1", "--interval=2"], "interval", 2.0),
        (["1", "-n2"], "interval", 2.0),
        (["-n", "0.25", "1"], "interval", 0.25),
        (["1", "-at"], "tree", True),
        (["1", "-d", "0", "--device", "GPU-1"], "device", ["0", "GPU-1"]),
        (["1", "--random", "--no-random"], "random", False),
        (["1", "--sort", "pid"], "sort", "pid"),
        (["1", "--secret", "-"], "secret", "-"),
    ],
)
def test_options_as_click_takes_them(argv: list[str], dest: str, value: object) -> None:
    assert parse(COMMAND, argv)[dest] == value


def test_repeated_options_do_not_leak_between_parses() -> None:
    assert parse(COMMAND, ["1", "-d", "0"])["device"] == ["0"]
    assert parse(COMMAND, ["1"])["device"] == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "missing SIZE"),
        (["1", "--bogus"], "no such option: --bogus"),
        (["1", "-x"], "no such option: -x"),
        (["1", "--interval"], "--interval needs a value (SECONDS)"),
        (["1", "--all=yes"], "--all takes no value"),
        (["1", "--interval", "soon"], "--interval 'soon' is not a number"),
        (["1", "--interval", "0.01"], "--interval '0.01': at least 0.1 please"),
        (["1", "--interval", "nan"], "--interval 'nan': at least 0.1 please"),
        (["1", "--samples", "101"], "--samples '101': at most 100 please"),
        (["1", "--samples", "1.5"], "--samples '1.5' is not a whole number"),
        (["1", "--sort", "mem"], "--sort 'mem' is not one of rss, pid"),
    ],
)
def test_usage_errors_are_one_line(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse(COMMAND, argv)
    assert caught.value.message == message


def test_extra_words_are_refused_without_a_many_argument() -> None:
    single = Command("one", "One word.", lambda values: 0, arguments=(Argument("pid", "P"),))
    with pytest.raises(UsageError, match="unexpected argument '2'"):
        parse(single, ["1", "2"])


@pytest.mark.parametrize("argv", [["-h"], ["1", "--help"], ["-ah"]])
def test_help_anywhere_before_dashes(argv: list[str]) -> None:
    with pytest.raises(ShowHelp):
        parse(COMMAND, argv)


def test_version_and_help_after_dashes_are_words() -> None:
    with pytest.raises(ShowVersion):
        parse(COMMAND, ["--version"])
    assert parse(COMMAND, ["1", "--", "--help"])["command"] == ["--help"]


def test_help_text_is_plain_wrapped_and_hides_hidden_options() -> None:
    text = help_text(COMMAND, "dotdbg demo")
    assert text.startswith("usage: dotdbg demo [OPTIONS] SIZE [CMD...]\n\nA command to parse")
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "  -a, --all " in text
    assert "  -n, --interval SECONDS " in text
    assert "      --samples N " in text
    assert "Order [rss]." in text  # brackets are text, never markup
    assert "--secret" not in text
    assert "<" not in text and "{" not in text  # no type tags, no braces


def test_main_answers_help_and_version_and_names_the_help_in_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert COMMAND.main(["--help"], "demo") == 0
    assert capsys.readouterr().out.startswith("usage: demo ")
    assert COMMAND.main(["--version"], "demo") == 0
    assert capsys.readouterr().out.startswith("demo (dotdbg) ")
    with pytest.raises(UsageError) as caught:
        COMMAND.main([], "dotdbg demo")
    assert caught.value.lines("dotdbg") == [
        "dotdbg: error: missing SIZE",
        "hint: see `dotdbg demo --help`",
    ]
