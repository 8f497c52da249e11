# Sourced by the integration tests that compare aptus with real apt on the
# real Debian lists: sets ROOT to the make-sandbox tree of this build
# directory (status "server"), made once under the same lock the unit tests'
# test::real_sandbox() takes, and shared read-only by every test. Exits the
# test with SKIP when the shared data or the tool is missing, FAIL when the
# tool fails.
shared_sandbox() {
    local status=${1:-server}
    local data=${APTUS_DATA_DIR:-}
    local build=${APTUS_BUILD_DIR:?set APTUS_BUILD_DIR}
    local tool=$data/../tools/make-sandbox
    if [ -z "$data" ] || [ ! -x "$tool" ]; then echo "SKIP: real data or make-sandbox not found"; exit 0; fi
    ROOT=$build/test-sandboxes/$status
    mkdir -p "$build/test-sandboxes"
    (
        flock 9
        [ -e "$ROOT/.complete" ] || { "$tool" "$ROOT" --status "$status" >/dev/null && echo ok >"$ROOT/.complete"; }
    ) 9>"$ROOT.lock"
    [ -e "$ROOT/.complete" ] || { echo "FAIL: could not make the sandbox $ROOT"; exit 1; }
}

# The start of a compare-with-apt script on a sandbox of its own: SKIP
# without apt, a scratch dir $T (named after NAME) removed on exit, the C
# locale, a cache dir for each tool, and no failures yet.
vs_apt_start() {
    local name=$1
    APTUS=${APTUS:?set APTUS to the aptus binary}
    if ! command -v apt >/dev/null; then echo "SKIP: apt not installed"; exit 0; fi
    T=$(mktemp -d "/tmp/aptus-$name.XXXXXX")
    trap 'rm -rf "$T"' EXIT
    export LC_ALL=C
    mkdir -p "$T/apt-cache" "$T/aptus-cache"
    failures=0
}

# The start every compare-with-apt script on the shared sandbox shares:
# vs_apt_start, then the shared sandbox of STATUS as $S and its APT_CONFIG.
vs_apt_setup() {
    local name=$1 status=${2:-server}
    vs_apt_start "$name"
    shared_sandbox "$status"
    S=$ROOT
    export APT_CONFIG=$S/apt.conf
}

# vs_apt_verdict LABEL: one case, from what the two tools left: the exit
# codes $apt_rc and $aptus_rc, $T/apt.out and $T/aptus.out, $T/apt.err and
# $T/aptus.err must be the same. Counts the case in $checked and, when
# anything differs, in $failures, with a FAIL line for each difference.
vs_apt_verdict() {
    local ok=1
    checked=$((checked + 1))
    if [ $apt_rc -ne $aptus_rc ]; then echo "FAIL $1: exit code apt=$apt_rc aptus=$aptus_rc"; ok=0; fi
    if ! cmp -s "$T/apt.out" "$T/aptus.out"; then
        echo "FAIL $1: stdout differs (- apt, + aptus)"; diff -u "$T/apt.out" "$T/aptus.out" | head -40; ok=0
    fi
    if ! diff -u "$T/apt.err" "$T/aptus.err" >"$T/diff"; then
        echo "FAIL $1: stderr differs (- apt, + aptus)"; head -20 "$T/diff"; ok=0
    fi
    [ $ok = 1 ] || failures=$((failures + 1))
}
