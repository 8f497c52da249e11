#!/bin/bash
# Error, warning and notice lines on a terminal and in a pipe: see
# messages_pty.py.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 not installed"
    exit 0
fi
export APTUS
exec timeout -k 10 300 python3 "$(dirname "$0")/messages_pty.py"
