#!/bin/bash
# apt-get's solving where it is not solver3's, on a loopback repository:
# - apt-get upgrade --with-new-pkgs (apt's classic solver) takes an
#   or-group's first alternative or keeps the upgrade back; it never falls
#   to a later alternative (solver3, --solver 3.0, does);
# - one version string in two stanzas with other Depends or Breaks is two
#   versions (apt's version hash): the archive's stanza of the installed
#   version string, with other Breaks, is an upgrade, not a reinstall.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
BIN=$T/bin
mkdir -p "$BIN"
for name in apt-get apt; do ln -s "$APTUS" "$BIN/$name"; done

run() {
    "$@" >"$T/out" 2>&1 </dev/null
    RC=$?
    OUT=$(cat "$T/out") ERR=""
}

spec "starter|1|Architecture=all" "blocker|1|Architecture=all" "plain|1|Architecture=all" >"$T/spec1.json"
install_suite stable "$T/spec1.json"
run "$BIN/apt-get" install -y starter blocker plain
check "install starter blocker plain (rc $RC): $OUT" test "$(installed starter)" = 1

spec "starter|2|Architecture=all|Pre-Depends=first-alt ~ second-alt" "blocker|1|Architecture=all" \
    "first-alt|2|Architecture=all|Conflicts=blocker" "second-alt|2|Architecture=all" \
    "plain|2|Architecture=all" >"$T/spec2.json"
install_suite stable "$T/spec2.json"
run "$BIN/apt-get" upgrade -s --with-new-pkgs
check "upgrade --with-new-pkgs (rc $RC) keeps starter back: $OUT" has_text "$OUT" "The following packages have been kept back:
  starter"
check "and installs no second alternative: $OUT" not_contains "$OUT" "Inst second-alt"
check "plain is upgraded: $OUT" contains "$OUT" "Inst plain [1] (2 "
run "$BIN/apt-get" upgrade -s --with-new-pkgs --solver 3.0
check "solver3 takes the second alternative (rc $RC): $OUT" contains "$OUT" "Inst second-alt"

spec "starter|1|Architecture=all" "blocker|1|Architecture=all" \
    "plain|1|Architecture=all|Breaks=plain-old" >"$T/spec3.json"
install_suite stable "$T/spec3.json"
run "$BIN/apt-get" upgrade -s
check "upgrade (rc $RC): plain 1 with other Breaks is an upgrade of plain 1: $OUT" contains "$OUT" "Inst plain [1] (1 aptus-test:stable [all])"
check "and counted as one: $OUT" contains "$OUT" "1 upgraded, 0 newly installed, 0 to remove"

finish
