#!/bin/bash
# aptus depends/rdepends must print byte for byte what apt-cache prints on
# the real server sandbox: stdout, stderr and exit code, for hundreds of
# packages chosen deterministically from the lists (every Nth package,
# every Nth provided name, every Nth package with an or-group), under each
# option apt-cache takes, with and without --recurse. Each case is one
# apt-cache run over many packages, so the order of the blocks, of the
# reverse dependencies and of the trailing <virtual> names is compared too.
# Globs and regular expressions are compared too. Multi-arch (--implicit
# between architectures, foreign records) is compared on a synthetic
# sandbox in multiarch_vs_apt.
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup depends-vs-apt
checked=0

exact() {
    apt-cache -o Dir::Cache="$T/apt-cache" "$@" >"$T/apt.out" 2>"$T/apt.err" </dev/null; apt_rc=$?
    "$APTUS" -o Dir::Cache="$T/aptus-cache" "$@" >"$T/aptus.out" 2>"$T/aptus.err" </dev/null; aptus_rc=$?
    checked=$((checked + 1))
    if ! { [ $apt_rc = $aptus_rc ] && cmp -s "$T/apt.out" "$T/aptus.out" && cmp -s "$T/apt.err" "$T/aptus.err"; }; then
        echo "FAIL $(echo "$*" | cut -c1-200) (rc apt=$apt_rc aptus=$aptus_rc)"
        { diff -u "$T/apt.out" "$T/aptus.out"; diff -u "$T/apt.err" "$T/aptus.err"; } | head -30
        failures=$((failures + 1))
    fi
}

L=$S/var/lib/apt/lists
T_PKGS=$(ls "$L"/*trixie*_Packages)
B_PKGS=$(ls "$L"/*bookworm*_Packages)
fixed="bash libc6 exim4 coreutils openssh-server python3 systemd apt dpkg perl vim git curl
       nginx postfix mutt emacs gcc make tar gzip sudo cron rsyslog awk mail-transport-agent
       perl:any python3:any libstdc++-14-dev:amd64 erlang-doc make-guile debconf-2.0 default-mta"
# Every 250th package of trixie and every 800th of bookworm.
sampled="$(awk '/^Package: /{print $2}' "$T_PKGS" | awk 'NR % 250 == 7')
         $(awk '/^Package: /{print $2}' "$B_PKGS" | awk 'NR % 800 == 11')"
# Names that packages provide (many are purely virtual), every 100th.
provided=$(sed -n 's/^Provides: //p' "$T_PKGS" "$B_PKGS" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | sort -u | awk 'NR % 100 == 3')
# Packages with an or-group in Depends, every 80th.
ored=$(awk '/^Package: /{p=$2} /^Depends: .* \| /{print p}' "$T_PKGS" | awk 'NR % 80 == 1')
all="$fixed $sampled $provided $ored"
echo "packages: $(echo $all | wc -w)"

for opt in "" -i --important --installed --no-pre-depends --no-depends --no-recommends --no-suggests \
           --no-conflicts --no-breaks --no-replaces --no-enhances "--installed --important" \
           "--no-depends --no-pre-depends --no-recommends"; do
    exact depends $opt $all
done
for opt in "" --installed --important -i "--installed --important" --no-depends --no-recommends --no-breaks; do
    exact rdepends $opt $all
done
for p in $fixed; do exact depends "$p"; exact rdepends "$p"; done

exact depends --recurse bash
exact depends --recurse exim4 mail-transport-agent
exact depends --recurse --important openssh-server
exact depends --recurse --installed exim4
exact depends --recurse --important --installed $fixed
exact depends --recurse --no-recommends --no-suggests python3
exact depends --recurse -i --installed systemd
exact depends --recurse --important perl:any libstdc++-14-dev:amd64
exact rdepends --recurse libacl1
exact rdepends --recurse --installed libc6 zlib1g
exact rdepends --recurse --installed --important $fixed

# --json: the text rebuilt from the document must be apt-cache's text.
json_as_text() {
    python3 -c '
import json, sys
doc = json.load(sys.stdin)
rev = doc["command"] == "rdepends"
for p in doc["packages"]:
    if p["virtual"]:
        print("<%s>" % p["package"]); continue
    print(p["package"])
    if rev: print("Reverse Depends:")
    for d in p["dependencies"]:
        name = "<%s>" % d["package"] if d["virtual"] else d["package"]
        print((" |" if d["or_next"] else "  ") + ("" if rev else d["type"] + ": ") + name)
        for v in d["providers"]: print("    " + v)
'
}
json_case() {
    apt-cache -o Dir::Cache="$T/apt-cache" "$@" >"$T/apt.out" 2>/dev/null </dev/null
    "$APTUS" -o Dir::Cache="$T/aptus-cache" --json "$@" 2>/dev/null </dev/null | json_as_text >"$T/aptus.out"
    checked=$((checked + 1))
    if ! cmp -s "$T/apt.out" "$T/aptus.out"; then
        echo "FAIL --json $(echo "$*" | cut -c1-200)"; diff -u "$T/apt.out" "$T/aptus.out" | head -30
        failures=$((failures + 1))
    fi
}
json_case depends $fixed
json_case depends --recurse --important exim4 perl:any
json_case rdepends $fixed
json_case rdepends --recurse --installed libc6

exact depends nonexistent-package
exact rdepends nonexistent-package
exact depends bash nonexistent-package exim4

# A word that is no package name is a glob, else a regular expression
# (case-insensitive, anywhere in the name): the packages it matches, in
# the order apt created them, the virtual ones last.
for w in 'exim4*' 'bash*' 'libssl*' 'mail-transport-agen?' 'EXIM4-D*' 'python3-req*=2.28.1+dfsg-1' \
         'zlib1g*/trixie' 'perl-*:amd64' '^exim4-.*' 'x11-.*-dev$' 'libss[lh]3' 'no-such-*' 'no.such'; do
    exact depends "$w"
    exact rdepends "$w"
done
exact depends --recurse --important 'exim4-daemon-*'
exact rdepends --installed 'libc6*' bash 'exim4*'

# The orders depend on the order apt read the files in and on what dpkg
# has installed: the same on a tree with the suites the other way round
# and the minbase status.
R2=$T/reversed
if "$APTUS_DATA_DIR/../tools/make-sandbox" "$R2" --status minbase --suites trixie,bookworm >/dev/null; then
    export APT_CONFIG=$R2/apt.conf
    rm -rf "$T/apt-cache" "$T/aptus-cache"; mkdir -p "$T/apt-cache" "$T/aptus-cache"
    exact rdepends $fixed $sampled $provided
    exact rdepends --installed $fixed $sampled
    exact depends $fixed $sampled $provided
    exact depends --recurse bash
else
    echo "FAIL: could not make the reversed sandbox"; failures=$((failures + 1))
fi

echo "$checked cases, $failures failed"
[ $failures = 0 ] || exit 1
exit 0
