# dotdbg ssh: your .zprofile (see .zshenv here).
__dotdbg_theirs .zprofile
. "$REPLY"
__dotdbg_ours
