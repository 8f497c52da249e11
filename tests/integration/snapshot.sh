#!/bin/bash
# APT 3.0's snapshots (-S ID / --snapshot ID, the sources' Snapshot option):
# three signed loopback archives, the repository's own and two snapshots of
# it under /T1/ and /T2/. The snapshot's URI comes from the Release's
# Snapshots field or Acquire::Snapshots::URI::Host::<host>; update, policy,
# list and install read the snapshot named and leave the others' lists alone.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

make_suite stable --packages "hello=3.0,libfoo=3.0" --snapshots "$URL/@SNAPSHOTID@/" >/dev/null
python3 "$LIB/make_repo.py" "$REPO/T1" stable --gnupghome "$GNUPGHOME" --key "$KEY" --packages "hello=1.0,libfoo=1.0" >/dev/null
python3 "$LIB/make_repo.py" "$REPO/T2" stable --gnupghome "$GNUPGHOME" --key "$KEY" --packages "hello=2.0" >/dev/null
set_sources stable

run_update
check "a plain update exits 0 ($ERR)" test "$RC" = 0
aptus_run policy hello
check "without -S the repository's own version" contains "$OUT" "Candidate: 3.0"

# The Release just stored says where its snapshots are.
run_update -S T1
check "update -S T1 exits 0 ($ERR)" test "$RC" = 0
check "it fetched from the snapshot" contains "$OUT" "$URL/T1 stable InRelease"
run_update --snapshot T2 --no-list-cleanup
check "update --snapshot T2 exits 0 ($ERR)" test "$RC" = 0
aptus_run policy hello -S T1
check "policy -S T1: the snapshot's version" contains "$OUT" "Candidate: 1.0"
check "from the snapshot's URI" contains "$OUT" "500 $URL/T1 stable/main amd64 Packages"
aptus_run policy libfoo -S T2
check "a package only other snapshots have is not there" contains "$ERR" "Unable to locate package libfoo"
aptus_run policy hello
check "without -S the repository's own lists are still there" contains "$OUT" "Candidate: 3.0"

# Acquire::Snapshots::URI::Host wins, for a repository whose Release says nothing.
make_suite stable --packages "hello=3.0,libfoo=3.0" >/dev/null
run_update
echo "Acquire::Snapshots::URI::Host::127.0.0.1 \"$URL/@SNAPSHOTID@/\";" >>"$SB/apt.conf"
run_update -S T1
check "update -S T1 with the host's template exits 0 ($ERR)" test "$RC" = 0
run_update -S T2 --no-list-cleanup
check "--no-list-cleanup keeps T1's lists" test -n "$(ls "$LISTS" | grep _T1_dists_stable_InRelease)"
aptus_run install -s hello -S T2
check "install -s -S T2 exits 0 ($ERR)" test "$RC" = 0
check "installs the snapshot's version" contains "$OUT" "Inst hello (2.0"
aptus_run install -y hello -S T1
check "install -y -S T1 exits 0 ($ERR)" test "$RC" = 0
check "the snapshot's package is installed" test "$(installed hello)" = 1.0
aptus_run show hello/now
check "show NAME/now: the installed version (the dpkg status is the release 'now')" contains "$OUT" "Version: 1.0"

# The entry's own word: disable, or a snapshot of its own.
echo "Snapshot: disable" >>"$SB/etc/apt/sources.list.d/test.sources"
aptus_run policy hello -S T1
check "Snapshot: disable ignores -S" contains "$OUT" "Candidate: 3.0"
sed -i 's/^Snapshot: .*/Snapshot: T2/' "$SB/etc/apt/sources.list.d/test.sources"
aptus_run policy hello
check "Snapshot: T2 reads T2 without -S" contains "$OUT" "Candidate: 2.0"

# An entry that asks for snapshots where there are none is an error.
sed -i '/^Acquire::Snapshots/d' "$SB/apt.conf"
sed -i 's/^Snapshot: .*/Snapshot: enable/' "$SB/etc/apt/sources.list.d/test.sources"
aptus_run policy hello -S T1
check "Snapshot: enable without a snapshot URI fails" test "$RC" = 100
check "and says so" contains "$ERR" "Snapshots not supported for $URL"
finish
