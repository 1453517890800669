# dotdbg ssh: zsh starts with ZDOTDIR set to the session's private directory, so it reads these
# files (.zshenv, .zprofile, .zshrc, .zlogin) there instead of yours. Each sources yours first,
# with ZDOTDIR as you had it, then points ZDOTDIR back here for the next one; .zlogin, the last,
# leaves ZDOTDIR as your files made it.
__dotdbg_session=$DOTDBG_SESSION_DIR __dotdbg_host=$DOTDBG_SESSION_HOST
__dotdbg_zdotdir=$DOTDBG_ZDOTDIR # empty: ZDOTDIR was not set
unset DOTDBG_SESSION_DIR DOTDBG_SESSION_HOST DOTDBG_ZDOTDIR

# REPLY: the user's file $1 (or /dev/null), with ZDOTDIR theirs meanwhile. The file is sourced
# at the top level, not in a function, where `typeset` and `local` would make locals.
__dotdbg_theirs() {
    if [[ -n $__dotdbg_zdotdir ]]; then
        ZDOTDIR=$__dotdbg_zdotdir
    else
        unset ZDOTDIR
    fi
    REPLY=${ZDOTDIR:-$HOME}/$1
    [[ -r $REPLY ]] || REPLY=/dev/null
}
__dotdbg_ours() {
    __dotdbg_zdotdir=${ZDOTDIR-}
    ZDOTDIR=$__dotdbg_session
}

__dotdbg_theirs .zshenv
. "$REPLY"
__dotdbg_ours
