# shellcheck shell=bash
# dotdbg ssh: bash reads this instead of ~/.bashrc, from the session's private directory,
# which is removed when the session ends.
__dotdbg_session=$DOTDBG_SESSION_DIR __dotdbg_host=$DOTDBG_SESSION_HOST
unset DOTDBG_SESSION_DIR DOTDBG_SESSION_HOST

# readline reads the user's own inputrc first ($include), then dotdbg's; INPUTRC is set before
# anything can call `bind` (which reads the inputrc at once). Exported: pdb and python use it.
__dotdbg_inputrc=${INPUTRC:-~/.inputrc}
[[ -r $__dotdbg_inputrc ]] || __dotdbg_inputrc=/etc/inputrc
[[ -r $__dotdbg_inputrc ]] || __dotdbg_inputrc=/dev/null
printf '$include %s\n' "$__dotdbg_inputrc" "$__dotdbg_session/@INPUTRC@" \
    >"$__dotdbg_session/session.inputrc"
export INPUTRC=$__dotdbg_session/session.inputrc

# What a login shell reads, as plain `ssh HOST` starts one.
if [[ -r /etc/profile ]]; then
    . /etc/profile
fi
if [[ -r ~/.bash_profile ]]; then
    . ~/.bash_profile
elif [[ -r ~/.bash_login ]]; then
    . ~/.bash_login
elif [[ -r ~/.profile ]]; then
    . ~/.profile
fi

PATH=$PATH:$__dotdbg_session/bin # an installed dotdbg comes first
__dotdbg_history=${HISTFILE-~/.bash_history}
. "$__dotdbg_session/@RENDERED@"

# History starts from the user's (read once dotdbg has set its size) and goes to the session
# dir: their history file is not written.
HISTFILE=$__dotdbg_session/history
if [[ -n $__dotdbg_history && -r $__dotdbg_history ]]; then
    history -r "$__dotdbg_history"
fi
unset __dotdbg_history __dotdbg_inputrc
printf 'dotdbg ssh: %s\n' >&2 @SAID@
