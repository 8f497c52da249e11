#!/bin/bash
# kill -9 of aptus while dpkg works: dpkg finishes or leaves work that
# `dpkg --configure -a` completes, the locks die with their holders, the
# state files are whole (old or new), and the next aptus run succeeds.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

cat >"$T/spec.json" <<'JSON'
[
 {"name": "slow", "version": "1.0",
  "scripts": {"postinst": "#!/bin/sh\ntouch \"$DPKG_ROOT/tmp/slow-started\"\nsleep 3\n"}},
 {"name": "slowdep", "version": "1.0", "fields": {"Depends": "slow"}},
 {"name": "extra", "version": "1.0"}
]
JSON
install_suite stable "$T/spec.json"
OUT= ERR=
cp "$SB/var/lib/dpkg/status" "$T/status-before"

"$APTUS" install -y slowdep >"$T/killed-out" 2>&1 </dev/null &
aptus_pid=$!
for _ in $(seq 300); do [ -e "$SB/tmp/slow-started" ] && break; sleep 0.1; done
check "dpkg reached the slow postinst" test -e "$SB/tmp/slow-started"
kill -9 "$aptus_pid"
wait "$aptus_pid" 2>/dev/null
# dpkg, orphaned, goes on with the postinst; wait for it to let go.
# ("--roo[t]" keeps the pattern from matching the shell that runs pgrep.)
for _ in $(seq 100); do pgrep -f -- "--roo[t]=$SB" >/dev/null || break; sleep 0.1; done
check "no dpkg of the sandbox left running" bash -c "! pgrep -f -- '--roo[t]=$SB' >/dev/null"

status=$(dpkg-query --admindir="$SB/var/lib/dpkg" -W -f='${Package} ${Status}\n' slow slowdep 2>/dev/null)
check "the dpkg database reads ($status)" test -n "$status"
if [ -e "$SB/var/lib/dpkg/extended_states" ]; then
    check "extended_states is whole" python3 -c '
import sys
text = open(sys.argv[1]).read()
assert text == "" or text.endswith("\n"), "torn file"
for stanza in filter(None, text.split("\n\n")):
    assert stanza.startswith("Package: "), stanza' "$SB/var/lib/dpkg/extended_states"
fi

# The next run: either dpkg's work is complete, or aptus says what to do.
aptus_run install -y extra
if [ "$RC" != 0 ]; then
    check "an unfinished dpkg is reported with the advice ($ERR)" contains "$ERR" "dpkg --configure -a"
    dpkg --root="$SB" --force-script-chrootless --configure -a >"$T/configure-a" 2>&1
    check "dpkg --configure -a completes the interrupted work" test $? = 0
    aptus_run install -y extra
fi
check "the next aptus run succeeds ($ERR)" test "$RC" = 0
check "extra installed" test "$(installed extra)" = 1.0
check "slow configured in the end" test "$(pkg_status slow)" = "install ok installed"
audit=$(dpkg --root="$SB" --audit 2>&1)
check "dpkg --audit is clean ($audit)" test -z "$audit"
check "apt-get check agrees" apt-get -o Dir::Cache="$T/apt-cache" -qq check

finish
