#!/bin/bash
# APT 3.0's plan display and "Continue? [Y/n]" through a real pseudo-terminal
# and through pipes: see plan_prompt_pty.py. The outer timeout is a last
# resort; every run inside has its own deadline.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 not installed"
    exit 0
fi
export APTUS
exec timeout -k 10 300 python3 "$(dirname "$0")/plan_prompt_pty.py"
