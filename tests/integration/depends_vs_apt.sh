#!/bin/bash
# aptus depends must print what apt-cache depends prints on the real server
# sandbox: byte for byte for single packages (plain, --important,
# --installed), line for line per package block with --recurse (apt walks
# the packages in the order of its internal version ids, aptus breadth
# first). rdepends: every line apt prints must be in aptus's block (apt's
# shared dependency records drop some duplicate and versioned entries and
# its order follows its reading order; see docs/json/depends.md).
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v apt-cache >/dev/null; then echo "SKIP: apt-cache not installed"; exit 0; fi
. "$(dirname "$0")/lib/sandbox.sh"
shared_sandbox server

T=$(mktemp -d /tmp/aptus-depends-vs-apt.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/apt-cache" "$T/aptus-cache"
export LC_ALL=C APT_CONFIG=$ROOT/apt.conf
failures=0
checked=0

both() {
    apt-cache -o Dir::Cache="$T/apt-cache" "$@" >"$T/apt.out" 2>"$T/apt.err" </dev/null; apt_rc=$?
    "$APTUS" -o Dir::Cache="$T/aptus-cache" "$@" >"$T/aptus.out" 2>"$T/aptus.err" </dev/null; aptus_rc=$?
    checked=$((checked + 1))
}
fail() { echo "FAIL $*"; cat "$T/diff" | head -30; failures=$((failures + 1)); }
blocks() { awk '/^[^ ]/{k=$0} {print k "\t" $0}' "$1" | sort; }

exact() {
    both "$@"
    { [ $apt_rc = $aptus_rc ] && diff -u "$T/apt.out" "$T/aptus.out" && diff -u "$T/apt.err" "$T/aptus.err"; } >"$T/diff" \
        || fail "$* (rc apt=$apt_rc aptus=$aptus_rc)"
}
by_block() {
    both "$@"
    diff -u <(blocks "$T/apt.out") <(blocks "$T/aptus.out") >"$T/diff" || fail "$*"
}
subset() {
    both "$@"
    comm -23 <(blocks "$T/apt.out" | sort -u) <(blocks "$T/aptus.out" | sort -u) >"$T/diff"
    [ -s "$T/diff" ] && fail "$* (lines apt prints that aptus lacks)"
}

L=$ROOT/var/lib/apt/lists
pkgs="bash libc6 exim4 coreutils openssh-server python3 systemd apt dpkg perl vim git curl
      nginx postfix mutt emacs gcc make tar gzip sudo cron rsyslog awk mail-transport-agent
      $(awk '/^Package: /{print $2}' "$L"/*trixie*_Packages | awk 'NR % 4000 == 5' | head -12)"
for p in $pkgs; do
    exact depends "$p"
    exact depends --important "$p"
    exact depends --installed "$p"
done
exact depends nonexistent-package
exact depends bash exim4
for p in bash exim4 openssh-server; do by_block depends --recurse --important "$p"; done
by_block depends --recurse --important --installed exim4
for p in bash libtinfo6 libc6 debconf exim4-base zlib1g; do
    subset rdepends "$p"
    subset rdepends --installed "$p"
done

echo "$checked cases, $failures failed"
[ $failures = 0 ] || exit 1
exit 0
