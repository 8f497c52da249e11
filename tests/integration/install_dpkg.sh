#!/bin/bash
# aptus install/remove/purge/upgrade/full-upgrade/autoremove carried out with
# real dpkg in a sandbox root, from a signed loopback archive of .debs built
# by the test: Depends, Pre-Depends and Recommends in the right order; a
# dependency cycle; a conflict that forces a removal; remove, purge and
# autoremove; upgrade and full-upgrade; a failing postinst (clear error,
# advice, recoverable); a .deb whose hash does not match (refused, nothing
# installed); the dpkg lock held by someone else; the state apt keeps
# (extended_states, history.log) and real apt agreeing with the outcome
# (apt-get check, apt-mark showauto, apt-get on a twin sandbox installing
# the same set).
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

# Every maintainer script logs "<script> <package> <argument>" in order.
spec() {
    python3 - "$@" <<'PY'
import json, sys
script = '#!/bin/sh\necho "$DPKG_MAINTSCRIPT_NAME $DPKG_MAINTSCRIPT_PACKAGE $1" >>"$DPKG_ROOT/order.log"\n'
out = []
for item in sys.argv[1:]:
    name, version, *rest = item.split("|")
    fields = dict(f.split("=", 1) for f in rest if f and not f.startswith("@"))
    p = {"name": name, "version": version, "fields": fields,
         "scripts": {"preinst": script, "postinst": script, "prerm": script, "postrm": script}}
    for f in rest:
        if f == "@conffile":
            p["conffiles"] = {f"etc/{name}.conf": "setting=1\n"}
        if f == "@failing-postinst":
            p["scripts"]["postinst"] = script + '[ -e "$DPKG_ROOT/tmp/fixed" ] || { echo "postinst of ' + name + ' fails"; exit 1; }\n'
        if f == "@big":
            import random
            random.seed(7)
            p["files"] = {f"usr/share/{name}/data": "".join(random.choice("0123456789abcdef") for _ in range(300_000))}
        if f == "@slow-postinst":
            p["scripts"]["postinst"] = script + 'touch "$DPKG_ROOT/tmp/slow-started"; sleep 3\n'
    out.append(p)
json.dump(out, sys.stdout, indent=1)
PY
}

BASE=(
    "base-tool|1.0"
    "libfoo|1.0"
    "extra|1.0"
    "app|1.0|Depends=libfoo (>= 1.0)|Pre-Depends=base-tool|Recommends=extra"
    "cyc-a|1.0|Depends=cyc-b"
    "cyc-b|1.0|Depends=cyc-a"
    "old-mta|1.0|Provides=mail-transport-agent|Conflicts=mail-transport-agent"
    "new-mta|1.0|Provides=mail-transport-agent|Conflicts=mail-transport-agent"
    "confpkg|1.0|@conffile"
    "failing|1.0|@failing-postinst"
    "slow|1.0|@slow-postinst"
    "tampered|1.0"
    "big|1.0|@big"
    "ess|1.0|Essential=yes"
)
spec "${BASE[@]}" >"$T/spec1.json"
install_suite stable "$T/spec1.json"
twin "$T/twin"

# Install with Depends, Pre-Depends and Recommends.
aptus_run install -y app
check "install app exits 0" test "$RC" = 0
check "the plan is shown" contains "$OUT" "Installing:"
check "dependencies listed" contains "$OUT" "Installing dependencies:"
for p in app libfoo base-tool extra; do
    check "$p installed" test "$(installed $p)" = 1.0
done
check "the .debs are in the archives dir" test -f "$T/cache/archives/app_1.0_amd64.deb"
check "nothing left in archives/partial" test -z "$(ls -A "$T/cache/archives/partial")"
order=$(cat "$SB/order.log")
line() { grep -n -- "$1" <<<"$order" | head -1 | cut -d: -f1; }
check "base-tool configured before app is unpacked (Pre-Depends)" \
    test "$(line 'postinst base-tool configure')" -lt "$(line 'preinst app install')"
check "libfoo configured before app is configured (Depends)" \
    test "$(line 'postinst libfoo configure')" -lt "$(line 'postinst app configure')"
auto=$(apt-mark showauto 2>/dev/null | tr '\n' ' ')
check "extended_states: the dependencies are automatic ($auto)" test "$auto" = "base-tool extra libfoo "
check "apt-mark showmanual: app" test "$(apt-mark showmanual 2>/dev/null)" = app
check "history.log has the entry" grep -q "^Commandline: aptus install -y app$" "$SB/var/log/apt/history.log"
check "history.log lists the install" \
    grep -q "^Install: .*app:amd64 (1.0)" "$SB/var/log/apt/history.log"
