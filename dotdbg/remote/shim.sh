#!/bin/sh
# `dotdbg` in a dotdbg ssh session (last on PATH: an installed dotdbg comes first). Only
# `dotdbg cheat` travels; it runs on the first python3 >= 3.8 found, remembered for the session.
d=${0%/bin/dotdbg}
if [ "$1" != cheat ]; then
    echo "dotdbg: error: only \`dotdbg cheat\` (ch, Ctrl-G) comes with a dotdbg ssh session" >&2
    echo "hint: install dotdbg on this host for the rest" >&2
    exit 2
fi
shift
# The cheat code and sheets: unpacked in the background as the session starts, where they
# came with the stream (their text, stream.ARCHIVE, goes when that is done); on a terminal,
# asked for now, at the first use (stream.FETCH).
i=0
while [ -e "$d/.a" ] && [ "$i" -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ -e "$d/.why" ]; then
    cat "$d/.why" >&2
    exit 2
fi
if [ ! -d "$d/py" ] && [ -e "$d/fetch" ]; then
    sh "$d/fetch" || exit 2
fi
py=$(cat "$d/python" 2>/dev/null)
if [ -z "$py" ]; then
    for candidate in python3 python3.14 python3.13 python3.12 python3.11 python3.10 python3.9 \
        python3.8; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
            py=$(command -v "$candidate")
            break
        fi
    done
    if [ -z "$py" ]; then
        found=$(python3 --version 2>&1) || found="no python3"
        echo "dotdbg: error: dotdbg cheat (ch, Ctrl-G) needs python3 >= 3.8 here ($found)" >&2
        echo "hint: install python3 on this host, or look it up on your own machine" >&2
        exit 2
    fi
    printf '%s' "$py" >"$d/python"
fi
XDG_CONFIG_HOME=$d/config XDG_CACHE_HOME=$d/cache exec "$py" -I "$d/py/session_cheat.py" "$@"
