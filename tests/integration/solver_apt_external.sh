#!/bin/bash
# Real apt drives aptus-solver, the separate EDSP program, as its external
# solver (apt-get --solver aptus, found through Dir::Bin::Solvers as it would
# be in /usr/lib/apt/solvers/aptus) on the real server sandbox:
# apt checks the answer itself and refuses a broken one. An upgrade must
# give the same plan as apt's own solver; an install must be accepted; the
# impossible requests must fail with aptus's explanation.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
SOLVER=${APTUS_SOLVER:-${APTUS_BUILD_DIR:?set APTUS_BUILD_DIR}/aptus-solver}
[ -x "$SOLVER" ] || { echo "FAIL: $SOLVER is not built"; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v apt-get >/dev/null; then echo "SKIP: apt-get not installed"; exit 0; fi
T=$(mktemp -d /tmp/aptus-solver-external.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
. "$here/lib/sandbox.sh"
shared_sandbox server
export APT_CONFIG=$ROOT/apt.conf
# apt runs the solver as APT::Solver::RunAsUser (_apt): it must reach the program.
chmod 755 "$T"
mkdir -p "$T/solvers" "$T/cache"
# A copy: apt 2.6 answered "not in a configured directory" for a symlink here.
cp "$SOLVER" "$T/solvers/aptus"
apt_get() { apt-get -s -o "Dir::Cache=$T/cache" -o "Dir::Bin::Solvers::=$T/solvers" "$@"; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
plan() { grep -E '^(Inst|Remv) ' "$1" | sed 's/ \[[^]]*\]//' | sort; }

# 1. upgrade: the same plan as apt's own solver.
apt_get upgrade >"$T/internal.out" 2>&1 || fail "apt-get upgrade (internal) failed"
apt_get --solver aptus upgrade >"$T/aptus.out" 2>&1 || { fail "apt-get --solver aptus upgrade failed"; cat "$T/aptus.out"; }
grep -q 'Execute external solver' "$T/aptus.out" || fail "upgrade: apt did not run the external solver"
if ! diff <(plan "$T/internal.out") <(plan "$T/aptus.out") >"$T/diff"; then fail "upgrade plans differ"; head -20 "$T/diff"; fi
echo "upgrade: $(plan "$T/aptus.out" | wc -l) Inst/Remv lines, same as apt's own solver"

# 2. an install from bookworm: apt accepts the answer.
apt_get --solver aptus -t bookworm install postfix >"$T/install.out" 2>&1 || { fail "install postfix failed"; cat "$T/install.out"; }
grep -q '^Inst postfix ' "$T/install.out" || fail "install: no 'Inst postfix' line"
apt_get -t bookworm install postfix >"$T/install-internal.out" 2>&1
echo "install postfix: aptus $(plan "$T/install.out" | wc -l) lines, apt $(plan "$T/install-internal.out" | wc -l) lines"

# 3. two mail transport agents: impossible, explained.
apt_get --solver aptus -t bookworm install postfix exim4-daemon-heavy >"$T/mta.out" 2>&1 && fail "two MTAs: apt-get succeeded"
grep -q 'error of type: ERR_UNSOLVABLE' "$T/mta.out" || fail "two MTAs: no ERR_UNSOLVABLE"
grep -q 'Conflicts mail-transport-agent' "$T/mta.out" || { fail "two MTAs: the conflict is not named"; cat "$T/mta.out"; }

# 4. removing libc6: what must stay (essential or manual) needs it.
apt_get --solver aptus remove libc6 >"$T/libc6.out" 2>&1 && fail "remove libc6: apt-get succeeded"
grep -q 'libc6:amd64 is requested for removal' "$T/libc6.out" || { fail "remove libc6: no explanation"; cat "$T/libc6.out"; }
grep -Eq "(Pre-)?Depends libc6 \(>= " "$T/libc6.out" || fail "remove libc6: the package that needs it is not named"

[ $failures -eq 0 ] && echo "PASS" || { echo "FAIL: $failures check(s)"; exit 1; }
