# Sourced by the wrappers of the Python pseudo-terminal tests: runs
# tests/integration/NAME.py with $APTUS, SKIP without python3. The outer
# timeout is a last resort; every run inside has its own deadline.
run_pty_test() {
    local name=$1
    APTUS=${APTUS:?set APTUS to the aptus binary}
    if ! command -v python3 >/dev/null; then
        echo "SKIP: python3 not installed"
        exit 0
    fi
    export APTUS
    exec timeout -k 10 300 python3 "$(dirname "${BASH_SOURCE[0]}")/../$name.py"
}
