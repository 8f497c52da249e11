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

# The start every compare-with-apt script shares: SKIP without apt, a scratch
# dir $T (named after NAME) removed on exit, the C locale, the shared sandbox
# of STATUS as $S and its APT_CONFIG, a cache dir for each tool, and no
# failures yet.
vs_apt_setup() {
    local name=$1 status=${2:-server}
    APTUS=${APTUS:?set APTUS to the aptus binary}
    if ! command -v apt >/dev/null; then echo "SKIP: apt not installed"; exit 0; fi
    T=$(mktemp -d "/tmp/aptus-$name.XXXXXX")
    trap 'rm -rf "$T"' EXIT
    export LC_ALL=C
    shared_sandbox "$status"
    S=$ROOT
    export APT_CONFIG=$S/apt.conf
    mkdir -p "$T/apt-cache" "$T/aptus-cache"
    failures=0
}
