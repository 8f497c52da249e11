#!/bin/bash
# Every way a mirror can let aptus update down, one at a time: each must end
# in the right message and exit status 100, and leave the lists stored by the
# last good update exactly as they were (same files, same bytes), with
# nothing left behind in partial/.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup

make_suite stable --packages hello=1.0
set_sources stable
run_update
[ "$RC" = 0 ] || { echo "FAIL: the first update failed"; echo "$OUT"; echo "$ERR"; exit 1; }
good=$(lists_digest)

# From here on the repository has a new index, so every update wants it.
newer() {
    make_suite stable --packages hello=1.1 "$@"
    touch -d "@$(($(date +%s) + 5))" "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
}
newer
PKG=/dists/stable/main/binary-amd64/Packages.xz

# expect NAME MISBEHAVIOUR TEXT [aptus update options]
expect() {
    local name=$1 behaviour=$2 text=$3
    shift 3
    misbehave "$behaviour"
    run_update "$@"
    misbehave '{}'
    check "$name: exit 100 (got $RC)" test "$RC" = 100
    check "$name: says '$text'" contains "$OUT$ERR" "$text"
    check "$name: previous lists untouched" test "$(lists_digest)" = "$good"
    check "$name: partial/ empty" test -z "$(ls -A "$LISTS/partial")"
}

size=$(stat -c %s "$REPO$PKG")
same_size_garbage=$(python3 -c "print('x' * $size, end='')")

expect "404" "{\"$PKG\": {\"status\": 404}}" "E: Failed to fetch $URL$PKG  404  Not Found"
check "404: Err line names the index" contains "$OUT" "$URL stable/main amd64 Packages"
check "404: summary" contains "$ERR" "E: Some index files failed to download. They have been ignored, or old ones used instead."
expect "500" "{\"$PKG\": {\"status\": 500}}" "500  Internal Server Error"
expect "slow" "{\"$PKG\": {\"drip\": 3}}" "Failed to fetch $URL$PKG" -o Acquire::http::Timeout=1
expect "truncated" "{\"$PKG\": {\"truncate\": 20}}" "Failed to fetch $URL$PKG"
expect "wrong hash" "{\"$PKG\": {\"body\": \"$same_size_garbage\"}}" "Hash Sum mismatch"
check "wrong hash: expected hashes listed" contains "$ERR" "Hashes of expected file:"
expect "too large" "{\"$PKG\": {\"body\": \"$same_size_garbage and more\"}}" "File has unexpected size"
expect "wrong Content-Length" "{\"$PKG\": {\"content_length\": 100000000}}" "File has unexpected size"
expect "endless" "{\"$PKG\": {\"endless\": true}}" "Writing more data than expected"
expect "redirect loop" "{\"$PKG\": {\"redirect\": \"$PKG\"}}" "redirects followed"
expect "redirect to file:" "{\"$PKG\": {\"redirect\": \"file:///etc/passwd\"}}" "Failed to fetch $URL$PKG"
expect "redirect to a host that is down" "{\"$PKG\": {\"redirect\": \"http://127.0.0.1:9/x\"}}" "Failed to fetch $URL$PKG"

# The InRelease itself.
tampered=$(sed 's/^Codename: stable/Codename: stablE/' "$REPO/dists/stable/InRelease" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')
expect "tampered InRelease" "{\"/dists/stable/InRelease\": {\"body\": $tampered}}" "E: The repository '$URL stable InRelease' is no longer signed."
check "tampered InRelease: GPG error" contains "$ERR" "W: GPG error: $URL stable InRelease"
expect "InRelease 404, Release 404" '{"/dists/stable/InRelease": {"status": 404}, "/dists/stable/Release": {"status": 404}}' \
    "E: The repository '$URL stable Release' does not have a Release file."
expect "InRelease 500" '{"/dists/stable/InRelease": {"status": 500}}' "Failed to fetch $URL/dists/stable/InRelease  500"
expect "endless InRelease" '{"/dists/stable/InRelease": {"endless": true}}' "Writing more data than expected"

newer --valid-until -3600
expect "expired" '{}' "is expired"
newer --date-offset -86400
expect "replayed older Release" '{}' "is older than the one already stored"
newer --codename other
expect "changed Codename" '{}' "changed its 'Codename' value from 'stable' to 'other'"
newer --date-offset 86400
expect "Date in the future" '{}' "is not valid yet"
newer --unsigned
expect "unsigned" '{}' "is not signed"

# The changed Codename goes through when the user accepts it.
newer --codename other
run_update --allow-releaseinfo-change
check "accepted Codename change: exit 0" test "$RC" = 0
check "accepted Codename change: lists replaced" test "$(lists_digest)" != "$good"
good=$(lists_digest)

# Transient failures are retried: a 500 then fine would need state; here the
# retry count shows in the request log instead.
newer --codename other --packages hello=1.2
: >"$T/requests"
misbehave "{\"$PKG\": {\"status\": 503}}"
run_update -o Acquire::Retries=2 -o Acquire::Retries::Delay=false
misbehave '{}'
check "retries: exit 100" test "$RC" = 100
check "retries: three attempts" test "$(grep -c "GET $PKG 503" "$T/requests")" = 3
check "retries: lists untouched" test "$(lists_digest)" = "$good"

# Another process holds apt's lock on the lists dir.
python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "w"); fcntl.lockf(f, fcntl.LOCK_EX); print("locked", flush=True); time.sleep(30)
' "$LISTS/lock" >"$T/locker" &
locker=$!
for _ in $(seq 50); do [ -s "$T/locker" ] && break; sleep 0.1; done
run_update
kill $locker 2>/dev/null
check "locked: exit 100" test "$RC" = 100
check "locked: apt's message" contains "$ERR" "E: Could not get lock $LISTS/lock. It is held by process $locker"
check "locked: lists untouched" test "$(lists_digest)" = "$good"

finish
