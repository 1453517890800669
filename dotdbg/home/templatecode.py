"""Written by dotdbg/home/templatecompiler.py from templates/*.j2: do not edit.

Each template as a function that appends its text; ``render`` calls them while ``SOURCES``
(each template's sha256) matches the templates, and jinja2 otherwise.
`pytest tests/test_template_code.py --update-golden` writes this file again.
"""

from __future__ import annotations

from dotdbg.home.templaterun import Filters, Scope, Undefined, Write, attr, concat, item, name


def t_cheat_widget_bash_j2(s0: Scope, f: Filters, w: Write) -> None:
    s0['part'] = f['default'](name(s0, 'part'), 'all')
    if (name(s0, 'part') != 'register'):
        w("\n# -- dotdbg cheat: a picker that puts a cheatsheet command on the prompt line (never runs it)\n# Picker: fzf when installed, else dotdbg's numbered list; DOTDBG_CHEAT_PICKER=list forces it.\n# `dotdbg cheat --pick` prints one record per command, NUL-terminated: what to show, \\x1f, the\n# command; a sheet's control characters arrive escaped, so neither part can hold \\x1f or NUL.\n")
        w('\n# Insert $1 at the cursor and move the cursor to its first <placeholder>, if it has one.\n__dotdbg_cheat_insert() {\n    local picked=$1 placeholder=\'<[[:alnum:]_][^<>]*>\' before\n    before=$picked\n    if [[ $picked =~ $placeholder ]]; then\n        before=${picked%%"${BASH_REMATCH[0]}"*}\n    fi\n    READLINE_LINE=${READLINE_LINE:0:READLINE_POINT}$picked${READLINE_LINE:READLINE_POINT}\n    READLINE_POINT=$((READLINE_POINT + ${#before}))\n}\n\n# fzf prints the key that ended it (Enter or ctrl-y), then the record: ctrl-y copies the command.\n__dotdbg_cheat_fzf() {\n    local -a out\n    mapfile -d \'\' -t out < <(command dotdbg cheat --pick --shell bash 2>/dev/null |\n        fzf --read0 --print0 --delimiter=$\'\\x1f\' --with-nth=1 --height=40% --reverse \\\n            --expect=ctrl-y --header=\'Enter: put on the line, Ctrl-Y: copy\' --prompt=\'cheat> \')\n    ((${#out[@]} == 2)) || return 1\n    if [[ ${out[0]} == ctrl-y ]]; then\n        printf \'%s\' "${out[1]#*$\'\\x1f\'}" | command dotdbg cheat --copy >&2\n        return 1\n    fi\n    printf \'%s\' "${out[1]#*$\'\\x1f\'}"\n}\n\n# The numbered list: dotdbg draws it on the terminal, below the prompt line it shows again\n# (bash blanks that line while a key binding runs), and erases it all when done.\n__dotdbg_cheat_numbered() {\n    local prompt=${PS1@P}\n    command dotdbg cheat --menu --shell bash --above "${prompt##*$\'\\n\'}$READLINE_LINE"\n}\n\n# The dotdbg program gone (pipx uninstall, a removed venv), these files not: one line the\n# first time `ch` or the picker asks for it, silence after. `type -P` runs no program.\n__dotdbg_present() {\n    type -P dotdbg >/dev/null && return 0\n    if [[ -z ${__dotdbg_gone_said-} ]]; then\n        __dotdbg_gone_said=1\n        printf \'%s\\n\' "dotdbg: the dotdbg program is gone, its shell files are not: reinstall it and run \\`dotdbg uninstall\\`, or delete the dotdbg blocks (# >>> dotdbg >>>) from ~/.bashrc, ~/.inputrc and ~/.pdbrc, and ~/.local/share/dotdbg" >&2\n    fi\n    return 127\n}\n\n__dotdbg_cheat_widget() {\n    local picked\n    __dotdbg_present || return 0\n    if [[ ${DOTDBG_CHEAT_PICKER-} != list ]] && command -v fzf >/dev/null 2>&1; then\n        picked=$(__dotdbg_cheat_fzf) || return 0\n    else\n        picked=$(__dotdbg_cheat_numbered) || return 0\n    fi\n    if [[ -n $picked ]]; then\n        __dotdbg_cheat_insert "$picked"\n    fi\n}\n\n')
        w('# COMPREPLY: the words after $1 that start with $1, each quoted for the command line. They are\n# data: compgen -W would expand $(...) and `...` in them, and run code at a press of TAB.\n__dotdbg_complete_words() {\n    local prefix=$1 candidate\n    shift\n    COMPREPLY=()\n    for candidate; do\n        [[ $candidate == "$prefix"* ]] || continue\n        printf -v candidate \'%q\' "$candidate"\n        COMPREPLY+=("$candidate")\n    done\n}\n\n# Completion for `dotdbg cheat` words: options, sheet names for the first word and --edit.\n__dotdbg_cheat_complete() {\n    local word=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD - 1]}\n    local index=1 seen_word=0\n    [[ ${COMP_WORDS[0]} == dotdbg ]] && index=2 # `dotdbg cheat ...` rather than the alias\n    for (( ; index < COMP_CWORD; index++)); do\n        case ${COMP_WORDS[index]} in\n            ')
        w(str(f['join'](attr(name(s0, 'completion'), 'cheat_values'), ' | ')))
        w(')\n                ((index++))\n                ;;\n            -*) ;;\n            *) seen_word=1 ;;\n        esac\n    done\n    COMPREPLY=()\n    case $previous in\n        --color) __dotdbg_complete_words "$word" auto always never ;;\n        ')
        w(str(f['join'](f['reject'](attr(name(s0, 'completion'), 'cheat_values'), 'in', ('--color', '-e', '--edit', '--add')), ' | ')))
        w(') ;;\n        *)\n            if [[ $word == -* ]]; then\n                __dotdbg_complete_words "$word" ')
        w(str(f['join'](attr(name(s0, 'completion'), 'cheat_options'), ' ')))
        w('\n            elif [[ $previous == -e || $previous == --edit || $previous == --add ]] ||\n                ((!seen_word)); then\n                local -a names\n                mapfile -t names < <(command dotdbg cheat --names 2>/dev/null)\n                __dotdbg_complete_words "$word" "${names[@]}"\n            fi\n            ;;\n    esac\n}\n\n')
    if (name(s0, 'part') != 'functions'):
        w('if [[ $- == *i* ]]; then\n')
        if attr(name(s0, 'cheat'), 'key'):
            w('    # Not in `bash -i -c CMD` (an editor reading your environment, a one-shot over ssh): it\n    # edits no command line, and the first bind would load readline and read inputrc for it.\n    if [[ $- != *c* ]]; then\n        bind -m emacs -x ')
            w(str(f['shquote'](concat('"', attr(name(s0, 'cheat'), 'key'), '": __dotdbg_cheat_widget'))))
            w('\n        bind -m vi-insert -x ')
            w(str(f['shquote'](concat('"', attr(name(s0, 'cheat'), 'key'), '": __dotdbg_cheat_widget'))))
            w('\n    fi\n')
        if attr(name(s0, 'cheat'), 'alias'):
            w('    alias ')
            w(str(f['shquote'](concat(attr(name(s0, 'cheat'), 'alias'), '=__dotdbg_present && dotdbg cheat'))))
            w('\n    complete -F __dotdbg_cheat_complete ')
            w(str(f['shquote'](attr(name(s0, 'cheat'), 'alias'))))
            w('\n')
        w('    :\nfi\n')


