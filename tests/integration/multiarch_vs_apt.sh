#!/bin/bash
# The read commands on a multi-arch system (amd64 native, i386 foreign),
# aptus against real apt on a small synthetic sandbox
# (lib/make_multiarch.py: Multi-Arch same/foreign/allowed/no, Architecture:
# all packages in both architectures' lists, name:any and name:i386
# dependencies, i386 packages installed beside their amd64 twins, a
# package only the foreign architecture has, a local one).
#
# Compared byte for byte (stdout, stderr where apt-cache writes it, exit
# code): list (all, --installed, -a, --upgradable, globs), show of
# foreign, "all" and virtual foreign records, policy with and without
# architectures, search and apt-cache search, depends over every package
# and every i386 record under each option (--recurse, --installed,
# --important), and depends/rdepends globs and regular expressions.
#
# Compared as sets, per package block (each dependency line with the
# provider lines under it), because the order comes from apt's cache
# internals and is not rebuilt: rdepends where the reverse list mixes
# architectures (apt shares dependency records between versions and
# inserts the implicit ones where its linked lists happen to be), and
# depends --implicit (apt adds the Conflicts/Breaks/Replaces between the
# architectures of a package, and those against records created after the
# declaring package was read, at the end of the version's list in an
# order that depends on when each record appeared). depends --recurse is
# compared as a set of lines: apt orders the trailing virtual names by
# when it created each record, and a qualified "maf-tools:i386" in a
# dependency is a record of its own to apt, created later than the real
# package that aptus's order takes for it.
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_start multiarch-vs-apt
python3 "$(dirname "$0")/lib/make_multiarch.py" "$T/root" >/dev/null || { echo "FAIL: could not make the sandbox"; exit 1; }
export APT_CONFIG=$T/root/apt.conf
checked=0

# run TOOL ARGS...: apt/apt-cache and aptus with the same arguments.
run_both() {
    local tool=$1; shift
    "$tool" -o Dir::Cache="$T/apt-cache" -o Apt::Cmd::Disable-Script-Warning=1 "$@" \
        >"$T/apt.out" 2>"$T/apt.err" </dev/null; apt_rc=$?
    "$APTUS" -o Dir::Cache="$T/aptus-cache" "$@" >"$T/aptus.out" 2>"$T/aptus.err" </dev/null; aptus_rc=$?
    # apt's "no stable CLI" warning (with its blank line) is apt's own.
    grep -v 'does not have a stable CLI interface' "$T/apt.err" | sed '/^$/d' >"$T/apt.err2"
    sed '/^$/d' "$T/aptus.err" >"$T/aptus.err2"
    checked=$((checked + 1))
}
report() {
    echo "FAIL $(echo "$*" | cut -c1-160) (rc apt=$apt_rc aptus=$aptus_rc)"
    { diff -u "$T/apt.out" "$T/aptus.out"; diff -u "$T/apt.err2" "$T/aptus.err2"; } | head -40
    failures=$((failures + 1))
}
exact() {
    run_both "$@"
    [ $apt_rc = $aptus_rc ] && cmp -s "$T/apt.out" "$T/aptus.out" && cmp -s "$T/apt.err2" "$T/aptus.err2" || report "$@"
}
# Each block (a line at column 0) keeps its place; inside it the entries
# (a dependency line with the indented provider lines under it) are sorted.
as_sets() {
    python3 -c '
import sys
blocks = []
for line in open(sys.argv[1]).read().splitlines():
    if not line.startswith(" ") and line != "Reverse Depends:":
        blocks.append([line, []])
    elif line.startswith("    ") and blocks[-1][1]:
        blocks[-1][1][-1].append(line)
    else:
        blocks[-1][1].append([line])
for head, entries in blocks:
    print(head)
    for e in sorted(entries): print("\n".join(e))
' "$1"
}
# normalised HOW LABEL TOOL ARGS...: run_both, then stdout compared as HOW
# prints it (the reports show that form).
normalised() {
    local how=$1 label=$2
    shift 2
    run_both "$@"
    "$how" "$T/apt.out" >"$T/apt.sorted"; "$how" "$T/aptus.out" >"$T/aptus.sorted"
    if ! { [ $apt_rc = $aptus_rc ] && cmp -s "$T/apt.sorted" "$T/aptus.sorted" && cmp -s "$T/apt.err2" "$T/aptus.err2"; }; then
        cp "$T/apt.sorted" "$T/apt.out"; cp "$T/aptus.sorted" "$T/aptus.out"
        report "($label) $*"
    fi
}
# The same lines, in any order.
lines() { normalised sort "as lines" "$@"; }
sets() { normalised as_sets "as sets" "$@"; }

