#!/bin/bash
# Two writers at once, and many readers while the cache is rebuilt, with
# real concurrent runs (aptus and real apt-get) in one sandbox:
#  - update + update: the second stops with apt's lock message naming the
#    first (aptus or apt-get; apt's update never waits for the lists lock,
#    whatever DPkg::Lock::Timeout says, and neither does aptus's);
#  - install + install: the second stops with apt's two lines naming the
#    holder, or with DPkg::Lock::Timeout waits ("Waiting for cache lock")
#    and runs dpkg only after the first finished;
#  - install + update: as with apt, they do not exclude each other (update
#    takes only the lists lock, install the dpkg locks and the archives
#    lock): both succeed, and what each wrote is whole;
#  - 10 readers (show, policy, search) at once, several rounds, while the
#    cache is stale (a list touched) or deleted: every reader exits 0 with
#    the output of a quiet run.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
command -v apt-get >/dev/null || { echo "SKIP: apt-get not installed"; exit 0; }
APT=(apt-get -o Dir::Cache="$T/apt-cache")
mkdir -p "$T/apt-cache/archives/partial"

version=1
# A new version of the suite: every update after it fetches the index.
change_suite() {
    version=$((version + 1))
    cat >"$T/spec.json" <<JSON
[
 {"name": "slow", "version": "1.0",
  "scripts": {"postinst": "#!/bin/sh\ntouch \"\$DPKG_ROOT/tmp/slow-started\"\nsleep 3\n"}},
 {"name": "slow2", "version": "1.0",
  "scripts": {"postinst": "#!/bin/sh\ntouch \"\$DPKG_ROOT/tmp/slow2-started\"\nsleep 3\n"}},
 {"name": "extra", "version": "1.0"},
 {"name": "extra2", "version": "1.0"},
 {"name": "hello", "version": "$version.0", "fields": {"Depends": "extra"}}
]
JSON
    make_suite stable --spec "$T/spec.json" --compress xz >/dev/null
    touch -d "@$(($(date +%s) + version))" "$REPO/dists/stable/InRelease"
}
change_suite
set_sources stable
run_update -q
check "the first update succeeds ($ERR)" test "$RC" = 0
INDEX=/dists/stable/main/binary-amd64/Packages.xz

# wait_for COMMAND...: up to 15 s for COMMAND to succeed.
wait_for() {
    for _ in $(seq 150); do "$@" && return 0; sleep 0.1; done
    return 1
}
requested() { grep -q "^GET $INDEX 200" "$T/requests"; }

lists_lock_error() { # lists_lock_error PID NAME: apt's two lines
    printf 'E: Could not get lock %slock. It is held by process %s (%s)\nE: Unable to lock directory %s' \
        "$LISTS/" "$1" "$2" "$LISTS/"
}
front=$SB/var/lib/dpkg/lock-frontend
dpkg_lock_error() { # dpkg_lock_error PID NAME
    printf 'E: Could not get lock %s. It is held by process %s (%s)\nE: Unable to acquire the dpkg frontend lock (%s), is another process using it?' \
        "$front" "$1" "$2" "$front"
}

# --- update + update
# update_holder CMD...: CMD (an update) runs with the index dripping; returns
# once it asked for the index, so it holds the lists lock.
update_holder() {
    change_suite
    : >"$T/requests"
    misbehave "{\"$INDEX\": {\"drip\": 0.002}}"
    "$@" >"$T/holder-out" 2>&1 &
    HOLDER=$!
    wait_for requested || echo "FAIL: the first update did not reach the index round"
    misbehave '{}'
}

update_holder "$APTUS" update -q
run_update -q
check "update + update: the second stops with apt's lock message" test "$RC" = 100 -a "$ERR" = "$(lists_lock_error "$HOLDER" aptus)"
run_update -q -o DPkg::Lock::Timeout=5
check "update + update: no waiting for the lists lock, as apt" test "$RC" = 100
out=$("${APT[@]}" update 2>&1)
check "update + update: real apt-get update stops too, naming aptus ($out)" \
    contains "$out" "$(lists_lock_error "$HOLDER" aptus)"
