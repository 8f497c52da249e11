#!/bin/bash
# aptus modernize-sources -y when writing fails: exit 100, an E: line that
# says what failed, and every file byte for byte as it was. The failures are
# ones that happen as root too (CI runs as root, where chmod stops nothing):
#  - a backup name longer than NAME_MAX: rename() fails after every output
#    is in place and the other inputs are renamed, so everything is undone;
#  - an output target that is a directory: found before anything is written;
#  - an immutable sources.list.d (chattr +i), where the file system allows it.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
T=$(mktemp -d /tmp/aptus-modernize-failure.XXXXXX)
cleanup() {
    [ -n "${IMMUTABLE:-}" ] && chattr -i "$IMMUTABLE" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
export LC_ALL=C
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

new_sandbox() {
    S=$T/sb$((++n))
    D=$S/etc/apt/sources.list.d
    mkdir -p "$D" "$S/var/lib/apt/lists" "$S/usr/share/keyrings"
    printf 'Origin: Debian\n' >"$S/var/lib/apt/lists/deb.example.org_debian_dists_stable_Release"
    : >"$S/usr/share/keyrings/debian-archive-keyring.gpg"
    printf '# main\ndeb http://deb.example.org/debian stable main\ndeb http://other.example/ s main\n' \
        >"$S/etc/apt/sources.list"
    printf 'Types: deb\nURIs: http://old.example/\nSuites: x\nComponents: main\n' >"$D/debian.sources"
    printf 'deb [trusted=yes] http://a.example/ s main\n' >"$D/a.list"
    printf 'deb http://b.example/ s main\n' >"$D/b.list"
}

snapshot() {
    (cd "$S" && find . -printf '%p %y %m %s\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum)
}

# expect_failure NAME MESSAGE-REGEX
expect_failure() {
    local name=$1 pattern=$2
    "$APTUS" -o "Dir=$S/" modernize-sources -y >"$T/out" 2>"$T/err"
    local rc=$?
    if [ $rc -ne 100 ]; then fail "$name: exit $rc, expected 100"; cat "$T/err"; return; fi
    if ! grep -Eq "^E: $pattern" "$T/err"; then fail "$name: message"; cat "$T/err"; return; fi
    if [ "$(snapshot)" != "$before" ]; then
        fail "$name: files changed"; diff <(echo "$before") <(snapshot); return
    fi
    ok "$name: $(grep '^E: ' "$T/err")"
}

n=0
new_sandbox
long=$(printf 'z%.0s' $(seq 247))
printf 'deb http://long.example/ s main\n' >"$D/$long.list"
before=$(snapshot)
expect_failure "backup rename fails midway" \
    "Could not rename $D/$long.list to $D/$long.list.bak: File name too long; no file was changed$"
# The same sandbox converts once the obstacle is gone.
rm "$D/$long.list"
if "$APTUS" -o "Dir=$S/" modernize-sources -y >/dev/null 2>&1 && [ -f "$D/b.sources" ] && [ -f "$D/b.list.bak" ]; then
    ok "converts after the obstacle is removed"
else
    fail "converts after the obstacle is removed"
fi

new_sandbox
mkdir "$D/b.sources"
before=$(snapshot)
expect_failure "an output target is a directory" "Cannot write $D/b.sources: it exists and is not a regular file$"

new_sandbox
before=$(snapshot)
if chattr +i "$D" 2>/dev/null; then
    IMMUTABLE=$D
    if touch "$D/.probe" 2>/dev/null; then
        rm -f "$D/.probe"
        echo "SKIP immutable directory: writes still succeed here"
    else
        expect_failure "an immutable sources.list.d" "Could not create a temporary file $D/\.aptus-new-[A-Za-z0-9]{6}: Operation not permitted; no file was changed$"
    fi
    chattr -i "$D"
    IMMUTABLE=
else
    echo "SKIP immutable directory: chattr +i not supported on $(df --output=fstype "$T" | tail -1)"
fi

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
