#!/bin/bash
# Releases that vouch for their files with weak hashes (MD5, SHA1) or none,
# and the stored lists of an unsigned repository that becomes signed:
# - a Release with MD5 only is refused (the lists stay) unless weak
#   repositories are allowed (--allow-weak-repositories, Allow-Weak:
#   yes); then apt's warnings, and the repository is kept as an
#   unauthenticated one: its Release alone, no InRelease;
# - a Release without a single hash, allowed: its indices are fetched as
#   from a repository without a Release;
# - an index whose own entry has MD5 only (its .gz still with SHA256) is
#   skipped with apt's warning, and fetched when weak ones are allowed;
# - lists of an unsigned repository, one of them changed locally, and the
#   repository signed now: the index is asked with If-Modified-Since, and
#   the "not modified" answer does not keep a file the Release does not
#   vouch for (a hash mismatch, the lists as they were); a right one is a Hit;
# - as root with the _apt user: lists/partial is left to _apt:root 0700
#   after an update, failed or not, as apt leaves it.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup
D=$REPO/dists/stable

# weaken SED...: the Release edited by the sed expressions, signed again.
weaken() {
    sed -i "$@" "$D/Release"
    rm -f "$D/InRelease" "$D/Release.gpg"
    gpg --batch --yes --quiet --trust-model always --local-user "$KEY" --clearsign -o "$D/InRelease" "$D/Release"
    touch -d "@$(($(date +%s) + ${BUMP:-0}))" "$D/InRelease"
}
# Drops the SHA256 and SHA512 sections.
strong_gone=(-e '/^SHA256:/,$d')
stored() { ls "$LISTS" | grep -v -e '^lock$' -e '^partial$' -e '^auxfiles$' | tr '\n' ' '; }