check "history.log marks the automatic ones" \
    grep -q "libfoo:amd64 (1.0, automatic)" "$SB/var/log/apt/history.log"
check "history.log entry ends" grep -q "^End-Date: " "$SB/var/log/apt/history.log"
apt_check=$(apt-get -o Dir::Cache="$T/apt-cache" check 2>&1)
check "apt-get check passes on the sandbox ($apt_check)" apt-get -o Dir::Cache="$T/apt-cache" -qq check

# Real apt-get on the twin sandbox installs the same set.
APT_CONFIG=$T/twin/apt.conf apt-get -y -q install app >"$T/twin-out" 2>&1
check "apt-get installs app on the twin ($(tail -3 "$T/twin-out"))" test $? = 0
check "apt-get and aptus installed the same packages" \
    test "$(installed_set "$SB")" = "$(installed_set "$T/twin")"
# The state apt leaves, in apt's order (its cache's hash order, not dpkg's).
check "history.log's Install line is apt-get's ($(grep -m1 '^Install:' "$T/twin/var/log/apt/history.log"))" \
    test "$(grep -m1 '^Install:' "$SB/var/log/apt/history.log")" = "$(grep -m1 '^Install:' "$T/twin/var/log/apt/history.log")"
check "extended_states is apt-get's, byte for byte" \
    cmp -s "$SB/var/lib/apt/extended_states" "$T/twin/var/lib/apt/extended_states"

# Reinstall: the same version unpacked and configured again.
: >"$SB/order.log"
aptus_run reinstall -y libfoo
check "reinstall exits 0 ($ERR)" test "$RC" = 0
check "reinstall is shown" contains "$OUT" "Reinstalling: 1"
check "libfoo's postinst ran again" grep -q "postinst libfoo configure" "$SB/order.log"
check "a reinstall keeps the package's automatic mark, as apt's (APT::Get::ReInstall marks nothing)" \
    test "$(apt-mark showauto 2>/dev/null | grep -x libfoo)" = libfoo
# -s shows a reinstall's dpkg steps, as apt-get -s does.
aptus_run -s reinstall libfoo
apt_sim=$(apt-get -o Dir::Cache="$T/apt-cache" -s reinstall libfoo 2>&1 | grep -E '^(Inst|Conf) ')
check "-s reinstall prints apt-get -s's Inst and Conf lines ($apt_sim)" \
    test "$(grep -E '^(Inst|Conf) ' <<<"$OUT")" = "$apt_sim"
check "-s reinstall has lines at all" contains "$OUT" "Conf libfoo"
aptus_run install -y --reinstall libfoo
check "install --reinstall exits 0" test "$RC" = 0
check "history.log records the reinstall" grep -q "^Reinstall: libfoo:amd64 (1.0)" "$SB/var/log/apt/history.log"
aptus_run mark auto libfoo
check "aptus mark auto libfoo" test "$RC" = 0
# Naming an installed automatic package makes it manual, with nothing for dpkg to do.
aptus_run install -y libfoo
check "install of an installed package exits 0" test "$RC" = 0
check "apt's notes" contains "$OUT" "libfoo is already the newest version (1.0)."
check "... set to manually installed" contains "$OUT" "libfoo set to manually installed."
check "extended_states: libfoo manual now" test "$(apt-mark showmanual 2>/dev/null | grep -x libfoo)" = libfoo
aptus_run mark auto libfoo
check "aptus mark showauto agrees with apt-mark showauto" \
    test "$("$APTUS" mark showauto 2>&1)" = "$(apt-mark showauto 2>&1)"

# --root: a second system under one directory, its own configuration read
# (the host's and APT_CONFIG's are not), dpkg given --root.
R=$T/root2
root_system "$R"
env -u APT_CONFIG "$APTUS" --root "$R" update -q >"$T/out" 2>"$T/err"
check "update with --root ($(cat "$T/err"))" test $? = 0
env -u APT_CONFIG "$APTUS" --root "$R" install -y libfoo >"$T/out" 2>"$T/err" </dev/null
check "install with --root ($(cat "$T/err"))" test $? = 0
check "libfoo is in the second root" test "$(installed_set "$R")" = "libfoo 1.0"
check "the .deb went to the root's archives" test -f "$R/var/cache/apt/archives/libfoo_1.0_amd64.deb"
check "the history went to the root's log" grep -q "libfoo:amd64 (1.0)" "$R/var/log/apt/history.log"

# A dependency cycle.
aptus_run install -y cyc-a
check "install of a cycle exits 0 ($ERR)" test "$RC" = 0
check "cyc-a and cyc-b installed" test "$(installed cyc-a)$(installed cyc-b)" = 1.01.0

