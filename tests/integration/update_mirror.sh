#!/bin/bash
# aptus update against the real Debian indices (bookworm and trixie, their
# real InRelease files, signed by the real archive keys, and by-hash paths)
# served on loopback by ../shared/tools/serve-mirror, side by side with real
# apt-get update: both store the same files with the same bytes, apt reads
# what aptus stored, a second update is all Hit, and a tampered InRelease is
# refused with the lists left as they were.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
data=${APTUS_DATA_DIR:-}
tools=$data/../tools
if [ -z "$data" ] || [ ! -x "$tools/serve-mirror" ] || [ ! -x "$tools/make-sandbox" ]; then
    echo "SKIP: real data or its tools not found"
    exit 0
fi
command -v apt-get >/dev/null || { echo "SKIP: apt-get not installed"; exit 0; }
export LC_ALL=C
T=$(mktemp -d /tmp/aptus-update-mirror.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

serve() { # serve NAME [--tamper]: starts a mirror, sets URL
    "$tools/serve-mirror" --root "$T/mirror-$1" "${@:2}" >"$T/url-$1" 2>/dev/null &
    pids+=($!)
    for _ in $(seq 100); do [ -s "$T/url-$1" ] && break; sleep 0.1; done
    URL=$(head -1 "$T/url-$1")
    [ -n "$URL" ] || { echo "FAIL: serve-mirror did not start"; exit 1; }
}
serve good
"$tools/make-sandbox" "$T/sb" --status server >/dev/null
sed -i "s|http://archive.example/debian|$URL|" "$T/sb/etc/apt/sources.list.d/debian.sources"
rm -f "$T/sb/var/lib/apt/lists/"*_*
export APT_CONFIG=$T/sb/apt.conf
mkdir -p "$T/apt-lists/partial" "$T/apt-cache" "$T/aptus-cache"

"$APTUS" update -o Dir::Cache="$T/aptus-cache" >"$T/out" 2>"$T/err" || fail "aptus update: exit $? ($(cat "$T/err"))"
grep -q "^Get:.* bookworm/main amd64 Packages \[" "$T/out" || fail "no Get line for bookworm Packages: $(cat "$T/out")"
[ -s "$T/err" ] && fail "aptus update printed: $(cat "$T/err")"
apt-get update -o Dir::State::Lists="$T/apt-lists" -o Dir::Cache="$T/apt-cache" >"$T/apt-out" 2>&1 ||
    fail "apt-get update failed: $(cat "$T/apt-out")"

# The same files, byte for byte, as apt stores them.
( cd "$T/sb/var/lib/apt/lists" && find . -maxdepth 1 -type f ! -name lock | sort ) >"$T/aptus-files"
( cd "$T/apt-lists" && find . -maxdepth 1 -type f ! -name lock | sort ) >"$T/apt-files"
diff -u "$T/apt-files" "$T/aptus-files" >"$T/files-diff" || fail "different lists files: $(cat "$T/files-diff")"
while read -r f; do
    cmp -s "$T/apt-lists/$f" "$T/sb/var/lib/apt/lists/$f" || fail "$f differs from apt's"
done <"$T/apt-files"

# apt reads aptus's lists as its own.
a=$(apt-cache -o Dir::Cache="$T/apt-cache2" policy bash 2>&1)
b=$(apt-cache -o Dir::State::Lists="$T/apt-lists" -o Dir::Cache="$T/apt-cache3" policy bash 2>&1)
[ "$a" = "$b" ] || fail "apt-cache policy differs on aptus's lists: $a // $b"

# Warm: everything Hit, nothing fetched.
"$APTUS" update -o Dir::Cache="$T/aptus-cache" >"$T/out2" 2>&1 || fail "warm aptus update failed: $(cat "$T/out2")"
[ "$(grep -c '^Hit:' "$T/out2")" = 2 ] || fail "warm update not all Hit: $(cat "$T/out2")"
grep -q '^Fetched' "$T/out2" && fail "warm update fetched something: $(cat "$T/out2")"

# A tampered InRelease (one byte of the signed text): refused, lists untouched.
before=$(cd "$T/sb/var/lib/apt/lists" && find . -maxdepth 1 -type f ! -name lock -print0 | sort -z | xargs -0 sha256sum)
serve bad --tamper
sed -i "s|http://127.0.0.1:[0-9]*/debian|$URL|" "$T/sb/etc/apt/sources.list.d/debian.sources"
"$APTUS" update -o Dir::Cache="$T/aptus-cache" >"$T/out3" 2>&1
rc=$?
[ "$rc" = 100 ] || fail "tampered: exit $rc, not 100"
grep -q "W: OpenPGP signature verification failed: $URL bookworm InRelease: " "$T/out3" || fail "tampered: no verification warning: $(cat "$T/out3")"
# The sources now name another host, so its lists are other files; the old
# host's files stay because the update failed.
after=$(cd "$T/sb/var/lib/apt/lists" && find . -maxdepth 1 -type f ! -name lock -print0 | sort -z | xargs -0 sha256sum)
[ "$before" = "$after" ] || fail "tampered: lists changed"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
