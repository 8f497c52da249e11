#!/bin/bash
# aptus -s (install, remove, upgrade, full-upgrade, autoremove) beside
# apt-get -s on the real server sandbox (bookworm installed, bookworm and
# trixie lists): the same success or failure, the same exit status, the same
# E: line for requests that name nothing, and the same Inst/Remv sets.
#
# The machine's apt is 2.6, whose solver is the old one; aptus follows APT
# 3.0's solver3. Where the sets differ the test does not take apt's word for
# it: it writes the dpkg status aptus's plan would leave (apt-cache show of
# every version it installs, minus what it removes) and runs real
# `apt-get check` on it, which must find nothing broken. The differences
# seen on these requests are listed at each case.
#
# Ordering: both print Inst at an unpack, Conf at a configure and Remv/Purg
# at a removal, in their dpkg order. Where the plans are the same ("same"
# below) the sequences must be the same too, apt's line for line (apt's
# trailing list of packages broken at that point dropped). Where the plans
# differ, so do the orders; aptus's is then checked for its shape here (each
# Inst before its one Conf, each removal once) and proved against dpkg's
# rules by validate_dpkg_order on these same requests in
# tests/unit/system/dpkg_order_test.cpp (DpkgOrderRealData.TheServerSandboxsPlans).
set -u
# About 15 apt-get and aptus runs on the real lists: minutes on a loaded machine.
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup simulate-vs-apt
mkdir -p "$T/check-cache"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# "Inst name [old] (new ...)" -> "Inst name new"; "Remv name [old]" -> "Remv name"
# (Purg counts as Remv: apt-get -s prints Purg only with --purge, as aptus).
plan_set() {
    sed -n -e 's/^Inst \([^ ]*\) \(\[[^]]*\] \)\{0,1\}(\([^ ]*\) .*/Inst \1 \3/p' \
           -e 's/^\(Remv\|Purg\) \([^ ]*\).*/Remv \2/p' "$1" | sort
}

# The lines in order, without the packages broken at that point that both
# append ("[libc6-dev:amd64 ]", "[]"): they follow each tool's own order.
plan_seq() {
    grep -E '^(Inst|Conf|Remv|Purg) ' "$1" | sed -e 's/ \[[^]]* \]$//' -e 's/ \[\]$//'
}

# Each Inst before its one Conf, each package changed once.
seq_shape() {
    awk '$1 == "Inst" { if (inst[$2]++) { print "twice unpacked: " $2; bad = 1 } }
         $1 == "Conf" { if (!($2 in inst)) { print "configured before unpacked: " $2; bad = 1 }
                        if (conf[$2]++) { print "twice configured: " $2; bad = 1 } }
         $1 == "Remv" || $1 == "Purg" { if (gone[$2]++ || ($2 in inst)) { print "removed wrongly: " $2; bad = 1 } }
         END { for (p in inst) if (!(p in conf)) { print "never configured: " p; bad = 1 }; exit bad }' "$1"
}

# The status aptus's plan leaves, checked by apt-get check.
check_result() {
    local plan=$1
    python3 - "$S/var/lib/dpkg/status" "$plan" "$T/new-status" <<'PY' || return 1
import subprocess, sys
status, plan, out = sys.argv[1:4]
stanzas = {}
for block in open(status).read().split("\n\n"):
    if not block.strip(): continue
    name = next(l.split(": ", 1)[1] for l in block.splitlines() if l.startswith("Package: "))
    stanzas[name] = block.strip("\n")
# One apt-cache show for every version the plan installs (one run per
# version took most of this test's time); the first record of each
# name=version is that version's.
wanted = []
for line in open(plan):
    kind, name, *rest = line.split()
    name = name.split(":")[0]
    if kind == "Remv":
        stanzas.pop(name, None)
    else:
        wanted.append((name, rest[0]))
records = {}
if wanted:
    shown = subprocess.run(["apt-cache", "show", "-o", "Dir::Cache=" + sys.argv[3] + ".cache"] +
                           [f"{n}={v}" for n, v in wanted], capture_output=True, text=True, check=True).stdout
    for block in shown.split("\n\n"):
        fields = dict(l.split(": ", 1) for l in block.splitlines() if ": " in l and not l.startswith(" "))
        if "Package" in fields:
            records.setdefault((fields["Package"], fields.get("Version")), block.strip("\n"))
for name, version in wanted:
    show = records[(name, version)]
    lines = [l for l in show.splitlines() if not l.startswith(("Status:", "Filename:", "Description-md5:"))]
    lines.insert(1, "Status: install ok installed")
    stanzas[name] = "\n".join(lines)
open(out, "w").write("\n\n".join(stanzas.values()) + "\n")
PY
    apt-get check -o "Dir::Cache=$T/check-cache" -o "Dir::State::status=$T/new-status" >"$T/check.out" 2>&1
}

