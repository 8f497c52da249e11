#!/bin/bash
# Directories aptus cannot use and files that are not there: a read-only
# lists dir, archives dir or cache dir (read-only bind mounts: root ignores
# permission bits), an unreadable lists dir (a directory of mode 000, read as
# the user nobody), a missing dpkg database and a missing Signed-By keyring.
# Each is an E: line naming the path and exit 100, with the old state kept;
# or, where apt reads on without the thing (a missing status file is an
# empty one, a cache it cannot write is built in memory), the same answer
# as with it. Needs root (mount, setpriv); skips otherwise.
source "$(dirname "$0")/lib/install_repo.sh"
mounting_setup "read-only bind mounts need root"
mkdir -p "$ARCHIVES/partial"
# read_only DIR: DIR becomes a read-only view of itself.
read_only() {
    if ! { mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"; } 2>"$T/mount-err"; then
        echo "SKIP: cannot make a read-only bind mount here: $(cat "$T/mount-err")"
        exit 0
    fi
    MOUNTS+=("$1")
}
writable() { umount "$1" && MOUNTS=(); }

make_suite stable --packages hello=1.0 >/dev/null
set_sources stable
run_update
check "first update: exit 0" test "$RC" = 0
good=$(lists_digest)
aptus_run policy hello
policy=$OUT
check "policy: exit 0" test "$RC" = 0
make_suite stable --packages hello=1.1 >/dev/null
touch -d "@$(($(date +%s) + 10))" "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"

# ---- a read-only lists dir
read_only "$LISTS"
run_update
check "read-only lists dir, update: exit 100 (got $RC)" test "$RC" = 100
check "read-only lists dir, update: E: names the lock file" contains "$ERR" "E: Could not open lock file $LISTS/lock"
check "read-only lists dir, update: says why" contains "$ERR" "Read-only file system"
check "read-only lists dir, update: lists kept" test "$(lists_digest)" = "$good"
aptus_run policy hello
check "read-only lists dir, policy: exit 0 (got $RC)" test "$RC" = 0
check "read-only lists dir, policy: the same answer" test "$OUT" = "$policy"
writable "$LISTS"

# ---- a read-only archives dir
read_only "$ARCHIVES"
aptus_run install -y -d hello
check "read-only archives dir, install -d: exit 100 (got $RC)" test "$RC" = 100
check "read-only archives dir, install -d: E: names the archives dir" grep -q "^E: .*$ARCHIVES/" "$T/err"
check "read-only archives dir, install -d: says why" contains "$ERR" "Read-only file system"
aptus_run install -y hello
check "read-only archives dir, install: exit 100 (got $RC)" test "$RC" = 100
check "read-only archives dir, install: hello not installed" test -z "$(installed hello)"
writable "$ARCHIVES"

# ---- a read-only cache dir (Dir::Cache: aptus's cache file, the archives)
rm -f "$T/cache/aptus.bin"
read_only "$T/cache"
aptus_run policy hello
check "read-only cache dir, policy: exit 0 (got $RC)" test "$RC" = 0
check "read-only cache dir, policy: the same answer" test "$OUT" = "$policy"
aptus_run install -y -d hello
check "read-only cache dir, install -d: exit 100 (got $RC)" test "$RC" = 100
check "read-only cache dir, install -d: E: names the archives dir" grep -q "^E: .*$ARCHIVES/" "$T/err"
writable "$T/cache"

# ---- an unreadable lists dir, for a user who is not root
if command -v setpriv >/dev/null; then
    chmod 755 "$T"
    chmod 000 "$LISTS"
    as_nobody() {
        setpriv --reuid=65534 --regid=65534 --clear-groups env APT_CONFIG="$APT_CONFIG" "$APTUS" "$@" \
            >"$T/out" 2>"$T/err" </dev/null
        RC=$?
        OUT=$(cat "$T/out")
        ERR=$(cat "$T/err")
    }
    # An unreadable lists dir reads as one without lists, in apt-cache too
    # (its stat of each index fails): no package, so show says so.
    as_nobody show hello
    check "unreadable lists dir, show: exit 100 (got $RC)" test "$RC" = 100
    check "unreadable lists dir, show: apt's E: line" contains "$ERR" "E: No packages found"
    as_nobody update
    check "unreadable lists dir, update: exit 100 (got $RC)" test "$RC" = 100
    check "unreadable lists dir, update: E: names the lists dir" grep -q "^E: .*$LISTS/partial" "$T/err"
    check "unreadable lists dir, update: says why" contains "$ERR" "Permission denied"
    # A readable dir with an unreadable index, and no cache file to answer
    # from: apt-cache stops at the file, so must aptus.
    chmod 755 "$LISTS"
    chmod 000 "$LISTS"/*_Packages
    rm -f "$T/cache/aptus.bin"
    as_nobody policy hello
    check "unreadable index, policy: exit 100 (got $RC)" test "$RC" = 100
    check "unreadable index, policy: E: names the file" grep -q "^E: .*$(ls "$LISTS"/*_Packages)" "$T/err"
    chmod 644 "$LISTS"/*_Packages
    chmod 755 "$LISTS"
    chmod 700 "$T"
    check "unreadable lists dir: lists kept" test "$(lists_digest)" = "$good"
fi

# ---- a missing dpkg database: read as an empty one (apt does the same),
# but nothing can be installed without its lock.
aptus_run -o Dir::State::status="$T/nowhere/status" policy hello
check "missing dpkg database, policy: exit 0 (got $RC)" test "$RC" = 0
check "missing dpkg database, policy: nothing installed" contains "$OUT" "Installed: (none)"
aptus_run -o Dir::State::status="$T/nowhere/status" install -y hello
check "missing dpkg database, install: exit 100 (got $RC)" test "$RC" = 100
check "missing dpkg database, install: E: names the path" grep -q "^E: .*$T/nowhere" "$T/err"
check "missing dpkg database, install: not created" test ! -e "$T/nowhere"

# ---- a missing keyring: Signed-By names a file that is not there.
sed -i "s#^Signed-By: .*#Signed-By: $T/missing.gpg#" "$SB/etc/apt/sources.list.d/test.sources"
run_update
# As apt 3.0 for any signature that does not verify over lists from before:
# a warning, and those lists stay.
check "missing keyring, update: exit 0 (got $RC)" test "$RC" = 0
check "missing keyring, update: apt's warning" grep -q '^W: An error occurred during the signature verification. The repository is not updated and the previous index files will be used.' "$T/err"
check "missing keyring, update: names the keyring" contains "$ERR" \
    "no keyring is usable: The key(s) in the keyring $T/missing.gpg are ignored as the file does not exist."
check "missing keyring, update: lists kept" test "$(lists_digest)" = "$good"

finish
