#!/bin/bash
# The second front end of examples/ (install_and_undo, built on
# include/aptus alone) against a signed loopback repository and real dpkg in
# a sandbox root: it installs a package with its dependency, printing its
# own progress, then undoes that from the history log; dpkg's database and
# apt's state agree at each step, and a name that names nothing fails with
# the library's error, not a crash.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
EXAMPLE=${APTUS_BUILD_DIR:-$(dirname "$APTUS")}/examples/install_and_undo
[ -x "$EXAMPLE" ] || { echo "FAIL: $EXAMPLE not built"; exit 1; }

spec "libgreet|1.0" "greeter|2.0|Depends=libgreet (>= 1.0)" >"$T/spec.json"
install_suite stable "$T/spec.json"

run_example() {
    "$EXAMPLE" "$@" >"$T/out" 2>"$T/err"
    RC=$?
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
}
run_example greeter
check "the example exits 0" test "$RC" = 0
check "it shows its plan: greeter" contains "$OUT" "install greeter 2.0"
check "it shows its plan: libgreet automatic" contains "$OUT" "install libgreet 1.0 (automatic)"
check "it prints its own download lines" contains "$OUT" "fetched "
check "it prints dpkg's progress" contains "$OUT" "%] "
check "it undoes: greeter goes" contains "$OUT" "remove  greeter 2.0"
check "greeter is not installed after the undo" test -z "$(installed greeter)"
check "libgreet is not installed after the undo" test -z "$(installed libgreet)"
history=$(cat "$SB/var/log/apt/history.log")
check "history: the example's command line" contains "$history" "Commandline: install_and_undo greeter"
check "history: the install" contains "$(grep '^Install:' <<<"$history")" "libgreet:amd64 (1.0, automatic)"
check "history: the undo" contains "$(grep '^Remove:' <<<"$history")" "greeter:amd64 (2.0)"

run_example no-such-package
check "a name that names nothing fails (exit $RC)" test "$RC" = 1
check "with apt's error" contains "$OUT" "cannot: Unable to locate package no-such-package"
finish
