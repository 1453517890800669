# dotdbg ssh: your .zlogin, the last file zsh reads at start (see .zshenv here).
__dotdbg_theirs .zlogin
. "$REPLY"
unset __dotdbg_zdotdir REPLY
unfunction __dotdbg_theirs __dotdbg_ours
printf 'dotdbg ssh: %s\n' >&2 @SAID@