wait "$HOLDER"
check "update + update: the first finishes ($(cat "$T/holder-out"))" test $? = 0
check "update + update: the lists hold the new index" grep -q "^Version: $version.0" "$LISTS"/*_Packages

update_holder "${APT[@]}" update
run_update -q
check "update + update: aptus stops while apt-get update holds the lock" \
    test "$RC" = 100 -a "$ERR" = "$(lists_lock_error "$HOLDER" apt-get)"
wait "$HOLDER"
check "update + update: apt-get update finishes" test $? = 0

# --- install + install
# install_holder CMD... : CMD installs slow; returns once slow's postinst runs.
install_holder() {
    rm -f "$SB/tmp/slow-started"
    "$@" >"$T/holder-out" 2>&1 </dev/null &
    HOLDER=$!
    wait_for test -e "$SB/tmp/slow-started" || echo "FAIL: the first install did not reach the postinst"
}
remove_all() {
    aptus_run remove -y slow slow2 extra extra2
    check "the packages removed between the cases ($ERR)" test "$RC" = 0
}

install_holder "$APTUS" install -y slow
aptus_run install -y extra
check "install + install: the second stops with apt's two lines ($ERR)" \
    test "$RC" = 100 -a "$ERR" = "$(dpkg_lock_error "$HOLDER" aptus)"
check "install + install: it installed nothing" test -z "$(installed extra)"
out=$("${APT[@]}" install -y extra 2>&1)
check "install + install: real apt-get stops too, naming aptus ($out)" contains "$out" "$(dpkg_lock_error "$HOLDER" aptus)"
aptus_run -o DPkg::Lock::Timeout=30 install -y extra
waited_rc=$RC
check "install + install: with DPkg::Lock::Timeout the second waits and succeeds ($ERR)" test "$waited_rc" = 0
check "install + install: it says what it waits for ($OUT)" \
    contains "$OUT" "Waiting for cache lock: Could not get lock $front. It is held by process $HOLDER (aptus)..."
wait "$HOLDER"
check "install + install: the first succeeds" test $? = 0
# dpkg's log: slow configured before extra was even unpacked.
check "install + install: the second's dpkg ran after the first's" python3 - "$SB/var/log/dpkg.log" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
done = max(i for i, l in enumerate(lines) if " status installed slow:" in l)
start = min(i for i, l in enumerate(lines) if " install extra:" in l)
sys.exit(0 if done < start else f"slow installed at line {done}, extra started at line {start}")
PY
remove_all

install_holder "${APT[@]}" install -y slow
aptus_run install -y extra
check "install + install: aptus stops while apt-get holds the lock ($ERR)" \
    test "$RC" = 100 -a "$ERR" = "$(dpkg_lock_error "$HOLDER" apt-get)"
aptus_run -o DPkg::Lock::Timeout=30 install -y extra2
check "install + install: aptus waits for apt-get with DPkg::Lock::Timeout ($ERR)" test "$RC" = 0
wait "$HOLDER"
check "install + install: apt-get succeeds" test $? = 0
remove_all

# --- install + update: both go on, as with apt.
change_suite
install_holder "$APTUS" install -y slow
run_update -q
check "install + update: the update goes on while dpkg works, as apt-get update does ($ERR)" test "$RC" = 0
check "install + update: the lists hold the new index" grep -q "^Version: $version.0" "$LISTS"/*_Packages
wait "$HOLDER"
check "install + update: the install succeeds ($(cat "$T/holder-out"))" test $? = 0
check "install + update: slow installed" test "$(installed slow)" = 1.0
check "install + update: apt-get check agrees" "${APT[@]}" -qq check
# And the other way round: an update dripping, an install at the same time.
update_holder "$APTUS" update -q
aptus_run install -y extra2
check "install + update: an install goes on while an update holds the lists lock ($ERR)" test "$RC" = 0
wait "$HOLDER"
check "install + update: the update succeeds" test $? = 0
remove_all

# --- many readers while the cache is rebuilt
CACHE_FILE=$T/cache/aptus.bin
"$APTUS" policy hello >/dev/null 2>&1
check "the cache file is where the test looks for it" test -f "$CACHE_FILE"
readers=("show hello" "policy hello" "search ^extra" "show slow" "policy slow extra" "search -n slow"
         "show extra2" "policy" "search hello" "show -a hello")
for i in "${!readers[@]}"; do
    "$APTUS" -q ${readers[$i]} >"$T/expect-$i" 2>&1
    check "reader '${readers[$i]}' answers alone" test $? = 0
done
bad=0
for round in 1 2 3 4 5 6; do
    if [ $((round % 2)) = 1 ]; then
        touch "$LISTS"/*_Packages   # a newer input: every reader finds the cache stale
    else
        rm -f "$CACHE_FILE"         # no cache: every reader builds one
    fi
    pids=()
    for i in "${!readers[@]}"; do
        "$APTUS" -q ${readers[$i]} >"$T/got-$round-$i" 2>&1 &
        pids+=($!)
    done
    for i in "${!readers[@]}"; do
        wait "${pids[$i]}"
        rc=$?
        if [ "$rc" != 0 ] || ! cmp -s "$T/expect-$i" "$T/got-$round-$i"; then
            bad=$((bad + 1))
            echo "round $round, reader '${readers[$i]}': exit $rc"
            diff "$T/expect-$i" "$T/got-$round-$i" | head -5
        fi
    done
done
check "every reader of 6 rounds of 10 exits 0 with the quiet run's answer ($bad did not)" test "$bad" = 0
check "no temporary cache file left" bash -c "! ls '$T/cache' | grep -v -e '^aptus.bin$' -e '^aptus.bin.verified$' | grep -q aptus"

finish
