#!/bin/bash
# aptus mark minimize-manual beside real apt-mark minimize-manual, on two
# twins of a small made-up installed system (a dpkg status with metapackages,
# their dependencies through versions, alternatives, Provides and
# Recommends, and an extended_states): stdout, stderr, exit status and the
# extended_states bytes must come out the same, for -s, a "no" answer, -y,
# and again once nothing is left to do. No lists, no host state.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v apt-mark >/dev/null || ! command -v dpkg >/dev/null; then echo "SKIP: apt-mark or dpkg not installed"; exit 0; fi
T=$(mktemp -d /tmp/aptus-mark-minimize.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
export LC_ALL=C
unset SUDO_UID PKEXEC_UID
failures=0

stanza() {  # stanza NAME VERSION SECTION [FIELD: VALUE]...
    local name=$1 version=$2 section=$3; shift 3
    printf 'Package: %s\nStatus: install ok installed\nPriority: optional\nSection: %s\n' "$name" "$section"
    printf 'Installed-Size: 1\nMaintainer: Nobody <nobody@example.org>\nArchitecture: amd64\nVersion: %s\n' "$version"
    local f
    for f in "$@"; do printf '%s\n' "$f"; done
    printf 'Description: %s\n test package\n\n' "$name"
}
status() {
    stanza meta-desktop 1 metapackages 'Depends: app-a, app-b | app-c, mail-virt' 'Recommends: rec-x' 'Suggests: sug-y'
    stanza app-a 1 utils 'Depends: lib-a (>= 1.0), lib-b (>= 2)'
    stanza lib-a 1.1 libs
    stanza lib-b 1.0 libs
    stanza app-b 1 utils 'Depends: auto-dep'
    stanza app-c 1 utils
    stanza auto-dep 1 libs 'Pre-Depends: deep-lib'
    stanza deep-lib 1 libs
    stanza prov-p 1 mail 'Provides: mail-virt'
    stanza rec-x 1 utils
    stanza sug-y 1 utils
    stanza other-manual 1 utils
    stanza meta-two 1 universe/metapackages 'Depends: tool-z'
    stanza tool-z 1 utils
    stanza meta-auto 1 metapackages 'Depends: tool-w'
    stanza tool-w 1 utils
    stanza meta-auto-universe 1 universe/metapackages 'Depends: tool-v'
    stanza tool-v 1 utils
}
states() {
    printf 'Package: auto-dep\nArchitecture: amd64\nAuto-Installed: 1\n\n'
    printf 'Package: meta-auto\nArchitecture: amd64\nAuto-Installed: 1\n\n'
    printf 'Package: meta-auto-universe\nArchitecture: amd64\nAuto-Installed: 1\n\n'
}
make_twin() {  # make_twin DIR
    local d=$1
    mkdir -p "$d/var/lib/apt/lists" "$d/var/lib/dpkg/info" "$d/var/log/apt" "$d/cache/archives/partial" \
        "$d/etc/apt/apt.conf.d" "$d/etc/apt/sources.list.d" "$d/etc/apt/preferences.d"
    : >"$d/etc/apt/sources.list"
    # Debian's /etc/apt/apt.conf.d/01autoremove names the root sections.
    printf 'APT::Never-MarkAuto-Sections { "metapackages"; "tasks"; };\n' >"$d/etc/apt/apt.conf.d/01autoremove"
    status >"$d/var/lib/dpkg/status"
    : >"$d/var/lib/dpkg/available"
    states >"$d/var/lib/apt/extended_states"
    cat >"$d/apt.conf" <<CONF
Dir "$d/";
Dir::Etc "$d/etc/apt/";
Dir::State::status "$d/var/lib/dpkg/status";
Dir::Cache "$d/cache/";
Dir::Bin::dpkg "/usr/bin/dpkg";
DPkg::Options { "--root=$d"; };
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
CONF
}
A=$T/apt B=$T/aptus
make_twin "$A"
make_twin "$B"

# The names of the list in the order of apt's cache records, which aptus
# does not reproduce (it sorts them): compared as sets.
words_sorted() {
    python3 -c 'import sys
for line in open(sys.argv[1]).read().split("\n"):
    print("  " + " ".join(sorted(line.split())) if line.startswith("  ") else line, end="\n" if line else "")' "$1"
}

# compare NAME ARGS...: the same apt-mark command on both twins, stdin empty.
compare() {
    local name=$1; shift
    APT_CONFIG=$A/apt.conf apt-mark "$@" </dev/null >"$T/apt.raw" 2>"$T/apt.err"; local apt_rc=$?
    APT_CONFIG=$B/apt.conf "$APTUS" mark "$@" </dev/null >"$T/aptus.raw" 2>"$T/aptus.err"; local aptus_rc=$?
    words_sorted "$T/apt.raw" >"$T/apt.out"
    words_sorted "$T/aptus.raw" >"$T/aptus.out"
    local bad=""
    [ $apt_rc -eq $aptus_rc ] || bad="$bad exit(apt=$apt_rc aptus=$aptus_rc)"
    cmp -s "$T/apt.out" "$T/aptus.out" || bad="$bad stdout"
    cmp -s "$T/apt.err" "$T/aptus.err" || bad="$bad stderr"
    cmp -s "$A/var/lib/apt/extended_states" "$B/var/lib/apt/extended_states" || bad="$bad extended_states"
    if [ -n "$bad" ]; then
        echo "FAIL $name:$bad"
        diff -u "$T/apt.out" "$T/aptus.out" | head -20
        diff -u "$T/apt.err" "$T/aptus.err" | head -10
        diff -u "$A/var/lib/apt/extended_states" "$B/var/lib/apt/extended_states" | head -30
        failures=$((failures + 1))
        cp "$A/var/lib/apt/extended_states" "$B/var/lib/apt/extended_states"
        return
    fi
    echo "ok   $name ($(wc -l <"$T/apt.out") lines, exit $apt_rc)"
}

compare "showmanual before" showmanual
compare "minimize-manual: arguments refused" minimize-manual app-a
compare "minimize-manual -s: the list, nothing written" -s minimize-manual
compare "minimize-manual, answered no" minimize-manual
compare "minimize-manual without Recommends" -s -o APT::Install-Recommends=false minimize-manual
compare "minimize-manual -y: written" -y minimize-manual
compare "showauto after" showauto
compare "showmanual after" showmanual
compare "minimize-manual: nothing left" minimize-manual
# Only the configured sections make roots; none configured, nothing to do.
compare "manual: a root's dependency" manual app-a
compare "minimize-manual: that one again" -s minimize-manual
rm "$A/etc/apt/apt.conf.d/01autoremove" "$B/etc/apt/apt.conf.d/01autoremove"
compare "minimize-manual: no root sections" -s minimize-manual

if [ $failures -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all ok"
