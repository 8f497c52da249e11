#!/bin/bash
# `--solver NAME` (APT::Solver) runs an external EDSP solver, as APT 3.0
# does: the program NAME from Dir::Bin::Solvers gets the scenario on stdin
# and its answer becomes the plan. Checked against solvers written here
# (a fixed answer that is not what aptus would choose, so the plan must
# follow the answer; an Install+Remove answer; Error answers; a crash;
# garbage), against aptus-solver as the external solver (the same plan as
# the internal one), the built-in `dump`, apt's own solvers where apt is
# installed, and the errors for a name found nowhere.
source "$(dirname "$0")/lib/install_repo.sh"
SOLVER_BIN=${APTUS_SOLVER:-${APTUS_BUILD_DIR:?set APTUS_BUILD_DIR}/aptus-solver}
[ -x "$SOLVER_BIN" ] || { echo "FAIL: $SOLVER_BIN is not built"; exit 1; }
install_setup

spec "hello|1.0" "other|2.0" "dep|1.0" "needy|1.0|Depends=dep" "lonely|1.0" >"$T/spec.json"
install_suite stable "$T/spec.json"
aptus_run install -y needy lonely
check "setup: needy and lonely are installed (rc $RC)" test "$(installed needy)/$(installed lonely)" = "1.0/1.0"

S=$T/solvers
mkdir -p "$S" "$T/empty"
echo "Dir::Bin::Solvers { \"$S\"; };" >"$SB/etc/apt/apt.conf.d/50solvers"

# The APT-ID of PACKAGE in the scenario on stdin (the scenario is read whole).
cat >"$T/id-of.awk" <<'AWK'
/^Package: / { pkg = substr($0, 10) }
/^APT-ID: / && pkg == want { print substr($0, 9); exit }
AWK
solver() {  # solver NAME BODY: a solver program NAME that runs BODY with the scenario in $scenario
    printf '#!/bin/sh\nscenario=$(cat)\nid_of() { printf "%%s\\n" "$scenario" | awk -v want="$1" -f %s; }\n%s\n' \
        "$T/id-of.awk" "$2" >"$S/$1"
    chmod +x "$S/$1"
}

# (a) a fixed answer: whatever is asked, install `other`. The plan must be that.
solver fixed 'printf "Progress: now\nPercentage: 0\n\nInstall: %s\n\n" "$(id_of other)"'
aptus_run -s install hello --solver fixed
check "fixed: exit 0 (rc $RC)" test "$RC" = 0
check "fixed: apt's progress line" contains "$OUT" "Execute external solver..."
check "fixed: the plan installs what the solver said" contains "$OUT" "Inst other (2.0 "
check "fixed: and not what aptus would have" eval '! grep -q "^Inst hello" <<<"$OUT"'
check "fixed: nothing else" test "$(grep -c '^Inst ' <<<"$OUT")" = 1
check "fixed: -s's Conf line" contains "$OUT" "Conf other (2.0 "

# An answer with Install and Remove: the removed package goes, and what it
# alone needed is listed as no longer required.
solver swap 'printf "Install: %s\n\nRemove: %s\n\n" "$(id_of hello)" "$(id_of needy)"'
aptus_run -s install hello --solver swap
check "swap: exit 0 (rc $RC)" test "$RC" = 0
check "swap: hello is installed" contains "$OUT" "Inst hello (1.0 "
check "swap: needy is removed" contains "$OUT" "Remv needy [1.0]"
check "swap: dep is no longer required" contains "$OUT" "automatically installed and is no longer required"
check "swap: lonely stays" eval '! grep -q "Remv lonely" <<<"$OUT"'
# --auto-remove: what is no longer required goes too.
aptus_run -s install hello --solver swap --auto-remove
check "swap --auto-remove: dep is removed too" contains "$OUT" "Remv dep [1.0]"
# upgrade: apt's progress line stands for "Calculating upgrade".
aptus_run -s upgrade --solver fixed
check "upgrade: Execute external solver, not Calculating upgrade" \
    eval 'grep -q "^Execute external solver" <<<"$OUT" && ! grep -q "Calculating upgrade" <<<"$OUT"'

# (b) an Error answer: apt's report on stderr, its first line as the E:, exit 100.
solver refuses 'printf "Error: ERR_TEST_REFUSED\nMessage: No way today.\n Try again tomorrow.\n .\n Really.\n\n"'
aptus_run -s install hello --solver refuses
check "refuses: exit 100 (rc $RC)" test "$RC" = 100
check "refuses: progress line on stdout" contains "$OUT" "Execute external solver..."
check "refuses: the error type" contains "$ERR" "The solver encountered an error of type: ERR_TEST_REFUSED"
check "refuses: the whole message, its empty line kept" \
    contains "$ERR" "$(printf 'No way today.\nTry again tomorrow.\n\nReally.')"
