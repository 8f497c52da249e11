#!/bin/bash
# What APT's own update tests found, each checked here on a loopback
# repository of our own:
# - Debug::pkgAcquire::Worker prints apt's "-> http:600 URI Acquire" line
#   for each file asked for (scripts grep it), with spaces and line breaks
#   escaped as apt escapes them;
# - an InRelease with text after its signature (CVE-2013-1051) cannot be
#   split: the old lists stay, apt's two warnings, and no "Fetched" line
#   (apt's split error is still pending when the download ends);
# - a Release older than the stored one keeps the stored lists silently
#   (apt: an out-of-sync mirror), exit 0;
# - trusted=yes takes a Release whatever its signature, but not a Date
#   in the future;
# - an index longer than the Release says: apt's "(got != announced)"
#   with the expected hashes, and the file set aside as partial/*.FAILED,
#   which the next update removes;
# - InRelease-Path fetches the InRelease from that path (a by-hash name),
#   with no Release fallback: a 404 there is apt's error under the usual
#   InRelease URI, without the "Some index files" summary; and
#   Acquire::Failure::ShowIP=false leaves out the "[IP: ...]";
# - Release + Release.gpg: an unmodified Release has no Release.gpg line
#   (its number is still taken), a Release that arrives identical to the
#   stored one counts as unmodified, and an Ign line's reason is shown
#   under Acquire::Progress::Ignore::ShowErrorText;
# - a signature that does not verify on a repository taken anyway
#   (trusted=yes, insecure allowed) is not kept: an InRelease is stored as
#   Release, a Release.gpg dropped, and the packages are unauthenticated;
# - index lines come in the order of the targets, whichever finished first;
# - a repository without any Release, insecure repositories allowed: each
#   compression is tried in turn (an Ign line each), apt's warning, the
#   packages unauthenticated, the transfer bounded by
#   Aptus::Acquire::Max-Unannounced-Size, and an unchanged index is a Hit;
# - an InRelease that is no clearsigned message is apt's NOSPLIT error;
#   going from signed to unsigned takes both allow-downgrade-to-insecure and
#   insecure repositories allowed; a Release gone under both leaves no old
#   Release file to vouch for the new lists;
# - the rest of apt's traces: Debug::pkgAcquire::Worker's answer lines
#   ("<- file:201 URI Done", with Alt-Filename for a local compressed index
#   whose plain form lies beside it), and Debug::pkgAcquire::Auth's hashes
#   of an index fetched (its decompressed form against the Release), none
#   for one that was not fetched.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup

make_suite stable --packages hello=1.0
set_sources stable
run_update -o Debug::pkgAcquire::Worker=1
check "update with the worker trace succeeds (rc $RC)" test "$RC" = 0
check "the InRelease request is traced" \
    contains "$ERR" " -> http:600%20URI%20Acquire%0aURI:%20$URL/dists/stable/InRelease%0aFilename:%20$LISTS/partial/"
check "and the Packages one, with its size" \
    has_text "$ERR" "%0aURI:%20$URL/dists/stable/main/binary-amd64/Packages"
check "the trace names an Expected-Size for an index" contains "$ERR" "%0aExpected-Size:%20"
check "the trace is on stderr only" bash -c '! grep -q "600%20URI" <<<"$0"' "$OUT"
run_update
check "no trace without the option" bash -c '! grep -q "600%20URI" <<<"$0"' "$ERR"
good=$(lists_digest)

# Text after the signed message: the stored lists stay, and no Fetched line.
make_suite stable --packages hello=1.1
printf 'Origin: Evil\n' >>"$REPO/dists/stable/InRelease"
touch -d "@$(($(date +%s) + 60))" "$REPO/dists/stable/InRelease"
run_update
check "a tail after the signature: exit 0 (got $RC)" test "$RC" = 0
check "it says the split failed" contains "$OUT" "into data and signature failed"
check "the previous lists are kept" test "$(lists_digest)" = "$good"
check "and there is no Fetched line" bash -c '! grep -q "^Fetched" <<<"$0"' "$OUT"
check "apt's warning that the previous index files will be used" \
    contains "$ERR" "W: An error occurred during the signature verification. The repository is not updated and the previous index files will be used."

# A good update again prints its Fetched line.
make_suite stable --packages hello=1.2
touch -d "@$(($(date +%s) + 120))" "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
run_update
check "a good update prints Fetched" contains "$OUT" "Fetched "