def t_cheat_widget_zsh_j2(s0: Scope, f: Filters, w: Write) -> None:
    w('\n# -- TAB completion for dotdbg and its helpers (runs dotdbg only when TAB is pressed) --------\n# `dotdbg --complete WORDS` answers from dotdbg\'s command registry: the candidates, or what to\n# complete here (::dir, ::file, ::none, or cheat\'s and the aliases\' own lists).\n_dotdbg() {\n    local -a found\n    found=(${(f)"$(command dotdbg --complete "${(@)words[1,CURRENT]}" 2>/dev/null)"})\n    case ${found[1]-} in\n        ::dir) _files -/ ;;\n        ::file) _files ;;\n        ::none) ;;\n        ::cheat)\n            if [[ ${words[CURRENT-1]} == --color ]]; then\n                compadd -- auto always never\n            elif [[ ${words[CURRENT]} == -* ]]; then\n                compadd -- ')
    w(str(f['join'](attr(name(s0, 'completion'), 'cheat_options'), ' ')))
    w('\n            else\n                compadd -- ${(f)"$(command dotdbg cheat --names 2>/dev/null)"}\n            fi\n            ;;\n        ::aliases) compadd -- ')
    w(str(f['join'](f['map'](f['entry_names'](name(s0, 'config')), 'shquote'), ' ')))
    w(' ;;\n        *) compadd -- $found ;;\n    esac\n}\n# compdef comes with compinit: now if it ran (oh-my-zsh, most setups). Else at the first prompt:\n# by then a framework loaded after this block has run it; if nothing has (a stock Debian zsh,\n# whose /etc/zsh/zshrc runs it only on Ubuntu), it runs here, once, from its dump file (a\n# dotdbg ssh session names one in its own directory: the session leaves nothing on the host).\nif (( $+functions[compdef] )); then\n    compdef _dotdbg dotdbg ')
    w(str(f['join'](attr(name(s0, 'completion'), 'helpers'), ' ')))
    w('\nelse\n    __dotdbg_compdef() {\n        precmd_functions=(${precmd_functions:#__dotdbg_compdef})\n        if (( ! $+functions[compdef] )); then\n            autoload -Uz compinit\n            compinit -i -d "${__dotdbg_zcompdump:-${ZDOTDIR:-$HOME}/.zcompdump}"\n        fi\n        compdef _dotdbg dotdbg ')
    w(str(f['join'](attr(name(s0, 'completion'), 'helpers'), ' ')))
    w('\n    }\n    precmd_functions+=(__dotdbg_compdef)\nfi\n# The dotdbg program gone (pipx uninstall, a removed venv), these files not: one line the\n# first time `ch` or the picker asks for it, silence after. $commands runs no program.\n__dotdbg_present() {\n    (( $+commands[dotdbg] )) && return 0\n    if [[ -z ${__dotdbg_gone_said-} ]]; then\n        __dotdbg_gone_said=1\n        print -ru2 -- "dotdbg: the dotdbg program is gone, its shell files are not: reinstall it and run \\`dotdbg uninstall\\`, or delete the dotdbg blocks (# >>> dotdbg >>>) from \\${ZDOTDIR:-~}/.zshrc, ~/.inputrc and ~/.pdbrc, and ~/.local/share/dotdbg"\n    fi\n    return 127\n}\n\n')
    if f['zsh_key'](attr(name(s0, 'cheat'), 'key')):
        w("\n# -- dotdbg cheat: a picker that puts a cheatsheet command on the command line (never runs it)\n# Picker: fzf when installed, else dotdbg's numbered list; DOTDBG_CHEAT_PICKER=list forces it.\n# `dotdbg cheat --pick` prints one record per command, NUL-terminated: what to show, \\x1f, the\n# command.\n")
        w('\n__dotdbg_cheat_fzf() {\n    local -a out\n    # (@0): split at the NULs keeping the empty key Enter leaves: key, record, "".\n    out=("${(@0)$(command dotdbg cheat --pick --shell zsh 2>/dev/null |\n        fzf --read0 --print0 --delimiter=$\'\\x1f\' --with-nth=1 --height=40% --reverse \\\n            --expect=ctrl-y --header=\'Enter: put on the line, Ctrl-Y: copy\' --prompt=\'cheat> \')}")\n    (( ${#out} >= 2 )) && [[ -n ${out[2]} ]] || return 1\n    if [[ ${out[1]} == ctrl-y ]]; then\n        print -rn -- "${out[2]#*$\'\\x1f\'}" | command dotdbg cheat --copy >&2\n        return 1\n    fi\n    print -rn -- "${out[2]#*$\'\\x1f\'}"\n}\n\n__dotdbg_cheat_widget() {\n    if (( ! $+commands[dotdbg] )); then\n        zle -I  # the line goes below the command line\n        __dotdbg_present\n        return 0\n    fi\n    local picked before\n    if [[ ${DOTDBG_CHEAT_PICKER-} != list ]] && (( $+commands[fzf] )); then\n        picked=$(__dotdbg_cheat_fzf)\n    else\n        zle -I  # the list goes below the command line, which stays on the screen\n        picked=$(command dotdbg cheat --menu --shell zsh)\n    fi\n    zle reset-prompt\n    [[ -n $picked ]] || return 0\n    # The cursor goes to the first <placeholder>, if the command has one.\n    before=$picked\n    [[ $picked =~ \'<[[:alnum:]_][^<>]*>\' ]] && before=${picked%%"$MATCH"*}\n    LBUFFER+=$before\n    RBUFFER=${picked#"$before"}$RBUFFER\n}\nzle -N __dotdbg_cheat_widget\n')
        w('bindkey -M emacs ')
        w(str(f['shquote'](f['zsh_key'](attr(name(s0, 'cheat'), 'key')))))
        w(' __dotdbg_cheat_widget\nbindkey -M viins ')
        w(str(f['shquote'](f['zsh_key'](attr(name(s0, 'cheat'), 'key')))))
        w(' __dotdbg_cheat_widget\n')


