#!/bin/bash
# A Release's own Signed-By field: the keys it names are the only ones
# allowed to sign the repository's next Release, while the stored Release is
# valid (apt's rule). Both keys are in the entry's keyring, so only the
# field can refuse one:
# - stored Release names key A, the next Release is signed by key B: the
#   update keeps the old lists with apt's "No good signature from required
#   signer" warning and exits 0 (as for any bad signature over old lists);
# - stored Release names B (or A and B, comma and space separated): taken;
# - stored Release whose Valid-Until has passed: its Signed-By no longer
#   counts, the Release by B is taken.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup
gpg --batch --quiet --passphrase '' --quick-gen-key 'aptus second key <second@example.org>' ed25519 sign never 2>/dev/null
KEY2=$(gpg --batch --with-colons --list-keys 2>/dev/null | awk -F: '/^fpr/ {print $10}' | grep -v "^$KEY\$" | head -1)
gpg --batch --export "$KEY" "$KEY2" >"$KEYRING"

# stored_field LINES: the stored InRelease's text gets LINES after its Date.
stored_field() {
    local f
    f=$(ls "$LISTS"/*_InRelease)
    python3 - "$f" "$1" <<'PY'
import sys
path, extra = sys.argv[1], sys.argv[2]
text = open(path).read()
head, sep, rest = text.partition("\nDate: ")
line, nl, tail = rest.partition("\n")
open(path, "w").write(head + sep + line + nl + extra + "\n" + tail)
PY
}
version_known() { grep -q "^Version: $1\$" "$LISTS"/*_Packages; }

make_suite stable --packages hello=1.0 >/dev/null
set_sources stable
run_update
check "first update, signed by A (rc $RC): $ERR" test "$RC" = 0
mkdir -p "$T/lists-1.0" && cp -a "$LISTS/." "$T/lists-1.0/"
restore() { rm -rf "$LISTS" && mkdir -p "$LISTS" && cp -a "$T/lists-1.0/." "$LISTS/"; }

make_suite stable --packages hello=2.0 --key "$KEY2" >/dev/null
touch -d "@$(($(date +%s) + 30))" "$REPO/dists/stable/InRelease"

stored_field "Signed-By: $KEY"
run_update
check "next Release by B over a stored 'Signed-By: A': exit 0 (rc $RC)" test "$RC" = 0
check "apt's warning names the required signer: $ERR" contains "$ERR" "No good signature from required signer: $KEY"
check "and the previous index files are used" contains "$ERR" "The repository is not updated and the previous index files will be used."
check "the old lists stay (1.0)" version_known 1.0

restore
stored_field "Signed-By: $KEY2"
run_update
check "stored 'Signed-By: B': taken (rc $RC): $ERR" test "$RC" = 0
check "the new lists (2.0)" version_known 2.0

restore
stored_field "Signed-By: $KEY $KEY,
 $KEY2"
run_update
check "stored Signed-By naming A and B over two lines: taken (rc $RC): $ERR" test "$RC" = 0
check "the new lists (2.0)" version_known 2.0

restore
stored_field "Valid-Until: $(date -u -d 'now - 2 minutes' '+%a, %d %b %Y %H:%M:%S UTC')
Signed-By: $KEY"
run_update
check "a stored Release no longer valid: its Signed-By does not count (rc $RC): $ERR" test "$RC" = 0
check "the new lists (2.0)" version_known 2.0
finish
