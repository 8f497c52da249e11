#!/bin/bash
# A cdrom: source as apt-cdrom leaves it: "deb cdrom:[LABEL]/ stable main",
# the disc's InRelease and Packages copied into the lists, the disc at
# Acquire::cdrom::mount, mounted and unmounted by the commands of
# Acquire::cdrom::<mount>/::Mount and ::UMount (here: renaming a directory,
# as APT's own tests do). update answers from the copies without touching
# the disc; a download mounts it, checks its label, reads the file and
# unmounts it again; a wrong disc or a mount that fails is an error.
source "$(dirname "$0")/lib/update_repo.sh"
update_setup
make_suite stable --packages "hello=1.0" >/dev/null

LABEL="Aptus Test Disc 1"
MNT=$T/media/cdrom
mkdir -p "$T/media/cdrom-out/.disk"
cp -a "$REPO/dists" "$REPO/pool" "$T/media/cdrom-out/"
printf '%s' "$LABEL" >"$T/media/cdrom-out/.disk/info"
cat >>"$SB/apt.conf" <<CONF
Acquire::cdrom::mount "$MNT";
Acquire::cdrom::"$MNT/"::mount "mv $T/media/cdrom-out $MNT && echo mount >>$T/mounts";
Acquire::cdrom::"$MNT/"::umount "mv $MNT $T/media/cdrom-out && echo umount >>$T/mounts";
CONF
echo "deb [signed-by=$KEYRING] cdrom:[$LABEL]/ stable main" >"$SB/etc/apt/sources.list"
# What apt-cdrom add copies: the Release file and the uncompressed indices,
# under the names of "cdrom://LABEL/" (blanks as %20).
prefix="$LISTS/Aptus%20Test%20Disc%201_dists_stable"
cp "$REPO/dists/stable/InRelease" "${prefix}_InRelease"
cp "$REPO/dists/stable/main/binary-amd64/Packages" "${prefix}_main_binary-amd64_Packages"

run_update
check "update of the disc's source exits 0 ($RC)" test "$RC" = 0
check "its InRelease is a hit" contains "$OUT" "Hit:1 cdrom://$LABEL stable InRelease"
check "no warning, no error: $ERR" not_contains "$ERR" ":"
check "update left the disc alone" test ! -e "$T/mounts"
check "the copies are still in the lists" test -s "${prefix}_main_binary-amd64_Packages"

OUT=$("$APTUS" policy hello 2>&1)
check "policy names the disc" contains "$OUT" "500 cdrom://$LABEL stable/main amd64 Packages"

mkdir "$T/dl"
OUT=$(cd "$T/dl" && "$APTUS" download hello 2>&1)
RC=$?
check "download from the disc exits 0 ($RC)" test "$RC" = 0
deb=$(ls "$T/dl"/hello_1.0_*.deb 2>/dev/null)
check "the .deb is the disc's" cmp -s "$deb" "$(find "$T/media/cdrom-out/pool" -name 'hello_1.0_*.deb' | head -1)"
check "the disc was mounted once and unmounted again: $(tr '\n' ' ' <"$T/mounts" 2>/dev/null)" \
    test "$(tr '\n' ' ' <"$T/mounts" 2>/dev/null)" = "mount umount "
check "and is out again" test -d "$T/media/cdrom-out" -a ! -e "$MNT"

printf '%s' "Another Disc" >"$T/media/cdrom-out/.disk/info"
rm -f "$T/dl"/*.deb "$T/mounts"
OUT=$(cd "$T/dl" && "$APTUS" download hello 2>&1)
RC=$?
check "another disc in the drive: exit 100 ($RC)" test "$RC" = 100
check "says which disc it found: $OUT" contains "$OUT" "Wrong CD-ROM in $MNT/: it is 'Another Disc', not '$LABEL'"
check "nothing downloaded" test -z "$(ls "$T/dl")"
check "the wrong disc is unmounted again" test "$(tr '\n' ' ' <"$T/mounts" 2>/dev/null)" = "mount umount "

printf '%s' "$LABEL" >"$T/media/cdrom-out/.disk/info"
mv "$T/media/cdrom-out" "$T/media/elsewhere"
OUT=$(cd "$T/dl" && "$APTUS" download hello 2>&1)
RC=$?
check "no disc to mount: exit 100 ($RC)" test "$RC" = 100
check "says so: $OUT" contains "$OUT" "Unable to mount the CD-ROM at $MNT/"
finish
