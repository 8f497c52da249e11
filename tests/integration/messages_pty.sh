#!/bin/bash
# Error, warning and notice lines on a terminal and in a pipe: see
# messages_pty.py.
source "$(dirname "$0")/lib/run_pty_test.sh"
run_pty_test messages_pty