# compare NAME EXPECT ARGS...: EXPECT is "same" (the sets must match),
# "valid" (they may differ, aptus's result must pass apt-get check) or
# "error" (both must fail with exit 100 and the same first E: line) or
# "unsolvable" (both fail with 100; the words differ: apt 2.6 says "Unable to
# correct problems, you have held broken packages", aptus the facts that clash).
compare() {
    local name=$1 expect=$2; shift 2
    apt-get -s -o "Dir::Cache=$T/apt-cache" "$@" >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    "$APTUS" -s -o "Dir::Cache=$T/aptus-cache" "$@" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    if [ "$expect" = solver3-refuses ]; then
        # apt 2.6 gets there by removing a manually installed package;
        # solver3 (APT::Solver::RemoveManual false) refuses and says which.
        if [ "$apt_rc" = 0 ] && [ "$aptus_rc" = 100 ] && grep -q '^Remv ' "$T/apt.out" &&
           grep -q 'is installed manually, so it stays installed' "$T/aptus.err"; then
            echo "ok: $name (apt 2.6 removes a manual package, aptus refuses as solver3)"
        else fail "$name: expected apt 2.6 to remove a manual package and aptus to refuse (apt $apt_rc, aptus $aptus_rc)"; fi
        return
    fi
    if [ "$apt_rc" != "$aptus_rc" ]; then
        fail "$name: exit status apt $apt_rc, aptus $aptus_rc"; sed 's/^/  aptus: /' "$T/aptus.err" | head -20; return
    fi
    if [ "$expect" = unsolvable ]; then
        if [ "$aptus_rc" = 100 ] && grep -q '^E: ' "$T/aptus.err"; then echo "ok: $name (both refuse)"
        else fail "$name: expected a refusal with an E: line"; fi
        return
    fi
    if [ "$expect" = error ]; then
        [ "$aptus_rc" = 100 ] || fail "$name: expected a failure, got $aptus_rc"
        local a b
        a=$(grep -m1 '^E: ' "$T/apt.err"); b=$(grep -m1 '^E: ' "$T/aptus.err")
        if [ "$a" != "$b" ]; then fail "$name: apt said '$a', aptus '$b'"; else echo "ok: $name ($b)"; fi
        return
    fi
    head -3 "$T/aptus.out" | diff <(printf 'Reading package lists...\nBuilding dependency tree...\nReading state information...\n') - >/dev/null ||
        fail "$name: the progress lines differ from apt-get's"
    plan_set "$T/apt.out" >"$T/apt.set"
    plan_set "$T/aptus.out" >"$T/aptus.set"
    plan_seq "$T/apt.out" >"$T/apt.seq"
    plan_seq "$T/aptus.out" >"$T/aptus.seq"
    if ! seq_shape "$T/aptus.seq" >"$T/shape.out"; then fail "$name: aptus's steps are malformed"; head -5 "$T/shape.out"; return; fi
    if cmp -s "$T/apt.set" "$T/aptus.set"; then
        if cmp -s "$T/apt.seq" "$T/aptus.seq"; then echo "ok: $name (same $(wc -l <"$T/aptus.set") changes, same order)"; return; fi
        if [ "$expect" = same ]; then fail "$name: same changes in another order"; diff "$T/apt.seq" "$T/aptus.seq" | head -20; return; fi
        echo "ok: $name (same $(wc -l <"$T/aptus.set") changes, another valid order)"; return
    fi
    if [ "$expect" = same ]; then
        fail "$name: the plans differ"; diff "$T/apt.set" "$T/aptus.set" | head -20; return
    fi
    if check_result "$T/aptus.set"; then
        echo "ok: $name (a different valid plan: apt $(wc -l <"$T/apt.set"), aptus $(wc -l <"$T/aptus.set") changes; apt-get check passes)"
    else
        fail "$name: aptus's plan leaves broken packages"; head -20 "$T/check.out"
    fi
}

# A new package with new dependencies: hello 2.10-5 needs trixie's glibc.
# Both upgrade libc6 and its family; apt 2.6's old solver also upgrades
# dbus, dpkg, util-linux and more (60 changes), aptus only what the
# Depends and Breaks require (11), which apt-get check accepts.
compare "install hello" valid install hello
compare "install hello=2.10-3" same install hello=2.10-3
# apt's pkg/release also walks the dependencies and sets their candidates
# from that release (SetCandidateRelease), and its old solver then upgrades
# dbus, dpkg, util-linux and more to trixie; aptus changes the named
# package's candidate only, so this plan is the one of "install hello".
compare "install hello/trixie" valid install hello/trixie
# cowsay's dependencies need trixie's perl, whose libperl5.40 Breaks the
# installed libdb5.3, which the server installed by hand.
compare "install cowsay/bookworm" solver3-refuses install cowsay/bookworm
compare "install two, remove one" valid install hello sl nginx-
# apt 2.6 keeps the automatic dependencies of what goes; --auto-remove
# takes them too, in both.
compare "remove nginx --auto-remove" same remove --auto-remove nginx
# Removals first, each after what depends on it, by name; then the installs
# unpacked what they depend on first, then configured in the same order.
compare "install two, remove three" same install tmux/bookworm hello=2.10-3 nginx- --auto-remove
# apt 2.6 removes nothing here (nor does aptus): the sets are both empty.
compare "autoremove" same autoremove
compare "purge" same purge nginx
# upgrade: no removals, no new packages. apt 2.6 holds back what needs a
# new package; aptus as apt-get upgrade too (no --with-new-pkgs).
compare "upgrade" valid upgrade
# full-upgrade to trixie: solver3 and the old solver make different but
# valid choices in the t64 transition (which old libraries go, which
# alternatives come).
compare "full-upgrade" valid full-upgrade
compare "dist-upgrade" valid dist-upgrade
compare "unknown package" error install no-such-package-xyz
compare "unknown version" error install hello=0.0-nothing
compare "unknown release" error install hello/nowhere
# hello and hello-traditional conflict with each other.
compare "impossible" unsolvable install hello hello-traditional

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all simulate comparisons passed"