def t_config_toml_j2(s0: Scope, f: Filters, w: Write) -> None:
    w("# dotdbg configuration: your changes on top of the built-in defaults.\n# After editing, run `dotdbg install` (or `dotdbg diff` first to see what would change).\n# `dotdbg aliases` lists everything that is on; `dotdbg aliases NAME` explains one.\n\n[packs]\n# Every pack is on. Switch a whole pack off with `name = false`; the methodology's advice is to\n# add aliases a few at a time and use them before adding more.\n")
    for v1_0, v1_1 in attr(name(s0, 'config'), 'packs'):
        s1 = {**s0, 'name': v1_0, 'enabled': v1_1}
        w('# ')
        w(str(name(s1, 'name')))
        w(' = ')
        w(str(('true' if name(s1, 'enabled') else 'false')))
        w('\n')
    w('\n[aliases]\n# Short form:            gs = "git status --short"\n# Full form:             pyx = { command = "pytest -x", desc = "stop at the first failure", pack = "pytest" }\n# Remove a default:      gl = false\n# The defaults:\n')
    for v1_0 in attr(name(s0, 'config'), 'aliases'):
        s1 = {**s0, 'alias': v1_0}
        w('#   ')
        w(str(attr(name(s1, 'alias'), 'name')))
        w(' = ')
        w(str(f['tomlquote'](attr(name(s1, 'alias'), 'command'))))
        w('    # ')
        w(str(attr(name(s1, 'alias'), 'desc')))
        w(' [')
        w(str(attr(name(s1, 'alias'), 'pack')))
        w(']\n')
    w('\n[functions]\n# mkcd = { body = \'mkdir -p "$1" && cd "$1"\', desc = "make a directory and enter it" }\n# zsh uses the bash body; fish and a body bash-only for zsh take their own:\n# mkcd = { body = \'mkdir -p "$1" && cd "$1"\', fish = \'mkdir -p $argv[1]; and cd $argv[1]\' }\n# A function without a body for a shell is left out of that shell (install says so).\n# The defaults:\n')
    for v1_0 in attr(name(s0, 'config'), 'functions'):
        s1 = {**s0, 'function': v1_0}
        w('#   ')
        w(str(attr(name(s1, 'function'), 'name')))
        w(': ')
        w(str(attr(name(s1, 'function'), 'desc')))
        w(' [')
        w(str(attr(name(s1, 'function'), 'pack')))
        w(']\n')
    w('\n[history]\n# control = "ignoredups:ignorespace"   # HISTCONTROL: a repeat in a row and a line typed with\n#                                      # a leading space are not kept\n# size = 100000                        # HISTSIZE, lines kept in memory\n# file_size = 200000                   # HISTFILESIZE, lines kept in ~/.bash_history\n# append = true                        # shopt -s histappend\n# flush_each_command = true            # history -a after every command: parallel shells lose nothing\n\n[readline]\n# history_search = true      # type the start of a command, then Up/Down\n# bracketed_paste = false    # false: pasted lines run one by one\n# esc_p_n = false            # also Esc-p / Esc-n, as in tcsh\n# bindings = { "\\\\C-x\\\\C-r" = "re-read-init-file" }\n\n[fish]\n# abbreviations = false   # true: aliases are fish abbreviations, expanded as you type them\n\n[pdb.aliases]\n# Short form:            pl = "pp locals()"\n# Full form:             pl = { command = "pp locals()", desc = "pretty-print the local variables" }\n# Remove a default:      pd = false\n# An alias runs in the debugged frame: keep it an expression (or pdb commands joined by ;;),\n# so that it assigns none of the program\'s names.\n# The defaults:\n')
    for v1_0 in attr(name(s0, 'config'), 'pdb_aliases'):
        s1 = {**s0, 'alias': v1_0}
        w('#   ')
        w(str(attr(name(s1, 'alias'), 'name')))
        w(' = ')
        w(str(f['tomlquote'](attr(name(s1, 'alias'), 'command'))))
        w('    # ')
        w(str(attr(name(s1, 'alias'), 'desc')))
        w('\n')
    w('\n[cheat]\n# key = "\\\\C-g"   # readline key for the cheatsheet picker; "" for none\n# alias = "ch"    # short name for `dotdbg cheat`; "" for none\n# [[cheat.paths]]\n# name = "community"\n# path = "~/src/cheatsheets"\n# readonly = true\n')


