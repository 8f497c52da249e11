#!/bin/bash
# kill -9 of `aptus install` and `aptus remove --auto-remove` at many points
# of their dpkg work (packages whose maintainer scripts take a moment). The
# delays are fractions of a measured whole run, so the kills land before
# dpkg, during the unpacks, the configures, the removals, the extended_states
# write and after the end. After each kill, once the orphaned dpkg let go:
# extended_states is byte for byte the old or the new file; the dpkg
# database reads; an interrupted dpkg (a journal in updates/) is reported
# by aptus with apt's advice to run `dpkg --configure -a` (and refused by
# real apt too); after that advice is followed the same command run again
# succeeds and the system (its automatic marks too) is the one a run
# without a kill leaves; dpkg
# --audit is clean and apt-get check agrees.
# Reuses install_interrupt.sh's recovery steps (lib/install_repo.sh).
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

slow='#!/bin/sh\nsleep 0.15\n'
{
    echo '['
    for i in 1 2 3 4 5 6; do
        echo " {\"name\": \"lib$i\", \"version\": \"1.0\", \"scripts\": {\"preinst\": \"$slow\", \"postinst\": \"$slow\", \"prerm\": \"$slow\", \"postrm\": \"$slow\"}},"
    done
    echo ' {"name": "top", "version": "1.0", "fields": {"Depends": "lib1, lib2, lib3, lib4, lib5, lib6"}},'
    echo ' {"name": "extra", "version": "1.0"}'
    echo ']'
} >"$T/spec.json"
install_suite stable "$T/spec.json"
aptus_run install -y extra
check "extra installed first (so extended_states and the database are not empty) ($ERR)" test "$RC" = 0
aptus_run install -y -d top
check "the .debs downloaded beforehand, so the kills land in dpkg's work ($ERR)" test "$RC" = 0

EXT=$SB/var/lib/apt/extended_states
snapshot() { rm -rf "$T/$1"; cp -a "$SB" "$T/$1"; }
restore() { rm -rf "$SB"; cp -a "$T/$1" "$SB"; }
ext_of() { if [ -e "$1/var/lib/apt/extended_states" ]; then cat "$1/var/lib/apt/extended_states"; else echo "(none)"; fi; }

# dpkg goes on after aptus died (until it next writes to the dead pipe);
# "--roo[t]" keeps the pattern from matching the shell that runs pgrep.
wait_dpkg() {
    for _ in $(seq 200); do pgrep -f -- "--roo[t]=$SB" >/dev/null || return 0; sleep 0.05; done
    return 1
}

# reference NAME BEFORE ARGS...: a run without a kill from snapshot BEFORE;
# its time (ms), extended_states and installed set are the "new" state.
reference() {
    local name=$1 before=$2
    shift 2
    restore "$before"
    local start=$(date +%s%N)
    aptus_run "$@"
    REF_MS=$((($(date +%s%N) - start) / 1000000))
    check "$name: a run without a kill succeeds ($ERR)" test "$RC" = 0
    snapshot "$name-after"
    echo "$name: a whole run takes $REF_MS ms"
}

points=0 n_interrupted=0 n_untouched=0 n_touched=0
# kill_at LABEL BEFORE AFTER MS ARGS...: from snapshot BEFORE, aptus ARGS
# killed after MS; AFTER is the snapshot of the run without a kill.
kill_at() {
    local label=$1 before=$2 after=$3 ms=$4
    shift 4
    restore "$before"
    "$APTUS" "$@" >"$T/killed-out" 2>&1 </dev/null &
    local pid=$!
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    points=$((points + 1))
    check "$label: the orphaned dpkg finishes" wait_dpkg
    if [ "$(installed_set "$SB")" = "$(installed_set "$T/$before")" ]; then
        n_untouched=$((n_untouched + 1))
    else
        n_touched=$((n_touched + 1))
    fi

    local ext
    ext=$(ext_of "$SB")
    if [ "$ext" = "$(ext_of "$T/$before")" ]; then :
    elif [ "$ext" = "$(ext_of "$T/$after")" ]; then :
    else
        check "$label: extended_states is the old or the new file, not torn or other" false
        printf '%s\n' "$ext" >&2
    fi
    check "$label: the dpkg database reads" dpkg-query --admindir="$SB/var/lib/dpkg" -W extra >/dev/null

    local journal apt_check
    journal=$(ls "$SB/var/lib/dpkg/updates" | grep -E '^[0-9]+$')
    apt_check=$(apt-get -o Dir::Cache="$T/apt-cache" -qq check 2>&1)
    aptus_run "$@"
    if [ -n "$journal" ]; then
        n_interrupted=$((n_interrupted + 1))
        check "$label: dpkg interrupted: aptus refuses with apt's advice ($ERR)" \
            test "$RC" = 100 -a "$ERR" = "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem. "
        check "$label: dpkg interrupted: real apt refuses too ($apt_check)" contains "$apt_check" "dpkg --configure -a"
        dpkg --root="$SB" --force-script-chrootless --configure -a >"$T/configure-a" 2>&1
        check "$label: dpkg --configure -a completes the interrupted work" test $? = 0
        aptus_run "$@"
    fi
    check "$label: the same command run again succeeds ($ERR)" test "$RC" = 0
    check "$label: the system is the one a run without a kill leaves" \
        test "$(installed_set "$SB")" = "$(installed_set "$T/$after")"
    # The marks too: written before dpkg runs (as apt writes them), so the
    # dependencies the killed run installed are still automatic.
    check "$label: extended_states is the one a run without a kill leaves" \
        test "$(ext_of "$SB")" = "$(ext_of "$T/$after")"
    local audit
    audit=$(dpkg --root="$SB" --audit 2>&1)
    check "$label: dpkg --audit is clean ($audit)" test -z "$audit"
    check "$label: apt-get check agrees" apt-get -o Dir::Cache="$T/apt-cache" -qq check
}

# install: top and its six dependencies (automatic).
snapshot install-before
reference install install-before install -y top
check "install: the dependencies are marked automatic" grep -q "^Package: lib1$" "$EXT"
for i in $(seq 1 12); do
    kill_at "install, kill $i/12" install-before install-after $((REF_MS * i / 12)) install -y top
done

# remove --auto-remove: top, then its six dependencies (each with a prerm and a postrm).
reference remove install-after remove -y --auto-remove top
check "remove: the marks of the removed packages went" bash -c "! grep -q '^Package: lib1$' '$EXT'"
for i in $(seq 1 10); do
    kill_at "remove, kill $i/10" install-after remove-after $((REF_MS * i / 10)) remove -y --auto-remove top
done

# The kill no timer hits reliably: after dpkg removed everything, before
# the last write of extended_states. Made by hand: the stanzas of the
# removed packages are still there (as written before dpkg ran); the rerun
# finds nothing to do and must still leave what a run without a kill leaves.
restore remove-after
cp "$T/install-after/var/lib/apt/extended_states" "$EXT"
aptus_run remove -y --auto-remove top
check "killed after dpkg, before the last write: the rerun exits 0 ($ERR)" test "$RC" = 0
check "killed after dpkg, before the last write: the rerun leaves the extended_states of a run without a kill" \
    test "$(ext_of "$SB")" = "$(ext_of "$T/remove-after")"

echo "kill points: $points (installed set unchanged after $n_untouched, changed after $n_touched; dpkg interrupted after $n_interrupted)"
check "at least 20 kill points" test "$points" -ge 20
check "some kills came before dpkg changed anything ($n_untouched)" test "$n_untouched" -gt 0
check "some kills came after dpkg changed something ($n_touched)" test "$n_touched" -gt 0

finish
