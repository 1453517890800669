"""`dotdbg cheat` as users run it: the installed command in a subprocess, HOME in a tmp dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cheat.cheat_helpers import DOTDBG, FIXTURE_SHEETS, RunCheat, write_sheet

QQGIT = (FIXTURE_SHEETS / "git").read_text()


def test_sheet_narrowed_by_terms(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = run_cheat("qqgit", "bisect", "skip")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "==> qqgit (personal) <==\n"
        "# Skip a commit that cannot be tested (it does not build)\n"
        "git bisect skip\n"
    )
    assert done.stderr == ""


def test_unique_prefix_and_multi_line_command(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = run_cheat("qqgi", "--", "-S")
    assert done.stdout.splitlines()[1:] == [
        "# Search history for commits that added or removed a string",
        "git log -S '<string>' --oneline \\",
        "    -- <path>",
    ]


def test_search_across_sheets_when_word_is_no_sheet(
    personal_dir: Path, community_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqone", "# zorblax the frobs\nfrob --zorblax\n")
    write_sheet(community_dir, "qqtwo", "# unrelated\nzorblax --now\n\n# zorblax later\nlater\n")
    done = run_cheat("zorblax")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "==> qqone (personal) <==\n# zorblax the frobs\nfrob --zorblax\n\n"
        "==> qqtwo (community) <==\n# zorblax later\nlater\n\n# unrelated\nzorblax --now\n"
    )


def test_merge_order_personal_project_then_configured(
    personal_dir: Path, community_dir: Path, work_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqtool", "# mine\nqqtool --mine\n")
    write_sheet(work_dir / ".cheat", "qqtool", "# project's\nqqtool --project\n")
    write_sheet(community_dir, "qqtool", "# community's\nqqtool --community\n")
    nested = work_dir / "src" / "pkg"
    nested.mkdir(parents=True)
    done = run_cheat("qqtool", cwd=nested)  # .cheat/ is found walking up
    headers = [line for line in done.stdout.splitlines() if line.startswith("==>")]
    assert headers == [
        "==> qqtool (personal) <==",
        "==> qqtool (project) <==",
        "==> qqtool (community) <==",
    ]


def test_listing_names_paths_tags_and_counts(
    personal_dir: Path, community_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    write_sheet(community_dir, "qqgit", "---\ntags: [extra]\n---\n# other\nqq other\n")
    done = run_cheat()
    assert done.stdout.splitlines()[0].split() == ["sheet", "entries", "paths", "tags"]
    row = next(line for line in done.stdout.splitlines() if line.startswith("qqgit "))
    assert row.split(None, 2) == ["qqgit", "11", "personal, community  vcs, debugging, extra"]


def test_json_for_scripts(personal_dir: Path, run_cheat: RunCheat) -> None:
    sheet = write_sheet(personal_dir, "qqgit", QQGIT)
    hits = json.loads(run_cheat("--json", "qqgit", "reset", "hard").stdout)
    assert hits == [
        {
            "sheet": "qqgit",
            "label": "personal",
            "file": str(sheet),
            "line": 30,
            "comment": "Point the current branch at <commit>, discarding later work",
            "command": "git reset --hard <commit>",
            "syntax": "bash",
            "tags": ["vcs", "debugging"],
        }
    ]
    listing = json.loads(run_cheat("--json", "-t", "vcs").stdout)
    assert [sheet["name"] for sheet in listing if sheet["name"] == "qqgit"] == ["qqgit"]


def test_an_unknown_tag_says_so_and_names_the_tags_in_use(
    personal_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = run_cheat("-t", "qqnosuchtag")
    assert done.returncode == 1
    first, hint = done.stderr.splitlines()
    assert first == "dotdbg: no sheet is tagged 'qqnosuchtag'"
    assert hint.startswith("hint: tags in use: ") and "vcs" in hint
    assert done.stdout == ""
    assert json.loads(run_cheat("--json", "-t", "qqnosuchtag").stdout) == []


def test_json_with_no_match_is_an_empty_list(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = run_cheat("--json", "qqgit", "zzznothing")
    assert (done.returncode, json.loads(done.stdout)) == (1, [])
    assert "no entry of sheet 'qqgit' matches 'zzznothing'" in done.stderr


def test_commands_only_for_command_substitution(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqtar", (FIXTURE_SHEETS / "tar").read_text())
    done = run_cheat("-c", "qqtar", "extract", "gz")
    assert done.stdout == "tar -xzvf /path/to/foo.tgz\ntar -xzvf /path/to/foo.tar.gz\n"


def test_options_anywhere_and_double_dash(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqtar", (FIXTURE_SHEETS / "tar").read_text())
    expected = "tar -xvf /path/to/foo.tar -C /path/to/destination/\n"
    assert run_cheat("qqtar", "-c", "--", "-C").stdout == expected
    assert run_cheat("-c", "qqtar", "--", "-C").stdout == expected
    refused = run_cheat("qqtar", "-c", "-C")
    assert refused.returncode == 2
    assert refused.stderr.startswith("dotdbg: error: no such option: -C\nhint: ")
    assert "put -- before it" in refused.stderr


def test_tag_filter(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    write_sheet(personal_dir, "qqtar", (FIXTURE_SHEETS / "tar").read_text())
    listed = run_cheat("--tag=compression").stdout
    assert "qqtar" in listed
    assert "qqgit" not in listed
    assert run_cheat("-t", "compression", "qqgit", "bisect").returncode == 1


def test_nothing_found_exits_1_with_did_you_mean(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = run_cheat("qqigt")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "dotdbg: no sheet or entry matches 'qqigt'\nhint: did you mean qqgit?\n"
    done = run_cheat("qqgit", "zzzunmatched")
    assert done.returncode == 1
    assert "no entry of sheet 'qqgit' matches 'zzzunmatched'" in done.stderr


def test_usage_errors_exit_2(run_cheat: RunCheat) -> None:
    for args in (["--colour"], ["--color", "sometimes"], ["-t"], ["--edit", "a", "--new", "b"]):
        done = run_cheat(*args)
        assert done.returncode == 2, args
        assert done.stderr.startswith("dotdbg: error: "), args
        assert "Traceback" not in done.stderr
    assert "usage: dotdbg cheat" in run_cheat("--help").stdout


def test_bad_regex_is_a_user_error(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = run_cheat("-r", "qqgit", "(")
    assert done.returncode == 2
    assert "not a valid regular expression" in done.stderr


def test_regex_search(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = run_cheat("-rc", "qqgit", r"[^.]\.\.<b>$")
    assert done.stdout == "git log --oneline <a>..<b>\n"


def test_color_rules(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    assert "\x1b[" not in run_cheat("qqgit", "skip").stdout  # piped: plain
    colored = run_cheat("--color", "always", "qqgit", "skip").stdout  # NO_COLOR=1 is set: flag wins
    assert "\x1b[1;35m==> qqgit (personal) <==\x1b[0m" in colored
    assert "\x1b[1;31mskip\x1b[0m" in colored
    assert "\x1b[" not in run_cheat("--color=never", "qqgit", "skip").stdout


def test_color_auto_on_a_terminal_honours_no_color(personal_dir: Path, work_dir: Path) -> None:
    import pexpect

    write_sheet(personal_dir, "qqgit", QQGIT)
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    for extra, colored in (({}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False)):
        child = pexpect.spawn(
            DOTDBG, ["cheat", "qqgit", "skip"], env={**env, **extra}, cwd=str(work_dir)
        )
        text = child.read().decode()
        child.close()
        assert ("\x1b[" in text) is colored, extra
        assert "skip" in text


def test_placeholders_highlighted_in_commands(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    colored = run_cheat("--color", "always", "qqgit", "visualize").stdout
    assert "git bisect \x1b[1;31mvisualize\x1b[0m --oneline" in colored
    colored = run_cheat("--color", "always", "qqgit", "start").stdout
    assert "\x1b[32m<bad>\x1b[0m \x1b[32m<good>\x1b[0m" in colored


def test_pipe_closed_early_is_no_error(personal_dir: Path, work_dir: Path) -> None:
    padding = "x" * 200  # 1,500 entries of 200 bytes: more than a pipe holds
    write_sheet(
        personal_dir, "qqbig", "".join(f"# entry {n}\necho {padding}\n\n" for n in range(1500))
    )
    done = subprocess.run(
        f"set -o pipefail; {DOTDBG} cheat qqbig | head -n 2",
        shell=True,
        cwd=work_dir,
        capture_output=True,
        text=True,
        executable="/bin/bash",
    )
    assert done.stdout == "==> qqbig (personal) <==\n# entry 0\n"
    # no message; 141 as for any pipeline member the reader left (README, "Exit codes")
    assert (done.returncode, done.stderr) == (141, "")


def test_bad_sheets_warn_once_and_the_rest_still_work(
    personal_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    write_sheet(personal_dir, "qqbroken", "---\nsyntax: bash\n# never closed\nls\n")
    (personal_dir / "qqlatin1").write_bytes(b"# caf\xe9\nls\n")
    for _ in range(2):  # the second run comes from the index cache and must warn the same
        done = run_cheat("qqgit", "skip")
        assert done.returncode == 0
        assert done.stdout.endswith("git bisect skip\n")
        assert sorted(done.stderr.splitlines()) == [
            "dotdbg: warning: ~/.config/dotdbg/cheatsheets/qqbroken:1:1: front matter is never "
            "closed: end it with a '---' line; sheet skipped",
            "dotdbg: warning: ~/.config/dotdbg/cheatsheets/qqlatin1:1:6: not valid UTF-8: "
            "save the file as UTF-8; sheet skipped",
        ]


def test_dotted_and_hidden_files_are_not_sheets(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "README.md", "# zorblax\nreadme\n")
    write_sheet(personal_dir, ".hidden", "# zorblax\nhidden\n")
    write_sheet(personal_dir, "qqlang/qqrust", "# zorblax\ncargo zorblax\n")
    done = run_cheat("-c", "zorblax")
    assert done.stdout == "cargo zorblax\n"
    assert "qqlang/qqrust" in run_cheat("--names").stdout.splitlines()


def test_malformed_config_warns_and_other_paths_work(
    personal_dir: Path, config_file: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    config_file.write_text("[cheat\n")
    done = run_cheat("-c", "qqgit", "skip")
    assert done.stdout == "git bisect skip\n"
    assert done.stderr.startswith("dotdbg: warning: ~/.config/dotdbg/config.toml: ")
    assert done.stderr.endswith("; its cheat paths are ignored\n")
    assert len(done.stderr.splitlines()) == 1
    config_file.write_text('[[cheat.paths]]\nname = "gone"\npath = "/nonexistent/qq"\n')
    done = run_cheat("-c", "qqgit", "skip")
    assert done.stdout == "git bisect skip\n"
    assert done.stderr == (
        "dotdbg: warning: /nonexistent/qq: cheat path 'gone' is not a directory; skipped\n"
    )


def test_config_paths_relative_and_tilde(
    fake_home: Path, config_file: Path, run_cheat: RunCheat
) -> None:
    write_sheet(fake_home / "src" / "sheets", "qqhome", "# from tilde\nqq tilde\n")
    write_sheet(config_file.parent / "more", "qqrel", "# from relative\nqq relative\n")
    config_file.write_text(
        '[cheat]\nkey = "\\\\C-g"\nalias = "ch"\n'
        '[[cheat.paths]]\nname = "mine"\npath = "~/src/sheets"\n'
        '[[cheat.paths]]\nname = "rel"\npath = "more"\n'
    )
    names = run_cheat("--names").stdout.splitlines()
    assert {"qqhome", "qqrel"} <= set(names)
    assert "==> qqrel (rel) <==" in run_cheat("qqrel").stdout


def test_names_for_completion(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqb", "# b\nb\n")
    write_sheet(personal_dir, "qqa", "# a\na\n")
    names = run_cheat("--names").stdout.splitlines()
    assert names == sorted(names)
    assert [name for name in names if name.startswith("qq")] == ["qqa", "qqb"]


def test_pick_records_for_the_widget(personal_dir: Path, run_cheat: RunCheat) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    records = run_cheat("--pick", "qqgit", "--", "-S").stdout.split("\0")
    assert records[-1] == ""
    shown, command = records[0].split("\x1f")
    assert " ".join(shown.split()) == (
        "qqgit git log -S '<string>' --oneline -- <path>"
        " # Search history for commits that added or removed a string"
    )
    assert command == "git log -S '<string>' --oneline \\\n    -- <path>"


def test_pick_offers_each_command_of_an_entry_alone(
    personal_dir: Path, run_cheat: RunCheat
) -> None:
    write_sheet(personal_dir, "qqtwo", "# two ways\necho one\necho two \\\n  continued\n")
    records = [record.split("\x1f") for record in run_cheat("--pick", "qqtwo").stdout.split("\0")]
    assert [command for _, command in records[:-1]] == ["echo one", "echo two \\\n  continued"]
    assert records[0][0].endswith("# two ways (1/2)")


def test_cwd_deleted_still_works(personal_dir: Path, tmp_path: Path) -> None:
    write_sheet(personal_dir, "qqgit", QQGIT)
    gone = tmp_path / "gone"
    gone.mkdir()
    done = subprocess.run(
        ["bash", "-c", f"cd {gone} && rmdir {gone} && {DOTDBG} cheat -c qqgit skip"],
        capture_output=True,
        text=True,
    )
    assert done.stdout == "git bisect skip\n", done.stderr


def test_python_m_runs_the_same_fast_path(personal_dir: Path, work_dir: Path) -> None:

    write_sheet(personal_dir, "qqgit", QQGIT)
    done = subprocess.run(
        [sys.executable, "-m", "dotdbg", "cheat", "-c", "qqgit", "skip"],
        cwd=work_dir,
        capture_output=True,
        text=True,
    )
    assert done.stdout == "git bisect skip\n"


def test_dotdbg_help_lists_cheat_and_root_options_reach_the_fast_path(
    personal_dir: Path, work_dir: Path
) -> None:
    write_sheet(personal_dir, "qqtar", (FIXTURE_SHEETS / "tar").read_text())
    listing = subprocess.run([DOTDBG, "--help"], capture_output=True, text=True).stdout
    assert "Look up your cheatsheets" in listing
    done = subprocess.run(
        [DOTDBG, "--verbose", "cheat", "-c", "qqtar", "--", "-C"],
        cwd=work_dir,
        capture_output=True,
        text=True,
    )
    assert (done.stdout, done.returncode) == (
        "tar -xvf /path/to/foo.tar -C /path/to/destination/\n",
        0,
    )


def test_a_lookup_with_stdout_closed_ends_quietly(personal_dir: Path, work_dir: Path) -> None:
    """`dotdbg cheat git >&-`: Python has no sys.stdout; the lookup writes nothing, as print()
    would, and ends without a traceback."""
    write_sheet(personal_dir, "qqgit", QQGIT)
    done = subprocess.run(
        f"{DOTDBG} cheat qqgit skip >&-",
        shell=True,
        cwd=work_dir,
        capture_output=True,
        text=True,
        executable="/bin/bash",
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