def t_dotdbg_bash_j2(s0: Scope, f: Filters, w: Write) -> None:
    w('# shellcheck shell=bash disable=SC2317,SC2329 # the helpers after `return` run by eval\n')
    for v1_0 in name(s0, 'header'):
        s1 = {**s0, 'line': v1_0}
        w('# ')
        w(str(name(s1, 'line')))
        w('\n')
    w('\n# Interactive shells only; runs no program. Why it is written so: the notes after its `return`.\n[[ $- == *i* ]] || return 0\n\n# dotdbg\'s own commands live in ~/.local/bin (install.sh links them there).\ncase ":$PATH:" in\n    *":$HOME/.local/bin:"*) ;;\n    *) [[ -d $HOME/.local/bin ]] && PATH="$HOME/.local/bin:$PATH" ;;\nesac\n')
    if attr(name(s0, 'config'), 'history'):
        w('\n# -- history ----------------------------------------------------------------------------------\nHISTCONTROL=')
        w(str(f['shquote'](attr(attr(name(s0, 'config'), 'history'), 'control'))))
        w('\nHISTSIZE=')
        w(str(attr(attr(name(s0, 'config'), 'history'), 'size')))
        w('\nHISTFILESIZE=')
        w(str(attr(attr(name(s0, 'config'), 'history'), 'file_size')))
        w('\n')
        if attr(attr(name(s0, 'config'), 'history'), 'append'):
            w('shopt -s histappend\n')
        if attr(attr(name(s0, 'config'), 'history'), 'flush_each_command'):
            s0['drops_space'] = (('ignorespace' in attr(attr(name(s0, 'config'), 'history'), 'control')) or ('ignoreboth' in attr(attr(name(s0, 'config'), 'history'), 'control')))
            w('# Each command goes to $HISTFILE as it runs (notes: history).\n__dotdbg_history_append() {\n    local status=$?\n')
            if name(s0, 'drops_space'):
                w('    if [[ :$HISTCONTROL: != *:ignorespace:* && :$HISTCONTROL: != *:ignoreboth:* ]]; then\n        local last spaced=\'^ *([0-9]+)[* ]  \'\n        last=$(HISTTIMEFORMAT=\'\' builtin history 1)\n        [[ $last =~ $spaced ]] && builtin history -d "${BASH_REMATCH[1]}"\n    fi\n')
            w('    builtin history -a\n    return "$status"\n}\n# shellcheck disable=SC2016 # "$_" is expanded when PROMPT_COMMAND runs\nif ((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 501)) && [[ ${PROMPT_COMMAND@a} == *a* ]]; then\n    [[ ${PROMPT_COMMAND[*]} == *__dotdbg_history_append* ]] ||\n        PROMPT_COMMAND=(\'__dotdbg_history_append "$_"\' "${PROMPT_COMMAND[@]}")\nelif [[ ${PROMPT_COMMAND-} != *__dotdbg_history_append* ]]; then\n    # shellcheck disable=SC2128,SC2178 # the string form: bash < 5.1, or not an array\n    PROMPT_COMMAND=\'__dotdbg_history_append "$_"\'${PROMPT_COMMAND:+$\'\\n\'$PROMPT_COMMAND}\nfi\n')
    if attr(name(s0, 'config'), 'aliases'):
        w('\n# -- aliases (`dotdbg aliases` lists them) -------------------------------------------------------\n')
        for v1_0 in attr(name(s0, 'config'), 'aliases'):
            s1 = {**s0, 'alias': v1_0}
            w('# ')
            w(str(attr(name(s1, 'alias'), 'name')))
            w(': ')
            w(str(attr(name(s1, 'alias'), 'desc')))
            w(' [')
            w(str(attr(name(s1, 'alias'), 'pack')))
            w(']\nalias ')
            w(str(attr(name(s1, 'alias'), 'name')))
            w('=')
            w(str(f['shquote'](attr(name(s1, 'alias'), 'command'))))
            w('\n')
    s0['own_functions'] = f['list'](f['selectattr'](f['rejectattr'](attr(name(s0, 'config'), 'functions'), 'user_body'), 'body'))
    s0['user_functions'] = f['list'](f['selectattr'](attr(name(s0, 'config'), 'functions'), 'user_body'))
    w("\n# -- dotdbg's functions: read with alias expansion off (notes: aliases) -----------------------\n__dotdbg_expand_aliases=\nshopt -q expand_aliases && __dotdbg_expand_aliases=1\nshopt -u expand_aliases\n")
    if name(s0, 'own_functions'):
        w('unalias ')
        w(str(f['join'](f['map'](name(s0, 'own_functions'), attribute='name'), ' ')))
        w(' 2>/dev/null\n')
    for v1_0 in name(s0, 'own_functions'):
        s1 = {**s0, 'function': v1_0}
        t_function_bash_j2(dict(s1), f, w)
    w('\n# -- TAB completion for dotdbg and its helpers (runs dotdbg only when TAB is pressed) --------\ncomplete -o default -F _dotdbg_complete dotdbg ')
    w(str(f['join'](attr(name(s0, 'completion'), 'helpers'), ' ')))
    w('\n')
    s1 = {**s0, 'part': 'register'}
    t_cheat_widget_bash_j2(dict(s1), f, w)
    w('\n# Stubs: the completion and picker functions are read when first used (notes: helpers).\n__dotdbg_helpers=${BASH_SOURCE[0]}\n[[ $__dotdbg_helpers == /* ]] || __dotdbg_helpers=$PWD/$__dotdbg_helpers\n__dotdbg_load_helpers() {\n    local text marker=$\'\\n# >>> read when first used >>>\\n\'\n    IFS= read -r -d \'\' text 2>/dev/null <"$__dotdbg_helpers"\n    if [[ $text == *"$marker"* ]]; then\n        eval "${text#*"$marker"}"\n        return\n    fi\n    [[ -n ${__dotdbg_helpers_gone-} ]] || printf \'dotdbg: %s is gone\\n\' "$__dotdbg_helpers" >&2\n    __dotdbg_helpers_gone=1\n    return 1\n}\n_dotdbg_complete() { __dotdbg_load_helpers && _dotdbg_complete "$@"; }\n__dotdbg_cheat_complete() { __dotdbg_load_helpers && __dotdbg_cheat_complete "$@"; }\n__dotdbg_cheat_widget() { __dotdbg_load_helpers && __dotdbg_cheat_widget "$@"; }\n__dotdbg_present() { __dotdbg_load_helpers && __dotdbg_present "$@"; }\n\nif [[ -n $__dotdbg_expand_aliases ]]; then\n    shopt -s expand_aliases\nfi\nunset __dotdbg_expand_aliases\n')
    if name(s0, 'user_functions'):
        w("\n# -- your functions (aliases defined before them, dotdbg's too, expand in them) ---------------\nunalias ")
        w(str(f['join'](f['map'](name(s0, 'user_functions'), attribute='name'), ' ')))
        w(' 2>/dev/null\n')
        for v1_0 in name(s0, 'user_functions'):
            s1 = {**s0, 'function': v1_0}
            t_function_bash_j2(dict(s1), f, w)
    w('return 0\n\n# -- notes (after the `return`: bash never reads them at start-up) ----------------------------\n# start-up: bash reads a sourced file one command at a time, and lexing and parsing it was all\n#   of this file\'s cost (issue 27), comments included; so the reasons are here, and what only\n#   runs on a key or TAB is read when first used.\n# history: __dotdbg_history_append appends each command to $HISTFILE as it runs, so parallel\n#   shells lose nothing. The command\'s status is returned and "$_" goes in as the last word:\n#   whatever PROMPT_COMMAND runs after it (starship, liquidprompt, a PS1 showing $?) still sees\n#   the command\'s $? and $_. bash-preexec (atuin, bash-it) takes ignorespace out of\n#   HISTCONTROL: a command typed with a leading space is then taken out of the history before\n#   it is written.\n# aliases: bash expands aliases in a function body as it reads the definition, so an alias of\n#   yours (alias ls=\'ls -F\') would become part of dotdbg\'s functions: alias expansion stays off\n#   while they, the stubs and the helpers are read, then is on again if it was on. Functions\n#   from your config are defined after that, as in ~/.bashrc: aliases expand in them.\n# key: `bash -i -c CMD` (an editor reading your environment, a one-shot over ssh) edits no\n#   command line, and a bind would load readline and read inputrc for nothing: it binds no key.\n# helpers: the functions behind TAB completion and the cheatsheet picker are the part of this\n#   file after the marker below. Until one of them is first called, each name that TAB, the key\n#   and the cheat alias call is a stub that reads that part (eval of the text after the marker:\n#   the same text this file\'s `bash -n` and shellcheck checked) and calls the real function.\n#   If this file is gone since the shell started (uninstalled), that is said once.\n\n# >>> read when first used >>>\nunset -f _dotdbg_complete __dotdbg_cheat_complete __dotdbg_cheat_widget __dotdbg_present\n__dotdbg_expand_aliases=\nshopt -q expand_aliases && __dotdbg_expand_aliases=1\nshopt -u expand_aliases\n\n# `dotdbg --complete WORDS` answers from dotdbg\'s command registry: the candidates, or what to\n# complete here (::dir, ::file, ::none, or cheat\'s and the aliases\' own lists).\n_dotdbg_complete() {\n    local cur=${COMP_WORDS[COMP_CWORD]}\n    local -a found\n    mapfile -t found < <(command dotdbg --complete "${COMP_WORDS[@]:0:COMP_CWORD+1}" 2>/dev/null)\n    COMPREPLY=()\n    case ${found[0]-} in\n        ::dir | ::file)\n            compopt -o filenames 2>/dev/null\n            mapfile -t COMPREPLY < <(compgen "-${found[0]:2:1}" -- "$cur")\n            ;;\n        ::none) compopt +o default 2>/dev/null ;;\n        ::cheat) __dotdbg_cheat_complete ;;\n        ::aliases)\n            __dotdbg_complete_words "$cur" ')
    w(str(f['join'](f['map'](f['entry_names'](name(s0, 'config')), 'shquote'), ' ')))
    w('\n            ;;\n        *) __dotdbg_complete_words "$cur" "${found[@]}" ;;\n    esac\n    return 0\n}\n')
    s1 = {**s0, 'part': 'functions'}
    t_cheat_widget_bash_j2(dict(s1), f, w)
    w('\nif [[ -n $__dotdbg_expand_aliases ]]; then\n    shopt -s expand_aliases\nfi\nunset __dotdbg_expand_aliases\n')


