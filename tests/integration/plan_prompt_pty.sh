#!/bin/bash
# APT 3.0's plan display and "Continue? [Y/n]" through a real pseudo-terminal
# and through pipes: see plan_prompt_pty.py.
source "$(dirname "$0")/lib/run_pty_test.sh"
run_pty_test plan_prompt_pty
