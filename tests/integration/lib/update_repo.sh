# Sourced by the update_*.sh tests: a throw-away gpg key, a small signed
# repository served by tests/integration/lib/update_server.py on loopback, and
# a sandbox root whose sources point at it. Nothing outside $T is touched:
# APT_CONFIG points Dir at the sandbox, Dir::Cache at $T/cache.
#
#   update_setup [--tls]    sets T, GNUPGHOME, KEY, KEYRING, REPO, URL, SB, LISTS, and starts the server;
#                           with --tls the server speaks https as localhost with a certificate
#                           of a throw-away authority, $T/tls/ca.pem (lib/make_tls.sh)
#   make_suite SUITE [make_repo.py options]   (re)builds one suite, signed with KEY
#   set_sources SUITE...    one deb822 entry naming the suites
#   misbehave JSON          the server's misbehaviours (see update_server.py)
#   run_update [ARGS]       aptus update; sets OUT, ERR, RC
#   lists_digest            a digest of everything in the lists dir (lock and partial/ excepted)
#   debs_match PACKAGES     every Filename in a stored Packages file, fetched from the
#                           server, is a .deb of that Size, SHA256, Package and Version
#   check COND MESSAGE      counts a failure when COND (a command) fails
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LC_ALL=C
failures=0

update_setup() {
    local tools="gpg python3 dpkg-deb apt-ftparchive" tls=()
    [ "${1:-}" = --tls ] && tools+=" openssl"
    for tool in $tools; do
        command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 0; }
    done
    T=$(mktemp -d /tmp/aptus-update.XXXXXX)
    trap 'update_teardown' EXIT
    if [ "${1:-}" = --tls ]; then
        source "$LIB/make_tls.sh"
        make_tls "$T/tls" "DNS:localhost" || { echo "FAIL: openssl could not make the test certificates"; exit 1; }
        tls=("$T/tls/server.pem" "$T/tls/server.key")
    fi
    export GNUPGHOME=$T/gnupg
    mkdir -m 700 "$GNUPGHOME"
    gpg --batch --quiet --passphrase '' --quick-gen-key 'aptus test key <test@example.org>' ed25519 sign never 2>/dev/null
    KEY=$(gpg --batch --with-colons --list-keys 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
    KEYRING=$T/test-keyring.gpg
    gpg --batch --export "$KEY" >"$KEYRING"
    REPO=$T/repo
    mkdir -p "$REPO"
    echo '{}' >"$T/control"
    : >"$T/requests"
    python3 "$LIB/update_server.py" "$REPO" "$T/control" "$T/requests" "${tls[@]}" >"$T/server-url" 2>"$T/server-err" &
    SERVER_PID=$!
    for _ in $(seq 50); do [ -s "$T/server-url" ] && break; sleep 0.1; done
    URL=$(head -1 "$T/server-url")
    [ -n "$URL" ] || { echo "FAIL: the test server did not start"; cat "$T/server-err"; exit 1; }
    SB=$T/sb
    LISTS=$SB/var/lib/apt/lists
    mkdir -p "$SB/etc/apt/sources.list.d" "$SB/etc/apt/apt.conf.d" "$SB/etc/apt/preferences.d" \
        "$SB/etc/apt/trusted.gpg.d" "$SB/var/lib/dpkg" "$LISTS" "$T/cache"
    : >"$SB/var/lib/dpkg/status"
    cat >"$SB/apt.conf" <<CONF
Dir "$SB/";
Dir::State::status "$SB/var/lib/dpkg/status";
Dir::Cache "$T/cache";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages { "none"; };
Acquire::Retries "0";
// apt's warning to scripts, as APT's own tests turn it off (one test checks it).
Apt::Cmd::Disable-Script-Warning "true";
CONF
    export APT_CONFIG=$SB/apt.conf
}

