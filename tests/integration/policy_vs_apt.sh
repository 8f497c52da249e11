#!/bin/bash
# aptus policy must print byte for byte what apt-cache policy prints for the
# same sandbox: the real bookworm and trixie lists and a real server's dpkg
# status (make-sandbox), with tests/data/policy's preferences exercising
# every kind of pin. Both programs get -o Dir::Cache=<temp dir>, so nothing
# is ever written into the sandbox, which may be shared with other tests.
set -u
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data/policy
. "$here/lib/sandbox.sh"
vs_apt_setup policy-vs-apt
pins=(-o "Dir::Etc::Preferences=$data/preferences" -o "Dir::Etc::PreferencesParts=$data/preferences.d")

# Every installed package, every 150th package of each list, the pinned
# ones, and names apt resolves to nothing or to a virtual package.
lists=$S/var/lib/apt/lists
awk '/^Package: /{print $2}' "$S/var/lib/dpkg/status" >"$T/names"
awk '/^Package: /{if (++n % 150 == 0) print $2}' "$lists"/*_Packages >>"$T/names"
printf '%s\n' bash coreutils zsh python3-mako python3-apt libssl3 openssh-server openssh-client \
    openssh-sftp-server curl vim vim-tiny vim-common nano git tar nonexistent-package-xyz perl perl-base \
    perl-modules-5.36 openssl dpkg apt mail-transport-agent awk no-such-package bash:amd64 bash:i386 \
    libc6:amd64 >>"$T/names"
mapfile -t names <"$T/names"
echo "comparing ${#names[@]} package names"

compare() {
    local name=$1; shift
    apt-cache policy -o "Dir::Cache=$T/apt-cache" "${pins[@]}" "$@" >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    "$APTUS" policy -o "Dir::Cache=$T/aptus-cache" "${pins[@]}" "$@" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    local ok=1
    # apt 3.0 notes each name it has never heard of; the apt here (2.6) does not.
    local unknown
    for unknown in nonexistent-package-xyz no-such-package; do
        if [[ " $* " == *" $unknown "* ]] && ! grep -qx "N: Unable to locate package $unknown" "$T/aptus.err"; then
            echo "FAIL $name: no 'N: Unable to locate package $unknown'"; ok=0
        fi
    done
    grep -v '^N: Unable to locate package ' "$T/aptus.err" >"$T/aptus.err2"; mv "$T/aptus.err2" "$T/aptus.err"
    if [ $apt_rc -ne $aptus_rc ]; then
        echo "FAIL $name: exit code apt-cache=$apt_rc aptus=$aptus_rc"; cat "$T/apt.err" "$T/aptus.err"; ok=0
    fi
    if ! diff -u "$T/apt.out" "$T/aptus.out" >"$T/diff"; then
        echo "FAIL $name: output differs (- apt-cache, + aptus)"; head -200 "$T/diff"; ok=0
    fi
    if ! diff -u "$T/apt.err" "$T/aptus.err" >"$T/diff"; then
        echo "FAIL $name: stderr differs (- apt-cache, + aptus)"; head -50 "$T/diff"; ok=0
    fi
    if [ $ok = 1 ]; then echo "ok   $name ($(wc -l <"$T/apt.out") lines)"; else failures=$((failures + 1)); fi
}

compare "no arguments"
compare "packages" "${names[@]}"
compare "no arguments, -t bookworm" -t bookworm
compare "packages, -t bookworm" -t bookworm "${names[@]}"
compare "no arguments, --target-release trixie" --target-release trixie
compare "packages, -t trixie" -t trixie "${names[@]}"
compare "packages, -t stable" -t stable bash tar nano git coreutils
compare "unknown target release" -t sid bash

[ $failures = 0 ] || { echo "$failures case(s) failed"; exit 1; }
echo "all cases match"
