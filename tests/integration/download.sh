#!/bin/bash
# .deb downloads against the signed loopback archive of real .debs
# (lib/update_repo.sh), side by side with real apt-get on the same sandbox:
# `download` into the current directory (Get: lines, the files, the quoted
# request paths, apt's errors for names without a version to fetch), a file
# already there and right is not fetched again, a wrong one is replaced, a
# .deb whose hash does not match is refused and nothing lands; `clean` and
# `autoclean` leave exactly what apt-get clean/autoclean leave (each on its
# own copy of the same Dir::Cache), also with -s; the archives lock held by
# another process is refused with apt's message; and, where `install -d`
# exists, the archives dir through partial/.
source "$(dirname "$0")/lib/update_repo.sh"
command -v apt-get >/dev/null || { echo "SKIP: apt-get not installed"; exit 0; }
update_setup
# Every apt-get below must run in the sandbox: stop here if it is not set up.
[ -n "${T:-}" ] && [ -d "$T" ] && [ "${APT_CONFIG:-}" = "$SB/apt.conf" ] || { echo "FAIL: no sandbox"; exit 1; }

make_suite stable --packages 'hello=1.0,world=2:2.0,tilde=1.0~rc1+b1' >/dev/null
set_sources stable
cat >"$SB/var/lib/dpkg/status" <<STATUS
Package: localpkg
Status: install ok installed
Priority: optional
Section: misc
Installed-Size: 10
Maintainer: Test <test@example.org>
Architecture: amd64
Version: 0.9
Provides: virt
Description: a package no repository has

STATUS
run_update
check "update exits 0" test "$RC" = 0
ARCHIVES=$T/cache/archives
# apt as root warns that it cannot drop to _apt in a directory of ours: not a difference.
apt_stderr() { grep -v '^W: Download is performed unsandboxed' "$1" || true; }

# download into the current directory, aptus and apt-get each into its own.
mkdir -p "$T/dl-aptus" "$T/dl-apt"
: >"$T/requests"
(cd "$T/dl-aptus" && "$APTUS" download hello world tilde >"$T/out" 2>"$T/err"); RC=$?
OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
aptus_requests=$(cat "$T/requests")
: >"$T/requests"
(cd "$T/dl-apt" && apt-get download hello world tilde >"$T/apt-out" 2>"$T/apt-err")
apt_rc=$?
apt_requests=$(cat "$T/requests")
check "download exits 0" test "$RC" = 0
check "apt-get download exits 0" test "$apt_rc" = 0
check "no messages" test -z "$ERR"
check "the same Get: lines as apt-get download" \
    diff <(grep -v '^Fetched ' "$T/apt-out") <(grep -v '^Fetched ' "$T/out")
check "Get:1 names the repository, suite/component, the package and its version" \
    contains "$OUT" "Get:1 $URL stable/main amd64 hello amd64 1.0 ["
check "a Fetched line" grep -qE '^Fetched [0-9.,]+ [kM]?B in [0-9]+s \(' "$T/out"
check "the same files, byte for byte" diff -r "$T/dl-apt" "$T/dl-aptus"
check "epoch as %3a in the name" test -f "$T/dl-aptus/world_2%3a2.0_amd64.deb"
check "the same request paths as apt-get (quoted as apt quotes them)" \
    diff <(awk '{print $2}' <<<"$apt_requests" | sort) <(awk '{print $2}' <<<"$aptus_requests" | sort)
check "no partial/ or lock in the current directory" test ! -e "$T/dl-aptus/partial" -a ! -e "$T/dl-aptus/lock"

# Already there and right: nothing asked for, nothing printed (as apt-get).
: >"$T/requests"
(cd "$T/dl-aptus" && "$APTUS" download hello >"$T/out" 2>"$T/err"); RC=$?
OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
check "present file: exit 0" test "$RC" = 0
check "present file: no output" test -z "$OUT$ERR"
check "present file: no request" test ! -s "$T/requests"

# There but wrong: fetched again and replaced.
echo "not the deb" >"$T/dl-aptus/hello_1.0_amd64.deb"
(cd "$T/dl-aptus" && "$APTUS" download hello >"$T/out" 2>"$T/err"); RC=$?
OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
check "wrong file: exit 0" test "$RC" = 0
check "wrong file: Get:1" contains "$OUT" "Get:1 $URL stable/main amd64 hello amd64 1.0"
check "wrong file: replaced by the real one" cmp -s "$T/dl-apt/hello_1.0_amd64.deb" "$T/dl-aptus/hello_1.0_amd64.deb"

