#!/bin/bash
# aptus showsrc must print what apt-cache showsrc prints: stdout byte for
# byte, the warnings and notices on stderr and the exit code. The shared
# server sandbox gets deb-src entries in a private overlay (its own
# sources.list.d and lists dir, the shared lists linked in): the real
# bookworm main Sources, plus two small Sources files made from it for
# suites listed before and after it, one with newer versions of some
# records and one with copies of others, so several files carry the same
# source and apt's reading order and its removal of identical records show.
# Names: source names, binary names, names several sources build, names only
# trixie's Packages know, unknown names, several at once, --only-source, and
# apt 3.0's "src:" prefix (compared with --only-source, as the apt here is 2.6).
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup showsrc-vs-apt
SOURCES_XZ=$APTUS_DATA_DIR/debian/bookworm-main-Sources.xz
if [ ! -f "$SOURCES_XZ" ]; then echo "SKIP: $SOURCES_XZ not found"; exit 0; fi
# The overlay: its own lists and sources.list.d, its own APT_CONFIG below.
mkdir -p "$T/lists" "$T/sources.list.d" "$T/empty.d"
for f in "$S"/var/lib/apt/lists/*_*; do ln -s "$f" "$T/lists/"; done
cp "$S"/etc/apt/sources.list.d/debian.sources "$T/sources.list.d/"
site=archive.example_debian_dists
main=$T/lists/${site}_bookworm_main_source_Sources
xz -dc "$SOURCES_XZ" >"$main"
# An "early" suite read before bookworm with newer versions of some
# records, and a "late" one read after it holding exact copies of others
# (apt prints those once) and a changed copy of one (printed twice).
awk 'BEGIN { RS = ""; ORS = "\n\n" }
     /^Package: (bash|coreutils|zlib|gcc-12|openssl)\n/ { sub(/\nVersion: [^\n]*/, "&+early1"); print }' \
    "$main" >"$T/lists/${site}_bookworm-early_main_source_Sources"
awk 'BEGIN { RS = ""; ORS = "\n\n" }
     /^Package: (dpkg|tar|zlib|perl)\n/ { print }
     /^Package: python3-defaults\n/ { sub(/\nSection: [^\n]*/, "&\nX-Late: yes"); print }' \
    "$main" >"$T/lists/${site}_bookworm-late_main_source_Sources"
cat >"$T/sources.list.d/debian-src.sources" <<EOF
Types: deb-src
URIs: http://archive.example/debian
Suites: bookworm-early bookworm bookworm-late
Components: main
EOF
conf() { # conf FILE SOURCEPARTS
    cat >"$1" <<EOF
Dir "$S/";
Dir::State::status "$S/var/lib/dpkg/status";
Dir::State::lists "$T/lists/";
Dir::Etc::sourceparts "$2/";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages { "en"; };
EOF
}
conf "$T/apt.conf" "$T/sources.list.d"
export APT_CONFIG=$T/apt.conf
checked=0

fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# run_both APT_ARGS -- APTUS_ARGS: apt-cache showsrc and aptus showsrc, stdout
# not a terminal (no pager), each with its own cache directory.
run_both() {
    local apt_args=() aptus_args=()
    while [ "$1" != -- ]; do apt_args+=("$1"); shift; done
    shift
    aptus_args=("$@")
    apt-cache -o Dir::Cache="$T/apt-cache" showsrc "${apt_args[@]}" >"$T/apt.out" 2>"$T/apt.err" </dev/null
    apt_rc=$?
    "$APTUS" -o Dir::Cache="$T/aptus-cache" showsrc "${aptus_args[@]}" >"$T/aptus.out" 2>"$T/aptus.err" </dev/null
    aptus_rc=$?
}

# verdict LABEL: compare what run_both left.
verdict() { vs_apt_verdict "showsrc $1"; }

compare() { run_both "$@" -- "$@"; verdict "$*"; }

# Source names spread over the file; binary names from the Binary fields
# (not the sources' own names); binaries that several sources build;
# binaries only trixie's Packages list; names of installed packages.
sources=$(awk '/^Package: /{print $2}' "$main" | awk 'NR % 700 == 3' | head -50)
binaries=$(awk '/^Binary: /{sub(/^Binary: /, ""); gsub(/,/, ""); for (i = 2; i <= NF; i++) print $i}' "$main" |
           awk 'NR % 2500 == 17' | head -40)
shared=$(awk '/^Binary: /{sub(/^Binary: /, ""); gsub(/,/, ""); for (i = 1; i <= NF; i++) print $i}' "$main" |
         sort | uniq -d | head -15)
