#!/bin/bash
# Interrupted .deb downloads, as apt resumes them. Four .debs are fetched
# (install -d) while the server stalls in the middle of the last; aptus is
# killed (SIGTERM). The three that finished are in archives/ (not left in
# partial/), the unfinished one in partial/. The next run asks nothing for
# the finished ones and continues the partial one with a Range request
# (206); every file verifies against the signed index. Then what partial/
# may hold is not trusted: tampered bytes (the continued file fails its
# hash: fetched once more from zero), a file longer than announced (fetched
# from zero without Range), a server that ignores Range (200: started
# again) or answers 416 (started again), and a connection dropped in the
# middle (a failed run that leaves its bytes, continued by the next).
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
ARCHIVES=$T/cache/archives
PACKAGES="pa pb pc pd"

# Four packages of about 100 kB each: a file of random hex text (xz leaves half).
python3 - "$T/spec.json" <<'PY'
import json, random, sys
rnd = random.Random(25)
spec = [{"name": n, "version": "1.0", "files": {f"usr/share/{n}/data": "%x" % rnd.getrandbits(4 * 200000)}}
        for n in ("pa", "pb", "pc", "pd")]
json.dump(spec, open(sys.argv[1], "w"))
PY
install_suite stable "$T/spec.json"
STANZAS=$(ls "$LISTS"/*_Packages | head -1)
field() { # PACKAGE FIELD: from the stored Packages file (the signed index)
    awk -v p="$1" -v f="$2:" '$1 == "Package:" {cur = $2} cur == p && $1 == f {print $2}' "$STANZAS"
}
deb_path() { echo "/$(field "$1" Filename)"; }
verifies() { # the file in archives/ has the index's size and SHA256
    local f=$ARCHIVES/${1}_1.0_amd64.deb
    [ -f "$f" ] && [ "$(stat -c %s "$f")" = "$(field "$1" Size)" ] &&
        [ "$(sha256sum <"$f" | cut -d' ' -f1)" = "$(field "$1" SHA256)" ]
}
all_verify() { local p; for p in $PACKAGES; do verifies "$p" || return 1; done; }
requests_for() { grep -F " $(deb_path "$1") " "$T/requests" || true; }
PD=$(deb_path pd)
PD_SIZE=$(field pd Size)
check "the test's .debs are big enough ($PD_SIZE bytes)" test "$PD_SIZE" -gt 60000

# 1. Killed while the last file stalls after 40000 bytes.
misbehave "{\"$PD\": {\"stall_after\": 40000}}"
"$APTUS" install -y -d $PACKAGES >"$T/out" 2>"$T/err" </dev/null &
pid=$!
for _ in $(seq 200); do
    [ -s "$ARCHIVES/partial/pd_1.0_amd64.deb" ] && verifies pa && verifies pb && verifies pc && break
    sleep 0.1
done
sleep 1  # the stalled transfer has what it will get
kill -TERM "$pid"
wait "$pid"
RC=$?
OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
check "aptus was killed by SIGTERM (rc $RC)" test "$RC" = 143
for p in pa pb pc; do
    check "$p: finished before the kill, in archives/ and right" verifies "$p"
    check "$p: nothing of it left in partial/" test ! -e "$ARCHIVES/partial/${p}_1.0_amd64.deb"
done
# (What came is written in pieces of up to 64 kB: some of the 40000 bytes
# may not have reached the file.)
KEPT=$(stat -c %s "$ARCHIVES/partial/pd_1.0_amd64.deb" 2>/dev/null || echo 0)
check "pd: what came is in partial/ ($KEPT bytes)" test "$KEPT" -gt 0 -a "$KEPT" -le 40000
check "pd: not in archives/" test ! -e "$ARCHIVES/pd_1.0_amd64.deb"
check "pd: its part file is root's own (made by root, written by the sandboxed downloader)" \
    test "$(stat -c %U "$ARCHIVES/partial/pd_1.0_amd64.deb")" = root

# 2. Run again: only pd is asked for, from byte 40000.
misbehave '{}'
: >"$T/requests"
aptus_run install -y -d $PACKAGES
check "second run exits 0 (rc $RC)" test "$RC" = 0
for p in pa pb pc; do
    check "$p: not requested again" test -z "$(requests_for "$p")"
done
check "pd: requested once, with Range: bytes=$KEPT- and answered 206" \
    test "$(requests_for pd)" = "GET $PD 206 - bytes=$KEPT-"
check "every file verifies" all_verify
check "partial/ is empty" test -z "$(ls -A "$ARCHIVES/partial")"
check "one Get: line, for pd" test "$(grep -c '^Get:' <<<"$OUT")" = 1
check "the Get: line names pd" contains "$OUT" "pd amd64 1.0"

# 3. Tampered bytes in partial/: the continued file fails its hash and is
#    fetched again from zero, once; the result is right.
rm -f "$ARCHIVES/pd_1.0_amd64.deb"
head -c 40000 /dev/urandom >"$ARCHIVES/partial/pd_1.0_amd64.deb"
: >"$T/requests"
aptus_run install -y -d $PACKAGES
check "tampered partial: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "tampered partial: continued first, then fetched whole" \
    test "$(requests_for pd | awk '{print $3, $5}' | tr '\n' ' ')" = "206 bytes=40000- 200  "
check "tampered partial: pd verifies" verifies pd
check "tampered partial: partial/ is empty" test -z "$(ls -A "$ARCHIVES/partial")"
check "tampered partial: no error shown" test -z "$ERR"

# 4. Longer than the index says: not continued, fetched from zero.
rm -f "$ARCHIVES/pd_1.0_amd64.deb"
head -c $((PD_SIZE + 100)) /dev/urandom >"$ARCHIVES/partial/pd_1.0_amd64.deb"
: >"$T/requests"
aptus_run install -y -d $PACKAGES
check "too long partial: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "too long partial: one request, without Range" test "$(requests_for pd)" = "GET $PD 200 -"
check "too long partial: pd verifies" verifies pd

# 5. A server that ignores Range (200), one that answers 416: the right file either way.
for how in ignore_range range_416; do
    rm -f "$ARCHIVES/pd_1.0_amd64.deb"
    curl -s "$URL$PD" | head -c 30000 >"$ARCHIVES/partial/pd_1.0_amd64.deb"
    misbehave "{\"$PD\": {\"$how\": true}}"
    : >"$T/requests"
    aptus_run install -y -d $PACKAGES
    check "$how: exit 0 (rc $RC): $ERR" test "$RC" = 0
    check "$how: pd verifies" verifies pd
    check "$how: partial/ is empty" test -z "$(ls -A "$ARCHIVES/partial")"
done
check "range_416: asked with Range, then again without" \
    test "$(requests_for pd | awk '{print $3}' | tr '\n' ' ')" = "416 200 "

# 6. A connection dropped in the middle (no retries): the run fails, the
#    bytes stay, and the next run continues them.
rm -f "$ARCHIVES/pd_1.0_amd64.deb"
misbehave "{\"$PD\": {\"truncate\": 25000}}"
aptus_run install -y -d $PACKAGES
check "dropped connection: exit 100 (rc $RC)" test "$RC" = 100
check "dropped connection: the 25000 bytes stay in partial/" \
    test "$(stat -c %s "$ARCHIVES/partial/pd_1.0_amd64.deb" 2>/dev/null)" = 25000
misbehave '{}'
: >"$T/requests"
aptus_run install -y -d $PACKAGES
check "after the drop: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "after the drop: continued from byte 25000" test "$(requests_for pd)" = "GET $PD 206 - bytes=25000-"
check "after the drop: every file verifies" all_verify

# 7. The same without the sandboxed downloader (as a user who is not root runs it).
rm -f "$ARCHIVES/pd_1.0_amd64.deb"
misbehave "{\"$PD\": {\"truncate\": 20000}}"
aptus_run install -y -d -o APT::Sandbox::User=root $PACKAGES
check "unsandboxed, dropped connection: exit 100 (rc $RC)" test "$RC" = 100
check "unsandboxed: the 20000 bytes stay in partial/" \
    test "$(stat -c %s "$ARCHIVES/partial/pd_1.0_amd64.deb" 2>/dev/null)" = 20000
misbehave '{}'
: >"$T/requests"
aptus_run install -y -d -o APT::Sandbox::User=root $PACKAGES
check "unsandboxed, after the drop: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "unsandboxed: continued from byte 20000" test "$(requests_for pd)" = "GET $PD 206 - bytes=20000-"
check "unsandboxed: pd verifies" verifies pd
rm -f "$ARCHIVES/pd_1.0_amd64.deb"
head -c 20000 /dev/urandom >"$ARCHIVES/partial/pd_1.0_amd64.deb"
: >"$T/requests"
aptus_run install -y -d -o APT::Sandbox::User=root $PACKAGES
check "unsandboxed, tampered partial: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "unsandboxed, tampered partial: continued, then fetched whole" \
    test "$(requests_for pd | awk '{print $3, $5}' | tr '\n' ' ')" = "206 bytes=20000- 200  "
check "unsandboxed, tampered partial: pd verifies" verifies pd
check "unsandboxed: partial/ is empty" test -z "$(ls -A "$ARCHIVES/partial")"

finish