# list: the bare name for a foreign package, "all" packages once with the
# suite of each architecture's list, the flags of i386 packages.
exact apt list
exact apt list --installed
exact apt list -a
exact apt list --upgradable
exact apt list --manual-installed
exact apt list 'maf*' 'lib*'
exact apt list -a 'interp*'
exact apt list '*:i386'
exact apt list --installed 'libmaf1:amd64'

# show: foreign records, "all" (one record, native), :all/:any/:native
# words, virtual foreign records (apt has them, without versions) and
# names apt has no record of.
for w in maf-tools maf-tools:i386 libmaf1:i386 maf-data maf-data:i386 maf-data:all libc6:any libc6:native \
         wine32-only wine32-only:i386 wine32-only:amd64 local-only libonly-i386:i386 mta-b mail-agent \
         mail-agent:i386 interp-plugin:i386 cross-helper amd64-only:i386; do
    exact apt show "$w"
    exact apt show -q=0 "$w"
done
exact apt show -a libmaf1:i386 maf-data interp
exact apt show -a -q=0 maf-data:i386 libc6:i386

# policy: the version tables of both architectures, the files of an "all"
# package in both lists, records without versions, unknown ones.
exact apt-cache policy
exact apt-cache policy libmaf1 libmaf1:i386 maf-data maf-data:i386 maf-data:all interp:any
exact apt-cache policy wine32-only wine32-only:amd64 wine32-only:i386 local-only local-only:i386
exact apt-cache policy mta-b mail-agent mail-agent:i386 old-tool old-tool:i386 old-tool:any
exact apt-cache policy foreign-prov:amd64 mail-user:i386 amd64-only:i386 maf-doc:i386 virt-none:i386 \
    virt-foreign virt-foreign:amd64 virt-foreign:i386 libgcc1 libgcc1:i386 interp-api-5.38 plain-tool-ng \
    plain-tool-ng:i386 libonly-i386:amd64 mail-agent-abi:i386

# search: one entry per package name (the native package, else the foreign one).
exact apt search maf
exact apt search --names-only i386
exact apt search -f interp
exact apt search multi-arch architecture

# depends: every package name and every i386 record, under each option.
L=$T/root/var/lib/apt/lists
names=$(awk '/^Package:/{print $2}' "$L"/*_Packages "$T/root/var/lib/dpkg/status" | sort -u)
all="$names $(for n in $names; do echo "$n:i386"; done) mail-agent mail-agent:i386 virt-foreign interp:any"
for opt in "" --installed --important --no-depends --no-conflicts "-o APT::Cache::ShowVersion=1"; do
    exact apt-cache depends $opt $all
done
for opt in --recurse "--recurse --important"; do
    lines apt-cache depends $opt $all
done
for opt in "" "-o APT::Cache::ShowVersion=1" --installed; do
    sets apt-cache depends --implicit $opt $all
done
exact apt-cache depends --implicit maf-data interp-script mail-user
for opt in "" --recurse --installed --important; do
    sets apt-cache rdepends $opt $all
done
sets apt-cache rdepends --implicit $all
exact apt-cache rdepends mail-agent virt-foreign maf-data maf-doc interp-base

# Globs and regular expressions name packages too (apt-cache's fallbacks
# for a word that is no package name), in the order apt created them.
for w in 'maf-t*' 'maf-t*:i386' 'maf-[td]*' 'Maf-d*' 'libmaf?' 'mta*' 'mta-b*' 'libonly*' 'mail-agent*' \
         'maf-d*=1.0-1' 'maf-d*=9' 'maf-d*/stable' 'maf-d*:amd64' 'maf-d*:any' '*:i386' \
         '^maf-t.*' 'maf.tools' 'interp|maf-doc' 'maf-doc$' 'MAF-D.C' 'nomatch*' 'nomatch.*'; do
    exact apt-cache depends "$w"
    sets apt-cache rdepends "$w"
done
exact apt-cache depends 'maf-d*' libmaf1 'maf-d*' maf-doc

echo "$checked cases, $failures failed"
[ $failures = 0 ] || exit 1
exit 0
