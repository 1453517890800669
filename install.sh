#!/usr/bin/env bash
# Install dotdbg for the current user from this checkout, with the built-in default config:
#   1. an isolated environment: a venv in ~/.local/share/dotdbg/venv (or uv/pipx when present
#      and asked for with DOTDBG_INSTALLER=uv|pipx),
#   2. dotdbg's commands linked into ~/.local/bin,
#   3. `dotdbg install`: the aliases, functions, history, readline and pdb settings, for bash and
#      for zsh and fish where they are installed.
# Running it again upgrades in place. `./install.sh --uninstall` takes everything back out.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data_dir=${XDG_DATA_HOME:-$HOME/.local/share}/dotdbg
venv=$data_dir/venv
bin_dir=$HOME/.local/bin
installer=${DOTDBG_INSTALLER:-venv}

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: error: %s\n' "$*" >&2; exit 2; }
# shellcheck disable=SC2016 # the backquotes are text
bad_usage() {
    printf 'install.sh: error: unexpected argument %s\nhint: see `./install.sh --help`\n' "$1" >&2
    exit 2
}

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3 python3.13 python3.12 python3.11 python3.10; do
        [[ -n $candidate ]] || continue
        if command -v "$candidate" >/dev/null &&
            "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    die "dotdbg needs Python 3.10 or newer with the venv module (Debian: apt-get install python3-venv)"
}

# The commands the dotdbg distribution installed into the venv's bin/, read from its RECORD:
# its console scripts and the hand-written `dotdbg` launcher (a wheel "script", no entry point).
dotdbg_scripts() {
    "$1" - <<'PY'
import os
import sysconfig
from importlib.metadata import distribution

bin_dir = os.path.realpath(sysconfig.get_path("scripts"))
for file in distribution("dotdbg").files or []:
    path = os.path.realpath(file.locate())
    if os.path.dirname(path) == bin_dir:
        print(os.path.basename(path))
PY
}

link_scripts() {
    local python=$1 name target
    if [[ ! -d $bin_dir ]]; then
        mkdir -p "$bin_dir"
        : >"$venv/made-bin-dir"  # uninstall then removes the folder too, if it is empty
    fi
    while read -r name; do
        target=$(dirname "$python")/$name
        if [[ -e $bin_dir/$name && ! -L $bin_dir/$name ]]; then
            say "warning: $bin_dir/$name exists and is not dotdbg's link; left alone"
            continue
        fi
        ln -sfn "$target" "$bin_dir/$name"
    done < <(dotdbg_scripts "$python")
}

unlink_scripts() {
    local link
    for link in "$bin_dir"/*; do
        [[ -L $link && $(readlink "$link") == "$venv"/* ]] && rm -f "$link"
    done
    return 0
}

install_venv() {
    local python
    python=$(find_python)
    if [[ ! -x $venv/bin/python ]]; then
        say "creating $venv"
        "$python" -m venv "$venv"
    fi
    say "installing dotdbg and its dependencies into $venv with pip (a minute on a busy machine)"
    # A newer pip is nice to have, not needed: offline, the venv's own pip builds dotdbg fine.
    "$venv/bin/python" -m pip install --quiet --upgrade pip 2>/dev/null ||
        say "could not upgrade pip in $venv (offline?); using the one it has"
    # The shellcheck extra: where it has no wheel (linux-aarch64), dotdbg goes without it
    "$venv/bin/python" -m pip install --quiet --upgrade "${here}[check]" 2>/dev/null ||
        "$venv/bin/python" -m pip install --quiet --upgrade "$here"
    link_scripts "$venv/bin/python"
    dotdbg=$venv/bin/dotdbg
}

install_uv() {
    uv tool install --force --reinstall "$here"
    dotdbg=$bin_dir/dotdbg
}

install_pipx() {
    pipx install --force "$here"
    dotdbg=$bin_dir/dotdbg
}

uninstall_all() {
    local exe
    exe=$(command -v dotdbg || true)
    [[ -x $venv/bin/dotdbg ]] && exe=$venv/bin/dotdbg
    if [[ -n $exe ]]; then
        "$exe" uninstall
    fi
    unlink_scripts
    if [[ -e $venv/made-bin-dir ]]; then
        rmdir "$bin_dir" 2>/dev/null || true  # not when something else lives there now
    fi
    if [[ -d $venv ]]; then
        rm -rf "$venv"
        say "removed $venv"
    fi
    rmdir "$data_dir" 2>/dev/null || true
    rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/dotdbg"
    command -v uv >/dev/null && uv tool uninstall dotdbg >/dev/null 2>&1 || true
    command -v pipx >/dev/null && pipx uninstall dotdbg >/dev/null 2>&1 || true
    local config_dir=${XDG_CONFIG_HOME:-$HOME/.config}/dotdbg
    local state_dir=${XDG_STATE_HOME:-$HOME/.local/state}/dotdbg
    say "dotdbg is uninstalled"
    [[ -d $config_dir ]] && say "your config is kept: $config_dir"
    [[ -d $state_dir/backups ]] && say "backups of your dotfiles are kept: $state_dir/backups"
    return 0
}

usage() {
    cat <<EOF
usage: ./install.sh [--uninstall]

Install dotdbg for the current user from this checkout: a venv in $venv,
its commands linked into $bin_dir, then \`dotdbg install\` with the built-in defaults
(for bash, and zsh and fish where they are installed).
Running it again upgrades in place.

options:
  --uninstall   take everything back out (your config and backups stay)
  -h, --help    show this help and exit

environment:
  DOTDBG_INSTALLER=venv|uv|pipx   how to make the isolated environment (default: venv)
  PYTHON=python3.12               the interpreter for the venv (3.10 or newer)
EOF
}

main() {
    case ${1:-} in
        -h | --help) usage; return ;;
        --uninstall) [[ $# -eq 1 ]] || bad_usage "$2"; uninstall_all; return ;;
        "") ;;
        *) bad_usage "$1" ;;
    esac
    case $installer in
        venv) install_venv ;;
        uv) command -v uv >/dev/null || die "DOTDBG_INSTALLER=uv but uv is not on PATH"; install_uv ;;
        pipx) command -v pipx >/dev/null || die "DOTDBG_INSTALLER=pipx but pipx is not on PATH"; install_pipx ;;
        *) die "DOTDBG_INSTALLER must be venv, uv or pipx, not '$installer'" ;;
    esac
    say "$("$dotdbg" --version) is in $bin_dir"
    "$dotdbg" install
    case ":$PATH:" in
        *":$bin_dir:"*) ;;
        *) say "$bin_dir is not on PATH yet: new shells add it (dotdbg's bash file does)" ;;
    esac
    local login=${SHELL##*/}
    [[ $login == zsh || $login == fish ]] || login=bash
    say "start using it: exec $login    (then try: dotdbg aliases, type pyt, dotdbg cheat git)"
}

main "$@"
