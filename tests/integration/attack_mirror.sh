#!/bin/bash
# A mirror (or a man in the middle) turned attacker, against update and the
# .deb downloads of install, install -d and download. Each attack is set up so
# that it would succeed if aptus trusted what it was served: the files the
# attacker wants fetched exist on the server, so only aptus's checks stand in
# the way. Every one must end in an E: line and exit 100, with nothing
# installed, nothing left in the archives dir or partial/, nothing written
# outside the lists and archives dirs, and the lists of the last good update
# untouched.
#
# The attacks update_failures.sh already makes are not repeated here: a
# replayed older Release ("replayed older Release"), the freeze attack, a
# Release past its Valid-Until ("expired"), endless data ("endless",
# "endless InRelease"), a redirect to file: ("redirect to file:"), a
# tampered or unsigned InRelease, a wrong hash or size of an index.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
ARCHIVES=$T/cache/archives
mkdir -p "$ARCHIVES/partial"

# The server's rebuilt files must look newer than the stored ones, or
# If-Modified-Since answers 304 (the server's times have whole seconds).
stamp=0
restamp() {
    stamp=$((stamp + 10))
    touch -d "@$(($(date +%s) + stamp))" "$REPO/dists/$1/InRelease" "$REPO/dists/$1/Release"
}

# resign SUITE PYTHON: runs PYTHON on the suite's plain Packages text (as
# `text`) and on a list of extra Release entries (`extra`, lines "HASH SIZE
# PATH" added under every hash field), then writes every form of Packages the
# Release lists again, the Release with true hashes for them, and signs it
# with the test key: what a mirror holding the repository's key could serve.
resign() {
    python3 - "$REPO/dists/$1" "$GNUPGHOME" "$KEY" "$2" <<'PY'
import gzip, hashlib, lzma, os, subprocess, sys
dist, gnupghome, key, code = sys.argv[1:5]
bindir = os.path.join(dist, "main", "binary-amd64")
release = open(os.path.join(dist, "Release")).read()
head, listed = [], []
for line in release.splitlines():
    if line.startswith(" "):
        path = line.split()[2]
        if path not in listed:
            listed.append(path)
    elif line.endswith(":") and line[:-1] in ("MD5Sum", "SHA256", "SHA512"):
        continue
    else:
        head.append(line)
text = open(os.path.join(bindir, "Packages")).read()
extra = []
exec(code)
forms = {"Packages": text.encode()}
forms["Packages.xz"] = lzma.compress(forms["Packages"])
forms["Packages.gz"] = gzip.compress(forms["Packages"], mtime=0)
lines = list(head)
for field, algo in (("MD5Sum", "md5"), ("SHA256", "sha256"), ("SHA512", "sha512")):
    lines.append(field + ":")
    for path in listed:
        data = forms[os.path.basename(path)]
        with open(os.path.join(dist, path), "wb") as f:
            f.write(data)
        lines.append(f" {hashlib.new(algo, data).hexdigest()} {len(data):>8} {path}")
    lines += [" " + e for e in extra]
with open(os.path.join(dist, "Release"), "w") as f:
    f.write("\n".join(lines) + "\n")
gpg = ["gpg", "--homedir", gnupghome, "--batch", "--yes", "--quiet", "--local-user", key]
rel = os.path.join(dist, "Release")
subprocess.run(gpg + ["--armor", "--detach-sign", "-o", rel + ".gpg", rel], check=True)
subprocess.run(gpg + ["--clearsign", "-o", os.path.join(dist, "InRelease"), rel], check=True)
PY
}

