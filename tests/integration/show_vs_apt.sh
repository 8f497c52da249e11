#!/bin/bash
# aptus show must print what apt show prints on the real server sandbox
# (bookworm + trixie lists, a real server's dpkg status): stdout byte for
# byte, the notices on stderr (at -q=0, where apt prints them) and the exit
# code, for installed and uninstalled packages, several versions, -a,
# version and release selection, virtual and unknown names.
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup show-vs-apt
checked=0

# compare ARGS...: apt show and aptus show with the same arguments, stdout
# not a terminal (no pager), each writing its cache in its own temp dir.
compare() {
    apt show -o Apt::Cmd::Disable-Script-Warning=1 -o Dir::Cache="$T/apt-cache" "$@" \
        >"$T/apt.out" 2>"$T/apt.err" </dev/null; local apt_rc=$?
    "$APTUS" show -o Dir::Cache="$T/aptus-cache" "$@" >"$T/aptus.out" 2>"$T/aptus.err" </dev/null; local aptus_rc=$?
    # apt 3.0's --full adds APT-Pin, APT-Candidate and APT-Release; the apt here (2.6) does not.
    if [ "$1" = --full ] && ! grep -aq '^APT-Release: .*a=' "$T/aptus.out"; then echo "FAIL show $*: no APT-Release line"; failures=$((failures + 1)); fi
    if [ "$1" = --full ]; then grep -av '^APT-Pin: \|^APT-Candidate: \|^APT-Release: ' "$T/aptus.out" >"$T/aptus.tmp"; mv "$T/aptus.tmp" "$T/aptus.out"; fi
    vs_apt_verdict "show $*"
}

L=$S/var/lib/apt/lists
# Installed packages (every third of the status file), packages only in
# trixie or only in bookworm (spread over the file), and names with
# several versions.
installed=$(awk '/^Package: /{print $2}' "$S/var/lib/dpkg/status" | sort -u | awk 'NR % 3 == 1' | head -45)
trixie=$(awk '/^Package: /{print $2}' "$L"/*trixie*_Packages | awk 'NR % 1500 == 7' | head -30)
bookworm=$(awk '/^Package: /{print $2}' "$L"/*bookworm*_Packages | awk 'NR % 2500 == 11' | head -15)
special="bash libc6 apertium-all-dev abcm2ps abx 0xffff awk mail-transport-agent c-compiler x-terminal-emulator python3 perl systemd"
for p in $installed $trixie $bookworm $special; do compare "$p"; done
for p in bash libc6 coreutils awk openssh-server python3 zlib1g; do
    compare -q=0 "$p"
    compare -a "$p"
    compare -a -q=0 "$p"
done
compare --full bash
compare nonexistent-package
compare -q=0 nonexistent-package
compare -q=0 bash nonexistent-package
compare -q=0 bash coreutils zsh
compare -q=0 'bash=5.2.15-2+b13'
compare -q=0 'bash=9'
compare -q=0 bash/bookworm
compare -q=0 bash/trixie
compare -q=0 bash/nosuchrelease
compare -q=0 bash:amd64
compare -q=0 awk bash

# apt-cache show: the records themselves, every version, through the
# apt-cache link (the personality), byte for byte with apt-cache.
mkdir -p "$T/bin"
ln -s "$APTUS" "$T/bin/apt-cache"
compare_cache() {
    apt-cache show -o Dir::Cache="$T/apt-cache" "$@" >"$T/apt.out" 2>"$T/apt.err" </dev/null; local apt_rc=$?
    "$T/bin/apt-cache" show -o Dir::Cache="$T/aptus-cache" "$@" >"$T/aptus.out" 2>"$T/aptus.err" </dev/null; local aptus_rc=$?
    vs_apt_verdict "apt-cache show $*"
}
for p in bash libc6 python3 mail-transport-agent nonexistent-package "bash=5.2.15-2+b13" libc6:i386 "perl zsh"; do
    compare_cache $p
done

# Colour as APT 3.0's apt show: field names in Show::Field (bold), the
# Package value in Show::Package (green); only on a terminal, never on a
# pipe, none with NO_COLOR.
esc=$'\033'
checked=$((checked + 1))
"$APTUS" show bash -o APT::Color=1 -o Dir::Cache="$T/aptus-cache" >"$T/pipe.out" 2>&1
if grep -q "$esc" "$T/pipe.out"; then echo "FAIL show: colour on a pipe"; failures=$((failures + 1)); fi
if command -v script >/dev/null; then
    tty_run() { script -qec "$*" /dev/null </dev/null | tr -d '\r'; }
    checked=$((checked + 2))
    tty_run env -u NO_COLOR -u APT_NO_COLOR PAGER=cat "$APTUS" show bash -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "^${esc}\[1mPackage${esc}\[0m: ${esc}\[32mbash${esc}\[0m\$" "$T/tty.out" &&
        grep -q "^${esc}\[1mVersion${esc}\[0m: " "$T/tty.out" && grep -q "^${esc}\[1mDescription${esc}\[0m: " "$T/tty.out"; then :
    else echo "FAIL show: colour on a terminal"; cat -A "$T/tty.out" | head; failures=$((failures + 1)); fi
    tty_run env NO_COLOR=1 PAGER=cat "$APTUS" show bash -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "$esc" "$T/tty.out"; then echo "FAIL show: NO_COLOR ignored"; failures=$((failures + 1)); fi
    checked=$((checked + 1))
    tty_run env -u NO_COLOR -u APT_NO_COLOR PAGER=cat "$APTUS" show --no-color bash -o Dir::Cache="$T/aptus-cache" >"$T/tty.out"
    if grep -q "$esc" "$T/tty.out"; then echo "FAIL show: --no-color ignored"; failures=$((failures + 1)); fi
fi

echo "$checked cases, $failures failed"
[ $failures = 0 ] || exit 1
exit 0
