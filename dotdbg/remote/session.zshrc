# dotdbg ssh: your .zshrc, then dotdbg's (see .zshenv here).
__dotdbg_theirs .zshrc
. "$REPLY"

# readline programs (python, pdb, gdb) read the user's own inputrc first, then dotdbg's.
__dotdbg_inputrc=${INPUTRC:-$HOME/.inputrc}
[[ -r $__dotdbg_inputrc ]] || __dotdbg_inputrc=/etc/inputrc
[[ -r $__dotdbg_inputrc ]] || __dotdbg_inputrc=/dev/null
printf '$include %s\n' "$__dotdbg_inputrc" "$__dotdbg_session/@INPUTRC@" \
    >"$__dotdbg_session/session.inputrc"
export INPUTRC=$__dotdbg_session/session.inputrc

path+=("$__dotdbg_session/bin") # an installed dotdbg comes first
# Where dotdbg's compinit (at the first prompt, when nothing else ran it) writes its dump: here,
# not in their ZDOTDIR; the session leaves nothing behind.
__dotdbg_zcompdump=$__dotdbg_session/.zcompdump
__dotdbg_history=${HISTFILE:-${ZDOTDIR:-$HOME}/.zsh_history}
. "$__dotdbg_session/@RENDERED@"

# History starts from the user's (read once dotdbg has set its size) and goes to the session
# dir: their history file is not written. zsh reads HISTFILE itself only after .zlogin, when
# it names a file not there yet.
HISTFILE=$__dotdbg_session/history
[[ -r $__dotdbg_history ]] && fc -R "$__dotdbg_history"
unset __dotdbg_history __dotdbg_inputrc
__dotdbg_ours
