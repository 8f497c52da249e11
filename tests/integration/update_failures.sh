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
# Each rebuild gets a later time than the last, so If-Modified-Since never
# mistakes it for the stored one (the server's times have whole seconds).
stamp=0
newer() {
    make_suite stable --packages hello=1.1 "$@"
    stamp=$((stamp + 10))
    touch -c -d "@$(($(date +%s) + stamp))" "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
}
newer
PKG=/dists/stable/main/binary-amd64/Packages.xz
# The same misbehaviour for every form the Release lists: apt (and aptus)
# falls back from one compression to the next.
all_forms() {
    local p=/dists/stable/main/binary-amd64/Packages
    echo "{\"$p.xz\": $1, \"$p.gz\": $1, \"$p\": $1}"
}

# expect NAME MISBEHAVIOUR TEXT [aptus update options]: an error, exit 100.
# A failure apt calls transient (the network, a 5xx) is a warning and exit 0
# instead: set WANT_RC=0 for those. Either way the old lists stay.
expect() {
    local name=$1 behaviour=$2 text=$3
    shift 3
    misbehave "$behaviour"
    run_update "$@"
    misbehave '{}'
    check "$name: exit ${WANT_RC:-100} (got $RC)" test "$RC" = "${WANT_RC:-100}"
    check "$name: says '$text'" contains "$OUT$ERR" "$text"
    check "$name: previous lists untouched" test "$(lists_digest)" = "$good"
    check "$name: partial/: only .FAILED" test -z "$(ls -A "$LISTS/partial" | grep -v '\.FAILED$')"
}

size=$(stat -c %s "$REPO$PKG")
same_size_garbage=$(python3 -c "print('x' * $size, end='')")