check "refuses: the E: line" test "$(grep '^E: ' <<<"$ERR")" = "E: External solver failed with: No way today."
check "refuses: no plan" eval '! grep -q "^Inst " <<<"$OUT"'
# The same answer with exit 1: both errors.
solver refuses1 'printf "Error: ERR_TEST_REFUSED\nMessage: No way today.\n\n"; exit 1'
aptus_run -s install hello --solver refuses1
check "refuses1: both E: lines" test "$(grep '^E: ' <<<"$ERR")" = \
    "$(printf 'E: External solver failed with: No way today.\nE: Sub-process refuses1 returned an error code (1)')"
# Exit 1 without a word; exit 0 with garbage; an APT-ID the scenario does not hold; a crash.
solver silent 'exit 1'
aptus_run -s install hello --solver silent
check "silent: exit 100 (rc $RC)" test "$RC" = 100
check "silent: the exit code named" test "$ERR" = "E: Sub-process silent returned an error code (1)"
solver garbage 'echo "this is no EDSP answer"'
aptus_run -s install hello --solver garbage
check "garbage: exit 100 (rc $RC)" test "$RC" = 100
check "garbage: a clear error" contains "$ERR" "E: External solver answered no EDSP:"
solver badid 'printf "Install: 987654321\n\n"'
aptus_run -s install hello --solver badid
check "badid: exit 100 (rc $RC)" test "$RC" = 100
check "badid: the id named" contains "$ERR" "APT-ID '987654321', which the scenario does not hold"
solver twice 'printf "Install: %s\n\nRemove: %s\n\n" "$(id_of hello)" "$(id_of hello)"'
aptus_run -s install hello --solver twice
check "twice: exit 100 (rc $RC)" test "$RC" = 100
check "twice: apt's complaint" contains "$ERR" "(had a previous stanza for the package)"
solver broken 'printf "Remove: %s\n\n" "$(id_of dep)"'
aptus_run -s install hello --solver broken
check "broken answer (needy loses dep): exit 100 (rc $RC)" test "$RC" = 100
check "broken answer: said so" contains "$ERR" "leaves broken packages"
solver crash 'kill -SEGV $$'
aptus_run -s install hello --solver crash
check "crash: exit 100 (rc $RC)" test "$RC" = 100
check "crash: said so" contains "$ERR" "Sub-process crash received a segmentation fault."
# A solver that reads nothing and answers at once (aptus must not die of SIGPIPE).
printf '#!/bin/sh\nexec 0<&-\nprintf "Install: 1\\n\\n" >/dev/null\nexit 3\n' >"$S/deaf"
chmod +x "$S/deaf"
aptus_run -s install hello --solver deaf
check "deaf: exit 100, not a signal (rc $RC)" test "$RC" = 100
check "deaf: the exit code named" test "$ERR" = "E: Sub-process deaf returned an error code (3)"

# (c) aptus's own solver program as the external solver: the internal plan.
cp "$SOLVER_BIN" "$S/aptus-ext"
aptus_run -s install hello other --solver internal
check "internal: exit 0 (rc $RC)" test "$RC" = 0
check "internal: no external solver" eval '! grep -q "Execute external solver" <<<"$OUT"'
grep -E '^(Inst|Conf|Remv) ' "$T/out" >"$T/internal.lines"
aptus_run -s install hello other --solver aptus-ext
check "aptus-ext: exit 0 (rc $RC)" test "$RC" = 0
grep -E '^(Inst|Conf|Remv) ' "$T/out" >"$T/external.lines"
check "aptus-ext: the same plan as --solver internal" cmp -s "$T/internal.lines" "$T/external.lines"
check "aptus-ext: a plan at all" test -s "$T/external.lines"
aptus_run -s remove needy --solver aptus-ext
check "aptus-ext remove needy: removed, dep no longer required" \
    eval 'grep -q "^Remv needy" <<<"$OUT" && grep -q "no longer required" <<<"$OUT"'
aptus_run -s install hello lonely- --solver aptus-ext -o Dir::Log::Solver="$T/logged.edsp"
check "aptus-ext: Dir::Log::Solver holds the scenario the solver was given" \
    eval 'grep -qx "Solver: aptus-ext" "$T/logged.edsp" && grep -qx "Remove: lonely:amd64" "$T/logged.edsp"'
aptus_run -s install hello --solver refuses -o Dir::Log::Solver="$T/refused.edsp"
check "refuses: no Dir::Log::Solver file for a failed run" test ! -e "$T/refused.edsp"

