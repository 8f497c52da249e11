#!/bin/bash
# kill -9 of `aptus update` at many points of a run against two suites that
# changed since the last update. The loopback server drips one index (or
# the InRelease) so that the kills land in every phase: before the lock,
# during the InRelease round, during the index round, at the commit, while
# the cache is built, after the end. After each kill the lists dir (lock and
# partial/ aside) must be exactly the old set or exactly the new set, real
# apt must read it (apt-get check, apt-cache policy), and a rerun must
# succeed and leave the new set. Last, kills placed between the commit's
# renames with strace: the one place a mix can exist, repaired by the rerun.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup
command -v apt-get >/dev/null || { echo "SKIP: apt-get not installed"; exit 0; }

packages() { # packages VERSION: twenty packages of that version
    local v=$1 list=() i
    for i in $(seq 20); do list+=("pkg$i=$v"); done
    local IFS=,
    echo "${list[*]}"
}

make_suite stable --packages "$(packages 1.0)" --compress xz >/dev/null
make_suite testing --packages "$(packages 1.5)" --compress xz >/dev/null
set_sources stable testing
run_update
check "the first update succeeds" test "$RC" = 0
OLD=$(lists_digest)
cp -a "$LISTS" "$T/lists-old"

# Both suites change: new versions, so every index and both InRelease files differ.
make_suite stable --packages "$(packages 2.0)" --compress xz >/dev/null
make_suite testing --packages "$(packages 2.5)" --compress xz >/dev/null
touch -d "@$(($(date +%s) + 5))" "$REPO/dists/stable/InRelease" "$REPO/dists/testing/InRelease"
run_update
check "the update to the new set succeeds" test "$RC" = 0
NEW=$(lists_digest)
cp -a "$LISTS" "$T/lists-new"
check "the new set differs from the old" test "$OLD" != "$NEW"
check "the index round asked for Packages.xz (the file the drips slow down)" \
    grep -q "^GET /dists/testing/main/binary-amd64/Packages.xz 200" "$T/requests"

restore_old() {
    rm -rf "$LISTS"
    cp -a "$T/lists-old" "$LISTS"
}

n_old=0 n_new=0 n_mix=0 points=0

# whole_file_mix: every file of the lists dir (lock and partial/ aside) is
# byte for byte the old set's or the new set's file of that name, and every
# name of the new set is there: what a kill between two renames leaves.
whole_file_mix() {
    local f name
    # Directories (partial/, auxfiles/) are no part of a set, as in lists_digest.
    for f in "$T/lists-new"/*; do
        name=${f##*/}
        [ "$name" = lock ] || [ -d "$f" ] || [ -f "$LISTS/$name" ] || return 1
    done
    for f in "$LISTS"/*; do
        name=${f##*/}
        [ "$name" = lock ] || [ -d "$f" ] && continue
        cmp -s "$f" "$T/lists-old/$name" || cmp -s "$f" "$T/lists-new/$name" || return 1
    done
}
# kill_at LABEL SECONDS: one update, killed after SECONDS; then the checks.
kill_at() {
    local label=$1 delay=$2
    restore_old
    "$APTUS" update -q >"$T/killed-out" 2>&1 &
    local pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    misbehave '{}'
    points=$((points + 1))
    after_kill "$label" old-or-new
}

