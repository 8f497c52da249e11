#!/bin/bash
# The dpkg driver end to end: `aptus internal-dpkg-test` runs real dpkg on
# .debs built here with dpkg-deb, in a sandbox root with an empty dpkg
# database (never the host's): installs with a Pre-Depends, removal, purge,
# a failing postinst and its recovery, hooks, the lock held by another
# process, an interrupted dpkg, kill -9 of aptus in the middle of a slow
# postinst, and the progress bar through a real terminal (dpkg_driver_pty.py).
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
for tool in dpkg dpkg-deb python3; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 0; }
done
tmp=$(mktemp -d /tmp/aptus-dpkg-driver-XXXXXX)
holder_pid=
cleanup() {
    [ -n "$holder_pid" ] && kill "$holder_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

. "$(dirname "$0")/lib/dpkg_root.sh"
dpkg_root "$tmp"
export APT_CONFIG=$tmp/apt.conf
export APTUS_DPKG_ROOT=$root
sdpkg() { dpkg --root="$root" --force-script-chrootless ${not_root:+--force-not-root} "$@"; }
state() { dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null; }

# mk NAME VERSION ARCH EXTRA-CONTROL POSTINST-BODY
mk() {
    local d=$tmp/build/$1
    mkdir -p "$d/DEBIAN" "$d/usr/share/$1" "$d/etc"
    echo "$1 $2" > "$d/usr/share/$1/data"
    echo "setting=1" > "$d/etc/$1.conf"
    echo "/etc/$1.conf" > "$d/DEBIAN/conffiles"
    printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: Test <test@example.org>\n%bDescription: test %s\n' \
        "$1" "$2" "$3" "$4" "$1" > "$d/DEBIAN/control"
    printf '#!/bin/sh\n%b\n' "$5" > "$d/DEBIAN/postinst"
    chmod 755 "$d/DEBIAN/postinst"
    dpkg-deb --root-owner-group -Zgzip -b "$d" "$tmp/${1}_$2_$3.deb" >/dev/null || { echo "FAIL: dpkg-deb $1"; exit 1; }
}
mk aa 1.0 all '' 'echo "postinst aa $1"'
mk bb 2.0 amd64 'Pre-Depends: aa\n' 'echo "postinst bb $1"'
mk cc 1 all '' 'echo "cc postinst fails" >&2\nexit 1'
mk dd 1 all '' "touch $tmp/dd-started\nsleep 3\necho dd done"
mk ee 1 all '' 'exit 0'

run() { # run OPS-TEXT [aptus options...]: runs with the ops, output in $tmp/out, $tmp/err
    local ops=$1; shift
    printf '%b' "$ops" > "$tmp/ops"
    "$APTUS" "$@" internal-dpkg-test "$tmp/ops" > "$tmp/out" 2> "$tmp/err"
}

# --- install two packages, the second Pre-Depends on the first
run "unpack $tmp/aa_1.0_all.deb\nconfigure aa:all\nunpack $tmp/bb_2.0_amd64.deb\nconfigure bb:amd64\n"
rc=$?
[ $rc = 0 ] && [ "$(state aa)" = "ii " ] && [ "$(state bb)" = "ii " ] && pass "install with Pre-Depends" \
    || { fail "install: rc=$rc aa='$(state aa)' bb='$(state bb)'"; cat "$tmp/out" "$tmp/err"; }
grep -q "^Setting up bb (2.0) ...$" "$tmp/out" && pass "dpkg's output reaches stdout" || fail "no 'Setting up bb' in output"
grep -q $'\033' "$tmp/out" && fail "escape sequences without a terminal" || pass "no progress bar without a terminal"
[ -z "$(sdpkg --audit)" ] && pass "dpkg --audit clean" || fail "dpkg --audit: $(sdpkg --audit)"
log=$root/var/log/apt/term.log
if head -c 1 "$log" | od -c | grep -q '\\n' && sed -n 2p "$log" | grep -Eq '^Log started: [0-9]{4}-[0-9]{2}-[0-9]{2}  [0-9]{2}:[0-9]{2}:[0-9]{2}$' \
   && tail -n 1 "$log" | grep -Eq '^Log ended: [0-9]{4}-[0-9]{2}-[0-9]{2}  [0-9]{2}:[0-9]{2}:[0-9]{2}$' \
   && grep -q "^Unpacking bb (2.0) ...$" "$log"; then
    pass "term.log framing"
else
    fail "term.log:"; cat "$log"
fi

# --- remove keeps the conffile, purge takes it
run "remove bb:amd64\n"
[ $? = 0 ] && [ "$(state bb)" = "rc " ] && [ -e "$root/etc/bb.conf" ] && pass "remove" || fail "remove: bb='$(state bb)'"
run "purge bb:amd64\npurge aa:all\n"
[ $? = 0 ] && [ -z "$(state aa)$(state bb)" ] && [ ! -e "$root/etc/aa.conf" ] && [ ! -e "$root/etc/bb.conf" ] \
    && pass "purge (conffiles gone)" || fail "purge: aa='$(state aa)' bb='$(state bb)'; $(ls "$root/etc")"

# --- a failing postinst: apt's error, half-configured, recoverable
run "unpack $tmp/cc_1_all.deb\nconfigure cc:all\n"
rc=$?
[ $rc = 100 ] && grep -qx "E: Sub-process /usr/bin/dpkg returned an error code (1)" "$tmp/err" \
    && pass "failing postinst: apt's error" || { fail "failing postinst: rc=$rc"; cat "$tmp/err"; }
grep -q "cc postinst fails" "$tmp/out" && pass "the script's own words shown" || fail "postinst stderr not shown"
[ "$(state cc)" = "iF " ] && pass "cc is half-configured" || fail "cc state '$(state cc)'"
printf '#!/bin/sh\nexit 0\n' > "$root/var/lib/dpkg/info/cc.postinst"
sdpkg --configure -a >/dev/null && [ "$(state cc)" = "ii " ] && pass "dpkg --configure -a recovers" \
    || fail "recovery: cc='$(state cc)'"

# --- hooks
hooks=$tmp/hooks; mkdir -p "$hooks"
run "unpack $tmp/ee_1_all.deb\nconfigure ee:all\n" \
    -o "DPkg::Pre-Invoke::=echo pre >> $hooks/order" -o "DPkg::Post-Invoke::=echo post >> $hooks/order" \
    -o "DPkg::Pre-Install-Pkgs::=cat > $hooks/v1" \
    -o "DPkg::Pre-Install-Pkgs::=sh -c 'cat > $hooks/v2'" -o "DPkg::Tools::Options::sh::Version=2"
[ $? = 0 ] && [ "$(cat "$hooks/order")" = $'pre\npost' ] && pass "Pre-Invoke and Post-Invoke" || fail "invoke hooks: $(cat "$hooks/order" 2>&1)"
[ "$(cat "$hooks/v1")" = "$tmp/ee_1_all.deb" ] && pass "Pre-Install-Pkgs v1 reads the .deb list" || fail "v1: $(cat "$hooks/v1")"
head -n 1 "$hooks/v2" | grep -qx "VERSION 2" && grep -qx "ee - < 1 $tmp/ee_1_all.deb" "$hooks/v2" \
    && grep -qx "ee - < 1 \*\*CONFIGURE\*\*" "$hooks/v2" && grep -q "^Dir::Bin::dpkg=/usr/bin/dpkg$" "$hooks/v2" \
    && pass "Pre-Install-Pkgs v2" || { fail "v2:"; cat "$hooks/v2" | grep -v = ; }
run "purge ee:all\n" -o "DPkg::Pre-Invoke::=exit 3"
[ $? = 100 ] && diff <(printf "E: Problem executing scripts DPkg::Pre-Invoke 'exit 3'\nE: Sub-process returned an error code\n") "$tmp/err" >/dev/null \
    && [ "$(state ee)" = "ii " ] && pass "a failing Pre-Invoke stops before dpkg" || { fail "failing Pre-Invoke"; cat "$tmp/err"; }

# --- the lock held by another process (a python3 fcntl holder, as apt or dpkg hold it)
hold() { # hold FILE SECONDS: returns once the holder has the lock
    rm -f "$tmp/ready"
    python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
open(sys.argv[3], "w").write("ready")
time.sleep(float(sys.argv[2]))
' "$1" "$2" "$tmp/ready" &
    holder_pid=$!
    for _ in $(seq 200); do [ -s "$tmp/ready" ] && return 0; sleep 0.05; done
    echo "FAIL: the lock holder did not start"; exit 1
}
front=$root/var/lib/dpkg/lock-frontend
hold "$front" 30
run "purge ee:all\n"
rc=$?
expected="E: Could not get lock $front. It is held by process $holder_pid (python3)
E: Unable to acquire the dpkg frontend lock ($front), is another process using it?"
[ $rc = 100 ] && [ "$(cat "$tmp/err")" = "$expected" ] && [ "$(state ee)" = "ii " ] && pass "frontend lock held: apt's message" \
    || { fail "frontend lock held: rc=$rc"; cat "$tmp/err"; }
kill $holder_pid; wait $holder_pid 2>/dev/null; holder_pid=
hold "$root/var/lib/dpkg/lock" 30
run "purge ee:all\n"
[ $? = 100 ] && grep -qx "E: Unable to lock the administration directory ($root/var/lib/dpkg/), is another process using it?" "$tmp/err" \
    && pass "inner lock held: apt's message" || { fail "inner lock held"; cat "$tmp/err"; }
kill $holder_pid; wait $holder_pid 2>/dev/null; holder_pid=
hold "$front" 1
start=$(date +%s)
run "purge ee:all\n" -o DPkg::Lock::Timeout=3
rc=$?
[ $rc = 0 ] && [ -z "$(state ee)" ] && grep -q "^Waiting for cache lock: Could not get lock $front. It is held by process $holder_pid (python3)...$" "$tmp/out" \
    && pass "DPkg::Lock::Timeout waits for the holder" || { fail "waiting for the lock: rc=$rc"; cat "$tmp/out" "$tmp/err"; }
wait $holder_pid 2>/dev/null; holder_pid=

# --- an interrupted dpkg (a journal entry left behind) is refused as apt refuses it
touch "$root/var/lib/dpkg/updates/0001"
run "unpack $tmp/ee_1_all.deb\n"
[ $? = 100 ] && [ "$(cat "$tmp/err")" = "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem. " ] \
    && pass "interrupted dpkg refused" || { fail "interrupted dpkg"; cat "$tmp/err"; }
rm -f "$root/var/lib/dpkg/updates/0001"

# --- kill -9 of aptus while dpkg runs a slow postinst
rm -f "$tmp/dd-started"
printf 'unpack %s\nconfigure dd:all\n' "$tmp/dd_1_all.deb" > "$tmp/ops-dd"
"$APTUS" internal-dpkg-test "$tmp/ops-dd" > "$tmp/out-dd" 2>&1 &
aptus_pid=$!
for _ in $(seq 300); do [ -e "$tmp/dd-started" ] && break; sleep 0.05; done
if [ -e "$tmp/dd-started" ]; then
    kill -9 $aptus_pid
    wait $aptus_pid 2>/dev/null
    # dpkg goes on in its own session: wait until it lets go of its lock.
    for _ in $(seq 200); do
        python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)' "$root/var/lib/dpkg/lock" 2>/dev/null && break
        sleep 0.1
    done
    st=$(state dd)
    if [ "$st" != "ii " ]; then
        echo "  (dd is '$st' after the kill: recovering with dpkg --configure -a)"
        sdpkg --configure -a >/dev/null 2>&1
    fi
    [ "$(state dd)" = "ii " ] && [ -z "$(sdpkg --audit)" ] && pass "kill -9 during a postinst: dpkg finished or recovered" \
        || fail "after kill -9: dd='$(state dd)' audit: $(sdpkg --audit)"
else
    kill -9 $aptus_pid 2>/dev/null
    fail "the slow postinst never started"; cat "$tmp/out-dd"
fi

# --- the progress bar through a real terminal
timeout -k 5 240 python3 "$(dirname "$0")/dpkg_driver_pty.py" "$APTUS" "$tmp" || fail "dpkg_driver_pty.py"

if [ $fails -gt 0 ]; then
    echo "$fails failed"
    exit 1
fi
echo "all passed"