update_teardown() {
    [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$T"
}

make_suite() {
    local suite=$1 before=0 rc f
    shift
    # The newest of the suite's Release files (a suite may have no InRelease).
    for f in InRelease Release; do
        [ -e "$REPO/dists/$suite/$f" ] && [ "$(stat -c %Y "$REPO/dists/$suite/$f")" -gt "$before" ] &&
            before=$(stat -c %Y "$REPO/dists/$suite/$f")
    done
    python3 "$LIB/make_repo.py" "$REPO" "$suite" --gnupghome "$GNUPGHOME" --key "$KEY" "$@"
    rc=$?
    # A rebuild within the second of the last one would be Not Modified to
    # If-Modified-Since (the server's times have whole seconds): its Release
    # files get a time later than the last ones had.
    if [ "$rc" = 0 ] && [ "$(stat -c %Y "$REPO/dists/$suite/Release" 2>/dev/null || echo 0)" -le "$before" ]; then
        touch -c -d "@$((before + 1))" "$REPO/dists/$suite/InRelease" "$REPO/dists/$suite/Release"
    fi
    return $rc
}

set_sources() {
    {
        echo "Types: deb"
        echo "URIs: $URL"
        echo "Suites: $*"
        echo "Components: main"
        echo "Signed-By: $KEYRING"
    } >"$SB/etc/apt/sources.list.d/test.sources"
}

misbehave() { echo "$1" >"$T/control"; }

# The start of a test that needs a few packages and no more: the server, a
# suite "stable" with PACKAGES (name=version,...) as the only source, updated.
updated_repo() {
    update_setup
    make_suite stable --packages "$1" >/dev/null
    set_sources stable
    run_update
    check "update exits 0 ($ERR)" test "$RC" = 0
}

run_update() {
    "$APTUS" update "$@" >"$T/out" 2>"$T/err"
    RC=$?
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
}

lists_digest() {
    (cd "$LISTS" && find . -path ./partial -prune -o -type f ! -name lock -print0 | sort -z |
        xargs -0 -r sha256sum | sha256sum)
}

debs_match() {
    T=$T python3 - "$1" "$URL" <<'PY'
import hashlib, os, ssl, subprocess, sys, tempfile, urllib.request
packages, url = sys.argv[1], sys.argv[2]
ca = os.path.join(os.environ["T"], "tls", "ca.pem")
tls = ssl.create_default_context(cafile=ca) if os.path.exists(ca) else None
stanzas = [dict(line.split(": ", 1) for line in p.splitlines() if line[:1] not in ("", " "))
           for p in open(packages).read().split("\n\n") if p.strip()]
if not stanzas:
    sys.exit(f"no stanza in {packages}")
for s in stanzas:
    data = urllib.request.urlopen(f"{url}/{s['Filename']}", context=tls).read()
    if len(data) != int(s["Size"]) or hashlib.sha256(data).hexdigest() != s["SHA256"]:
        sys.exit(f"{s['Filename']}: {len(data)} bytes, SHA256 {hashlib.sha256(data).hexdigest()}; "
                 f"Packages says {s['Size']}, {s['SHA256']}")
    with tempfile.NamedTemporaryFile(suffix=".deb") as f:
        f.write(data)
        f.flush()
        fields = subprocess.run(["dpkg-deb", "-f", f.name, "Package", "Version"], check=True,
                                capture_output=True, text=True).stdout.split()
    if fields != ["Package:", s["Package"], "Version:", s["Version"]]:
        sys.exit(f"{s['Filename']}: the .deb says {fields}, Packages says {s['Package']} {s['Version']}")
PY
}

check() {
    local message=$1
    shift
    if ! "$@"; then
        echo "FAIL: $message"
        echo "--- stdout:"; echo "$OUT"
        echo "--- stderr:"; echo "$ERR"
        echo "--- last requests:"; tail -n 5 "$T/requests"
        failures=$((failures + 1))
    fi
}

contains() { grep -qF -- "$2" <<<"$1"; }
not_contains() { ! grep -qF -- "$2" <<<"$1"; }
# The whole text, lines and all, in order (grep -F takes each line of a
# pattern as a pattern of its own, so contains() matches any one of them).
has_text() { [[ "$1" == *"$2"* ]]; }

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures failure(s)"
        exit 1
    fi
    echo "PASS"
}