trixie_only=$(comm -13 <(awk '/^Package: /{print $2}' "$S"/var/lib/apt/lists/*bookworm*_Packages | sort -u) \
                       <(awk '/^Package: /{print $2}' "$S"/var/lib/apt/lists/*trixie*_Packages | sort -u) |
              awk 'NR % 900 == 5' | head -10)
installed=$(awk '/^Package: /{print $2}' "$S/var/lib/dpkg/status" | awk 'NR % 25 == 1' | head -20)
[ -n "$shared" ] || fail "setup: no binary name built by two sources found"
for n in $sources $binaries $shared $trixie_only $installed; do compare "$n"; done

# Names in several files, in several forms.
for n in bash coreutils zlib zlib1g gcc-12 openssl libssl3 dpkg tar perl python3 python3-defaults; do
    compare "$n"
    compare --only-source "$n"
done
compare -q=0 nonexistent-package
compare nonexistent-package
compare -q=2 nonexistent-package
compare bash nonexistent-package coreutils
compare bash bash
compare bash-static bash bash-builtins
compare zlib zlib1g zlib1g-dev
compare $shared
compare $sources
compare Bash
compare 'bash*'
compare bash:amd64
compare bash=5.2.15-2
compare -q=0
compare

# apt 3.0's "src:NAME" is --only-source for that one name; apt 2.6 has no
# prefix, so it runs with --only-source and its warnings get the prefix back.
for n in bash bash-static zlib1g nonexistent-package; do
    run_both --only-source "$n" -- "src:$n"
    sed -i 's/^W: Unable to locate package /&src:/' "$T/apt.err"
    verdict "src:$n"
done

# Compressed Sources, as apt keeps them with KeepCompressed.
mkdir -p "$T/lists-xz"
for f in "$T"/lists/*; do ln -s "$(readlink -f "$f")" "$T/lists-xz/"; done
rm "$T/lists-xz/${site}_bookworm_main_source_Sources"
ln -s "$SOURCES_XZ" "$T/lists-xz/${site}_bookworm_main_source_Sources.xz"
conf "$T/apt-xz.conf" "$T/sources.list.d"
sed -i "s|$T/lists/|$T/lists-xz/|" "$T/apt-xz.conf"
APT_CONFIG=$T/apt-xz.conf compare bash-static zlib nonexistent-package

# No deb-src at all, and deb-src whose Sources file is missing: apt's error.
conf "$T/apt-nosrc.conf" "$S/etc/apt/sources.list.d"
APT_CONFIG=$T/apt-nosrc.conf compare bash
APT_CONFIG=$T/apt-nosrc.conf compare
mkdir -p "$T/missing.d"
sed 's/^Suites: .*/Suites: sid/' "$T/sources.list.d/debian-src.sources" >"$T/missing.d/src.sources"
conf "$T/apt-missing.conf" "$T/missing.d"
APT_CONFIG=$T/apt-missing.conf compare bash

# apt (not apt-cache) prints the same.
for n in bash zlib1g; do
    apt -o Apt::Cmd::Disable-Script-Warning=1 -o Dir::Cache="$T/apt-cache" showsrc "$n" >"$T/apt.out" 2>"$T/apt.err" </dev/null
    apt_rc=$?
    "$APTUS" -o Dir::Cache="$T/aptus-cache" showsrc "$n" >"$T/aptus.out" 2>"$T/aptus.err" </dev/null
    aptus_rc=$?
    verdict "(apt) $n"
done

# --json: the same records as the text, in the same order, fields intact.
names="bash zlib1g $shared nonexistent-package src:tar"
"$APTUS" -o Dir::Cache="$T/aptus-cache" showsrc $names >"$T/text.out" 2>/dev/null
"$APTUS" -o Dir::Cache="$T/aptus-cache" showsrc --json $names >"$T/json.out" 2>/dev/null
checked=$((checked + 1))
if ! python3 - "$T/text.out" "$T/json.out" <<'PY'; then fail "showsrc --json: does not match the text output"; fi
import json, sys
text = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
assert doc["schema_version"] == 1 and doc["version"] == 1, doc
records = [r for r in text.split("\n\n") if r]
assert len(records) == len(doc["sources"]), (len(records), len(doc["sources"]))
for raw, s in zip(records, doc["sources"]):
    fields = {}
    name = None
    for line in raw.split("\n"):
        if line.startswith(" "):
            fields[name] += ("\n" if fields[name] else "") + line[1:]
        else:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    assert fields == s["fields"], (fields, s["fields"])
    assert s["package"] == fields["Package"] and s["version"] == fields["Version"]
    assert s["binaries"] == [b.strip() for b in fields["Binary"].replace("\n", " ").split(",")]
    assert s["matched_by"] in ("source", "binary")
    assert s["index"].endswith(" Sources") and s["path"].endswith("_Sources")
    dsc = [f for f in s["files"] if f["name"].endswith(".dsc")]
    assert len(dsc) == 1 and len(dsc[0]["md5sum"]) == 32 and len(dsc[0]["sha256"]) == 64, s["files"]
assert doc["not_found"] == ["nonexistent-package"], doc["not_found"]
assert any(s["requested"] == "src:tar" and s["matched_by"] == "source" for s in doc["sources"])
PY

# On a terminal the records go through the pager, as apt showsrc's do.
checked=$((checked + 1))
apt-cache -o Dir::Cache="$T/apt-cache" showsrc bash zlib1g >"$T/apt.out" 2>/dev/null
if ! timeout -k 5 60 python3 - "$APTUS" "$T" <<'PY'; then fail "showsrc on a terminal: the pager did not get the records"; fi
import os, pty, subprocess, sys
aptus, t = sys.argv[1], sys.argv[2]
env = dict(os.environ, PAGER="cat > '%s/paged'" % t)
env.pop("APT_PAGER", None)
master, slave = pty.openpty()
p = subprocess.Popen([aptus, "-o", "Dir::Cache=%s/aptus-cache" % t, "showsrc", "bash", "zlib1g"],
                     stdin=slave, stdout=slave, stderr=slave, env=env)
os.close(slave)
screen = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    screen += chunk
assert p.wait() == 0
assert open(t + "/paged", "rb").read() == open(t + "/apt.out", "rb").read()
assert b"Package:" not in screen, screen[:200]
PY

echo "$checked cases, $failures failed"
[ $failures = 0 ] || exit 1
exit 0