# Names without a version to fetch: apt's errors, every one, nothing fetched.
for words in "nosuch" "virt nosuch hello=3" "hello/nosuite" "localpkg hello"; do
    mkdir -p "$T/e-aptus" "$T/e-apt"
    (cd "$T/e-aptus" && "$APTUS" download $words >"$T/out" 2>"$T/err"); RC=$?
    OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
    (cd "$T/e-apt" && apt-get download $words >"$T/apt-out" 2>"$T/apt-err"); apt_rc=$?
    check "download $words: exit $apt_rc as apt-get" test "$RC" = "$apt_rc"
    check "download $words: apt-get's errors" diff <(apt_stderr "$T/apt-err") "$T/err"
    check "download $words: nothing fetched" test -z "$(ls -A "$T/e-aptus")"
    rm -rf "$T/e-aptus" "$T/e-apt"
done

# A .deb whose content does not match the Packages entry (same size, other bytes).
size=$(stat -c %s "$REPO/pool/stable/main/hello_1.0_amd64.deb")
misbehave "{\"/pool/stable/main/hello_1.0_amd64.deb\": {\"body\": \"$(head -c "$size" /dev/zero | tr '\0' x)\"}}"
mkdir -p "$T/bad"
(cd "$T/bad" && "$APTUS" download hello >"$T/out" 2>"$T/err"); RC=$?
OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
check "hash mismatch: exit 100" test "$RC" = 100
check "hash mismatch: Err:1 under the Get:1" contains "$OUT" "Err:1 $URL stable/main amd64 hello amd64 1.0"
check "hash mismatch: apt's E: line" \
    grep -qx "E: Failed to fetch $URL/pool/stable/main/hello_1.0_amd64.deb  Hash Sum mismatch" "$T/err"
check "hash mismatch: what was expected follows" grep -q "^   Hashes of expected file:" "$T/err"
check "hash mismatch: nothing lands" test -z "$(ls -A "$T/bad")"
misbehave '{}'

# clean and autoclean: the same leftovers as apt-get's, on copies of one Dir::Cache.
mkdir -p "$ARCHIVES/partial" "$ARCHIVES/subdir"
for f in old_1.0_amd64.deb hello_0.5_amd64.deb hello_1.0_i386.deb hello_1.0_all.deb hello_1.0_amd64.deb \
    'world_2%3a2.0_amd64.deb' world_2.0_amd64.deb partial/old_2_amd64.deb partial/hello_1.0_amd64.deb \
    hello_1.0_amd64.xyz nosuffix_1_amd64 'tilde_1.0~rc1+b1_amd64.deb' localpkg_0.9_amd64.deb x.deb notes.txt; do
    echo data >"$ARCHIVES/$f"
done
: >"$ARCHIVES/lock"
: >"$T/cache/pkgcache.bin"
: >"$T/cache/srcpkgcache.bin"
: >"$LISTS/partial/leftover"
# aptus's own cache and its note (cache::verified_mark_path) are not apt's business.
tree() { (cd "$1" && find . \( -path ./aptus.bin -o -path ./aptus.bin.verified \) -prune -o -print | sort); }
for cmd in autoclean clean; do
    for sim in "" "-s"; do
        rm -rf "$T/c-aptus" "$T/c-apt"
        cp -a "$T/cache" "$T/c-aptus"
        cp -a "$T/cache" "$T/c-apt"
        cp -a "$LISTS/partial" "$T/lists-partial"
        "$APTUS" $cmd $sim -o Dir::Cache="$T/c-aptus" >"$T/out" 2>"$T/err"; RC=$?
        OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
        aptus_lists=$(ls -A "$LISTS/partial")
        rm -rf "$LISTS/partial"
        cp -a "$T/lists-partial" "$LISTS/partial"
        rm -rf "$T/lists-partial"
        apt-get $cmd $sim -o Dir::Cache="$T/c-apt" >"$T/apt-out" 2>"$T/apt-err"; apt_rc=$?
        apt_lists=$(ls -A "$LISTS/partial")
        check "$cmd $sim: exit $apt_rc as apt-get" test "$RC" = "$apt_rc"
        check "$cmd $sim: the same files left as apt-get's" diff <(tree "$T/c-apt") <(tree "$T/c-aptus")
        check "$cmd $sim: the same lists/partial left" test "$aptus_lists" = "$apt_lists"
        if [ "$cmd" = autoclean ]; then
            check "autoclean $sim: apt-get's Del lines" diff <(grep '^Del ' "$T/apt-out" | sort) <(grep '^Del ' "$T/out" | sort)
        elif [ -n "$sim" ]; then
            # apt-get clean -s names its two caches; aptus adds its own.
            check "clean -s: apt-get's Del lines (and aptus.bin)" diff \
                <(sed "s|$T/c-apt|CACHE|g; /srcpkgcache.bin\$/s|\$| CACHE/aptus.bin|" "$T/apt-out") \
                <(sed "s|$T/c-aptus|CACHE|g" "$T/out")
        fi
        check "$cmd $sim: apt-get's warnings" diff <(apt_stderr "$T/apt-err") "$T/err"
    done