make_suite stable --packages hello=1.0 --compress gz >/dev/null
set_sources stable
weaken "${strong_gone[@]}"
run_update
check "an MD5-only Release is refused: exit 100 (got $RC)" test "$RC" = 100
check "with apt's warning" contains "$ERR" \
    "W: No Hash entry in Release file $LISTS/partial/$(echo "${URL#http://}" | tr / _)_dists_stable_InRelease which is considered strong enough for security purposes"
check "and apt's error" contains "$ERR" "E: The repository '$URL stable InRelease' provides only weak security information."
check "nothing is stored: $(stored)" test -z "$(stored)"

run_update --allow-weak-repositories -o quiet=0
check "allowed: exit 0 (got $RC)" test "$RC" = 0
check "the warning says so" contains "$ERR" "W: The repository '$URL stable InRelease' provides only weak security information."
check "and that its data cannot be authenticated" \
    contains "$ERR" "N: Data from such a repository can't be authenticated and is therefore potentially dangerous to use."
check "the packages are there" grep -q '^Package: hello' "$LISTS"/*_Packages
check "kept as Release only, no InRelease: $(stored)" \
    bash -c 'ls "$0" | grep -q "_Release$" && ! ls "$0" | grep -q -e InRelease -e Release.gpg' "$LISTS"

# The same through the entry's Allow-Weak.
rm -rf "$LISTS"
echo "Allow-Weak: yes" >>"$SB/etc/apt/sources.list.d/test.sources"
run_update
check "Allow-Weak: yes: exit 0 (got $RC): $ERR" test "$RC" = 0
check "with the warning" contains "$ERR" "W: The repository '$URL stable InRelease' provides only weak security information."
check "no InRelease kept: $(stored)" bash -c '! ls "$0" | grep -q InRelease' "$LISTS"

# No hash at all, allowed: the indices fetched unannounced.
rm -rf "$LISTS"
make_suite stable --packages hello=1.1 --compress gz >/dev/null
BUMP=2 weaken -e '/^ /d' -e '/^MD5Sum:/d' -e '/^SHA[0-9]*:/d'
run_update
check "a Release without hashes, allowed: exit 0 (got $RC): $ERR" test "$RC" = 0
check "apt's warning without 'strong enough'" bash -c 'grep -q "^W: No Hash entry in Release file .*_InRelease$" <<<"$0"' "$ERR"
check "no 'does not seem to provide it'" not_contains "$ERR" "does not seem to provide it"
check "the packages are there" grep -q '^Version: 1.1' "$LISTS"/*_Packages
sed -i '/^Allow-Weak:/d' "$SB/etc/apt/sources.list.d/test.sources"

# Strong Release, but the Packages entry itself has MD5 only.
rm -rf "$LISTS"
make_suite stable --packages hello=1.2 --compress gz >/dev/null
BUMP=4 weaken -e '/^ [0-9a-f]\{64,128\} .*main\/binary-amd64\/Packages$/d'
run_update
check "an index with MD5 only: exit 0 (got $RC)" test "$RC" = 0
check "skipped with apt's warning" contains "$ERR" \
    "W: Skipping acquire of configured file 'main/binary-amd64/Packages' as repository '$URL stable InRelease' provides only weak security information for it"
check "not stored (its .gz had SHA256): $(stored)" bash -c '! ls "$0" | grep -q Packages' "$LISTS"
run_update --allow-weak-repositories
check "allowed: exit 0 (got $RC)" test "$RC" = 0
check "no warning then: $ERR" not_contains "$ERR" "W: "
check "and the index is there" grep -q '^Version: 1.2' "$LISTS"/*_Packages

# Unsigned (no Release at all), then signed over a changed stored index.
rm -rf "$LISTS"
make_suite stable --packages hello=1.3 >/dev/null
mkdir -p "$T/keep"
mv "$D/InRelease" "$D/Release" "$D/Release.gpg" "$T/keep/"
run_update --allow-insecure-repositories
check "no Release, insecure allowed: exit 0 (got $RC)" test "$RC" = 0
PKG=$(ls "$LISTS"/*_Packages)
echo "meep" >"$PKG"
touch -d "@$(($(date +%s) + 60))" "$PKG"
mv "$T/keep/"* "$D/"
touch -d "@$(($(date +%s) + 6))" "$D/InRelease"
before=$(lists_digest)
: >"$T/requests"
run_update
check "signed now, the stored index is not what it vouches for: exit 100 (got $RC)" test "$RC" = 100
check "the index was asked with If-Modified-Since and not modified: $(grep Packages "$T/requests")" \
    grep -q "Packages[^ ]* 304 " "$T/requests"
check "a hash mismatch" contains "$ERR" "Hash Sum mismatch"
check "the lists are as they were" test "$(lists_digest)" = "$before"
check "no InRelease stored: $(stored)" bash -c '! ls "$0" | grep -q InRelease' "$LISTS"
# The right stored file, not modified: a Hit, and the repository is signed now.
mv "$D/InRelease" "$D/Release" "$D/Release.gpg" "$T/keep/"
rm -rf "$LISTS"
run_update --allow-insecure-repositories
mv "$T/keep/"* "$D/"
touch -d "@$(($(date +%s) + 60))" "$(ls "$LISTS"/*_Packages)"
touch -d "@$(($(date +%s) + 8))" "$D/InRelease"
run_update
check "signed now over the right stored index: exit 0 (got $RC): $ERR" test "$RC" = 0
check "the index is a Hit" bash -c 'grep -q "^Hit:.*Packages" <<<"$0"' "$OUT"
check "the InRelease is stored: $(stored)" bash -c 'ls "$0" | grep -q InRelease' "$LISTS"

# lists/partial as apt leaves it, after a good and after a failed update.
if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then
    chmod 755 "$T"
    run_update
    check "after an update lists/partial is _apt:root 0700 ($(stat -c '%U:%G %a' "$LISTS/partial"))" \
        test "$(stat -c '%U:%G %a' "$LISTS/partial")" = "_apt:root 700"
    BUMP=10 weaken "${strong_gone[@]}"
    run_update
    check "a failing update (rc $RC)" test "$RC" = 100
    check "and lists/partial is _apt:root 0700 after it ($(stat -c '%U:%G %a' "$LISTS/partial"))" \
        test "$(stat -c '%U:%G %a' "$LISTS/partial")" = "_apt:root 700"
else
    echo "(lists/partial ownership not checked: needs root and an _apt user)"
fi
finish