# An older Release than the stored one (an out-of-sync mirror): apt-get
# keeps the stored lists without a word and succeeds; aptus warns.
good=$(lists_digest)
make_suite stable --packages hello=1.3 --date-offset -86400
mkdir -p "$T/bin" && ln -sf "$APTUS" "$T/bin/apt-get"
"$T/bin/apt-get" update >"$T/out" 2>&1
RC=$? OUT=$(cat "$T/out") ERR=
check "apt-get update with an older Release: exit 0 (got $RC)" test "$RC" = 0
check "and not a word of it: $OUT" bash -c '! grep -qE "^(W|E|N): " <<<"$0"' "$OUT"
check "the stored lists are kept" test "$(lists_digest)" = "$good"
run_update
check "aptus warns that the mirror is behind (rc $RC)" \
    bash -c '[ "$1" = 0 ] && grep -q "^W: Release file for .* is older than the one already stored" <<<"$0"' "$ERR" "$RC"

# trusted=yes takes a Release whose signature names no key it knows, but
# its Date is still checked: one three days ahead is refused.
{
    echo "Types: deb"; echo "URIs: $URL"; echo "Suites: stable"; echo "Components: main"
    echo "Trusted: yes"; echo "Signed-By: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
} >"$SB/etc/apt/sources.list.d/test.sources"
make_suite stable --packages hello=1.4 --date-offset 259200
run_update
check "trusted=yes, unknown key, Date 3 days ahead: refused (rc $RC)" test "$RC" = 100
check "for its Date, not its signature: $ERR" contains "$ERR" "is not valid yet"

# An index longer than announced (a mirror mid-sync): apt's size message
# with the expected hashes, and what arrived set aside as .FAILED.
set_sources stable
make_suite stable --packages hello=1.5 --compress gz
P=$REPO/dists/stable/main/binary-amd64/Packages.gz
announced=$(stat -c %s "$P")
echo 1234567890 >>"$P"
got=$(stat -c %s "$P")
touch "$LISTS/partial/Old.FAILED"
run_update
check "a Packages.gz longer than announced fails (rc $RC)" test "$RC" = 100
check "with apt's size message: $ERR" \
    contains "$ERR" "E: Failed to fetch $URL/dists/stable/main/binary-amd64/Packages.gz  File has unexpected size ($got != $announced). Mirror sync in progress?"
check "and the expected hashes" contains "$ERR" "   Hashes of expected file:
    - Filesize:$announced [weak]"
check "what arrived is set aside" bash -c 'ls "$0"/partial/*binary-amd64_Packages*.FAILED' "$LISTS"
check "an earlier update's .FAILED is gone" test ! -e "$LISTS/partial/Old.FAILED"
make_suite stable --packages hello=1.6 --compress gz
run_update
check "a good update again (rc $RC)" test "$RC" = 0
check "and the last one's .FAILED is removed" bash -c '! ls "$0"/partial/*.FAILED 2>/dev/null' "$LISTS"

# InRelease-Path: the InRelease only under its by-hash name.
make_suite stable --packages hello=1.7
D=$REPO/dists/stable
h=$(sha256sum "$D/InRelease" | cut -d' ' -f1)
mkdir -p "$D/by-hash/SHA256"
mv "$D/InRelease" "$D/by-hash/SHA256/$h"
rm -f "$D/Release" "$D/Release.gpg"
set_sources stable
echo "InRelease-Path: by-hash/SHA256/$h" >>"$SB/etc/apt/sources.list.d/test.sources"
run_update -o Debug::pkgAcquire::Worker=1
check "InRelease-Path: the update succeeds (rc $RC): $ERR" test "$RC" = 0
check "from the by-hash name" has_text "$ERR" "URI:%20$URL/dists/stable/by-hash/SHA256/$h%0a"
check "hello 1.7 is known" contains "$("$APTUS" policy hello 2>&1)" "Candidate: 1.7"
sed -i "s#^InRelease-Path: .*#InRelease-Path: by-hash/SHA256/0000#" "$SB/etc/apt/sources.list.d/test.sources"
run_update -o Acquire::Failure::ShowIP=false
check "a path that is not there: no fallback, exit 100 (rc $RC)" test "$RC" = 100
check "the error names the usual InRelease URI, no IP, no summary: $ERR" \
    test "$ERR" = "E: Failed to fetch $URL/dists/stable/InRelease  404  File not found"
set_sources stable

# Release + Release.gpg, no InRelease.
make_suite stable --packages hello=1.8 --no-inrelease
rm -f "$REPO/dists/stable/InRelease"
run_update
check "Release + Release.gpg: update (rc $RC)" test "$RC" = 0
check "the signature's line follows the Release's" \
    bash -c 'grep -A1 "^Get:2 .* stable Release \[" <<<"$0" | grep -q "^Get:3 .* stable Release.gpg \["' "$OUT"
