# dotdbg ssh: fish runs this (fish -C) after your config.fish and conf.d, from the session's
# private directory, which is removed when the session ends.
set -g __dotdbg_session $DOTDBG_SESSION_DIR
set -g __dotdbg_host $DOTDBG_SESSION_HOST
set -e DOTDBG_SESSION_DIR DOTDBG_SESSION_HOST

# fish found its history in the session dir (XDG_DATA_HOME pointed there at start, with a copy
# of the user's history): their history file is not written. The rest of the session sees the
# XDG_DATA_HOME the user had, and fish's generated completions where they are.
set -l data $__dotdbg_session/data
if test -n "$DOTDBG_XDG_DATA_HOME"
    set -gx XDG_DATA_HOME $DOTDBG_XDG_DATA_HOME
else
    set -e XDG_DATA_HOME
end
set -e DOTDBG_XDG_DATA_HOME
set -l their_data (set -q XDG_DATA_HOME; and echo $XDG_DATA_HOME; or echo $HOME/.local/share)
set -g __fish_user_data_dir $their_data/fish
set fish_complete_path (string replace -- $data $their_data $fish_complete_path)

# readline programs (python, pdb, gdb) read the user's own inputrc first, then dotdbg's.
set -l inputrc $HOME/.inputrc
set -q INPUTRC; and set inputrc $INPUTRC
test -r $inputrc; or set inputrc /etc/inputrc
test -r $inputrc; or set inputrc /dev/null
printf '$include %s\n' $inputrc $__dotdbg_session/@INPUTRC@ >$__dotdbg_session/session.inputrc
set -gx INPUTRC $__dotdbg_session/session.inputrc

set -gx PATH $PATH $__dotdbg_session/bin # an installed dotdbg comes first
source $__dotdbg_session/@RENDERED@
printf 'dotdbg ssh: %s\n' >&2 @SAID@
