#!/bin/bash
# The automatic pager through a real pseudo-terminal: see pager_pty.py. The
# outer timeout is a last resort; every run inside has its own deadline.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 not installed"
    exit 0
fi
export APTUS
exec timeout -k 10 300 python3 "$(dirname "$0")/pager_pty.py"