def t_dotdbg_fish_j2(s0: Scope, f: Filters, w: Write) -> None:
    w('# dotdbg for fish: fish reads this file from ~/.config/fish/conf.d by itself.\n')
    for v1_0 in name(s0, 'header'):
        s1 = {**s0, 'line': v1_0}
        w('# ')
        w(str(name(s1, 'line')))
        w('\n')
    w("\n# Interactive shells only; sourcing this runs no program.\nstatus is-interactive; or exit 0\n\n# dotdbg's own commands live in ~/.local/bin (install.sh links them there).\nif test -d $HOME/.local/bin; and not contains -- $HOME/.local/bin $PATH\n    set -gx PATH $HOME/.local/bin $PATH\nend\n")
    if attr(name(s0, 'config'), 'history'):
        w('\n# -- history: fish saves every command as it runs, skips those typed with a leading space and\n# searches by prefix with Up/Down by itself; it keeps its own history size.\n')
    if f['fish_aliases'](name(s0, 'config')):
        w('\n')
        if attr(attr(name(s0, 'config'), 'fish'), 'abbreviations'):
            w('# -- abbreviations (`dotdbg aliases` lists them): each expands as you type it -----------------\n')
            for v1_0 in f['fish_aliases'](name(s0, 'config')):
                s1 = {**s0, 'alias': v1_0}
                w('# ')
                w(str(attr(name(s1, 'alias'), 'name')))
                w(': ')
                w(str(attr(name(s1, 'alias'), 'desc')))
                w(' [')
                w(str(attr(name(s1, 'alias'), 'pack')))
                w(']\nabbr --add --global -- ')
                w(str(f['fishquote'](attr(name(s1, 'alias'), 'name'))))
                w(' ')
                w(str(f['fishquote'](attr(name(s1, 'alias'), 'command'))))
                w('\n')
        else:
            w("# -- aliases (`dotdbg aliases` lists them; fish's `alias` too) --------------------------------\n")
            for v1_0 in f['fish_aliases'](name(s0, 'config')):
                s1 = {**s0, 'alias': v1_0}
                w(str(f['fish_alias'](name(s1, 'alias'))))
                w('\n')
    w('\n# -- functions ------------------------------------------------------------------------------\n')
    for v1_0 in f['kept_functions'](name(s0, 'config'), name(s0, 'target')):
        s1 = {**s0, 'function': v1_0}
        w(str(f['fish_definition'](name(s1, 'function'), name(s1, 'target'))))
        w('\n')
    w('\n# -- TAB completion for dotdbg and its helpers (runs dotdbg only when TAB is pressed) --------\n# `dotdbg --complete WORDS` answers from dotdbg\'s command registry: the candidates, or what to\n# complete here (::dir, ::file, ::none, or cheat\'s and the aliases\' own lists).\nfunction __dotdbg_complete --description \'dotdbg: TAB completion\'\n    command -q dotdbg; or return 0  # fish\'s error for a missing program ignores 2>/dev/null\n    set -l words (commandline -opc)\n    set -l current (commandline -ct)\n    set -l found (command dotdbg --complete $words $current 2>/dev/null)\n    switch "$found[1]"\n        case ::dir\n            __fish_complete_directories $current\n        case ::file\n            __fish_complete_path $current\n        case ::none\n        case ::cheat\n            if test "$words[-1]" = --color\n                printf \'%s\\n\' auto always never\n            else if string match -q -- \'-*\' $current\n                printf \'%s\\n\' ')
    w(str(f['join'](attr(name(s0, 'completion'), 'cheat_options'), ' ')))
    w("\n            else\n                command dotdbg cheat --names 2>/dev/null\n            end\n        case ::aliases\n            printf '%s\\n' ")
    w(str(f['join'](f['map'](f['entry_names'](name(s0, 'config')), 'fishquote'), ' ')))
    w("\n        case '*'\n            printf '%s\\n' $found\n    end\nend\ncomplete -c dotdbg -f -a '(__dotdbg_complete)'\n")
    for v1_0 in attr(name(s0, 'completion'), 'helpers'):
        s1 = {**s0, 'helper': v1_0}
        w('complete -c ')
        w(str(name(s1, 'helper')))
        w(" -f -a '(__dotdbg_complete)'\n")
    w('\n# The dotdbg program gone (pipx uninstall, a removed venv), these files not: one line the\n# first time `ch` or the picker asks for it, silence after. `command -q` runs no program.\nfunction __dotdbg_present --description \'dotdbg: is the dotdbg program still installed?\'\n    command -q dotdbg; and return 0\n    if not set -q __dotdbg_gone_said\n        set -g __dotdbg_gone_said 1\n        printf \'%s\\n\' "dotdbg: the dotdbg program is gone, its shell files are not: reinstall it and run `dotdbg uninstall`, or delete ~/.config/fish/conf.d/dotdbg.fish and dotdbg-path.fish, the dotdbg blocks (# >>> dotdbg >>>) from ~/.inputrc and ~/.pdbrc, and ~/.local/share/dotdbg" >&2\n    end\n    return 127\nend\n')
    if f['fish_key'](attr(name(s0, 'cheat'), 'key')):
        w('\n# -- dotdbg cheat: a picker that puts a cheatsheet command on the command line (never runs it)\n# Picker: fzf when installed, else dotdbg\'s numbered list; DOTDBG_CHEAT_PICKER=list forces it.\nfunction __dotdbg_cheat_widget --description \'dotdbg cheatsheet picker\'\n    if not command -q dotdbg\n        set -q __dotdbg_gone_said; or echo  # the line goes below the command line\n        __dotdbg_present\n        commandline -f repaint\n        return 0\n    end\n    set -l picked\n    if test "$DOTDBG_CHEAT_PICKER" != list; and command -q fzf\n        set -l out (command dotdbg cheat --pick --shell fish 2>/dev/null |\n            fzf --read0 --print0 --delimiter=\\x1f --with-nth=1 --height=40% --reverse \\\n                --expect=ctrl-y --header=\'Enter: put on the line, Ctrl-Y: copy\' \\\n                --prompt=\'cheat> \' | string split0)\n        if test (count $out) -eq 2\n            set -l command (string split -m1 -- \\x1f $out[2])[2]\n            if test "$out[1]" = ctrl-y\n                printf \'%s\' $command | command dotdbg cheat --copy >&2\n            else\n                set picked $command\n            end\n        end\n    else\n        # fish keeps its line shown while a binding runs: the list goes below it.\n        set picked (command dotdbg cheat --menu --shell fish --above \'\' | string collect)\n    end\n    commandline -f repaint\n    test -n "$picked"; or return 0\n    # The cursor goes to the first <placeholder>, if the command has one.\n    set -l start (commandline -C)\n    commandline -i -- $picked\n    set -l before (string replace -r -- \'<[[:alnum:]_][^<>]*>.*\' \'\' $picked | string collect)\n    if test "$before" != "$picked"\n        commandline -C (math $start + (string length -- "$before"))\n    end\nend\nbind ')
        w(str(f['fish_key'](attr(name(s0, 'cheat'), 'key'))))
        w(' __dotdbg_cheat_widget\nbind -M insert ')
        w(str(f['fish_key'](attr(name(s0, 'cheat'), 'key'))))
        w(' __dotdbg_cheat_widget\n')
    if attr(name(s0, 'cheat'), 'alias'):
        w(str(f['fish_cheat_alias'](attr(name(s0, 'cheat'), 'alias'))))
        w('\n')