# A conflict that forces a removal. As solver3 (APT::Solver::RemoveManual
# false), a manually installed package is not removed unless the request
# says so: the plain request fails and names the way out.
aptus_run install -y old-mta
check "old-mta installed" test "$(installed old-mta)" = 1.0
aptus_run install -y new-mta
check "new-mta alone is refused while old-mta is manual (rc $RC)" test "$RC" = 100
check "the refusal names the way out" contains "$ERR" "old-mta:amd64-"
aptus_run install -y new-mta old-mta-
check "new-mta replaces old-mta (rc $RC: $ERR)" test "$RC" = 0
check "the plan removes old-mta" contains "$OUT" "REMOVING:"
check "new-mta installed" test "$(installed new-mta)" = 1.0
check "old-mta removed" test -z "$(installed old-mta)"

# Remove, purge, autoremove.
aptus_run install -y confpkg
check "confpkg installed with its conffile" test -f "$SB/etc/confpkg.conf"
aptus_run remove -y confpkg
check "remove confpkg exits 0" test "$RC" = 0
check "removed, config files kept" test "$(pkg_status confpkg)" = "deinstall ok config-files"
check "the conffile stays after remove" test -f "$SB/etc/confpkg.conf"
# -s with a configuration-files purge beside a real removal: each line
# names its own package (the purge was added after the dpkg order was
# computed, which shifted every step onto the wrong package).
aptus_run -s purge confpkg app
apt_sim=$(apt-get -o Dir::Cache="$T/apt-cache" -s purge confpkg app 2>&1 | grep -E '^(Inst|Conf|Remv|Purg) ' | sort)
check "-s purge of a config-files package and an installed one: apt-get -s's lines ($apt_sim)" \
    test "$(grep -E '^(Inst|Conf|Remv|Purg) ' <<<"$OUT" | sort)" = "$apt_sim"
aptus_run purge -y confpkg
check "purge exits 0 ($ERR)" test "$RC" = 0
check "purging what only has configuration files left frees nothing" contains "$OUT" "Space needed: 0 B"
check "the conffile is gone after purge" test ! -e "$SB/etc/confpkg.conf"
check "purged from the database" test -z "$(pkg_status confpkg)"
aptus_run remove -y app
check "remove app exits 0" test "$RC" = 0
check "remove app names what autoremove would remove" contains "$OUT" "libfoo"
aptus_run autoremove -y
check "autoremove exits 0 ($ERR)" test "$RC" = 0
for p in libfoo base-tool extra; do
    check "$p autoremoved" test -z "$(installed $p)"
done
check "extended_states forgets removed packages" test -z "$(apt-mark showauto 2>/dev/null | grep -x libfoo)"

# A .deb whose hash does not match its Packages entry: refused, nothing installed.
before=$(installed_set "$SB")
cp "$REPO/pool/stable/main/slow_1.0_amd64.deb" "$REPO/pool/stable/main/tampered_1.0_amd64.deb.new"
mv "$REPO/pool/stable/main/tampered_1.0_amd64.deb.new" "$REPO/pool/stable/main/tampered_1.0_amd64.deb"
aptus_run install -y tampered
check "a tampered .deb fails the install (rc $RC)" test "$RC" = 100
check "the error names the failed fetch" contains "$ERR" "Failed to fetch"
check "nothing installed" test "$(installed_set "$SB")" = "$before"
check "no tampered .deb in the archives dir" test ! -e "$T/cache/archives/tampered_1.0_amd64.deb"

# An essential package goes only with --allow-remove-essential and the
# phrase typed in full, as apt asks it.
aptus_run install -y ess
check "ess installed" test "$(installed ess)" = 1.0
aptus_run remove ess
check "removing an essential package is refused (rc $RC)" test "$RC" = 100
# (solver3 keeps Essential packages as hard facts; the explanation says so.)
check "the refusal names the essential package" contains "$ERR" "ess:amd64 is Essential and installed"
echo "yes" | "$APTUS" remove --allow-remove-essential ess >"$T/out" 2>&1
check "a plain yes is not the phrase" test "$(installed ess)" = 1.0
check "the phrase is asked" grep -q "To continue type in the phrase 'Yes, do as I say!'" "$T/out"
check "Abort. after a wrong answer" grep -q "^Abort.$" "$T/out"
echo "Yes, do as I say!" | "$APTUS" remove --allow-remove-essential ess >"$T/out" 2>&1
check "the phrase removes it ($(tail -2 "$T/out"))" test -z "$(installed ess)"

