#!/bin/bash
# aptus update over https from a loopback TLS server whose certificate a
# throw-away authority signed (lib/make_tls.sh). Without that authority the
# server is not trusted: the InRelease is refused with apt's Err line and
# "Certificate verification failed", the lists stay exactly as they were,
# and, as apt-get update does, the failure is a warning (exit 0). Given the
# authority as Acquire::https::CAInfo (or its per-host form) the update goes
# through; Verify-Host and Verify-Peer switch the checks off as apt's do.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup --tls
CA=$T/tls/ca.pem
case $URL in https://localhost:*) ;; *) echo "FAIL: the TLS server says $URL"; exit 1 ;; esac
host=${URL#https://}
prefix=${host}_dists_stable

make_suite stable --packages hello=1.0,world=2.0
set_sources stable
empty=$(lists_digest)

# expect_refused NAME TEXT [aptus update options]: the InRelease is not
# fetched, the reason shown, a warning and exit 0, the lists untouched.
expect_refused() {
    local name=$1 text=$2 before
    shift 2
    before=$(lists_digest)
    : >"$T/requests"
    run_update "$@"
    check "$name: exit 0, a warning as apt's (got $RC)" test "$RC" = 0
    check "$name: Err line for the InRelease" contains "$OUT" "Err:1 $URL stable InRelease"
    check "$name: the reason under it" contains "$OUT" "  Certificate verification failed: $text"
    check "$name: W: Failed to fetch" contains "$ERR" "W: Failed to fetch $URL/dists/stable/InRelease  Certificate verification failed: $text"
    check "$name: summary" contains "$ERR" "W: Some index files failed to download."
    check "$name: no E: line" bash -c "! grep -q '^E:' '$T/err'"
    check "$name: nothing served" test ! -s "$T/requests"
    check "$name: lists untouched" test "$(lists_digest)" = "$before"
    check "$name: partial/: only .FAILED" test -z "$(ls -A "$LISTS/partial" | grep -v '\.FAILED$')"
}

# The authority is not known: refused before a single request.
expect_refused "unknown CA, cold" "unable to get local issuer certificate"
check "unknown CA, cold: still no lists" test "$(lists_digest)" = "$empty"

# Real apt refuses it the same way and with the same exit status.
if command -v apt-get >/dev/null; then
    mkdir -p "$T/apt-lists/partial" "$T/apt-cache"
    apt_out=$(apt-get -o Dir::State::Lists="$T/apt-lists" -o Dir::Cache="$T/apt-cache" update 2>&1)
    apt_rc=$?
    check "apt-get update without the CA: exit $apt_rc as aptus's" test "$apt_rc" = 0
    check "apt-get update without the CA: certificate refused ($apt_out)" contains "$apt_out" "Certificate verification failed"
fi

# Given the authority: a cold update over https.
run_update -o Acquire::https::CAInfo="$CA"
check "CAInfo: exit 0" test "$RC" = 0
check "CAInfo: InRelease fetched" contains "$OUT" "Get:1 $URL stable InRelease ["
check "CAInfo: Packages fetched" contains "$OUT" "Get:2 $URL stable/main amd64 Packages ["
check "CAInfo: nothing on stderr" test -z "$ERR"
check "CAInfo: InRelease stored under apt's name" test -f "$LISTS/${prefix}_InRelease"
check "CAInfo: Packages stored" cmp -s "$LISTS/${prefix}_main_binary-amd64_Packages" "$REPO/dists/stable/main/binary-amd64/Packages"
check "CAInfo: the stored Packages names real .debs" debs_match "$LISTS/${prefix}_main_binary-amd64_Packages"
good=$(lists_digest)

# A newer repository, and no authority: refused, the lists stay as they were.
make_suite stable --packages hello=1.1,world=2.0
touch -d "@$(($(date +%s) + 10))" "$REPO/dists/stable/InRelease"
expect_refused "unknown CA, warm" "unable to get local issuer certificate"
check "unknown CA, warm: the old lists" test "$(lists_digest)" = "$good"

# An authority for another host does not help this one; the per-host key does.
expect_refused "CAInfo for another host" "unable to get local issuer certificate" \
    -o Acquire::https::other.invalid::CAInfo="$CA"
run_update -o Acquire::https::localhost::CAInfo="$CA"
check "per-host CAInfo: exit 0" test "$RC" = 0
check "per-host CAInfo: new InRelease" contains "$OUT" "Get:1 $URL stable InRelease ["
check "per-host CAInfo: new Packages stored" grep -q "^Version: 1.1" "$LISTS/${prefix}_main_binary-amd64_Packages"
good=$(lists_digest)

# The certificate names localhost, not 127.0.0.1: the host check refuses it
# even with the authority known, unless Verify-Host is off.
sed -i "s|^URIs: .*|URIs: ${URL/localhost/127.0.0.1}|" "$SB/etc/apt/sources.list.d/test.sources"
URL=${URL/localhost/127.0.0.1}
expect_refused "wrong host name" "no alternative certificate subject name matches target host name '127.0.0.1'" \
    -o Acquire::https::CAInfo="$CA"
check "wrong host name: the localhost lists kept" test "$(lists_digest)" = "$good"
run_update -o Acquire::https::CAInfo="$CA" -o Acquire::https::Verify-Host=false
check "Verify-Host=false: exit 0" test "$RC" = 0
check "Verify-Host=false: InRelease fetched" contains "$OUT" "Get:1 $URL stable InRelease ["
check "Verify-Host=false: stored under the 127.0.0.1 name" test -f "$LISTS/${URL#https://}_dists_stable_InRelease"

# Verify-Peer off accepts the unknown authority (for testing only, as apt says).
rm -f "$LISTS"/*_*
run_update -o Acquire::https::Verify-Peer=false -o Acquire::https::Verify-Host=false
check "Verify-Peer=false: exit 0" test "$RC" = 0
check "Verify-Peer=false: InRelease fetched" contains "$OUT" "Get:1 $URL stable InRelease ["

finish