def t_dotdbg_zsh_j2(s0: Scope, f: Filters, w: Write) -> None:
    w('# dotdbg for zsh: sourced by the dotdbg block in ${ZDOTDIR:-~}/.zshrc.\n')
    for v1_0 in name(s0, 'header'):
        s1 = {**s0, 'line': v1_0}
        w('# ')
        w(str(name(s1, 'line')))
        w('\n')
    w('\n# Interactive shells only; sourcing this runs no program.\n[[ -o interactive ]] || return 0\n\n# dotdbg\'s own commands live in ~/.local/bin (install.sh links them there).\n[[ -d $HOME/.local/bin && ":$PATH:" != *":$HOME/.local/bin:"* ]] && path=("$HOME/.local/bin" $path)\n')
    if attr(name(s0, 'config'), 'history'):
        w('\n# -- history ----------------------------------------------------------------------------------\n[[ -n ${HISTFILE-} ]] || HISTFILE=${ZDOTDIR:-$HOME}/.zsh_history\nHISTSIZE=')
        w(str(f['zsh_history_size'](attr(attr(name(s0, 'config'), 'history'), 'size'))))
        w('\nSAVEHIST=')
        w(str(f['zsh_history_size'](attr(attr(name(s0, 'config'), 'history'), 'file_size'))))
        w('\n')
        for v1_0 in f['zsh_history_options'](attr(name(s0, 'config'), 'history')):
            s1 = {**s0, 'option': v1_0}
            w('setopt ')
            w(str(name(s1, 'option')))
            w('\n')
    if attr(name(s0, 'config'), 'readline'):
        w('\n# -- the command line ---------------------------------------------------------------------------\n')
        if attr(attr(name(s0, 'config'), 'readline'), 'history_search'):
            w('# Type the start of a command, then Up/Down walk the commands that start with it. The keys are\n# read from terminfo (what this terminal sends) and also bound in their other cursor mode.\nautoload -Uz up-line-or-beginning-search down-line-or-beginning-search\nzle -N up-line-or-beginning-search\nzle -N down-line-or-beginning-search\n() {\n    local key widget\n    for key widget in kcuu1 up-line-or-beginning-search kcud1 down-line-or-beginning-search; do\n        [[ -n ${terminfo[$key]-} ]] || continue\n        bindkey -M emacs "${terminfo[$key]}" $widget\n        bindkey -M viins "${terminfo[$key]}" $widget\n        bindkey -M emacs "${terminfo[$key]/O/[}" $widget\n        bindkey -M viins "${terminfo[$key]/O/[}" $widget\n    done\n}\n')
        if (not attr(attr(name(s0, 'config'), 'readline'), 'bracketed_paste')):
            w('# Pasting several lines runs them one by one, as typed.\nunset zle_bracketed_paste\n')
        if attr(attr(name(s0, 'config'), 'readline'), 'esc_p_n'):
            w("bindkey -M emacs '^[p' history-beginning-search-backward\nbindkey -M emacs '^[n' history-beginning-search-forward\n")
    if attr(name(s0, 'config'), 'aliases'):
        w('\n# -- aliases (`dotdbg aliases` lists them) -------------------------------------------------------\n')
        for v1_0 in attr(name(s0, 'config'), 'aliases'):
            s1 = {**s0, 'alias': v1_0}
            w('# ')
            w(str(attr(name(s1, 'alias'), 'name')))
            w(': ')
            w(str(attr(name(s1, 'alias'), 'desc')))
            w(' [')
            w(str(attr(name(s1, 'alias'), 'pack')))
            w(']\nalias -- ')
            w(str(f['shquote'](concat(attr(name(s1, 'alias'), 'name'), '=', attr(name(s1, 'alias'), 'command')))))
            w('\n')
    w("\n# -- functions ------------------------------------------------------------------------------\n# zsh expands aliases in a function body as it reads the definition, so an alias of yours\n# (alias ls='ls -F') would become part of dotdbg's functions: alias expansion stays off while\n# they are defined, then is on again if it was on.\n__dotdbg_aliases=0\n[[ -o aliases ]] && __dotdbg_aliases=1\nsetopt no_aliases\n")
    for v1_0 in f['kept_functions'](name(s0, 'config'), name(s0, 'target')):
        s1 = {**s0, 'function': v1_0}
        if (not attr(name(s1, 'function'), 'user_body')):
            w(str(f['zsh_definition'](name(s1, 'function'), name(s1, 'target'))))
            w('\n')
    t_cheat_widget_zsh_j2(dict(s0), f, w)
    w('(( __dotdbg_aliases )) && setopt aliases\nunset __dotdbg_aliases\n')
    for v1_0 in f['kept_functions'](name(s0, 'config'), name(s0, 'target')):
        s1 = {**s0, 'function': v1_0}
        if attr(name(s1, 'function'), 'user_body'):
            w(str(f['zsh_definition'](name(s1, 'function'), name(s1, 'target'))))
            w('\n')
    if attr(name(s0, 'cheat'), 'alias'):
        w('alias -- ')
        w(str(f['shquote'](concat(attr(name(s0, 'cheat'), 'alias'), '=__dotdbg_present && dotdbg cheat'))))
        w('\n')


