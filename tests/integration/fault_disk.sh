#!/bin/bash
# A full disk: a small tmpfs mounted as the sandbox's lists dir during
# update, and as its archives dir during install -d and download. Each must
# end in an E: line naming what could not be written and exit 100, leave
# nothing half-written in place (partial/ empty, no temporary files), and
# keep the old state: the lists of the last good update, the archives dir
# without a new .deb. Needs root (mount); skips otherwise.
source "$(dirname "$0")/lib/install_repo.sh"
mounting_setup "mounting a tmpfs needs root"
# small_disk DIR KB: DIR becomes an empty tmpfs of KB kilobytes.
small_disk() {
    mkdir -p "$1"
    if ! mount -t tmpfs -o "size=${2}k,mode=0755" aptus-test "$1" 2>"$T/mount-err"; then
        echo "SKIP: cannot mount a tmpfs here: $(cat "$T/mount-err")"
        exit 0
    fi
    MOUNTS+=("$1")
}
# Leftovers of a write: temporary files anywhere under DIR.
leftovers() { find "$1" -path "$1/partial" -prune -o \( -name '*.part' -o -name '*.tmp' -o -name '.#*' -o -name '*.new' \) -print; }

# A Packages file far larger than the disk once decompressed (the
# compressed form the Release lists first is small enough to arrive).
pad=$(head -c 300000 /dev/zero | tr '\0' a)
cat >"$T/big.json" <<JSON
[{"name": "hello", "version": "1.1", "fields": {"X-Padding": "$pad"}}]
JSON
cat >"$T/fat.json" <<'JSON'
[{"name": "fat", "version": "1.0", "files": {"usr/share/fat/data": "FAT"}}]
JSON
python3 - "$T/fat.json" <<'PY'
import json, random, sys
# Incompressible, so the .deb is as large as its content.
data = random.Random(1).randbytes(300000).hex()
spec = json.load(open(sys.argv[1]))
spec[0]["files"]["usr/share/fat/data"] = data
json.dump(spec, open(sys.argv[1], "w"))
PY

# ---- update into a full lists dir
small_disk "$LISTS" 128
mkdir -p "$LISTS/partial"
make_suite stable --packages hello=1.0 >/dev/null
set_sources stable
run_update
check "update on the small disk: exit 0 (got $RC)" test "$RC" = 0
good=$(lists_digest)
make_suite stable --spec "$T/big.json" >/dev/null
touch -d "@$(($(date +%s) + 10))" "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
run_update
check "full lists dir: exit 100 (got $RC)" test "$RC" = 100
check "full lists dir: an E: line" grep -q '^E: ' "$T/err"
check "full lists dir: says the disk is full" contains "$OUT$ERR" "No space left on device"
check "full lists dir: old lists intact" test "$(lists_digest)" = "$good"
check "full lists dir: partial/ empty" test -z "$(ls -A "$LISTS/partial")"
check "full lists dir: no temporary files" test -z "$(leftovers "$LISTS")"
check "full lists dir: the old Packages still says 1.0" grep -q '^Version: 1.0' "$LISTS"/*_Packages
# Room again: the same update goes through.
umount "$LISTS" && MOUNTS=()
mkdir -p "$LISTS/partial"
run_update
check "lists dir with room: exit 0 (got $RC)" test "$RC" = 0
check "lists dir with room: the new Packages" grep -q '^Version: 1.1' "$LISTS"/*_Packages

# ---- .debs into a full archives dir
make_suite stable --spec "$T/fat.json" >/dev/null
touch -d "@$(($(date +%s) + 20))" "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
run_update
check "update for fat: exit 0" test "$RC" = 0
small_disk "$ARCHIVES" 64
mkdir -p "$ARCHIVES/partial"
echo "kept" >"$ARCHIVES/old_1.0_amd64.deb"
aptus_run install -y -d fat
check "full archives dir, install -d: exit 100 (got $RC)" test "$RC" = 100
check "full archives dir, install -d: E: line" grep -q '^E: ' "$T/err"
# apt's check before any transfer (the archives dir's free space against the
# download size) says it first; download below has no such check and meets
# the full disk mid-write.
check "full archives dir, install -d: apt's free-space message" contains "$ERR" \
    "E: You don't have enough free space in $ARCHIVES/."
check "full archives dir, install -d: no fat .deb" test -z "$(find "$ARCHIVES" -name 'fat*')"
check "full archives dir, install -d: partial/ empty" test -z "$(ls -A "$ARCHIVES/partial")"
check "full archives dir, install -d: no temporary files" test -z "$(leftovers "$ARCHIVES")"
check "full archives dir, install -d: the other .deb kept" test "$(cat "$ARCHIVES/old_1.0_amd64.deb")" = kept
aptus_run install -y fat
check "full archives dir, install: exit 100 (got $RC)" test "$RC" = 100
check "full archives dir, install: fat not installed" test -z "$(installed fat)"
check "full archives dir, install: partial/ empty" test -z "$(ls -A "$ARCHIVES/partial")"
# download: into the current directory, here the full disk.
cd "$ARCHIVES" && aptus_run download fat
cd - >/dev/null
check "full current dir, download: exit 100 (got $RC)" test "$RC" = 100
check "full current dir, download: says the disk is full" contains "$OUT$ERR" "No space left on device"
check "full current dir, download: no fat file" test -z "$(find "$ARCHIVES" -name '*fat*')"

finish
