"""How a ``dotdbg ssh`` (or ``dotdbg shell``) session starts each shell: its ShellTarget's
``session``. Imports nothing, as it runs at every session's start (``remote/bootstrap.py``);
the rc files named here are in ``dotdbg/remote/``."""

from __future__ import annotations


class SessionShell:
    """One shell a session can start. A plain class: ``dotdbg ssh`` starts without importing
    dataclasses (inspect) or typing; tests/remote/test_session_files.py checks the names."""

    __slots__ = ("launch", "name", "prepare", "rc_files", "rendered")

    def __init__(
        self,
        name: str,
        rc_files: tuple[tuple[str, str], ...],
        rendered: str,
        launch: str,
        prepare: str = "",
    ) -> None:
        self.name = name  # the program, and what ``$SHELL`` ends with to pick it
        # (name in the session dir, file in dotdbg/remote/): the session's rc files
        self.rc_files = rc_files
        self.rendered = rendered  # the file render makes for this shell (render.Rendered.files)
        # sh words that start it: "$d" is the session dir, "$p" the program ($SHELL or bash)
        self.launch = launch
        self.prepare = prepare  # sh commands run just before, in the script's process


BASH = SessionShell(
    name="bash",
    rc_files=(("session.bash", "session.bash"),),
    rendered="dotdbg.bash",  # render.BASH_FILE
    launch='"$p" --rcfile "$d/session.bash" -i',
)
# zsh has no --rcfile: ZDOTDIR names the session dir, whose files source the user's own
# (their ZDOTDIR travels as DOTDBG_ZDOTDIR). A login shell, as plain ssh starts.
ZSH = SessionShell(
    name="zsh",
    rc_files=tuple(
        (f".{name}", f"session.{name}") for name in ("zshenv", "zprofile", "zshrc", "zlogin")
    ),
    rendered="dotdbg.zsh",  # zshfish.ZSH_FILE
    launch='DOTDBG_ZDOTDIR=${ZDOTDIR-} ZDOTDIR=$d "$p" -il',
)
# fish reads its history from XDG_DATA_HOME at start: a copy of the user's in the session dir,
# which session.fish (run after config.fish by -C) points back to the user's own for the rest.
FISH = SessionShell(
    name="fish",
    rc_files=(("session.fish", "session.fish"),),
    rendered="dotdbg.fish",  # zshfish.FISH_FILE
    prepare=(
        'h=${XDG_DATA_HOME:-$HOME/.local/share}/fish/fish_history; mkdir -p "$d/data/fish" && '
        '{ [ ! -r "$h" ] || cp "$h" "$d/data/fish/fish_history"; }'
    ),
    launch=(
        'DOTDBG_XDG_DATA_HOME=${XDG_DATA_HOME-} XDG_DATA_HOME=$d/data "$p" -il '
        '-C "source \\$DOTDBG_SESSION_DIR/session.fish"'
    ),
)
SHELLS: tuple[SessionShell, ...] = (BASH, ZSH, FISH)  # the first where no other can start
