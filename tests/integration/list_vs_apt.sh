#!/bin/bash
# aptus list must print exactly what apt list prints on the real server
# sandbox (bookworm + trixie lists, a real server's dpkg status), stdout not a
# terminal, C locale: same packages, versions, suites, flags, order. apt's
# "no stable CLI" warning goes to stderr and is not compared. Also checks the
# colour rules: escape codes only on a terminal (through script(1)), never on
# a pipe even with APT::Color forced, none with NO_COLOR.
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup list-vs-apt

compare() {
    local name=$1; shift
    apt list "$@" -o Dir::Cache="$T/apt-cache" >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    "$APTUS" list "$@" -o Dir::Cache="$T/aptus-cache" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    if [ $apt_rc -ne $aptus_rc ]; then
        echo "FAIL $name: exit code apt=$apt_rc aptus=$aptus_rc"; cat "$T/aptus.err"; failures=$((failures + 1)); return
    fi
    if ! diff -u "$T/apt.out" "$T/aptus.out" >"$T/diff"; then
        echo "FAIL $name: output differs (- apt, + aptus)"; head -40 "$T/diff"; failures=$((failures + 1)); return
    fi
    echo "ok   $name ($(wc -l <"$T/apt.out") lines)"
}

compare "list (all)"
compare "list --installed" --installed
compare "list --upgradable" --upgradable
compare "list --manual-installed" --manual-installed
compare "list --all-versions 'python3*'" --all-versions 'python3*'
compare "list 'bash*' (glob)" 'bash*'
compare "list BASH 'lib*ssl*' (case, two globs)" BASH 'lib*ssl*'
compare "list 'lib*ssl*[0-9]' (a pattern to apt: refused)" 'lib*ssl*[0-9]'
compare "list --installed 'lib*'" --installed 'lib*'
compare "list nonexistent-pkg" nonexistent-pkg
compare "list -qq 'zsh*'" -qq 'zsh*'

# Colour: apt's highlight (ESC[32m) around the name, reset after (ESC[0m).
esc=$'\033'
"$APTUS" list bash -o APT::Color=1 -o Dir::Cache="$T/aptus-cache" >"$T/pipe.out" 2>&1
if grep -q "$esc" "$T/pipe.out"; then echo "FAIL colour on a pipe"; failures=$((failures + 1)); else echo "ok   no colour on a pipe (APT::Color=1)"; fi
if command -v script >/dev/null; then
    tty_run() { script -qec "$*" /dev/null </dev/null | tr -d '\r'; }
    tty_run env -u NO_COLOR -u APT_NO_COLOR PAGER=cat "$APTUS" list bash -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "${esc}\[32mbash${esc}\[0m/stable " "$T/tty.out"; then echo "ok   colour on a terminal"
    else echo "FAIL colour on a terminal:"; cat -A "$T/tty.out"; failures=$((failures + 1)); fi
    tty_run env NO_COLOR=1 PAGER=cat "$APTUS" list bash -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "${esc}\[3" "$T/tty.out"; then echo "FAIL NO_COLOR ignored"; cat -A "$T/tty.out"; failures=$((failures + 1))
    else echo "ok   NO_COLOR"; fi
    tty_run env -u NO_COLOR APT_NO_COLOR=1 PAGER=cat "$APTUS" list bash -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "${esc}\[3" "$T/tty.out"; then echo "FAIL APT_NO_COLOR ignored"; failures=$((failures + 1)); else echo "ok   APT_NO_COLOR"; fi
    tty_run env -u NO_COLOR PAGER=cat "$APTUS" list bash --no-color -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "${esc}\[3" "$T/tty.out"; then echo "FAIL --no-color ignored"; failures=$((failures + 1)); else echo "ok   --no-color"; fi
    tty_run env -u NO_COLOR PAGER=cat "$APTUS" list bash -o APT::Color::Highlight=blue -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "${esc}\[34mbash${esc}\[0m/" "$T/tty.out"; then echo "ok   APT::Color::Highlight=blue"
    else echo "FAIL APT::Color::Highlight=blue"; cat -A "$T/tty.out"; failures=$((failures + 1)); fi
fi

# [installed,auto-removable]: apt marks what autoremove would take. Mark all
# installed packages automatic but a few manual ones, in a private
# extended_states, and compare with apt (the same sets, the same lines).
awk '/^Package: /{print $2}' "$S/var/lib/dpkg/status" | sort -u >"$T/installed.txt"
for keep in "openssh-server" "postgresql nginx" "git python3"; do
    : >"$T/extended_states"
    while read -r p; do
        case " $keep " in *" $p "*) continue ;; esac
        printf 'Package: %s\nArchitecture: amd64\nAuto-Installed: 1\n\n' "$p" >>"$T/extended_states"
    done <"$T/installed.txt"
    rm -rf "$T/apt-cache" "$T/aptus-cache"; mkdir -p "$T/apt-cache" "$T/aptus-cache"
    compare "list --installed, all automatic but $keep" --installed -o Dir::State::extended_states="$T/extended_states"
    grep -q 'auto-removable' "$T/aptus.out" || { echo "FAIL no auto-removable package with all but $keep automatic"; failures=$((failures + 1)); }
done
rm -rf "$T/apt-cache" "$T/aptus-cache"; mkdir -p "$T/apt-cache" "$T/aptus-cache"

# --json parses and lists the same packages as the text.
"$APTUS" list --installed --json -o Dir::Cache="$T/aptus-cache" >"$T/json.out"
"$APTUS" list --installed -o Dir::Cache="$T/aptus-cache" | sed 1d | cut -d/ -f1 >"$T/names.txt"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema_version"]==1; print("\n".join(p["name"] for p in d["packages"]))' "$T/json.out" >"$T/json.txt" \
    && diff -u "$T/names.txt" "$T/json.txt" >/dev/null; then echo "ok   --json"
else echo "FAIL --json"; failures=$((failures + 1)); fi

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
