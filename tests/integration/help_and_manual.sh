#!/bin/bash
# The help and the manual page, both made from the command table: `aptus
# help`, `aptus help COMMAND` and `aptus COMMAND --help`, an unknown command's
# help, the personalities' own usage; aptus(8) renders with man without a
# warning and names every command; `cmake --install` installs the page, the
# completion and the personality links.
source "$(dirname "$0")/lib/update_repo.sh"
APTUS=${APTUS:?set APTUS to the aptus binary}
BUILD=${APTUS_BUILD_DIR:?set APTUS_BUILD_DIR}
T=$(mktemp -d /tmp/aptus-help.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0
export LC_ALL=C APT_CONFIG=/dev/null

OUT=$("$APTUS" help 2>&1); RC=$?
check "aptus help exits 0 (rc $RC)" test "$RC" = 0
check "it groups the commands" contains "$OUT" "Changing the system:"
check "and lists the options every command takes" contains "$OUT" "-o, --option KEY=VALUE"
commands=$(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' <<<"$OUT")
check "every command once ($(wc -w <<<"$commands") of them)" test "$(sort <<<"$commands" | uniq -d)" = ""

OUT=$("$APTUS" help install 2>&1); RC=$?
check "aptus help install exits 0 (rc $RC)" test "$RC" = 0
check "it starts with install's usage: $(head -1 <<<"$OUT")" test "$(head -1 <<<"$OUT")" = "Usage: aptus [options] install PACKAGE[=VERSION|/RELEASE]..."
check "--no-install-recommends is named" contains "$OUT" "--no-install-recommends"
check "-V and -d are there" bash -c 'grep -q -- "-V, --verbose-versions" <<<"$0" && grep -q -- "-d, --download-only" <<<"$0"' "$OUT"
check "aptus install --help is the same" test "$OUT" = "$("$APTUS" install --help 2>&1)"
OUT=$("$APTUS" help config dump 2>&1)
check "a command of two words: $(head -1 <<<"$OUT")" test "$(head -1 <<<"$OUT")" = "Usage: aptus [options] config dump [KEY...]"
OUT=$("$APTUS" help no-such-command 2>&1); RC=$?
check "help for no command: exit 100 (rc $RC): $OUT" test "$RC" = 100
check "and says where to look" contains "$OUT" "'aptus help' lists them"

mkdir -p "$T/bin" && ln -s "$APTUS" "$T/bin/apt-get"
OUT=$("$T/bin/apt-get" install --help 2>&1); RC=$?
check "apt-get install --help: apt-get's usage (rc $RC)" contains "$OUT" "Usage: apt-get [options] command"

# The manual page.
if command -v scdoc >/dev/null; then
    check "aptus.8 is built" test -s "$BUILD/aptus.8"
    if command -v man >/dev/null; then
        MANWIDTH=80 man --warnings -E UTF-8 -l "$BUILD/aptus.8" >"$T/man.txt" 2>"$T/man.err"
        check "man renders it without a warning: $(head -3 "$T/man.err")" test ! -s "$T/man.err"
        for c in $commands; do
            grep -q "^       $c\b" "$T/man.txt" || { check "the manual names $c" false; }
        done
        check "the manual has the personalities" grep -q "^PERSONALITIES" "$T/man.txt"
        check "and apt-get's options" grep -q -- "--solver NAME" "$T/man.txt"
    fi
    # cmake --install: the page, the completion and the links.
    cmake --install "$BUILD" --prefix "$T/inst" >/dev/null 2>"$T/install.err"
    check "cmake --install succeeds: $(head -3 "$T/install.err")" test $? = 0
    check "the manual is installed" test -s "$T/inst/share/man/man8/aptus.8"
    check "the completion is installed" test -s "$T/inst/share/bash-completion/completions/aptus"
    check "apt-get is a link to aptus" test -L "$T/inst/libexec/aptus/bin/apt-get"
else
    echo "scdoc not installed: the manual is not checked (scripts/setup installs it)"
fi
finish
