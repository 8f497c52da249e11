#!/bin/bash
# A local user turned attacker against a root update and a root install: a
# process running as the sandbox user (_apt, which owns apt's partial
# directories) plants links and files under the names aptus writes in
# lists/partial and archives/partial, before the run and all through it.
# Every target must be byte for byte unchanged afterwards, a dangling link
# must not create its target, no link may land in lists/ or archives/, and
# the runs must still succeed. The downloads themselves must run as the
# sandbox user (the loopback server records who owns each client socket,
# and strace shows the drop). Also: partial directories others can write,
# or a link in the place of one, are refused; without the sandbox user
# aptus warns as apt does and goes on.
source "$(dirname "$0")/lib/install_repo.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (downloads drop from root to the sandbox user)"; exit 0; }
id _apt >/dev/null 2>&1 || { echo "SKIP: no _apt user"; exit 0; }
command -v setpriv >/dev/null || { echo "SKIP: setpriv not installed"; exit 0; }
install_setup
APT_UID=$(id -u _apt)
ARCHIVES=$T/cache/archives
mkdir -p "$ARCHIVES/partial"
# A real system's directories can be walked by anyone: so must the
# sandbox's, or the attacker could not reach partial/ at all.
chmod 755 "$T" "$T/cache" "$ARCHIVES"

as_apt() { setpriv --reuid=_apt --regid=nogroup --clear-groups -- "$@"; }

# Root's files the attacker wants written: their content must stay.
VICTIMS=$T/victims
mkdir -m 755 "$VICTIMS"
for v in 1 2 3 4; do echo "victim $v: root's own data" >"$VICTIMS/v$v"; done
victims_digest() { (cd "$VICTIMS" && ls -A && cat v1 v2 v3 v4) | sha256sum; }
GOOD=$(victims_digest)

spec() {
    python3 - "$@" <<'PY'
import json, sys
json.dump([{"name": n, "version": v, "fields": {}} for n, v in (i.split("|") for i in sys.argv[1:])], sys.stdout)
PY
}
spec "hello|1.0" "world|1.0" >"$T/spec.json"
install_suite stable "$T/spec.json"

# apt's layout after it ran: both partial dirs belong to _apt, mode 700.
as_apt_layout() { chown _apt:root "$LISTS/partial" "$ARCHIVES/partial" && chmod 700 "$LISTS/partial" "$ARCHIVES/partial"; }

# plant DIR NAME...: for each name, NAME and NAME.part become links to a
# victim, and NAME.part.new a dangling link to a file that must not appear.
plant() {
    local dir=$1
    shift
    as_apt bash -c '
        dir=$1 victims=$2; shift 2; i=0
        for name in "$@"; do
            i=$((i % 4 + 1))
            ln -sfn "$victims/v$i" "$dir/$name" 2>/dev/null
            ln -sfn "$victims/v$i" "$dir/$name.part" 2>/dev/null
            ln -sfn "$victims/created-$i" "$dir/$name.part.new" 2>/dev/null
        done' plant "$dir" "$VICTIMS" "$@"
}

# The names update writes: those of the lists files (their partial copies
# and .part files), of every suite.
list_names() { (cd "$LISTS" && ls | grep -v -e '^lock$' -e '^partial$'); }

no_links_in() { [ -z "$(find "$1" -maxdepth 1 -type l)" ]; }

# 1. update after apt's layout, links planted before and planted again
#    all through the run by a process looping as _apt.
as_apt_layout
names=$(list_names)
# The next update must fetch again: a new InRelease and Packages.
spec "hello|1.0" "world|1.0" "extra|1.0" >"$T/spec2.json"
make_suite stable --spec "$T/spec2.json" >/dev/null
touch -d "@$(($(date +%s) + 10))" "$REPO/dists/stable/InRelease"
plant "$LISTS/partial" $names
check "the attacker could plant links in _apt's partial dir (the test is real)" \
    test -L "$LISTS/partial/$(echo "$names" | head -1).part"
# (setpriv itself in the background, so $! is the loop's process; it ends
# by itself after a minute should the kill below be missed.)
setpriv --reuid=_apt --regid=nogroup --clear-groups -- bash -c '
    end=$((SECONDS + 60))
    while [ $SECONDS -lt $end ]; do
        for n in $2; do ln -sfn "$3/v1" "$1/$n.part" 2>/dev/null; done
        sleep 0.01
    done' loop "$LISTS/partial" "$names" "$VICTIMS" </dev/null >/dev/null 2>&1 &