LAST=/dists/stable/main/binary-amd64/Packages  # the last way tried, named in the message
expect "404" "$(all_forms '{"status": 404}')" "E: Failed to fetch $URL$LAST  404  Not Found"
check "404: Err line names the index" contains "$OUT" "$URL stable/main amd64 Packages"
check "404: all three forms tried" test "$(grep -c ' 404 ' "$T/requests")" -ge 3
check "404: summary" contains "$ERR" "E: Some index files failed to download. They have been ignored, or old ones used instead."
WANT_RC=0 expect "500" "$(all_forms '{"status": 500}')" "W: Failed to fetch $URL$LAST  500  Internal Server Error"
check "500: summary is a warning" contains "$ERR" "W: Some index files failed to download."
WANT_RC=0 expect "slow" "$(all_forms '{"drip": 3}')" "W: Failed to fetch $URL$LAST" -o Acquire::http::Timeout=1
WANT_RC=0 expect "truncated" "$(all_forms '{"truncate": 20}')" "W: Failed to fetch $URL$LAST"
expect "wrong hash" "$(all_forms "{\"body\": \"$same_size_garbage\"}")" "Hash Sum mismatch"
check "wrong hash: expected hashes listed" contains "$OUT" "Hashes of expected file:"
expect "too large" "$(all_forms "{\"body\": \"$same_size_garbage and more than any of them\"}")" "File has unexpected size"
expect "wrong Content-Length" "$(all_forms '{"content_length": 100000000}')" "File has unexpected size"
expect "endless" "$(all_forms '{"endless": true}')" "Writing more data than expected"
expect "redirect loop" "$(all_forms "{\"redirect\": \"$PKG\"}")" "Redirection loop encountered (Maximum ("
check "redirect loop: curl's words after apt's" contains "$ERR" "redirects followed)"
expect "redirect to file:" "$(all_forms '{"redirect": "file:///etc/passwd"}')" "E: Failed to fetch $URL$LAST"
WANT_RC=0 expect "redirect to a host that is down" "$(all_forms '{"redirect": "http://127.0.0.1:9/x"}')" "W: Failed to fetch $URL$LAST"

# One form broken, the next one good: apt's fallback, and the update succeeds.
misbehave "{\"$PKG\": {\"status\": 404}}"
run_update
misbehave '{}'
check "fallback to .gz: exit 0" test "$RC" = 0
check "fallback to .gz: Err then Get under one number" grep -qE '^Get:2 .* stable/main amd64 Packages \[' "$T/out"
check "fallback to .gz: lists replaced" test "$(lists_digest)" != "$good"
check "fallback to .gz: new version stored" grep -q "^Version: 1.1" "$LISTS/${URL#http://}_dists_stable_main_binary-amd64_Packages"
newer --packages hello=1.0
run_update
good=$(lists_digest)
newer

# A hash or size mismatch is not retried with another compression (apt's
# pkgAcqIndex::Failed: StatAuthError), and only the final failure prints.
: >"$T/requests"
xz_garbage=$(python3 -c "print('x' * $(stat -c %s "$REPO$PKG"), end='')")
expect "hash mismatch of .xz, .gz good" "{\"$PKG\": {\"body\": \"$xz_garbage\"}}" \
    "E: Failed to fetch $URL$PKG  Hash Sum mismatch"
check "hash mismatch of .xz: .gz not asked for" bash -c "! grep -q 'GET ${PKG%.xz}.gz' '$T/requests'"
check "hash mismatch of .xz: one Err line" test "$(grep -c '^Err:' "$T/out")" = 1
expect "size mismatch of .xz, .gz good" "{\"$PKG\": {\"body\": \"$xz_garbage and more\"}}" \
    "E: Failed to fetch $URL$PKG  File has unexpected size"

# A Release with MD5 sums only (re-signed): apt 3.0 refuses the repository
# with its warning naming the file, an error and two notices; lists stay.
python3 - "$REPO/dists/stable/Release" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"^(SHA256|SHA512):\n( .*\n)*", "", t, flags=re.M)
open(sys.argv[1], "w").write(t)
PY
gpg --batch --yes --quiet --local-user "$KEY" --clearsign -o "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
stamp=$((stamp + 10))
touch -d "@$(($(date +%s) + stamp))" "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
expect "MD5 only" '{}' "E: The repository '$URL stable InRelease' provides only weak security information."
check "MD5 only: apt's warning names the file" contains "$ERR" \
    "W: No Hash entry in Release file $LISTS/partial/${URL#http://}_dists_stable_InRelease which is considered strong enough for security purposes"
newer

# The InRelease itself.
tampered=$(sed 's/^Codename: stable/Codename: stablE/' "$REPO/dists/stable/InRelease" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')
# A signature that does not verify over lists from a good update: apt
# keeps those lists and says so (its CheckStopAuthentication), a warning.
WANT_RC=0 expect "tampered InRelease" "{\"/dists/stable/InRelease\": {\"body\": $tampered}}" \
    "W: An error occurred during the signature verification. The repository is not updated and the previous index files will be used. OpenPGP signature verification failed: $URL stable InRelease: "
check "tampered InRelease: the fetch failed" contains "$ERR" "W: Failed to fetch $URL/dists/stable/InRelease  "
expect "InRelease 404, Release 404" '{"/dists/stable/InRelease": {"status": 404}, "/dists/stable/Release": {"status": 404}}' \
    "E: The repository '$URL stable Release' no longer has a Release file."
WANT_RC=0 expect "InRelease 500" '{"/dists/stable/InRelease": {"status": 500}}' "W: Failed to fetch $URL/dists/stable/InRelease  500"
expect "endless InRelease" '{"/dists/stable/InRelease": {"endless": true}}' "Writing more data than expected"

newer --valid-until -3600
expect "expired" '{}' "is expired"
newer --date-offset -86400
# apt keeps its stored lists silently (an out-of-sync mirror); aptus warns.
WANT_RC=0 expect "replayed older Release" '{}' "W: Release file for $URL stable InRelease is older than the one already stored"
newer --codename other
expect "changed Codename" '{}' "changed its 'Codename' value from 'stable' to 'other'"
newer --date-offset 86400
expect "Date in the future" '{}' "is not valid yet"
newer --unsigned
expect "unsigned (was signed)" '{}' "is no longer signed"

# A release that says where its notes are: the refusal points there.
newer --codename other --release-notes https://example.org/notes
expect "changed Codename with notes" '{}' "changed its 'Codename' value from 'stable' to 'other'" -o quiet=0
check "changed Codename: the release notes named before the advice" has_text "$ERR" \
"N: More information about this can be found online in the Release notes at: https://example.org/notes
N: This must be accepted explicitly before updates for this repository can be applied."

# The changed Codename goes through when the user accepts it (that one
# field's switch, as apt's --allow-releaseinfo-change-codename), and the
# notes are still named.
newer --codename other --release-notes https://example.org/notes
run_update --allow-releaseinfo-change-codename -o quiet=0
check "accepted Codename change: exit 0" test "$RC" = 0
check "accepted Codename change: a notice, and the notes" has_text "$ERR" \
"N: Repository '$URL stable InRelease' changed its 'Codename' value from 'stable' to 'other'
N: More information about this can be found online in the Release notes at: https://example.org/notes"
check "accepted Codename change: lists replaced" test "$(lists_digest)" != "$good"
good=$(lists_digest)

# Transient failures are retried: a 500 then fine would need state; here the
# retry count shows in the request log instead.
newer --codename other --packages hello=1.2
: >"$T/requests"
misbehave "$(all_forms '{"status": 503}')"
run_update -o Acquire::Retries=2 -o Acquire::Retries::Delay=false
misbehave '{}'
check "retries: exit 0 (a warning)" test "$RC" = 0
check "retries: three attempts" test "$(grep -c "GET $PKG 503" "$T/requests")" = 3
check "retries: lists untouched" test "$(lists_digest)" = "$good"

# A redirect loop on InRelease: apt takes InRelease as unavailable (a plain
# "Ign" line, no warning) and falls back to Release + Release.gpg, so the
# update succeeds (checked side by side with apt-get 2.6; APT 3.0's
# pkgAcqMetaClearSig falls back for every failure that is neither transient
# nor an HTTP error other than 404). The stored InRelease goes, as apt's.
newer --codename other --packages hello=1.3
: >"$T/requests"
misbehave '{"/dists/stable/InRelease": {"redirect": "/loop/a"}, "/loop/a": {"redirect": "/dists/stable/InRelease"}}'
run_update
misbehave '{}'
check "InRelease redirect loop: exit 0" test "$RC" = 0
check "InRelease redirect loop: Ign line" grep -qx "Ign:1 $URL stable InRelease" "$T/out"
check "InRelease redirect loop: Release fetched" grep -q "^GET /dists/stable/Release 200 " "$T/requests"
check "InRelease redirect loop: Release.gpg fetched" grep -q "^GET /dists/stable/Release.gpg 200 " "$T/requests"
check "InRelease redirect loop: no error or warning" test -z "$(grep -E '^(E|W): ' "$T/err")"
check "InRelease redirect loop: new lists" grep -q "^Version: 1.3" "$LISTS/${URL#http://}_dists_stable_main_binary-amd64_Packages"
check "InRelease redirect loop: Release and Release.gpg stored" \
    test -s "$LISTS/${URL#http://}_dists_stable_Release" -a -s "$LISTS/${URL#http://}_dists_stable_Release.gpg"
check "InRelease redirect loop: stored InRelease removed" test ! -e "$LISTS/${URL#http://}_dists_stable_InRelease"
good=$(lists_digest)

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
check "locked: apt's second line" contains "$ERR" "E: Unable to lock directory $LISTS/"
check "locked: lists untouched" test "$(lists_digest)" = "$good"

# A Release that names neither the suite nor the codename the sources ask
# for: apt's warning, and the lists are used all the same.
make_suite zurg --release-suite testing --codename stretch >/dev/null
set_sources zurg
run_update
check "conflicting distribution: exit 0 (rc $RC)" test "$RC" = 0
check "conflicting distribution: apt's warning: $ERR" contains "$ERR" \
    "W: Conflicting distribution: $URL zurg InRelease (expected zurg but got stretch)"
check "conflicting distribution: the lists are stored" test -s "$LISTS/${URL#http://}_dists_zurg_main_binary-amd64_Packages"

finish
