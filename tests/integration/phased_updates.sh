#!/bin/bash
# Phased updates (Phased-Update-Percentage) on a loopback repository and
# real dpkg, as APT 3.0 treats them:
# - policy marks every phased version "(phased N%)"; with
#   APT::Get::Phase-Policy one this machine does not take yet has
#   priority 1 and stops being the candidate;
# - upgrade and full-upgrade defer it ("Not upgrading yet due to phasing:",
#   apt-get's "The following upgrades have been deferred due to phasing:"),
#   and keep back what needs it, while an explicit install takes it;
# - Always-Include takes it, a chroot takes it, and a version between the
#   installed one and the candidate in a -security suite lifts the deferral.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
BIN=$T/bin
mkdir -p "$BIN"
ln -s "$APTUS" "$BIN/apt-get"

run() {
    "$@" >"$T/out" 2>&1 </dev/null
    RC=$?
    OUT=$(cat "$T/out")
}

# A fixed machine and no chroot, whatever the host is: a percentage of 0
# leaves every machine out, so the draw does not matter here.
cat >>"$SB/apt.conf" <<CONF
APT::Machine-ID "912e43bd1c1d4ba481f9f8ccab25f9ee";
Dir::Bin::ischroot "/bin/false";
CONF

spec "pa|1.0" "pb|1.0" "needs-pa|1.0" "ps|1.0" >"$T/spec1.json"
install_suite stable "$T/spec1.json"
aptus_run install -y pa pb needs-pa ps
check "install the first versions (rc $RC): $ERR" test "$RC" = 0

spec "pa|2.0|Phased-Update-Percentage=0" "pb|2.0" "needs-pa|2.0|Depends=pa (>= 2.0)" \
    "ps|3.0|Phased-Update-Percentage=0" >"$T/spec2.json"
make_suite stable --spec "$T/spec2.json" >/dev/null || { echo "FAIL: make_repo.py"; exit 1; }
spec "ps|2.0" >"$T/spec3.json"
make_suite stable-security --spec "$T/spec3.json" >/dev/null || { echo "FAIL: make_repo.py"; exit 1; }
set_sources stable stable-security
aptus_run update -q
check "update (rc $RC): $ERR" test "$RC" = 0

aptus_run policy pa
check "policy shows the phase after the priority: $OUT" contains "$OUT" "  Candidate: 2.0
  Version table:
     2.0 500 (phased 0%)"
aptus_run policy pa -o APT::Get::Phase-Policy=1
check "Phase-Policy: priority 1, the installed version stays the candidate: $OUT" contains "$OUT" "  Candidate: 1.0
  Version table:
     2.0 1 (phased 0%)"
aptus_run policy pa -o APT::Get::Phase-Policy=1 -o APT::Get::Always-Include-Phased-Updates=1
check "Phase-Policy with Always-Include: 500 again: $OUT" contains "$OUT" "     2.0 500 (phased 0%)"
aptus_run policy pb
check "an unphased version has no mark: $OUT" not_contains "$OUT" "phased"

aptus_run upgrade -s
check "upgrade -s (rc $RC): $ERR" test "$RC" = 0
check "upgrade defers pa, keeps needs-pa back: $OUT" contains "$OUT" "Upgrading:
  pb  ps

Not upgrading yet due to phasing:
  pa

Not upgrading:
  needs-pa

Summary:
  Upgrading: 2, Installing: 0, Removing: 0, Not Upgrading: 2"
check "ps goes to 3.0: its 2.0 is a security update: $OUT" contains "$OUT" "Inst ps [1.0] (3.0 "
aptus_run full-upgrade -s
check "full-upgrade defers it too: $OUT" contains "$OUT" "Not upgrading yet due to phasing:
  pa"

run "$BIN/apt-get" upgrade -s
check "apt-get's words for it: $OUT" contains "$OUT" "The following upgrades have been deferred due to phasing:
  pa
The following packages have been kept back:
  needs-pa
The following packages will be upgraded:
  pb ps
2 upgraded, 0 newly installed, 0 to remove and 2 not upgraded."
# For real, declined on an empty stdin: apt's note before apt-get's question.
run "$BIN/apt-get" upgrade -o quiet=0
check "apt-get upgrade, declined (rc $RC)" test "$RC" = 1
check "the phasing note, then apt-get's question: $OUT" has_text "$OUT" "N: Some packages may have been kept back due to phasing.
Do you want to continue? [Y/n] Abort."

for always in APT::Get::Always-Include-Phased-Updates Update-Manager::Always-Include-Phased-Updates; do
    aptus_run upgrade -s -o $always=1
    check "$always takes it: $OUT" contains "$OUT" "Upgrading:
  needs-pa  pa  pb  ps"
done
aptus_run upgrade -s -o Dir::Bin::ischroot=/bin/true
check "a chroot takes it: $OUT" not_contains "$OUT" "phasing"

aptus_run upgrade -s needs-pa
check "upgrade naming a package takes the deferred upgrade it needs (rc $RC): $OUT $ERR" contains "$OUT" "Upgrading:
  needs-pa  pa  pb  ps"

aptus_run install -s pa
check "an explicit install takes the phased version: $OUT" contains "$OUT" "Inst pa [1.0] (2.0 "

aptus_run upgrade -y
check "upgrade -y (rc $RC): $ERR" test "$RC" = 0
check "pa stays at 1.0" test "$(installed pa)" = "1.0"
check "pb is at 2.0" test "$(installed pb)" = "2.0"
check "needs-pa stays at 1.0" test "$(installed needs-pa)" = "1.0"

finish