done
touch "$T/c-aptus/aptus.bin"
"$APTUS" clean -o Dir::Cache="$T/c-aptus" >/dev/null 2>&1
check "clean removes aptus's cache file" test ! -e "$T/c-aptus/aptus.bin"
: >"$LISTS/partial/leftover"
"$APTUS" clean >/dev/null 2>&1
check "clean: lists/partial emptied" test -z "$(ls -A "$LISTS/partial")"
check "clean: lock and partial/ stay" test -f "$ARCHIVES/lock" -a -d "$ARCHIVES/partial"

# The archives lock held by another process: refused as apt-get refuses it.
python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("locked", flush=True)
time.sleep(60)' "$ARCHIVES/lock" >"$T/locker" &
LOCKER=$!
for _ in $(seq 50); do [ -s "$T/locker" ] && break; sleep 0.1; done
echo data >"$ARCHIVES/old_1.0_amd64.deb"
for cmd in clean autoclean; do
    "$APTUS" $cmd >"$T/out" 2>"$T/err"; RC=$?
    OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
    apt-get $cmd >"$T/apt-out" 2>"$T/apt-err"; apt_rc=$?
    check "$cmd with the lock held: exit 100 (apt-get: $apt_rc)" test "$RC" = 100 -a "$apt_rc" = 100
    check "$cmd with the lock held: apt's message" contains "$ERR" \
        "E: Could not get lock $ARCHIVES/lock. It is held by process $LOCKER (python3)"
    last="E: Unable to lock directory $ARCHIVES/"
    [ "$cmd" = autoclean ] && last="E: Unable to lock the download directory"
    check "$cmd with the lock held: apt's last line" test "$(tail -1 "$T/err")" = "$last"
    check "$cmd with the lock held: apt-get says the same" diff <(apt_stderr "$T/apt-err") "$T/err"
    check "$cmd with the lock held: nothing removed" test -f "$ARCHIVES/old_1.0_amd64.deb"
done

# The archives dir through partial/, where install -d exists (the install issue).
"$APTUS" install -y -d hello >"$T/out" 2>"$T/err"; RC=$?
if grep -q "aptus cannot" "$T/err"; then
    kill "$LOCKER" 2>/dev/null; wait "$LOCKER" 2>/dev/null
    echo "NOTE: install -d is not there yet; the archives dir is covered by unit_acquire's Archives tests"
else
    check "install -d with the lock held: refused" test "$RC" = 100
    kill "$LOCKER" 2>/dev/null; wait "$LOCKER" 2>/dev/null
    rm -f "$ARCHIVES"/*.deb
    : >"$T/requests"
    "$APTUS" install -y -d hello >"$T/out" 2>"$T/err"; RC=$?
    OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
    check "install -d: exit 0" test "$RC" = 0
    check "install -d: the .deb in the archives dir" cmp -s "$T/dl-apt/hello_1.0_amd64.deb" "$ARCHIVES/hello_1.0_amd64.deb"
    check "install -d: partial/ empty" test -z "$(ls -A "$ARCHIVES/partial")"
    : >"$T/requests"
    "$APTUS" install -y -d hello >"$T/out" 2>"$T/err"
    check "install -d again: not fetched again" bash -c "! grep -q hello_1.0_amd64.deb '$T/requests'"
fi

finish
