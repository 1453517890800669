"""The planner on literal disk states: no home directory is read or written here."""

from __future__ import annotations

from pathlib import Path

from dotdbg.config import load_config
from dotdbg.home import blocks
from dotdbg.home.plan import Plan, plan_install, plan_uninstall
from dotdbg.home.render import Rendered
from dotdbg.home.state import State
from dotdbg.paths import Paths

PATHS = Paths.from_env(Path("/nonexistent/home"))
CONFIG = load_config(PATHS, user_text="")
RENDERED = Rendered(
    {"dotdbg.bash": "alias gs='git status'\n", "inputrc": "set bell-style none\n", "pdbrc": ""},
    ("bash",),
)
DATA = PATHS.data_dir


def empty_home(**texts: str) -> State:
    return State({PATHS.home / name: text for name, text in texts.items()}, {})


def after(plan: Plan, state: State) -> State:
    """The disk state once ``plan`` is applied to ``state``."""
    texts = {**state.texts, **{change.path: change.after for change in plan.changes}}
    return State(texts, plan.manifest or {})


def test_an_empty_home_gets_the_files_and_the_blocks() -> None:
    plan = plan_install(PATHS, CONFIG, RENDERED, empty_home(**{".bashrc": "export A=1\n"}))
    actions = {str(change.path.relative_to(PATHS.home)): change.action for change in plan.changes}
    assert actions == {
        ".local/share/dotdbg/dotdbg.bash": "create",
        ".local/share/dotdbg/inputrc": "create",
        ".local/share/dotdbg/pdbrc": "create",
        ".bashrc": "update",
        ".inputrc": "create",
    }
    bashrc = next(change.after for change in plan.changes if change.path == PATHS.bashrc)
    assert bashrc is not None and bashrc.startswith("export A=1\n\n" + blocks.START)
    assert '. "$HOME/.local/share/dotdbg/dotdbg.bash"' in bashrc


def test_a_new_inputrc_includes_the_system_one_only_where_it_exists() -> None:
    for system in (True, False):
        state = State({}, {}, system_inputrc=system)
        inputrc = next(
            change.after
            for change in plan_install(PATHS, CONFIG, RENDERED, state).changes
            if change.path == PATHS.inputrc
        )
        assert inputrc is not None
        assert ("$include /etc/inputrc" in inputrc) is system


def test_an_installed_home_has_nothing_pending() -> None:
    home = empty_home(**{".bashrc": ""})
    installed = after(plan_install(PATHS, CONFIG, RENDERED, home), home)
    assert plan_install(PATHS, CONFIG, RENDERED, installed).pending == ()


def test_uninstall_gives_back_the_texts_from_before() -> None:
    before = empty_home(**{".bashrc": "export A=1\n", ".pdbrc": "alias x p 1\n"})
    installed = after(plan_install(PATHS, CONFIG, RENDERED, before), before)
    removed = after(plan_uninstall(PATHS, installed), installed)
    for path in (PATHS.bashrc, PATHS.pdbrc, PATHS.inputrc, DATA / "dotdbg.bash"):
        assert removed.text(path) == before.text(path), path


def test_a_hand_edited_generated_file_is_a_note() -> None:
    installed = after(plan_install(PATHS, CONFIG, RENDERED, empty_home()), empty_home())
    edited = State({**installed.texts, DATA / "dotdbg.bash": "# mine\n"}, installed.manifest)
    notes = plan_install(PATHS, CONFIG, RENDERED, edited).notes
    assert "~/.local/share/dotdbg/dotdbg.bash was edited by hand since dotdbg wrote it" in notes