# evil_deb OUT SIZE: a real hello 1.0 .deb whose postinst leaves $SB/pwned,
# of exactly SIZE bytes when SIZE is not 0 (grown or shrunk by an
# incompressible file until it is).
evil_deb() {
    python3 - "$1" "$2" <<'PY'
import os, random, subprocess, sys, tempfile
out, want = sys.argv[1], int(sys.argv[2])
stream = random.Random(8).randbytes(1 << 16)  # incompressible, the same every run

def build(pad):  # the .deb's bytes
    with tempfile.TemporaryDirectory() as tree:
        os.makedirs(os.path.join(tree, "DEBIAN"))
        os.makedirs(os.path.join(tree, "usr/share/doc/hello"))
        with open(os.path.join(tree, "DEBIAN/control"), "w") as f:
            f.write("Package: hello\nVersion: 1.0\nArchitecture: amd64\nMaintainer: Evil <evil@example.org>\n"
                    "Installed-Size: 10\nDescription: not the package the Packages file names\n")
        with open(os.path.join(tree, "DEBIAN/postinst"), "w") as f:
            f.write('#!/bin/sh\ntouch "$DPKG_ROOT/pwned"\n')
        os.chmod(os.path.join(tree, "DEBIAN/postinst"), 0o755)
        with open(os.path.join(tree, "usr/share/doc/hello/pad"), "wb") as f:
            f.write(stream[:pad])
        deb = os.path.join(tree + ".deb")
        subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", tree, deb],
                       check=True, stdout=subprocess.DEVNULL)
        with open(deb, "rb") as f:
            data = f.read()
        os.unlink(deb)
        return data

def write(data):
    with open(out, "wb") as f:
        f.write(data)
    sys.exit(0)

if want == 0:
    write(build(100))
# Each incompressible byte adds a little more than one byte to the .deb
# (1.03 here; not strictly:
# gzip blocks, tar and ar padding): start a little below the answer and
# try the pads in turn. Some sizes cannot be hit (the size jumps over
# them, and the gzip streams vary with the build's timestamps, so which
# ones changes from run to run): then the largest .deb below the size,
# filled up with zero bytes after its last member (dpkg-deb still reads
# it; aptus must refuse it by its hash before dpkg ever sees it).
smallest = len(build(1))
if want < smallest:
    sys.exit(f"could not make a .deb of {want} bytes (the smallest is {smallest})")
