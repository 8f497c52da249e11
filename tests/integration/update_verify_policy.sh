#!/bin/bash
# What decides whether a good signature counts, besides the key:
# - APT::Key::GPGVCommand names a gpgv-style verifier: used instead of sqv;
# - with gpgv, APT::Hashes::<digest>::Weak takes a signature over that
#   digest with apt's "uses weak algorithm" warning, ::Untrusted refuses it
#   (no lists yet: exit 100, nothing stored);
# - a key file in trusted.gpg.d whose name has a ':' is read (apt's name
#   rule), by gpgv too; Debug::Acquire::sqv names the good signatures;
# - a key found only in the legacy trusted.gpg: taken, with apt's warning
#   after the InRelease's URI, as apt's method warns (the verifier's
#   warnings reach the user);
# - sqv (a stand-in here: bookworm's sqv has no --policy-as-of) is run a
#   second time under the policy of a year from now, and a refusal then is
#   apt's "Policy will reject signature within a year" warning; an sqv that
#   does not know the option says nothing; APT_SEQUOIA_CRYPTO_POLICY reaches
#   sqv as SEQUOIA_CRYPTO_POLICY, as apt's sqv method passes it;
# - an InRelease the server says is unchanged is verified again, as apt
#   does: the weak-digest warning again, and a key gone from the keyring
#   since is apt's warning (the lists stay, exit 0);
# - gpgv's answer for a key nobody has is one W: line, as apt prints it
#   ("... not available: NO_PUBKEY <id>"; scripts grep that line).
source "$(dirname "$0")/lib/update_repo.sh"
command -v gpgv >/dev/null || { echo "SKIP: gpgv not installed"; exit 0; }
update_setup
make_suite stable --packages hello=1.0 >/dev/null
set_sources stable
# gpgv, whatever else is installed: sqv applies a policy of its own.
GPGV=(-o Dir::Bin::sqv=/nonexistent/sqv)
ALL_WEAK=(-o APT::Hashes::SHA256::Weak=yes -o APT::Hashes::SHA512::Weak=yes -o APT::Hashes::SHA384::Weak=yes)
ALL_UNTRUSTED=(-o APT::Hashes::SHA256::Untrusted=yes -o APT::Hashes::SHA512::Untrusted=yes
    -o APT::Hashes::SHA384::Untrusted=yes)
stored() { ls "$LISTS" | grep -v -e '^lock$' -e '^partial$' -e '^auxfiles$' | tr '\n' ' '; }

run_update "${GPGV[@]}" "${ALL_UNTRUSTED[@]}"
check "the signature's digest untrusted: exit 100 (rc $RC)" test "$RC" = 100
check "gpgv's digest named as untrusted: $ERR" contains "$ERR" "untrusted digest algorithm: SHA"
check "nothing stored: $(stored)" test -z "$(stored)"

run_update "${GPGV[@]}" "${ALL_WEAK[@]}"
check "the signature's digest weak: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "apt's warning: $ERR" bash -c 'grep -q "^W: $1/dists/stable/InRelease: Signature by key [0-9A-F]* uses weak algorithm (SHA[0-9]*)$" <<<"$0"' "$ERR" "$URL"
check "the InRelease is stored: $(stored)" bash -c 'ls "$0" | grep -q InRelease' "$LISTS"
run_update "${GPGV[@]}"
check "without the setting no such warning: $ERR" not_contains "$ERR" "weak algorithm"
touch -d "@$(($(date +%s) + 30))" "$REPO/dists/stable/InRelease"
run_update -o APT::Key::GPGVCommand=gpgv "${ALL_WEAK[@]}" -o Debug::Acquire::gpgv=1
check "APT::Key::GPGVCommand=gpgv: gpgv runs, sqv installed or not: $ERR" \
    bash -c 'grep -q "^Preparing to exec: *[^ ]*/gpgv " <<<"$0" && grep -q "uses weak algorithm" <<<"$0"' "$ERR"
check "its status lines are traced" contains "$ERR" "Got: [GNUPG:] VALIDSIG $KEY"

# No Signed-By: the keys of trusted.gpg.d, a ':' in the name.
printf 'Types: deb\nURIs: %s\nSuites: stable\nComponents: main\n' "$URL" >"$SB/etc/apt/sources.list.d/test.sources"
cp "$KEYRING" "$SB/etc/apt/trusted.gpg.d/test:key.gpg"
rm -rf "$LISTS"
run_update
check "a key in trusted.gpg.d/test:key.gpg: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "no warning: $ERR" not_contains "$ERR" "W: "
rm -rf "$LISTS"
run_update "${GPGV[@]}"
check "and with gpgv, which takes 'name:' for a URL (rc $RC): $ERR" test "$RC" = 0
if command -v sqv >/dev/null; then
    rm -rf "$LISTS"
    run_update -o Debug::Acquire::sqv=1
    check "sqv's trace names the good signature as apt's sqv method does: $ERR" contains "$ERR" "Got GOODSIG $KEY"
fi

