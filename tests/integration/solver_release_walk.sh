#!/bin/bash
# `install pkg/release` moves the dependencies the candidates cannot meet to
# that release too (apt's SetCandidateRelease walk), with apt's "Selected
# version ... because of ..." notes: on the real server sandbox (bookworm
# installed, trixie the candidate release) the notes must be apt-get -s's
# (apt prints them at -q=0), line for line, and every version a note
# selects must be the one the plan installs. Cases: one dependency moved
# (libsoldout-dev), a chain three deep (fontforge-extras: libfontforge4 ->
# libtiff6 -> libwebp7), and a walk apt undoes because python3-reportbug's
# unversioned dependencies have no candidate installable now (reportbug: no
# note beyond its own). There apt 2.6's resolver still takes
# python3-reportbug 12.0.0, which is not the candidate; with solver3's
# strict pinning aptus refuses and says so (checked below).
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup release-walk

for pkg in libsoldout-dev fontforge-extras reportbug; do
    apt-get -s -q=0 -o Dir::Cache="$T/apt-cache" install "$pkg/bookworm" 2>&1 | tr '\r' '\n' |
        grep "^Selected version" >"$T/apt.notes"
    "$APTUS" -s -o Dir::Cache="$T/aptus-cache" install "$pkg/bookworm" >"$T/aptus.out" 2>&1
    grep "^Selected version" "$T/aptus.out" >"$T/aptus.notes"
    if ! diff -u "$T/apt.notes" "$T/aptus.notes" >"$T/diff"; then
        echo "FAIL $pkg: notes differ from apt-get -s"; cat "$T/diff"; failures=$((failures + 1)); continue
    fi
    if [ "$pkg" = reportbug ]; then
        if grep -q "python3-reportbug:amd64=12.0.0: not the candidate" "$T/aptus.out"; then echo "ok $pkg: notes as apt's, refused under strict pinning"
        else echo "FAIL $pkg: expected the strict-pinning refusal"; cat "$T/aptus.out"; failures=$((failures + 1)); fi
        continue
    fi
    # Every selected version is the one installed.
    bad=0
    while read -r line; do
        version=$(sed -n "s/^Selected version '\([^']*\)'.* for '\([^']*\)'.*/\1/p" <<<"$line")
        name=$(sed -n "s/^Selected version '[^']*' (.*) for '\([^']*\)'.*/\1/p" <<<"$line")
        if ! grep -q "^Inst $name \(\[[^]]*\] \)\{0,1\}($version " "$T/aptus.out"; then
            echo "FAIL $pkg: $name is not installed at $version"; bad=1
        fi
    done <"$T/aptus.notes"
    [ $bad -eq 0 ] || { failures=$((failures + 1)); continue; }
    echo "ok $pkg: $(wc -l <"$T/aptus.notes") note(s) as apt's"
done
[ $failures -eq 0 ] && echo "PASS" || { echo "FAIL: $failures case(s)"; exit 1; }