def t_function_bash_j2(s0: Scope, f: Filters, w: Write) -> None:
    w(str(f['definition'](name(s0, 'function'))))


def t_inputrc_j2(s0: Scope, f: Filters, w: Write) -> None:
    for v1_0 in name(s0, 'header'):
        s1 = {**s0, 'line': v1_0}
        w('# ')
        w(str(name(s1, 'line')))
        w('\n')
    if attr(name(s0, 'config'), 'readline'):
        if attr(attr(name(s0, 'config'), 'readline'), 'history_search'):
            w('\n# Type the start of a command, then Up/Down walk only the history lines that start with it.\n"\\e[A": history-search-backward\n"\\e[B": history-search-forward\n"\\eOA": history-search-backward\n"\\eOB": history-search-forward\n')
        if attr(attr(name(s0, 'config'), 'readline'), 'esc_p_n'):
            w('\n# tcsh-style history search.\n"\\ep": history-search-backward\n"\\en": history-search-forward\n')
        w('\n')
        if attr(attr(name(s0, 'config'), 'readline'), 'bracketed_paste'):
            w('set enable-bracketed-paste on\n')
        else:
            w('# Pasted lines run one by one, so a block of commands can be pasted from a notes file.\nset enable-bracketed-paste off\n')
        if attr(attr(name(s0, 'config'), 'readline'), 'bindings'):
            w('\n# Your own bindings.\n')
            for v1_0, v1_1 in attr(attr(name(s0, 'config'), 'readline'), 'bindings'):
                s1 = {**s0, 'key': v1_0, 'function': v1_1}
                w('"')
                w(str(name(s1, 'key')))
                w('": ')
                w(str(name(s1, 'function')))
                w('\n')


