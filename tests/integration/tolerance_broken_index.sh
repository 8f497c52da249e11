#!/bin/bash
# One broken repository or state file must not take the package manager
# down (issue 19). A signed repository whose Packages has a NUL byte in one
# stanza and a line that is not "Field: value" in another: after `update`,
# every read command still works (exit 0, the other packages there) and
# names the file and line in a warning; the same for a NUL and a broken
# stanza in the dpkg status and a damaged extended_states, whose readable
# marks are kept and whose bytes are copied aside before `mark` rewrites it.
# Real apt-get runs in the same sandbox for comparison: it goes on too.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup

make_suite stable --packages alpha=1.0,bravo=1.0,charlie=1.0,delta=1.0,echo=1.0
# Damage the suite's Packages (all its forms), then list them in the Release
# again and sign it: the damage is the repository's own, not a mirror's.
python3 - "$REPO/dists/stable" <<'PY'
import gzip, hashlib, lzma, os, re, sys
dist = sys.argv[1]
bindir = os.path.join(dist, "main", "binary-amd64")
plain = open(os.path.join(bindir, "Packages"), "rb").read()
stanzas = plain.rstrip(b"\n").split(b"\n\n")
for i, s in enumerate(stanzas):
    if s.startswith(b"Package: bravo\n"):
        stanzas[i] = s.replace(b"Maintainer: Test", b"Maintainer: Te\0st", 1)
    if s.startswith(b"Package: delta\n"):
        stanzas[i] = s.replace(b"\nVersion:", b"\nthis line is broken\nVersion:", 1)
plain = b"\n\n".join(stanzas) + b"\n"
forms = {"Packages": plain, "Packages.xz": lzma.compress(plain), "Packages.gz": gzip.compress(plain, mtime=0)}
for name, data in forms.items():
    open(os.path.join(bindir, name), "wb").write(data)
release = open(os.path.join(dist, "Release")).read()
algos = {"MD5Sum": "md5", "SHA256": "sha256", "SHA512": "sha512"}
out, algo = [], None
for line in release.splitlines():
    if not line.startswith(" "):
        algo = algos.get(line.rstrip(":"))
        out.append(line)
        continue
    name = line.split()[2]
    data = forms[os.path.basename(name)]
    out.append(f" {hashlib.new(algo, data).hexdigest()} {len(data):>8} {name}")
open(os.path.join(dist, "Release"), "w").write("\n".join(out) + "\n")
PY
rm -f "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release.gpg"
gpg --batch --yes --quiet --local-user "$KEY" --clearsign -o "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
gpg --batch --yes --quiet --local-user "$KEY" --armor --detach-sign -o "$REPO/dists/stable/Release.gpg" \
    "$REPO/dists/stable/Release"
set_sources stable
mkdir -p "$SB/var/lib/apt/lists/partial" "$SB/var/cache/apt/archives/partial" "$SB/var/log/apt"
touch "$SB/var/lib/dpkg/lock" "$SB/var/lib/dpkg/lock-frontend"

