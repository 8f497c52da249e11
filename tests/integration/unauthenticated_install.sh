#!/bin/bash
# Packages from a repository that is not authenticated, as apt-get handles
# them (found by APT's suite, test-bug-596498 and test-releasefile-verification):
# a signed Release stored beside the lists, or trusted=yes, authenticates;
# trusted=no, or a repository taken unsigned under --allow-insecure-repositories,
# does not, and then install names the packages, asks, and refuses under -y
# without --allow-unauthenticated. Simulation asks nothing. Also update's
# rules for a signature that does not verify: with lists from before they
# stay (a warning), without and an empty Release.gpg it is an error (NODATA).
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
BIN=$T/bin
mkdir -p "$BIN"
ln -s "$APTUS" "$BIN/apt-get"
get() {
    "$BIN/apt-get" "$@" >"$T/out" 2>&1 </dev/null
    RC=$?
    OUT=$(cat "$T/out") ERR=""
}
warning="WARNING: The following packages cannot be authenticated!
  hello"

spec "hello|1.0" >"$T/spec.json"
install_suite stable "$T/spec.json"
get install -d -y hello
check "signed: no warning, downloaded (rc $RC): $OUT" test "$RC" = 0
check "signed: nothing said about authentication" not_contains "$OUT" "authenticated"
get clean

# trusted=no: the signature verifies, and still nothing is authenticated.
echo "Trusted: no" >>"$SB/etc/apt/sources.list.d/test.sources"
"$APTUS" update -q >/dev/null 2>&1
get install -s hello
check "trusted=no: -s asks nothing (rc $RC)" test "$RC" = 0
check "trusted=no: -s says nothing: $OUT" not_contains "$OUT" "WARNING"
get install -d -y hello
check "trusted=no: -y refuses (rc $RC)" test "$RC" = 100
check "trusted=no: apt's words: $OUT" has_text "$OUT" "$warning
E: There were unauthenticated packages and -y was used without --allow-unauthenticated"
check "trusted=no: nothing downloaded" test -z "$(ls "$SB/var/cache/apt/archives/"*.deb 2>/dev/null)"
get install -d hello --assume-no
check "trusted=no: --assume-no declines the question (rc $RC): $OUT" has_text "$OUT" "$warning
Install these packages without verification? [y/N] N
E: Some packages could not be authenticated"
get install -d -y hello --allow-unauthenticated
check "trusted=no: --allow-unauthenticated overrides (rc $RC)" test "$RC" = 0
check "trusted=no: and says so: $OUT" has_text "$OUT" "$warning
Authentication warning overridden."
get clean

# An unsigned repository taken under --allow-insecure-repositories.
make_suite stable --spec "$T/spec.json" --unsigned >/dev/null
set_sources stable
rm -rf "$LISTS"/*Release* "$T/cache"/*.bin
"$APTUS" update -q --allow-insecure-repositories >/dev/null 2>&1
get install -d -y hello
check "unsigned: -y refuses (rc $RC): $OUT" has_text "$OUT" "$warning
E: There were unauthenticated packages and -y was used without --allow-unauthenticated"
echo "Trusted: yes" >>"$SB/etc/apt/sources.list.d/test.sources"
get install -d -y hello
check "unsigned but trusted=yes: downloaded without a word (rc $RC): $OUT" test "$RC" = 0
check "unsigned but trusted=yes: no warning" not_contains "$OUT" "WARNING"

# A signature that does not verify. With lists from a good update, they are
# kept: apt's warning, the fetch failure, exit 0.
make_suite stable --spec "$T/spec.json" >/dev/null
set_sources stable
"$APTUS" update -q >/dev/null 2>&1
good=$(lists_digest)
make_suite stable --packages hello=2.0 >/dev/null
# Signed again by a key nobody trusts: the same repository, another signer.
other=$T/other-gnupg
mkdir -m 700 "$other"
GNUPGHOME=$other gpg --batch --quiet --passphrase '' --quick-gen-key 'someone else <else@example.org>' ed25519 sign never 2>/dev/null
GNUPGHOME=$other gpg --batch --yes --quiet --clearsign -o "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
# Later than the stored copy, so If-Modified-Since does not call it the same.
touch -d "@$(($(date +%s) + 10))" "$REPO/dists/stable/InRelease"
get update -o quiet=0
check "bad signature over good lists: exit 0 (rc $RC)" test "$RC" = 0
check "bad signature: apt's warning: $OUT" has_text "$OUT" \
    "W: An error occurred during the signature verification. The repository is not updated and the previous index files will be used. OpenPGP signature verification failed: $URL stable InRelease: "
check "bad signature: the fetch failed, a warning" has_text "$OUT" "W: Failed to fetch $URL/dists/stable/InRelease  "
check "bad signature: the lists are kept" test "$(lists_digest)" = "$good"

# No lists yet, and a Release.gpg that is empty: NODATA, an error.
rm -f "$REPO/dists/stable/InRelease"
: >"$REPO/dists/stable/Release.gpg"
rm -rf "$LISTS"/*
get update
check "empty Release.gpg: exit 100 (rc $RC)" test "$RC" = 100
check "empty Release.gpg: apt's NODATA error: $OUT" has_text "$OUT" \
    "E: OpenPGP signature verification failed: $URL stable Release: Signed file isn't valid, got 'NODATA' (does the network require authentication?)"
finish