def t_pdbrc_j2(s0: Scope, f: Filters, w: Write) -> None:
    for v1_0 in name(s0, 'header'):
        s1 = {**s0, 'line': v1_0}
        w('# ')
        w(str(name(s1, 'line')))
        w('\n')
    for v1_0 in attr(name(s0, 'config'), 'pdb_aliases'):
        s1 = {**s0, 'alias': v1_0}
        w('# ')
        w(str(attr(name(s1, 'alias'), 'name')))
        w(': ')
        w(str(attr(name(s1, 'alias'), 'desc')))
        w('\nalias ')
        w(str(attr(name(s1, 'alias'), 'name')))
        w(' ')
        w(str(attr(name(s1, 'alias'), 'command')))
        w('\n')


SOURCES = {
    'cheat_widget.bash.j2': '010ee0542fd92d15699b056da165d31484a9e8f1db4a45930fe614ba828e3650',
    'cheat_widget.zsh.j2': '926c537658addf59439f241da59465bbdaca9cb0b017fb5712e744b346592aae',
    'config.toml.j2': '92051157142ede848dadcbe28eb7709b7ee75a509bf078f60cb99c09f52f576c',
    'dotdbg.bash.j2': '1b0a3f7b72b90a2c12a869b7015883ae15f36c65b5ad2f64dd3b50b6f28528d7',
    'dotdbg.fish.j2': 'c465b69a00cfa2a4d2076839b06733f145a013d1bb20c397d4518a0436587fec',
    'dotdbg.zsh.j2': '6ba298703d2bc2c4bd45ce8d59858f06699b327c483a0e7abab82d0bc17e2e77',
    'function.bash.j2': 'c9e1d5997ccce0d309e70d2515230363ea46047e33affc4ac68ce4ea8b3fb1e0',
    'inputrc.j2': 'a9962d8bfc859f4d4d2a6779da5bb4b77c167b6e13010dc619838ebafc0b4ba1',
    'pdbrc.j2': '8ebe70ec5f11cd27adc3953c22d40ab818d884bb7b22a2a7c21f9e991dd78dc5',
}

TEMPLATES = {
    'cheat_widget.bash.j2': t_cheat_widget_bash_j2,
    'cheat_widget.zsh.j2': t_cheat_widget_zsh_j2,
    'config.toml.j2': t_config_toml_j2,
    'dotdbg.bash.j2': t_dotdbg_bash_j2,
    'dotdbg.fish.j2': t_dotdbg_fish_j2,
    'dotdbg.zsh.j2': t_dotdbg_zsh_j2,
    'function.bash.j2': t_function_bash_j2,
    'inputrc.j2': t_inputrc_j2,
    'pdbrc.j2': t_pdbrc_j2,
}