best = None
for pad in range(max(1, (want - smallest) * 9 // 10 - 32), want - smallest + 256):
    data = build(pad)
    if len(data) == want:
        write(data)
    if len(data) < want:
        best = data
    elif best is not None and len(data) > want + 64:
        break
if best is not None:
    write(best + bytes(want - len(best)))
sys.exit(f"could not make a .deb of {want} bytes")
PY
}

# aptus download hello in $T/cwd (apt-get download's current directory).
download_in_cwd() {
    mkdir -p "$T/cwd"
    cd "$T/cwd" && aptus_run download hello
    cd - >/dev/null
}
no_debs() { test -z "$(find "$ARCHIVES" -path "$ARCHIVES/partial" -prune -o -name '*.deb' -print)"; }
partial_empty() { test -z "$(ls -A "$ARCHIVES/partial")"; }
# Files named "escape*" anywhere in $T but the server's tree: an attack that got out.
escaped() { find "$T" -path "$REPO" -prune -o -path "$T/other" -prune -o -name 'escape*' -print; }

# refused_by RUN KEPT NAME TEXT ARGS...: RUN ARGS exits 100 saying TEXT,
# KEPT NAME checks the old state is kept, and nothing is written outside.
refused_by() {
    local run=$1 kept=$2 name=$3 text=$4
    shift 4
    "$run" "$@"
    check "$name: exit 100 (got $RC)" test "$RC" = 100
    check "$name: says '$text'" contains "$OUT$ERR" "$text"
    "$kept" "$name"
    check "$name: nothing written outside" test -z "$(escaped)"
}

# After an install or download: an E: line, hello is not installed, no
# .deb in the archives dir, partial/ empty.
install_kept() {
    check "$1: an E: line" grep -q '^E: ' "$T/err"
    check "$1: hello not installed" test -z "$(installed hello)"
    check "$1: no maintainer script of the attacker ran" test ! -e "$SB/pwned"
    check "$1: no .deb in the archives dir" no_debs
    check "$1: partial/ empty" partial_empty
}

# After an update: the lists are those of the last good update,
# lists/partial holds nothing but what failed its checks, set aside as
# *.FAILED (as apt keeps it for the administrator).
lists_kept() {
    check "$1: previous lists untouched" test "$(lists_digest)" = "$good"
    check "$1: lists/partial: only .FAILED" test -z "$(ls -A "$LISTS/partial" | grep -v '\.FAILED$')"
}

# refused NAME TEXT ARGS...: aptus ARGS is refused, the install state kept.
refused() { refused_by aptus_run install_kept "$@"; }
# refused_update NAME TEXT [ARGS]: aptus update is refused, the lists kept.
refused_update() { refused_by run_update lists_kept "$@"; }

# A second server on another loopback address: another host.
mkdir -p "$T/other"
echo '{}' >"$T/other-control"
UPDATE_SERVER_HOST=127.0.0.2 python3 "$LIB/update_server.py" "$T/other" "$T/other-control" "$T/other-requests" \
    >"$T/other-url" 2>"$T/other-err" &
OTHER_PID=$!
for _ in $(seq 50); do [ -s "$T/other-url" ] && break; sleep 0.1; done
OTHER=$(head -1 "$T/other-url")
[ -n "$OTHER" ] || { echo "FAIL: the second server (127.0.0.2) did not start"; cat "$T/other-err"; exit 1; }
trap 'kill "$OTHER_PID" 2>/dev/null; update_teardown' EXIT

# ---------------------------------------------------------------- update
# Mix and match: the Packages of another validly signed Release of the same
# repository (an older Release of this suite, or another suite), served under
# this Release. Plain Packages only, so the sizes can match and it is the
# hash that refuses it.
make_suite legacy --packages hello=0.8 --compress '' >/dev/null
make_suite stable --packages hello=0.9 --compress '' --date-offset -3600 >/dev/null
cp "$REPO/dists/stable/main/binary-amd64/Packages" "$REPO/older-stable-Packages"
make_suite stable --packages hello=1.0 --compress '' >/dev/null
restamp stable
set_sources stable
run_update
check "first update: exit 0" test "$RC" = 0
good=$(lists_digest)
make_suite stable --packages hello=1.1 --compress '' >/dev/null
restamp stable
P=/dists/stable/main/binary-amd64/Packages
for other in older-stable-Packages dists/legacy/main/binary-amd64/Packages; do
    text="Hash Sum mismatch"
    [ "$(stat -c %s "$REPO/$other")" = "$(stat -c %s "$REPO$P")" ] || text="File has unexpected size"
    misbehave "{\"$P\": {\"file\": \"$other\"}}"
    refused_update "mix and match ($other)" "$text"
    check "mix and match ($other): the E: line names the index" contains "$ERR" "E: Failed to fetch $URL$P  "
done
sleep 1  # a later Date than the stored Release's, so not refused as a replay
make_suite legacy --packages hello=0.8 --compress '' >/dev/null
misbehave '{"/dists/stable/InRelease": {"file": "dists/legacy/InRelease"}}'
refused_update "another suite's InRelease" "changed its 'Codename' value from 'stable' to 'legacy'"
misbehave '{}'

# Release entries that name paths outside the lists dir (relative and
# absolute), with by-hash: the files are on the server, a Release vouches for
# them, yet no target asks for them, so nothing is fetched or written.
make_suite stable --packages hello=1.1 --by-hash >/dev/null
mkdir -p "$REPO/escape-dir"
echo "escaped" >"$REPO/escape-dir/escape-file"
h=$(sha256sum <"$REPO/escape-dir/escape-file" | cut -d' ' -f1)
resign stable "
text = text
for p in ('../../../../../../../escape-rel', '/tmp/escape-abs', 'main/binary-amd64/../../../../../escape-up'):
    extra.append('$h 8 ' + p)
text = text"
# Only SHA256 entries make sense for that hash: keep them in the SHA256 field alone.
python3 - "$REPO/dists/stable/Release" "$h" <<'PY'
import sys
path, h = sys.argv[1], sys.argv[2]
lines, field = [], None
for line in open(path).read().splitlines():
    if not line.startswith(" "):
        field = line.rstrip(":")
    elif h in line and field != "SHA256":
        continue
    lines.append(line)
open(path, "w").write("\n".join(lines) + "\n")
PY
gpg --batch --yes --quiet --local-user "$KEY" --clearsign -o "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
gpg --batch --yes --quiet --local-user "$KEY" --armor --detach-sign -o "$REPO/dists/stable/Release.gpg" "$REPO/dists/stable/Release"
for p in SHA256/$h MD5Sum/x; do mkdir -p "$REPO/dists/stable/main/binary-amd64/by-hash/${p%/*}"; done
cp "$REPO/escape-dir/escape-file" "$REPO/dists/stable/main/binary-amd64/by-hash/SHA256/$h"
restamp stable
: >"$T/requests"
run_update
check "Release entries outside: update exit 0 (got $RC)" test "$RC" = 0
check "Release entries outside: nothing asked for them" bash -c "! grep -q 'escape\|$h' '$T/requests'"
check "Release entries outside: nothing written outside" test -z "$(escaped)"
check "Release entries outside: only the index and the InRelease stored" test \
    "$(cd "$LISTS" && ls | grep -v '^lock$\|^partial$\|^auxfiles$' | sed 's/.*_dists_stable_//' | sort | tr '\n' ' ')" = \
    "InRelease main_binary-amd64_Packages "
check "Release entries outside: Packages says 1.1" grep -q '^Version: 1.1' "$LISTS"/*_Packages
good=$(lists_digest)

# A hash that is a path: by-hash would put it into the URI. The Release is
# refused as malformed.
make_suite stable --packages hello=1.2 --by-hash --compress '' >/dev/null
sed -i "s|^\( [0-9a-f]\{64\} \)\( *[0-9]* main/binary-amd64/Packages\)$|  ../../../../escape-hash \2|" "$REPO/dists/stable/Release"
gpg --batch --yes --quiet --local-user "$KEY" --clearsign -o "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
grep -q 'escape-hash' "$REPO/dists/stable/InRelease" || { echo "FAIL: the test could not forge the hash"; exit 1; }
restamp stable
: >"$T/requests"
refused_update "a hash that is a path" "bad hash '../../../../escape-hash'"
check "a hash that is a path: no by-hash request" bash -c "! grep -q 'by-hash' '$T/requests'"

# An index through a redirect to another host on loopback: followed, as apt
# follows it, but what comes back must still match the Release.
make_suite stable --packages hello=1.0 >/dev/null
restamp stable
mkdir -p "$T/other/dists/stable/main/binary-amd64"
cp "$REPO/dists/stable/main/binary-amd64/"Packages* "$T/other/dists/stable/main/binary-amd64/"
P=/dists/stable/main/binary-amd64/Packages
to_other="{\"$P.xz\": {\"redirect\": \"$OTHER$P.xz\"}, \"$P.gz\": {\"redirect\": \"$OTHER$P.gz\"}, \"$P\": {\"redirect\": \"$OTHER$P\"}}"
misbehave "$to_other"
: >"$T/other-requests"
run_update
check "index redirected to another host, right content: exit 0 (got $RC)" test "$RC" = 0
check "index redirected to another host: fetched there" grep -q 'GET /dists/stable/main/binary-amd64/Packages.xz 200' "$T/other-requests"
check "index redirected to another host: stored" grep -q '^Version: 1.0' "$LISTS"/*_Packages
good=$(lists_digest)
make_suite stable --packages hello=1.1 >/dev/null
restamp stable
misbehave "$to_other"
# The first form tried (.xz) is refused (by its size or hash, as the sizes
# fall); as apt, such a mismatch is not retried with another compression.
refused_update "index redirected to another host, old content" "E: Failed to fetch $URL$P.xz  "
check "index redirected to another host, old content: no other form asked for" \
    bash -c "! grep -q 'GET $P.gz\|GET $P ' '$T/other-requests'"
misbehave '{}'

# ---------------------------------------------------------------- .debs
# hello 1.0 carries 2 kB of random text, so that its .deb (about 1.7 kB)
# is well above the smallest .deb the attacker can make (about 0.7 kB):
# evil_deb then always finds a same-size one. A bare hello was about
# 0.7 kB too, and whether evil_deb could match it depended on the gzip
# streams of both builds.
python3 - >"$T/hello-spec.json" <<'PY'
import json, random
blob = "".join(random.Random(7).choice("0123456789abcdef") for _ in range(2000))
print(json.dumps([{"name": "hello", "version": "1.0", "files": {"usr/share/doc/hello/blob": blob}}]))
PY
make_suite stable --spec "$T/hello-spec.json" >/dev/null
restamp stable
run_update
check "update for the .deb attacks: exit 0" test "$RC" = 0
DEB=/pool/stable/main/hello_1.0_amd64.deb
size=$(stat -c %s "$REPO$DEB")
mkdir -p "$REPO/evil"
evil_deb "$REPO/evil/same-size.deb" "$size" || { echo "FAIL: could not build the attacker's .deb"; exit 1; }
evil_deb "$REPO/evil/other-size.deb" $((size + 200)) || { echo "FAIL: could not build the attacker's .deb"; exit 1; }
# The attacker's .deb is a good package: dpkg would install it.
check "the attacker's .deb is a real package" dpkg-deb -f "$REPO/evil/same-size.deb" Package

# An arbitrary package: another .deb than the one the signed Packages names.
for form in same-size other-size; do
    text="Hash Sum mismatch"
    [ $form = other-size ] && text="File has unexpected size"
    misbehave "{\"$DEB\": {\"file\": \"evil/$form.deb\"}}"
    refused "arbitrary package ($form), install" "E: Failed to fetch $URL$DEB  $text" install -y hello
    refused "arbitrary package ($form), install -d" "$text" install -y -d hello
    mkdir -p "$T/cwd"
    download_in_cwd
    check "arbitrary package ($form), download: exit 100" test "$RC" = 100
    check "arbitrary package ($form), download: says '$text'" contains "$ERR" "$text"
    check "arbitrary package ($form), download: nothing lands" test -z "$(ls -A "$T/cwd")"
done

# The same attacker's .deb from another host the mirror redirects to.
mkdir -p "$T/other/pool" "$T/other/evil"
cp "$REPO$DEB" "$T/other/pool/"
cp "$REPO/evil/same-size.deb" "$T/other/evil/"
misbehave "{\"$DEB\": {\"redirect\": \"$OTHER/evil/same-size.deb\"}}"
refused "redirect to another host, other .deb" "Hash Sum mismatch" install -y hello
misbehave "{\"$DEB\": {\"redirect\": \"$OTHER/pool/hello_1.0_amd64.deb\"}}"
: >"$T/other-requests"
aptus_run install -y -d hello
check "redirect to another host, right .deb: exit 0 (got $RC)" test "$RC" = 0
check "redirect to another host, right .deb: fetched there" grep -q "GET /pool/hello_1.0_amd64.deb 200" "$T/other-requests"
check "redirect to another host, right .deb: in the archives dir" cmp -s "$REPO$DEB" "$ARCHIVES/hello_1.0_amd64.deb"
rm -f "$ARCHIVES"/*.deb

# A huge Content-Length: refused before anything is written, at once.
misbehave "{\"$DEB\": {\"content_length\": 1000000000000}}"
start=$(date +%s)
refused "huge Content-Length" "E: Failed to fetch $URL$DEB" install -y -d hello
check "huge Content-Length: quick (took $(($(date +%s) - start)) s)" test $(($(date +%s) - start)) -lt 20

# A slow drip: one byte every 3 s, Acquire::http::Timeout=1 gives up. What
# came stays in partial/ to be continued, as apt keeps it (never more than
# the .deb's size; checked whole when continued: download_resume).
misbehave "{\"$DEB\": {\"drip\": 3}}"
start=$(date +%s)
partial_kept() {
    local name=$1 part=$ARCHIVES/partial/hello_1.0_amd64.deb
    check "$name: an E: line" grep -q '^E: ' "$T/err"
    check "$name: hello not installed" test -z "$(installed hello)"
    check "$name: no .deb in the archives dir" no_debs
    check "$name: partial/ holds only what came of hello's .deb" \
        test "$(ls -A "$ARCHIVES/partial" | grep -v '^hello_1.0_amd64.deb$')" = "" -a \
        "$(stat -c %s "$part" 2>/dev/null || echo 0)" -le "$(stat -c %s "$REPO$DEB")"
    rm -f "$part"
}
refused_by aptus_run partial_kept "slow drip" "E: Failed to fetch $URL$DEB" install -y -d hello -o Acquire::http::Timeout=1
check "slow drip: gave up within the timeout (took $(($(date +%s) - start)) s)" test $(($(date +%s) - start)) -lt 20
misbehave '{}'

# A Filename: in the (signed) Packages file that leaves the repository: up
# out of it, absolute, or another URI. The file is there for the taking on
# the server (where curl's dot-segment removal would land), so only aptus's
# refusal stops it. A Version with '/' would make the archive name a path.
mkdir -p "$REPO/escape"
cp "$REPO$DEB" "$REPO/escape/hello_1.0_amd64.deb"
cp "$REPO$DEB" "$REPO/escape-abs.deb"
for bad in ../../../../escape/hello_1.0_amd64.deb pool/../../escape/hello_1.0_amd64.deb \
    /escape-abs.deb "file://$REPO/escape-abs.deb" "file:$REPO/escape-abs.deb" "$OTHER/pool/hello_1.0_amd64.deb"; do
    rm -f "$ARCHIVES"/*.deb "$T/cwd"/*
    make_suite stable --packages hello=1.0 >/dev/null
    resign stable "text = text.replace('Filename: pool/stable/main/hello_1.0_amd64.deb', 'Filename: $bad')"
    restamp stable
    run_update
    check "Filename $bad: update exit 0 (got $RC)" test "$RC" = 0
    check "Filename $bad: in the lists" grep -qF "Filename: $bad" "$LISTS"/*_Packages
    : >"$T/requests"
    : >"$T/other-requests"
    refused "Filename $bad, install -d" "Filename" install -y -d hello
    check "Filename $bad, install -d: names the file" contains "$ERR" "$bad"
    check "Filename $bad, install -d: nothing requested" test ! -s "$T/requests" -a ! -s "$T/other-requests"
    mkdir -p "$T/cwd"
    download_in_cwd
    check "Filename $bad, download: exit 100 (got $RC)" test "$RC" = 100
    check "Filename $bad, download: nothing lands" test -z "$(ls -A "$T/cwd")"
    check "Filename $bad, download: nothing requested" test ! -s "$T/requests" -a ! -s "$T/other-requests"
done

# Not every odd Filename is an attack: a "./" step, as flat repositories
# write it, stays inside the repository and is fetched.
rm -f "$ARCHIVES"/*.deb
make_suite stable --packages hello=1.0 >/dev/null
resign stable "text = text.replace('Filename: pool/', 'Filename: ./pool/')"
restamp stable
run_update
aptus_run install -y -d hello
check "Filename ./pool/...: install -d exit 0 (got $RC)" test "$RC" = 0
check "Filename ./pool/...: the .deb in the archives dir" cmp -s "$REPO$DEB" "$ARCHIVES/hello_1.0_amd64.deb"
rm -f "$ARCHIVES"/*.deb

make_suite stable --packages hello=1.0 >/dev/null
# Three steps up from partial/hello_1.0 (install -d) or from a/cwd/hello_1.0
# (download) is still inside $T, where escaped() looks: if aptus ever takes
# the name as a path again, the test catches it without touching the host.
resign stable "text = text.replace('Version: 1.0', 'Version: 1.0/../../../escape-ver')"
restamp stable
run_update
if [ "$RC" = 0 ] && grep -q 'escape-ver' "$LISTS"/*_Packages; then
    mkdir -p "$ARCHIVES/partial/hello_1.0" "$T/a/cwd/hello_1.0"
    aptus_run install -y -d hello
    check "Version with '/': install -d exit 100 (got $RC)" test "$RC" = 100
    check "Version with '/': E: line" grep -q '^E: ' "$T/err"
    cd "$T/a/cwd" && aptus_run download hello
    cd - >/dev/null
    check "Version with '/': download exit 100 (got $RC)" test "$RC" = 100
    check "Version with '/': nothing written outside" test -z "$(escaped)"
    rm -rf "$ARCHIVES/partial/hello_1.0" "$T/a"
fi

finish