LOOP=$!
: >"$T/requests.peers"
run_update
kill $LOOP 2>/dev/null
wait $LOOP 2>/dev/null
check "update with links planted in partial/ exits 0 (rc $RC)" test "$RC" = 0
check "update fetched the new index (extra is known)" grep -q '^Package: extra' "$LISTS"/*Packages
check "every victim is unchanged after the update, no dangling link created a file" test "$(victims_digest)" = "$GOOD"
check "no link in lists/ after the update" no_links_in "$LISTS"
check "the lists files are root's regular files" \
    test -z "$(find "$LISTS" -maxdepth 1 -type f ! -user root ! -name lock)"
# Root's during the run (secure_partial_dir), handed back when it ends as
# apt leaves it: nothing planted there between runs is trusted (above).
check "lists/partial is left to _apt:root 0700 after the run, as apt leaves it ($(stat -c '%U:%G %a' "$LISTS/partial"))" \
    test "$(stat -c '%U:%G %a' "$LISTS/partial")" = "_apt:root 700"
check "every download of the update ran as _apt (uid $APT_UID): $(sort -u "$T/requests.peers" | tr '\n' ' ')" \
    bash -c "[ -s '$T/requests.peers' ] && ! grep -qv ' $APT_UID\$' '$T/requests.peers'"

# 2. install (the .debs through archives/partial), after apt's layout again.
as_apt_layout
plant "$ARCHIVES/partial" hello_1.0_amd64.deb world_1.0_amd64.deb
: >"$T/requests.peers"
aptus_run install -y hello world
check "install with links planted in archives/partial exits 0 (rc $RC): $ERR" test "$RC" = 0
check "hello and world are installed" test "$(installed hello) $(installed world)" = "1.0 1.0"
check "every victim is unchanged after the install" test "$(victims_digest)" = "$GOOD"
check "no link in archives/ after the install" no_links_in "$ARCHIVES"
check "the .debs in archives/ are regular files" test -f "$ARCHIVES/hello_1.0_amd64.deb" -a ! -L "$ARCHIVES/hello_1.0_amd64.deb"
check "archives/partial is root's 0700 after the install" \
    test "$(stat -c '%U:%G %a' "$ARCHIVES/partial")" = "root:root 700"
check "the .debs were downloaded as _apt: $(sort -u "$T/requests.peers" | tr '\n' ' ')" \
    bash -c "grep -q '\\.deb $APT_UID\$' '$T/requests.peers' && ! grep -qv ' $APT_UID\$' '$T/requests.peers'"

# 3. strace: the process that connects has dropped to _apt first, with
#    no_new_privs, and cannot become root again.
if command -v strace >/dev/null; then
    touch -d "@$(($(date +%s) + 20))" "$REPO/dists/stable/InRelease"
    # (LeakSanitizer cannot run under ptrace: off for this run in the ASan build.)
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -f -qq -e trace=setresuid,setgroups,prctl,connect -o "$T/strace" "$APTUS" update >"$T/strace-out" 2>&1
    RC=$?
    check "update under strace exits 0: $(tail -5 "$T/strace-out")" test "$RC" = 0
    check "strace: every connect() to the server comes from a process that setresuid($APT_UID) and set no_new_privs first" \
        awk -v uid="$APT_UID" '
            $2 ~ "^setresuid\\(" uid "," && $NF == 0 { dropped[$1] = 1 }
            $2 ~ /^prctl\(PR_SET_NO_NEW_PRIVS/ && $NF == 0 { nnp[$1] = 1 }
            /connect\(.*127\.0\.0\.1/ { n++; if (!dropped[$1] || !nnp[$1]) bad++ }
            END { exit !(n > 0 && bad == 0) }' "$T/strace"
    check "strace: the sandboxed process's setresuid(0, 0, 0) fails" grep -q 'setresuid(0, 0, 0) *= -1 EPERM' "$T/strace"
fi

# 4. partial dirs that others can write, or a link in their place: refused.
touch -d "@$(($(date +%s) + 30))" "$REPO/dists/stable/InRelease"
before=$(lists_digest)
chmod 777 "$LISTS/partial"
run_update
check "update refuses a world-writable lists/partial (rc $RC)" test "$RC" = 100
check "it says why: $ERR" contains "$ERR" "Refusing to use the partial directory $LISTS/partial/: group or others can write it (mode 0777)"
check "the lists are untouched" test "$(lists_digest)" = "$before"
chmod 700 "$LISTS/partial"
chown nobody "$LISTS/partial"
run_update
check "update refuses a lists/partial of another user (rc $RC): $ERR" \
    bash -c "[ $RC = 100 ] && grep -q 'it belongs to uid' <<<\"\$0\"" "$ERR"
chown root "$LISTS/partial"
mkdir -m 755 "$T/elsewhere"
rm -rf "$LISTS/partial"
ln -s "$T/elsewhere" "$LISTS/partial"
run_update
check "update refuses a link as lists/partial (rc $RC): $ERR" \
    bash -c "[ $RC = 100 ] && grep -q 'not a directory (a link?)' <<<\"\$0\"" "$ERR"
check "nothing was written through the link" test -z "$(ls -A "$T/elsewhere")"
rm "$LISTS/partial"
mkdir -m 700 "$LISTS/partial"

# 5. no sandbox user: apt's warning, and the update goes on as root.
: >"$T/requests.peers"
run_update -o APT::Sandbox::User=aptus-no-such-user
check "without the sandbox user update exits 0 (rc $RC)" test "$RC" = 0
check "with apt's warning: $ERR" contains "$ERR" "W: No sandbox user 'aptus-no-such-user' on the system, can not drop privileges"
# APT::Sandbox::User "root" turns it off, as in apt: the downloads run as root.
touch -d "@$(($(date +%s) + 40))" "$REPO/dists/stable/InRelease"
: >"$T/requests.peers"
run_update -o APT::Sandbox::User=root
check "with APT::Sandbox::User=root the downloads run as root: $(sort -u "$T/requests.peers" | tr '\n' ' ')" \
    bash -c "grep -q ' 0\$' '$T/requests.peers' && ! grep -q ' $APT_UID\$' '$T/requests.peers'"
check "every victim is unchanged at the end" test "$(victims_digest)" = "$GOOD"
finish