rm -f "$LISTS"/*_Packages*
run_update -o Acquire::Progress::Ignore::ShowErrorText=true -o Acquire::Failure::ShowIP=false -o quiet::NoStatistic=true
check "unmodified Release: Hit, no Release.gpg line, the index is Get:4: $OUT" test "$OUT" = "Ign:1 $URL stable InRelease
  404  File not found
Hit:2 $URL stable Release
Get:4 $URL stable/main amd64 Packages [$(stat -c %s "$REPO/dists/stable/main/binary-amd64/Packages.xz") B]
Reading package lists...
Building dependency tree...
All packages are up to date."
run_update
check "without ShowErrorText the Ign line has no reason" test "$(sed -n 2p <<<"$OUT")" = "Hit:2 $URL stable Release"
# Newer than the stored one, so sent again: the same bytes.
touch -d "@$(($(stat -c %Y "$REPO/dists/stable/Release") + 5))" "$REPO/dists/stable/Release"
run_update
check "an identical Release sent again is a Get, then as unmodified: $OUT" \
    bash -c 'grep -q "^Get:2 .* stable Release \[" <<<"$0" && ! grep -q "Release.gpg" <<<"$0"' "$OUT"

# Insecure repositories allowed, a Release.gpg by a key the entry does not
# trust: taken as unsigned, the signature not kept, the packages unauthenticated.
{
    echo "Types: deb"; echo "URIs: $URL"; echo "Suites: stable"; echo "Components: main"
    echo "Signed-By: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
} >"$SB/etc/apt/sources.list.d/test.sources"
make_suite stable --packages hello=1.9 --no-inrelease
rm -f "$REPO/dists/stable/InRelease" "$LISTS"/*_*  # no lists to keep instead
run_update --allow-insecure-repositories
check "a signature by an unknown key, insecure allowed: taken (rc $RC)" test "$RC" = 0
check "its Release.gpg is not kept" bash -c '! ls "$0"/*_Release.gpg 2>/dev/null' "$LISTS"
"$APTUS" install -y -d hello >"$T/out" 2>&1
check "and hello is unauthenticated: $(cat "$T/out")" grep -q "cannot be authenticated" "$T/out"

# trusted=yes and an InRelease whose signature does not verify: stored as
# Release (apt), so nothing takes it for verified.
{
    echo "Types: deb"; echo "URIs: $URL"; echo "Suites: stable"; echo "Components: main"
    echo "Trusted: yes"; echo "Signed-By: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
} >"$SB/etc/apt/sources.list.d/test.sources"
make_suite stable --packages hello=2.0
rm -f "$LISTS"/*_*
run_update
check "trusted=yes, unverifiable InRelease: taken (rc $RC)" test "$RC" = 0
check "stored under the Release name, byte for byte" \
    cmp "$REPO/dists/stable/InRelease" "$(ls "$LISTS"/*_dists_stable_Release)"
check "and no InRelease" bash -c '! ls "$0"/*_InRelease 2>/dev/null' "$LISTS"
check "hello 2.0 is known" contains "$("$APTUS" policy hello 2>&1)" "Candidate: 2.0"
set_sources stable

# Index lines in the targets' order: two architectures, the native first.
make_suite stable --packages hello=2.1
echo 'APT::Architectures { "amd64"; "i386"; };' >"$SB/etc/apt/apt.conf.d/90arch"
for n in 1 2 3; do
    rm -f "$LISTS"/*_Packages*
    run_update
    check "amd64's Packages line before i386's ($n): $OUT" \
        bash -c 'grep "Packages" <<<"$0" | head -1 | grep -q "amd64 Packages"' "$OUT"
done
rm -f "$SB/etc/apt/apt.conf.d/90arch"

# No Release at all.
rm -rf "$REPO/dists/stable"
make_suite stable --packages hello=2.2 --compress gz
rm -f "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release" "$REPO/dists/stable/Release.gpg" "$LISTS"/*_*
run_update
check "no Release: refused by default (rc $RC)" test "$RC" = 100
run_update --allow-insecure-repositories
check "no Release, insecure allowed: taken (rc $RC): $ERR" test "$RC" = 0
check "xz, bz2, lzma tried before gz: $OUT" test "$(grep -c '^Ign:3 .*amd64 Packages$' <<<"$OUT")" = 3
check "then the gz" bash -c 'grep -q "^Get:3 .*amd64 Packages \[" <<<"$0"' "$OUT"
check "apt's warning" contains "$ERR" "W: The repository '$URL stable Release' does not have a Release file."
check "hello 2.2 is known" contains "$("$APTUS" policy hello 2>&1)" "Candidate: 2.2"
"$APTUS" install -y -d hello >"$T/out" 2>&1
check "and unauthenticated" grep -q "cannot be authenticated" "$T/out"
run_update --allow-insecure-repositories
check "unchanged: the index is a Hit: $OUT" bash -c 'grep -q "^Hit:3 .*amd64 Packages$" <<<"$0"' "$OUT"
rm -f "$LISTS"/*_*
run_update --allow-insecure-repositories -o Aptus::Acquire::Max-Unannounced-Size=100
check "bounded: an index beyond Max-Unannounced-Size fails (rc $RC): $ERR" \
    bash -c '[ "$1" = 100 ] && grep -qE "amd64/Packages.gz  File has unexpected size" <<<"$0"' "$ERR" "$RC"
check "and nothing of it is stored" bash -c '! ls "$0"/*binary-amd64_Packages* 2>/dev/null' "$LISTS"

# Signed lists first; then the InRelease is a plain Release.
rm -rf "$REPO/dists/stable" && rm -f "$LISTS"/*_*
make_suite stable --packages hello=2.3
run_update
check "signed again (rc $RC)" test "$RC" = 0
good=$(lists_digest)
cp "$REPO/dists/stable/Release" "$REPO/dists/stable/InRelease"
touch -d "@$(($(date +%s) + 60))" "$REPO/dists/stable/InRelease"
run_update
check "an InRelease that is no clearsigned message: apt's NOSPLIT (rc $RC): $ERR" \
    bash -c '[ "$1" = 100 ] && grep -qx "E: Failed to fetch $2/dists/stable/InRelease  Clearsigned file isn.t valid, got .NOSPLIT. (does the network require authentication?)" <<<"$0"' \
    "$ERR" "$RC" "$URL"
check "and the repository is no longer signed" contains "$ERR" "E: The repository '$URL stable InRelease' is no longer signed."
check "the signed lists stay" test "$(lists_digest)" = "$good"

# Signed to unsigned (Release only): allow-downgrade-to-insecure alone is not enough.
make_suite stable --packages hello=2.4 --unsigned
rm -f "$REPO/dists/stable/InRelease"
{
    echo "Types: deb"; echo "URIs: $URL"; echo "Suites: stable"; echo "Components: main"
    echo "Signed-By: $KEYRING"; echo "Allow-Downgrade-To-Insecure: yes"
} >"$SB/etc/apt/sources.list.d/test.sources"
run_update
check "downgrade allowed but not insecure repositories: refused (rc $RC)" test "$RC" = 100
check "the lists stay" test "$(lists_digest)" = "$good"
run_update --allow-insecure-repositories
check "both allowed: taken with a warning (rc $RC): $ERR" \
    bash -c '[ "$1" = 0 ] && grep -q "^W: The repository .* is no longer signed" <<<"$0"' "$ERR" "$RC"

# No Release at all any more, both allowed: the old Release files go.
rm -f "$LISTS"/*_* && set_sources stable
make_suite stable --packages hello=2.5
run_update
check "signed once more (rc $RC)" test "$RC" = 0
rm -f "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release" "$REPO/dists/stable/Release.gpg"
touch -d "@$(($(date +%s) + 120))" "$REPO"/dists/stable/main/binary-amd64/Packages*
run_update --allow-insecure-repositories -o Acquire::AllowDowngradeToInsecureRepositories=1
check "Release gone, both allowed: taken (rc $RC): $ERR" \
    bash -c '[ "$1" = 0 ] && grep -q "^W: The repository .* no longer has a Release file" <<<"$0"' "$ERR" "$RC"
check "no Release file is left to vouch for the lists" bash -c '! ls "$0"/*Release* 2>/dev/null' "$LISTS"
"$APTUS" install -y -d hello >"$T/out" 2>&1
check "and hello is unauthenticated" grep -q "cannot be authenticated" "$T/out"
set_sources stable

# The traces on a local repository: the answer lines and the hashes.
rm -rf "$LISTS"
make_suite stable --packages hello=2.6 >/dev/null
printf 'Types: deb\nURIs: file:%s\nSuites: stable\nComponents: main\nSigned-By: %s\n' "$REPO" "$KEYRING" \
    >"$SB/etc/apt/sources.list.d/test.sources"
run_update -o Debug::pkgAcquire::Worker=1 -o Debug::pkgAcquire::Auth=1
check "a local repository with the traces (rc $RC)" test "$RC" = 0
check "an answer line for the index, naming its plain form" \
    has_text "$ERR" "%0aAlt-Filename:%20$REPO/dists/stable/main/binary-amd64/Packages%0a"
check "the answer says 201 URI Done" contains "$ERR" " <- file:201%20URI%20Done%0aURI:%20file:$REPO/dists/stable/InRelease%0a"
plain=$(sha512sum <"$REPO/dists/stable/main/binary-amd64/Packages" | cut -d' ' -f1)
check "the Auth trace has the SHA512 of the decompressed index" contains "$ERR" "- SHA512:$plain"
check "as received and as expected" test "$(grep -c -- "- SHA512:$plain" <<<"$ERR")" = 2
touch -d "@$(($(date +%s) + 200))" "$REPO/dists/stable/InRelease"
run_update -o Debug::pkgAcquire::Auth=1
check "an index not fetched again has no hash lines (rc $RC)" not_contains "$ERR" "SHA512:$plain"
set_sources stable
finish