# (d) `dump` with no dump program in Dir::Bin::Solvers: built in, as apt's.
export APT_EDSP_DUMP_FILENAME=$T/dump.edsp
aptus_run -s install hello --solver dump
check "dump: exit 100 (rc $RC)" test "$RC" = 100
check "dump: apt's E: line" test "$(grep '^E: ' <<<"$ERR")" = "E: External solver failed with: I am too dumb, i can just dump!"
check "dump: ERR_JUST_DUMPING" contains "$ERR" "error of type: ERR_JUST_DUMPING"
check "dump: the scenario is written" test -s "$APT_EDSP_DUMP_FILENAME"
check "dump: its request" eval 'grep -qx "Request: EDSP 0.5" "$APT_EDSP_DUMP_FILENAME" && grep -qx "Install: hello:amd64" "$APT_EDSP_DUMP_FILENAME" && grep -qx "Solver: dump" "$APT_EDSP_DUMP_FILENAME"'
check "dump: aptus-solver solves the dumped scenario" eval '"$SOLVER_BIN" <"$APT_EDSP_DUMP_FILENAME" | grep -q "^Install: "'
APT_EDSP_DUMP_FILENAME=$T/no/such/dir/dump.edsp aptus_run -s install hello --solver dump
check "dump to a missing dir: ERR_CREATE_FILE" contains "$ERR" "ERR_CREATE_FILE"
unset APT_EDSP_DUMP_FILENAME
aptus_run -s install hello --solver dump
check "dump without APT_EDSP_DUMP_FILENAME: ERR_NO_FILENAME" contains "$ERR" "error of type: ERR_NO_FILENAME"

# A name found nowhere; the list of directories is searched in order.
aptus_run -s install hello --solver nosuch
check "nosuch: exit 100 (rc $RC)" test "$RC" = 100
check "nosuch: apt's error" test "$ERR" = "E: Can't call external solver 'nosuch' as it is not in a configured directory!"
echo "Dir::Bin::Solvers { \"$T/empty\"; \"$S\"; };" >"$SB/etc/apt/apt.conf.d/50solvers"
aptus_run -s install hello --solver fixed
check "a later directory of the list: found (rc $RC)" contains "$OUT" "Inst other (2.0 "
mkdir -p "$T/first"
printf '#!/bin/sh\nexit 7\n' >"$T/first/fixed"
chmod +x "$T/first/fixed"
echo "Dir::Bin::Solvers { \"$T/first\"; \"$S\"; };" >"$SB/etc/apt/apt.conf.d/50solvers"
aptus_run -s install hello --solver fixed
check "the first directory holding the name wins" test "$ERR" = "E: Sub-process fixed returned an error code (7)"
# As apt's FindVector: a plain value is a comma-separated list, and it
# replaces the built-in list item /usr/lib/apt/solvers (APT's tests set it so).
echo "Dir::Bin::Solvers \"$T/empty,$S\";" >"$SB/etc/apt/apt.conf.d/50solvers"
aptus_run -s install hello --solver fixed
check "a plain value is a comma-separated list (rc $RC)" contains "$OUT" "Inst other (2.0 "
if [ -e /usr/lib/apt/solvers/dump ]; then
    echo "Dir::Bin::Solvers \"$T/empty\";" >"$SB/etc/apt/apt.conf.d/50solvers"
    APT_EDSP_DUMP_FILENAME=$T/no/dir/x.edsp aptus_run -s install hello --solver dump
    check "a plain value: /usr/lib/apt/solvers/dump is not used, the built-in one is" contains "$ERR" "failed: No such file or directory"
fi

# apt's own solver programs, where apt is installed: they read aptus's scenario.
if [ -x /usr/lib/apt/solvers/dump ] && [ -x /usr/lib/apt/solvers/apt ]; then
    echo "Dir::Bin::Solvers { \"$T/empty\"; \"/usr/lib/apt/solvers\"; };" >"$SB/etc/apt/apt.conf.d/50solvers"
    export APT_EDSP_DUMP_FILENAME=$T/apt-dump.edsp
    aptus_run -s install hello --solver dump
    check "apt's dump: apt's E: line (rc $RC)" contains "$ERR" "E: External solver failed with: I am too dumb, i can just dump!"
    check "apt's dump: the scenario is written" test -s "$APT_EDSP_DUMP_FILENAME"
    unset APT_EDSP_DUMP_FILENAME
    aptus_run -s install hello --solver apt
    check "apt's solver: exit 0 (rc $RC)" test "$RC" = 0
    check "apt's solver: hello installed" contains "$OUT" "Inst hello (1.0 "
else
    echo "note: apt's solver programs not installed, not tried"
fi

finish