# Only in the legacy keyring.
rm "$SB/etc/apt/trusted.gpg.d/test:key.gpg"
cp "$KEYRING" "$SB/etc/apt/trusted.gpg"
rm -rf "$LISTS"
run_update
check "a key in the legacy trusted.gpg: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "apt's warning naming the repository: $ERR" \
    contains "$ERR" "W: $URL/dists/stable/InRelease: Key is stored in legacy trusted.gpg keyring ($SB/etc/apt/trusted.gpg)"

# The sqv stand-in: every signature good (by $KEY), unless asked about next year.
cat >"$T/fake-sqv" <<'SH'
#!/bin/sh
echo "policy=$SEQUOIA_CRYPTO_POLICY" >>"$FAKE_LOG"
case " $* " in
*" --policy-as-of "*)
    if [ -n "$FAKE_OLD" ]; then echo "error: Found argument '--policy-as-of' which wasn't expected" >&2; exit 1; fi
    echo "Policy rejects the signature" >&2; exit 1 ;;
esac
echo "$FAKE_FPR"
SH
chmod 755 "$T/fake-sqv"
set_sources stable
rm -rf "$LISTS"
FAKE_LOG=$T/fake-log FAKE_FPR=$KEY APT_SEQUOIA_CRYPTO_POLICY=$T/policy.toml run_update -o Dir::Bin::sqv="$T/fake-sqv"
check "an sqv whose policy of next year refuses: exit 0 (rc $RC)" test "$RC" = 0
check "apt's warning after the InRelease's URI: $ERR" \
    contains "$ERR" "W: $URL/dists/stable/InRelease: Policy will reject signature within a year, see --audit for details"
check "APT_SEQUOIA_CRYPTO_POLICY passed on: $(sort -u "$T/fake-log")" grep -qx "policy=$T/policy.toml" "$T/fake-log"
rm -rf "$LISTS"
FAKE_LOG=$T/fake-log FAKE_FPR=$KEY FAKE_OLD=1 run_update -o Dir::Bin::sqv="$T/fake-sqv"
check "an sqv without --policy-as-of: exit 0 (rc $RC)" test "$RC" = 0
check "and no such warning: $ERR" not_contains "$ERR" "Policy will reject"

# Unchanged InRelease (a Hit): verified again.
set_sources stable
rm -rf "$LISTS"
run_update
check "signed lists (rc $RC)" test "$RC" = 0
run_update "${GPGV[@]}" "${ALL_WEAK[@]}"
check "a Hit: exit 0 (rc $RC)" bash -c 'grep -q "^Hit:.*InRelease" <<<"$0"' "$OUT"
check "verified again: the weak-digest warning: $ERR" contains "$ERR" "uses weak algorithm"
# The same for an unchanged Release, with the Release.gpg fetched with it.
make_suite stable --packages hello=1.0 --no-inrelease >/dev/null
rm -f "$REPO/dists/stable/InRelease"
rm -rf "$LISTS"
run_update
check "Release + Release.gpg (rc $RC)" test "$RC" = 0
run_update "${GPGV[@]}" "${ALL_WEAK[@]}"
check "an unchanged Release: exit 0 (rc $RC)" bash -c 'grep -q "^Hit:.* Release" <<<"$0"' "$OUT"
check "verified again against its Release.gpg: $ERR" contains "$ERR" "Release.gpg: Signature by key"
make_suite stable --packages hello=1.0 >/dev/null
rm -rf "$LISTS"
run_update
before=$(lists_digest)
cp "$KEYRING" "$T/keyring.saved"
gpg --batch --quiet --passphrase '' --quick-gen-key 'aptus stranger <stranger@example.org>' ed25519 sign never 2>/dev/null
STRANGER=$(gpg --batch --with-colons --list-keys 2>/dev/null | awk -F: '/^fpr/ {print $10}' | grep -v "^$KEY\$" | head -1)
check "a second key to trust instead" test -n "$STRANGER"
gpg --batch --export "$STRANGER" >"$KEYRING"
run_update
check "a Hit after its key left the keyring: exit 0 (rc $RC)" test "$RC" = 0
check "apt's warning: $ERR" contains "$ERR" "W: An error occurred during the signature verification."
check "the lists stay" test "$(lists_digest)" = "$before"
cp "$T/keyring.saved" "$KEYRING"

gpg --batch --quiet --passphrase '' --quick-gen-key 'aptus unknown key <unknown@example.org>' ed25519 sign never 2>/dev/null
OTHER=$(gpg --batch --with-colons --list-keys 2>/dev/null | awk -F: '/^fpr/ {print $10}' | grep -v -e "^$KEY\$" -e "^$STRANGER\$" | head -1)
set_sources stable
make_suite stable --packages hello=1.1 --key "$OTHER" >/dev/null
touch -d "@$(($(date +%s) + 60))" "$REPO/dists/stable/InRelease"
run_update "${GPGV[@]}"
check "signed by a key nobody has, old lists kept: exit 0 (rc $RC)" test "$RC" = 0
check "gpgv's answer on one W: line: $ERR" \
    bash -c 'grep -qE "^W: .*public key is not available: NO_PUBKEY [0-9A-F]{16}\$" <<<"$0"' "$ERR"
finish
