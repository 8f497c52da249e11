#!/bin/bash
# aptus satisfy / apt-get satisfy: relation lists met with real dpkg in a
# sandbox root from a signed loopback archive, side by side with real apt on
# a twin: the packages that meet the relations are manual afterwards and
# what they pull in automatic (as apt marks them); Conflicts remove; arch
# restrictions and build profiles; apt's errors for a bad word, given before
# anything is read.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

spec "libdep|1.0" "dep|1.0|Depends=libdep" "dep|2.0|Depends=libdep" "old|1.0" "profiled|1.0" "other|1.0" >"$T/spec.json"
install_suite stable "$T/spec.json"
aptus_run install -y old
check "old installed" test "$(installed old)" = 1.0
# A manual package stays (solver3's rule); an automatic one may go.
"$APTUS" mark auto old >/dev/null
twin "$T/twin"
APTAPT() { APT_CONFIG=$T/twin/apt.conf "$@"; }

aptus_run satisfy -s "dep (>= 1) [amd64], other [i386]" "profiled <nocheck>" "Conflicts: old"
check "satisfy -s exits 0" test "$RC" = 0
check "dep installed" contains "$OUT" "Inst dep (2.0"
check "its dependency too" contains "$OUT" "Inst libdep (1.0"
check "the Conflicts removes old" contains "$OUT" "Remv old [1.0]"
check "an [i386] alternative does not apply on amd64" not_contains "$OUT" "Inst other"
check "a <nocheck> relation does not apply without the profile" not_contains "$OUT" "Inst profiled"
check "the placeholder is not in the plan" not_contains "$OUT" "satisfy:command-line"
aptus_run satisfy -s "profiled <nocheck>" -P nocheck
check "-P nocheck: the profiled relation applies" contains "$OUT" "Inst profiled (1.0"
OUT=$(DEB_BUILD_PROFILES="nodoc nocheck" "$APTUS" satisfy -s "profiled <nocheck>" 2>&1)
check "DEB_BUILD_PROFILES is the default of the profiles" contains "$OUT" "Inst profiled (1.0"
check "and apt-config shows it as a list" test "$(DEB_BUILD_PROFILES="nodoc nocheck" "$APTUS" config dump --no-empty --format='%v%n' APT::Build-Profiles)" = "nodoc
nocheck"

# apt-get's report when it cannot: what a Conflicts removes is not listed
# (apt's resolver removed it before giving up), only the Depends left unmet.
ln -s "$APTUS" "$T/apt-get"
OUT=$("$T/apt-get" satisfy -s "dep (>= 9)" "Conflicts: old" --solver internal 2>&1)
check "apt-get: the unmet Depends is listed" contains "$OUT" " satisfy:command-line : Depends: dep (>= 9)"
check "apt-get: the Conflicts its resolver met is not" not_contains "$OUT" "Conflicts: old"
OUT=$("$T/apt-get" satisfy -s "dep (>= 9)" --solver 3.0 2>&1)
check "apt-get --solver 3.0: solver3's words" contains "$OUT" "E: Unable to satisfy dependencies. Reached two conflicting decisions:
   1. satisfy:command-line:amd64=1 is selected for install
   2. satisfy:command-line:amd64 Depends dep (>= 9)
      but none of the choices are installable:
      [no choices]"

# --json without a plan: the error and the solver's facts as data, the exit status kept.
aptus_run satisfy --json "dep (>= 9)"
check "unsolvable --json exits 100 (rc $RC)" test "$RC" = 100
check "unsolvable --json: solved false, kind unsolvable, facts: $OUT" test "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["schema_version"], d["solved"], d["error"]["kind"], len(d["facts"]) > 0)' <<<"$OUT")" = "1 False unsolvable True"
aptus_run install --json nosuch-package
check "a word naming nothing --json: kind request (rc $RC): $OUT" test "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["error"]["kind"], d["error"]["message"])' <<<"$OUT")" = "request Unable to locate package nosuch-package"

# A pin that rules the only choice out is named with its file and line.
printf 'Package: dep\nPin: version 2.0\nPin-Priority: -1\n' >"$SB/etc/apt/preferences"
aptus_run satisfy -s "dep (>= 2)"
rm -f "$SB/etc/apt/preferences"
check "the pin's file and line are named: $ERR" contains "$ERR" "pinned to -1 ($SB/etc/apt/preferences:1)"

# Bad words: apt's errors, before the lists are read.
for word in "dep (>= 2" "Conflicts: dep (>= 2" "Recommends: dep" ""; do
    aptus_run satisfy -s "$word"
    check "'$word' is refused (rc $RC)" test "$RC" = 100
    check "'$word': apt's error" test "$ERR" = "E: Problem parsing dependency: $word"
    check "'$word': nothing read first" not_contains "$OUT" "Reading package lists"
done
aptus_run satisfy -s "dep (< 2)"
check "dpkg's obsolete '<' is refused as apt does" \
    test "$ERR" = "E: Invalid operator '<' at offset 5, did you mean '<<' or '<='? - in: dep (< 2)"

# For real, beside apt: the same packages, the same marks.
aptus_run satisfy -y "dep (>= 2)"
check "satisfy -y exits 0" test "$RC" = 0
check "dep 2.0 installed" test "$(installed dep)" = 2.0
check "libdep installed" test "$(installed libdep)" = 1.0
APTAPT apt-get satisfy -y "dep (>= 2)" >"$T/apt-out" 2>&1
check "apt installs the same set" test "$(installed_set "$SB")" = "$(installed_set "$T/twin")"
check "the marks are apt's: $(apt-mark showauto 2>/dev/null | tr '\n' ' ')" \
    test "$(apt-mark showauto 2>/dev/null)" = "$(APTAPT apt-mark showauto 2>/dev/null)"
check "dep is manual, as apt has it" test "$(apt-mark showmanual 2>/dev/null | grep -x dep)" = dep
aptus_run autoremove -s
check "dep is not autoremovable" not_contains "$OUT" "Remv dep"
check "libdep is not autoremovable (dep needs it)" not_contains "$OUT" "Remv libdep"
finish
