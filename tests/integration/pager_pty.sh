#!/bin/bash
# The automatic pager through a real pseudo-terminal: see pager_pty.py.
source "$(dirname "$0")/lib/run_pty_test.sh"
run_pty_test pager_pty