# Not enough room in the archives dir (a 64 kB tmpfs): apt's error before
# anything is fetched, nothing installed.
mkdir -p "$T/small"
if mount -t tmpfs -o size=64k tmpfs "$T/small" 2>/dev/null; then
    mkdir -p "$T/small/partial"
    aptus_run install -y big -o Dir::Cache::Archives="$T/small/"
    check "a full archives dir stops the install (rc $RC)" test "$RC" = 100
    check "apt's message names the directory" contains "$ERR" "You don't have enough free space in $T/small/."
    check "big not installed" test -z "$(installed big)"
    umount "$T/small"
else
    echo "note: cannot mount a tmpfs here; the free-space check is not tested"
fi

# The dpkg lock held by another process.
python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(30)' "$SB/var/lib/dpkg/lock-frontend" "$T/locked" &
holder=$!
for _ in $(seq 50); do [ -e "$T/locked" ] && break; sleep 0.1; done
aptus_run install -y extra
check "the held lock stops aptus (rc $RC)" test "$RC" = 100
check "apt's lock message" contains "$ERR" "Could not get lock $SB/var/lib/dpkg/lock-frontend"
check "nothing installed while locked" test -z "$(installed extra)"
kill $holder 2>/dev/null
wait $holder 2>/dev/null

# A failing postinst: a clear error, the advice, and a recoverable system.
aptus_run install -y failing
check "a failing postinst fails the install (rc $RC)" test "$RC" = 100
check "dpkg's failure is named" contains "$ERR" "Sub-process /usr/bin/dpkg returned an error code (1)"
check "the advice to run dpkg --configure -a" contains "$ERR" "dpkg --configure -a"
check "failing is half-configured" test "$(pkg_status failing)" = "install ok half-configured"
check "history.log records the error" grep -q "^Error: Sub-process /usr/bin/dpkg returned an error code (1)" \
    "$SB/var/log/apt/history.log"
aptus_run install --assume-no extra
check "the next plan counts the half-configured package" contains "$OUT" "1 not fully installed or removed."
touch "$SB/tmp/fixed"
dpkg --root="$SB" --force-script-chrootless --configure -a >"$T/configure-a" 2>&1
check "dpkg --configure -a recovers ($(cat "$T/configure-a"))" test "$(installed failing)" = 1.0

# An upgrade, then a full-upgrade that needs a removal.
aptus_run install -y app
spec "base-tool|1.0" "libfoo|2.0" "extra|1.0" "app|1.1|Depends=libfoo (>= 2.0)|Pre-Depends=base-tool|Recommends=extra" \
    "cyc-a|1.0|Depends=cyc-b" "cyc-b|1.0|Depends=cyc-a" "new-mta|1.0|Provides=mail-transport-agent|Conflicts=mail-transport-agent" \
    "failing|1.0|@failing-postinst" >"$T/spec2.json"
install_suite stable "$T/spec2.json"
aptus_run upgrade -y
check "upgrade exits 0 ($ERR)" test "$RC" = 0
check "app upgraded" test "$(installed app)" = 1.1
check "libfoo upgraded" test "$(installed libfoo)" = 2.0
check "history.log records the upgrade" grep -q "^Upgrade: .*app:amd64 (1.0, 1.1)" "$SB/var/log/apt/history.log"
check "app stays manual after its upgrade" test "$(apt-mark showmanual 2>/dev/null | grep -x app)" = app

spec "base-tool|1.0" "libbar|1.0|Conflicts=libfoo" "extra|1.0" \
    "app|2.0|Depends=libbar|Pre-Depends=base-tool|Recommends=extra" \
    "cyc-a|1.0|Depends=cyc-b" "cyc-b|1.0|Depends=cyc-a" "new-mta|1.0|Provides=mail-transport-agent|Conflicts=mail-transport-agent" \
    "failing|1.0|@failing-postinst" >"$T/spec3.json"
install_suite stable "$T/spec3.json"
aptus_run upgrade -y
check "upgrade keeps app back when it needs a removal" test "$(installed app)" = 1.1
aptus_run full-upgrade -y
check "full-upgrade exits 0 ($ERR)" test "$RC" = 0
check "full-upgrade upgrades app" test "$(installed app)" = 2.0
check "full-upgrade installs libbar" test "$(installed libbar)" = 1.0
check "full-upgrade removes libfoo" test -z "$(installed libfoo)"
check "apt-get check passes at the end" apt-get -o Dir::Cache="$T/apt-cache" -qq check
audit=$(dpkg --root="$SB" --audit 2>&1)
check "dpkg --audit finds nothing ($audit)" test -z "$audit"

finish
