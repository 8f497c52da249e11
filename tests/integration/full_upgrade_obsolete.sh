#!/bin/bash
# What a full upgrade may remove (README): a manually installed library
# whose source now builds its successor (libfoo1 -> libfoo1t64) goes on
# full-upgrade, and the plan says why; upgrade removes nothing; real dpkg in
# a sandbox root, a signed loopback archive. --solver 3.0 keeps solver3's
# stricter rule: the manual library stays.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

spec "libfoo1|1|Source=foo (1)" "app|1|Depends=libfoo1" >"$T/spec1.json"
install_suite stable "$T/spec1.json"
aptus_run install -y app libfoo1
check "app and libfoo1 installed ($ERR)" test "$(installed libfoo1)" = 1

# The transition: foo 2 builds libfoo1t64 (which Breaks libfoo1), and app 2 needs it.
spec "libfoo1|1|Source=foo (1)" "libfoo1t64|2|Source=foo (2)|Breaks=libfoo1 (<< 2)|Replaces=libfoo1 (<< 2)" "app|2|Depends=libfoo1t64" >"$T/spec2.json"
install_suite stable "$T/spec2.json"
aptus_run upgrade -s
check "upgrade removes nothing" not_contains "$OUT" "Remv libfoo1"
aptus_run full-upgrade -s
check "full-upgrade exits 0 ($ERR)" test "$RC" = 0
check "the manual, obsolete library goes" contains "$OUT" "Remv libfoo1 [1]"
check "and the plan says why" contains "$OUT" "Removed as obsolete (README: what a full upgrade may remove):
  libfoo1 (replaced by libfoo1t64 2, built from the same source, foo)"
aptus_run full-upgrade --json
check "--json: the removal's obsolete field" test "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print([c.get("obsolete") for c in d["changes"] if c["package"]=="libfoo1"][0])' <<<"$OUT")" = "replaced by libfoo1t64 2, built from the same source, foo"
aptus_run full-upgrade -s --solver 3.0
check "--solver 3.0: solver3's rule keeps the manual library ($ERR)" not_contains "$OUT" "Remv libfoo1"
check "--solver 3.0: and holds back what needs its successor" not_contains "$OUT" "Inst app"
ln -s "$APTUS" "$T/apt-get"
OUT=$("$T/apt-get" full-upgrade -s 2>&1)
check "apt-get keeps apt's layout (no block of aptus's own)" not_contains "$OUT" "Removed as obsolete"
aptus_run full-upgrade -y
check "full-upgrade -y exits 0 ($ERR)" test "$RC" = 0
check "libfoo1t64 installed" test "$(installed libfoo1t64)" = 2
check "libfoo1 removed" test -z "$(installed libfoo1)"
finish