run_update
check "update: exit 0 (got $RC)" test "$RC" = 0
PKGS=$(ls "$LISTS"/*_dists_stable_main_binary-amd64_Packages 2>/dev/null | head -1)
check "update: the Packages file is stored" test -n "$PKGS"
nul_line=$(grep -anP 'Maintainer: Te\x00st' "$PKGS" | cut -d: -f1)
broken_line=$(grep -an '^this line is broken$' "$PKGS" | cut -d: -f1)
check "the stored Packages has the NUL" test "$(tr -cd '\000' <"$PKGS" | wc -c)" = 1
check "update names the broken line" contains "$ERR" "W: $PKGS:$broken_line: line has no ':'"

# run NAME ARGS...: aptus ARGS, exit 0, both warnings on stderr (every run:
# the first builds the cache, the others reuse it and say the same).
run() {
    local name=$1
    shift
    "$APTUS" "$@" >"$T/out" 2>"$T/err"
    RC=$?
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
    check "$name: exit 0 (got $RC)" test "$RC" = 0
    check "$name: warns of the broken stanza" contains "$ERR" \
        "W: $PKGS:$broken_line: line has no ':' (expected \"Field: value\"); the stanza was skipped"
    check "$name: warns of the NUL" contains "$ERR" "W: $PKGS:$nul_line: NUL byte in field 'Maintainer'; its value ends there"
}
run "show" show alpha echo bravo
check "show: alpha and echo shown" grep -q '^Package: echo' "$T/out"
check "show: bravo kept, its Maintainer ends at the NUL" grep -qx 'Maintainer: Te' "$T/out"
run "policy" policy alpha charlie echo
check "policy: echo has its candidate" grep -A2 '^echo:' "$T/out" | grep -q 'Candidate: 1.0'
run "search" search --names-only '^(alpha|bravo|charlie|echo)$'
check "search: four packages" test "$(grep -c '^[a-z]*/stable' "$T/out")" = 4
run "list" list
check "list: delta, whose stanza was skipped, is not there" bash -c "! grep -q '^delta/' '$T/out'"
check "list: charlie is there" grep -q '^charlie/stable' "$T/out"
run "install -s" install -s echo
check "install -s: echo would be installed" grep -q '^Inst echo ' "$T/out"
run "install -s of the damaged bravo" install -s bravo
check "install -s: bravo would be installed" grep -q '^Inst bravo ' "$T/out"

# Real apt on the same lists goes on too (it says nothing of the damage).
if command -v apt-get >/dev/null; then
    mkdir -p "$T/apt-cache"
    apt-cache -o Dir::Cache="$T/apt-cache" policy alpha >"$T/apt.out" 2>&1
    check "apt-cache policy on the same lists: exit 0" test $? = 0
    check "apt-cache policy on the same lists: alpha" grep -q 'Candidate: 1.0' "$T/apt.out"
fi

# The dpkg status: a NUL in a value of alpha's stanza (kept, as apt and
# dpkg keep it), a NUL in a field name of charlie's (skipped), echo intact.
STATUS=$SB/var/lib/dpkg/status
stanza() { printf 'Package: %s\nStatus: install ok installed\nPriority: optional\nSection: misc\nInstalled-Size: 10\nMaintainer: %b\nArchitecture: amd64\nVersion: 1.0\nDescription: test package %s\n\n' "$1" "$2" "$1"; }
{
    stanza alpha 'A\0B <a@example.org>'
    stanza bravo 'B <b@example.org>'
    printf 'Package: charlie\nStatus: install ok installed\nArch\0itecture: amd64\nVersion: 1.0\n\n'
    stanza echo 'E <e@example.org>'
} >"$STATUS"
status_nul=$(grep -an '^Maintainer: A' "$STATUS" | cut -d: -f1)
status_bad=$(grep -an '^Arch.itecture' "$STATUS" | cut -d: -f1)
run "list --installed" list --installed
check "status: warns of the NUL in a name" contains "$ERR" "W: $STATUS:$status_bad: NUL byte in line; the stanza was skipped"
check "status: warns of the NUL in a value" contains "$ERR" "W: $STATUS:$status_nul: NUL byte in field 'Maintainer'"
check "status: alpha, bravo and echo installed" \
    test "$(grep -c '\[installed' "$T/out")" = 3
check "status: charlie is not" bash -c "! grep -q '^charlie/.*installed' '$T/out'"
if command -v apt-get >/dev/null; then
    apt-get -o Dir::Cache="$T/apt-cache" -s install echo >"$T/apt.out" 2>&1
    check "apt-get -s install on the same status: exit 0" test $? = 0
fi

# extended_states: alpha auto, a damaged stanza for bravo (marked auto in
# it, unreadable), echo auto. The readable marks count; `mark auto` rewrites
# the file from what it could read, after keeping the damaged bytes aside.
EXT=$SB/var/lib/apt/extended_states
printf 'Package: alpha\nArchitecture: amd64\nAuto-Installed: 1\n\nPackage: bravo\nArchitecture amd64\nAuto-Installed: 1\n\nPackage: echo\nArchitecture: amd64\nAuto-Installed: 1\n' >"$EXT"
cp "$EXT" "$T/ext.orig"
run "mark showauto" mark showauto
check "extended_states: warns of the damaged stanza" contains "$ERR" "W: $EXT:6: line has no ':'"
check "extended_states: the readable marks kept" test "$(echo $(cat "$T/out"))" = "alpha echo"
run "mark auto" mark auto bravo
check "mark auto: says the copy is kept" contains "$ERR" "kept as it was in $EXT.damaged"
check "mark auto: the copy holds the damaged bytes" cmp -s "$EXT.damaged" "$T/ext.orig"
check "mark auto: the copy has bravo's mark" grep -q '^Package: bravo' "$EXT.damaged"
check "mark auto: alpha and echo still automatic, bravo too" test "$(grep -c '^Auto-Installed: 1' "$EXT")" = 3
"$APTUS" mark showauto >"$T/out" 2>"$T/err"
check "after the rewrite: exit 0" test $? = 0
check "after the rewrite: alpha, bravo and echo automatic" test "$(echo $(cat "$T/out"))" = "alpha bravo echo"
check "after the rewrite: extended_states not warned about" bash -c "! grep -q 'extended_states' '$T/err'"
check "after the rewrite: no temp file left" bash -c "! ls '$SB/var/lib/apt/' | grep -q aptus-new"
finish
