#!/bin/bash
# aptus update against a small signed repository of real .debs on loopback
# (built by lib/make_repo.py with dpkg-deb and apt-ftparchive): a cold update
# stores the lists under apt's names in a form real apt reads (and real
# apt-get update then finds nothing to fetch); a warm update asks only for
# the InRelease and gets 304; a changed repository brings the new index and
# the upgradable count; by-hash paths are used when the Release offers them;
# InRelease missing falls back to Release + Release.gpg; the lists of a
# suite no longer configured go once an update succeeded.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup

make_suite stable --packages hello=1.0,world=2.0 --by-hash
set_sources stable
cat >"$SB/var/lib/dpkg/status" <<EOF
Package: hello
Status: install ok installed
Priority: optional
Section: misc
Installed-Size: 10
Maintainer: Test <test@example.org>
Architecture: amd64
Version: 0.9
Description: test package hello

EOF
host=${URL#http://}
prefix=${host}_dists_stable

# Cold.
run_update
check "cold update exits 0" test "$RC" = 0
check "InRelease fetched" contains "$OUT" "Get:1 $URL stable InRelease ["
check "Packages fetched" contains "$OUT" "Get:2 $URL stable/main amd64 Packages ["
check "fetched line" grep -qE '^Fetched [0-9.,]+ [kM]?B in [0-9]+s \(' "$T/out"
check "reading package lists" contains "$OUT" "Reading package lists..."
check "upgradable count" contains "$OUT" "1 package can be upgraded. Run 'aptus list --upgradable' to see it."
check "no messages on stderr" test -z "$ERR"
check "InRelease stored under apt's name" test -f "$LISTS/${prefix}_InRelease"
check "Packages stored decompressed under apt's name" test -f "$LISTS/${prefix}_main_binary-amd64_Packages"
check "stored Packages is the repository's" cmp -s "$LISTS/${prefix}_main_binary-amd64_Packages" "$REPO/dists/stable/main/binary-amd64/Packages"
check "nothing left in partial/" test -z "$(ls -A "$LISTS/partial")"
check "the stored Packages names real .debs with their Size and SHA256" debs_match "$LISTS/${prefix}_main_binary-amd64_Packages"
check "by-hash path requested" grep -q "GET /dists/stable/main/binary-amd64/by-hash/SHA512/" "$T/requests"
check "plain index path not requested" bash -c "! grep -q 'GET /dists/stable/main/binary-amd64/Packages' '$T/requests'"

# Real apt reads what aptus stored, and its own update finds nothing new.
if command -v apt-get >/dev/null; then
    policy=$(apt-cache -o Dir::Cache="$T/apt-cache" policy hello 2>&1)
    check "apt-cache sees the candidate from aptus's lists" contains "$policy" "Candidate: 1.0"
    : >"$T/requests"
    apt_out=$(apt-get -o Dir::Cache="$T/apt-cache" update 2>&1)
    check "apt-get update: Hit on aptus's InRelease ($apt_out)" contains "$apt_out" "Hit:1 $URL stable InRelease"
    check "apt-get update fetched no index" bash -c "! grep -q 'Packages' '$T/requests'"
fi

# Warm: only an If-Modified-Since request for the InRelease, answered 304.
: >"$T/requests"
run_update
check "warm update exits 0" test "$RC" = 0
check "warm update hits" contains "$OUT" "Hit:1 $URL stable InRelease"
check "warm update fetches nothing" bash -c "! grep -q '^Fetched' '$T/out'"
check "warm update: one request" test "$(wc -l <"$T/requests")" = 1
check "warm update: 304 for InRelease" grep -q "^GET /dists/stable/InRelease 304 " "$T/requests"

# Changed repository: the new InRelease and index come, the count follows.
make_suite stable --packages hello=1.0,world=2.1 --by-hash
touch -d "@$(($(date +%s) + 5))" "$REPO/dists/stable/InRelease"
run_update
check "changed: exits 0" test "$RC" = 0
check "changed: new InRelease" contains "$OUT" "Get:1 $URL stable InRelease"
check "changed: new Packages" contains "$OUT" "stable/main amd64 Packages ["
check "changed: stored Packages has the new version" grep -q "^Version: 2.1" "$LISTS/${prefix}_main_binary-amd64_Packages"

# A progress line on a terminal only, erased before the item lines; none on a pipe.
check "no progress on a pipe" bash -c "! grep -q '%' '$T/out'"
if command -v script >/dev/null; then
    make_suite stable --packages hello=1.0,world=2.2 --by-hash
    touch -d "@$(($(date +%s) + 10))" "$REPO/dists/stable/InRelease"
    script -qec "$APTUS update" /dev/null >"$T/tty" 2>&1
    check "terminal: exit 0" test $? = 0
    check "terminal: progress line drawn" grep -qa '% \[' "$T/tty"
    check "terminal: item lines still there" grep -qa "Get:1 $URL stable InRelease" "$T/tty"
fi

# Release + Release.gpg where there is no InRelease; a second suite.
make_suite old --packages legacy=1.0 --no-inrelease
set_sources stable old
run_update
check "fallback: exits 0" test "$RC" = 0
check "fallback: Ign for the InRelease" contains "$OUT" "Ign:"
check "fallback: Ign names it" contains "$OUT" "$URL old InRelease"
check "fallback: Release fetched" contains "$OUT" "$URL old Release ["
check "fallback: Release.gpg fetched" contains "$OUT" "$URL old Release.gpg ["
check "fallback: Release stored" test -f "$LISTS/${host}_dists_old_Release"
check "fallback: Release.gpg stored" test -f "$LISTS/${host}_dists_old_Release.gpg"
check "fallback: Packages stored" test -f "$LISTS/${host}_dists_old_main_binary-amd64_Packages"

# A suite no longer configured: its lists go with the next successful update.
set_sources stable
run_update
check "unconfigured: exits 0" test "$RC" = 0
check "unconfigured: old Release removed" test ! -e "$LISTS/${host}_dists_old_Release"
check "unconfigured: old Packages removed" test ! -e "$LISTS/${host}_dists_old_main_binary-amd64_Packages"
check "unconfigured: stable kept" test -f "$LISTS/${prefix}_main_binary-amd64_Packages"

# Kept compressed when the configuration asks (apt's Acquire::GzipIndexes).
rm -f "$LISTS"/*_*
run_update -o Acquire::GzipIndexes=true
check "compressed: exits 0" test "$RC" = 0
check "compressed: stored as .gz" test -f "$LISTS/${prefix}_main_binary-amd64_Packages.gz"
check "compressed: no plain file" test ! -e "$LISTS/${prefix}_main_binary-amd64_Packages"

# Through a proxy, from the configuration and from the environment: the
# sources name a host that does not exist, the proxy (the test server) answers.
rm -f "$LISTS"/*_*
sed -i "s|^URIs: .*|URIs: http://repo.invalid|" "$SB/etc/apt/sources.list.d/test.sources"
: >"$T/requests"
run_update -o Acquire::http::Proxy="$URL"
check "proxy from Acquire::http::Proxy: exit 0" test "$RC" = 0
check "proxy from Acquire::http::Proxy: used" grep -q "^PROXY http://repo.invalid/dists/stable/InRelease" "$T/requests"
check "proxy: lists named after the source, not the proxy" test -f "$LISTS/repo.invalid_dists_stable_main_binary-amd64_Packages"
rm -f "$LISTS"/*_*
: >"$T/requests"
http_proxy=$URL run_update
check "proxy from http_proxy: exit 0" test "$RC" = 0
check "proxy from http_proxy: used" grep -q "^PROXY http://repo.invalid/dists/stable/InRelease" "$T/requests"
http_proxy=$URL run_update -o Acquire::http::Proxy=DIRECT
check "Acquire::http::Proxy DIRECT overrides the environment" contains "$ERR" "W: Failed to fetch http://repo.invalid/dists/stable/InRelease"

finish