# after_kill LABEL old-or-new|mix-allowed: the lists dir is the old or the
# new set (or, where the kill was placed inside the commit's renames, may be
# a mix); real apt reads it; a rerun succeeds and leaves the new set.
after_kill() {
    local label=$1 want=$2 state mixed=0
    state=$(lists_digest)
    if [ "$state" = "$OLD" ]; then
        n_old=$((n_old + 1))
    elif [ "$state" = "$NEW" ]; then
        n_new=$((n_new + 1))
    elif [ "$want" = mix-allowed ]; then
        echo "$label: a mix of the old and the new lists (expected here)"
    elif whole_file_mix; then
        # A timed kill that landed between two of the commit's renames (the
        # commit is a burst of renames, but on a loaded machine a kill can
        # still fall inside it): every file is whole, the old one or the
        # new one, which is what the strace kills below show on purpose.
        n_mix=$((n_mix + 1))
        mixed=1
        echo "$label: a mix of whole old and new files (the kill came inside the commit)"
    else
        check "$label: the lists dir is the old or the new set, not a mix" false
        (cd "$LISTS" && ls -l --time-style=+%s.%N) >&2
    fi
    check "$label: apt-get check reads the lists" apt-get -o Dir::Cache="$T/apt-cache" -qq check
    local policy
    policy=$(apt-cache -o Dir::Cache="$T/apt-cache" policy pkg7 2>&1)
    local candidates="1\.5|2\.5"  # the old set's or the new set's
    # A mix (allowed, or whole files from a kill inside the commit) may have
    # stable's new index beside testing's old one.
    { [ "$want" = mix-allowed ] || [ "$mixed" = 1 ]; } && candidates+="|2\.0"
    check "$label: apt-cache policy reads the lists ($policy)" grep -Eq "Candidate: ($candidates)$" <<<"$policy"
    run_update -q
    check "$label: a rerun succeeds ($ERR)" test "$RC" = 0
    check "$label: the rerun leaves the new set" test "$(lists_digest)" = "$NEW"
}

# Kills through a run without a slow server: the time of a whole run is
# measured here (it varies with the load), and the delays grow by a
# fifteenth of it up to a little beyond, so they cover the lock, the rounds,
# the commit, the cache build and the end.
restore_old
start=$(date +%s%N)
run_update -q
full_ms=$((($(date +%s%N) - start) / 1000000))
check "a whole update from the old set succeeds" test "$RC" = 0
echo "a whole update takes $full_ms ms"
for i in $(seq 0 17); do
    ms=$((full_ms * i / 15))
    kill_at "no drip, ${ms} ms" "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
done
# The InRelease of testing dripping (1 ms a byte): kills during the first round.
for delay in 0.3 0.8 1.3; do
    misbehave '{"/dists/testing/InRelease": {"drip": 0.001}}'
    kill_at "InRelease dripping, ${delay} s" "$delay"
done
# testing's Packages.xz dripping (20 ms a byte): kills during the index
# round, after the stable index may have arrived already.
for delay in 0.3 0.9 1.5; do
    misbehave '{"/dists/testing/main/binary-amd64/Packages.xz": {"drip": 0.02}}'
    kill_at "Packages.xz dripping, ${delay} s" "$delay"
done

# Inside the commit: strace holds every rename for 300 ms before it runs,
# and the kill comes while the rename after the K-th rename into the lists
# dir waits. The commit is a burst of renames (microseconds without
# strace), so only this way can a kill land between two of them: the lists
# are then a mix, which apt still reads and the next update repairs (the
# old Release file does not vouch for the new index, so it is fetched again).

# The renames into the lists dir (not partial/) that completed.
commit_renames() { grep -Ec "rename.*, \"$LISTS/[^/]+\"\) = 0" "$T/trace" 2>/dev/null || true; }
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
    for k in 1 2 3; do
        restore_old
        strace -f -qq -e signal=none -o "$T/trace" -e trace=rename,renameat,renameat2 \
            -e inject=rename,renameat,renameat2:delay_enter=300000 "$APTUS" update -q >"$T/killed-out" 2>&1 &
        tracer=$!
        for _ in $(seq 300); do
            [ "$(commit_renames)" -ge "$k" ] 2>/dev/null && break
            sleep 0.02
        done
        kill -9 "$(pgrep -P "$tracer")" 2>/dev/null
        wait "$tracer" 2>/dev/null
        points=$((points + 1))
        check "commit, after rename $k: the kill came inside the commit" \
            test "$(commit_renames)" = "$k"
        after_kill "commit, after rename $k" mix-allowed
    done
else
    echo "NOTE: no strace (or no ptrace here): the kills inside the commit are not tried"
fi

echo "kill points: $points (old set after $n_old, new set after $n_new, whole-file mix after $n_mix)"
check "some kills left the old set ($n_old)" test "$n_old" -gt 0
check "some kills left the new set ($n_new)" test "$n_new" -gt 0
check "at least 20 kill points" test "$points" -ge 20

finish
