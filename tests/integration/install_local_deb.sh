#!/bin/bash
# Local packages as apt 3.0 takes them: `install ./foo.deb` (its control file
# read from the .deb, its dependencies from the signed loopback archive),
# `show ./foo.deb`, --with-source for a .deb or a Packages file, with real
# dpkg in a sandbox root and side by side with real apt on a twin. Bad files
# get apt's errors; a word without ./ is a package name.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

spec "libdep|1.0" "other|1.0" >"$T/spec.json"
install_suite stable "$T/spec.json"

# A package of our own, its control file with a blank line before and after
# the fields (dpkg-deb keeps them; apt reads it all the same).
mkdir -p "$T/work/local-app/DEBIAN" "$T/work/incoming"
printf '\nPackage: local-app\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDepends: libdep\nDescription: a package built here\n long text\n\n' \
    >"$T/work/local-app/DEBIAN/control"
dpkg-deb --root-owner-group --build "$T/work/local-app" "$T/work/incoming/local-app_1.0_all.deb" >/dev/null
cd "$T/work" || exit 1
ln -s "$APTUS" "$T/work/apt-get"
twin "$T/twin"

aptus_run install -s ./incoming/local-app_1.0_all.deb
check "install -s ./x.deb exits 0 ($ERR)" test "$RC" = 0
check "apt's note names the package" contains "$OUT" "Note, selecting 'local-app' instead of './incoming/local-app_1.0_all.deb'"
check "the .deb's version, from local-deb" contains "$OUT" "Inst local-app (1.0 local-deb [all])"
check "its dependency from the archive" contains "$OUT" "Inst libdep (1.0"
"$T/work/apt-get" install -s ./incoming/local-app_1.0_all.deb >"$T/ours" 2>&1
APT_CONFIG=$T/twin/apt.conf apt-get install -s ./incoming/local-app_1.0_all.deb >"$T/theirs" 2>&1
# apt 3.0 says which package it selected (the host's apt 2.6 does not).
grep -v "^Note, selecting 'local-app'" "$T/ours" >"$T/ours-2.6"
check "apt-get -s prints what apt prints: $(diff "$T/theirs" "$T/ours-2.6" | head -5 | tr '\n' ' ')" \
    cmp -s "$T/theirs" "$T/ours-2.6"

aptus_run install -s incoming/local-app_1.0_all.deb
check "without ./ the word is a package name, not found" test "$RC" = 100
aptus_run install -s /dev/null
check "/dev/null is refused" test "$RC" = 100
check "with apt's error" test "$ERR" = "E: Unsupported file /dev/null given on commandline"
echo "not a package" >"$T/work/bogus.deb"
aptus_run install -s ./bogus.deb
check "a .deb that is no archive is refused" test "$RC" = 100
check "apt's first line" contains "$ERR" "E: Invalid archive signature"
check "the file is named" contains "$ERR" "E: Could not read meta data from $T/work/bogus.deb"
check "and apt's last line" contains "$ERR" "E: The package lists or status file could not be parsed or opened."

aptus_run show ./incoming/local-app_1.0_all.deb
check "show ./x.deb shows its record" contains "$OUT" "Package: local-app"
check "with its long description" contains "$OUT" " long text"
# Every compression dpkg-deb writes the control member in.
for z in gzip xz zstd none; do
    dpkg-deb --root-owner-group -Z"$z" --build "$T/work/local-app" "$T/work/z-$z.deb" >/dev/null 2>&1 || continue
    aptus_run show "$T/work/z-$z.deb"
    check "a control.tar of compression $z is read" contains "$OUT" "Package: local-app"
done
aptus_run search local-app --with-source ./incoming/local-app_1.0_all.deb
check "search --with-source finds it in local-deb" contains "$OUT" "local-app/local-deb 1.0 all"
aptus_run install -s --with-source ./incoming/local-app_1.0_all.deb
check "--with-source alone installs nothing" contains "$OUT" "Installing: 0,"

# A pin that forbids the version: the .deb named is installed all the same.
printf 'Package: local-app\nPin: version 1.0\nPin-Priority: -1\n' >"$SB/etc/apt/preferences"
aptus_run install -y ./incoming/local-app_1.0_all.deb
rm -f "$SB/etc/apt/preferences"
check "install -y ./x.deb exits 0 ($ERR)" test "$RC" = 0
check "local-app installed" test "$(installed local-app)" = 1.0
check "libdep installed" test "$(installed libdep)" = 1.0
check "libdep is automatic" contains "$("$APTUS" mark showauto 2>/dev/null)" libdep
check "the cache file was left to the configured sources" not_contains "$("$APTUS" list local-app 2>/dev/null)" local-deb
aptus_run install -s ./incoming/local-app_1.0_all.deb
check "the same .deb again is already installed" contains "$OUT" "local-app is already the newest version (1.0)."

# dpkg's record differs from the .deb (its Depends dropped): apt holds
# them as two versions and installs the .deb again, as an upgrade (APT
# 3.0.4 says "Upgrading: 1": the .deb's version is listed first).
sed -i '/^Depends: libdep/d' "$SB/var/lib/dpkg/status"
aptus_run install -s ./incoming/local-app_1.0_all.deb
check "a .deb that is not what dpkg recorded is installed again" contains "$OUT" "Upgrading: 1,"

# "./x.deb/experimental": what the .deb needs is taken from that release
# where the candidates cannot meet it (apt's release walk).
make_suite experimental --packages "other=2.0" >/dev/null
set_sources stable experimental
printf 'Package: *\nPin: release a=experimental\nPin-Priority: 1\n' >"$SB/etc/apt/preferences.d/experimental"
"$APTUS" update -q >/dev/null 2>&1
mkdir -p "$T/work/walker/DEBIAN"
printf 'Package: walker\nVersion: 1\nArchitecture: all\nMaintainer: T <t@example.org>\nDepends: other (>= 2)\nDescription: d\n' \
    >"$T/work/walker/DEBIAN/control"
dpkg-deb --root-owner-group --build "$T/work/walker" "$T/work/walker_1_all.deb" >/dev/null
aptus_run install -s ./walker_1_all.deb
check "without a release its dependency cannot be met (rc $RC)" test "$RC" = 100
aptus_run install -s ./walker_1_all.deb/experimental
check "./x.deb/experimental exits 0 ($ERR)" test "$RC" = 0
check "the dependency comes from experimental" contains "$OUT" "Inst other (2.0"
check "the note names the file without the release" contains "$OUT" "Note, selecting 'walker' instead of './walker_1_all.deb'"
rm -f "$SB/etc/apt/preferences.d/experimental"
set_sources stable
"$APTUS" update -q >/dev/null 2>&1

# A Packages file beside its packages; a '%' in a file name is the name's own.
mkdir -p "$T/work/v2/DEBIAN"
sed 's/^Version: 1.0/Version: 2.0/' "$T/work/local-app/DEBIAN/control" >"$T/work/v2/DEBIAN/control"
dpkg-deb --root-owner-group --build "$T/work/v2" "$T/work/incoming/local-app_1%3a1.0_all.deb" >/dev/null
{
    echo "Package: local-app"
    echo "Architecture: all"
    echo "Version: 2.0"
    echo "Depends: libdep"
    echo "Filename: incoming/local-app_1%3a1.0_all.deb"
    echo "Size: $(stat -c %s incoming/local-app_1%3a1.0_all.deb)"
    echo "SHA256: $(sha256sum incoming/local-app_1%3a1.0_all.deb | cut -d' ' -f1)"
    echo "Description: from a Packages file"
} | gzip >"$T/work/Packages.gz"
aptus_run policy local-app --with-source ./Packages.gz
check "policy lists the Packages file by its path" contains "$OUT" "500 $T/work/Packages.gz"
aptus_run install -s --with-source ./Packages.gz local-app
check "install --with-source ./Packages.gz takes its version" contains "$OUT" "Inst local-app [1.0] (2.0"
aptus_run install --print-uris -qq --with-source ./Packages.gz local-app
check "its file is beside the Packages file" contains "$OUT" "'file:$T/work/incoming/local-app_1%"
aptus_run install -y --with-source ./Packages.gz local-app
check "install -y --with-source exits 0 ($ERR)" test "$RC" = 0
check "the package came from the Packages file's directory" test "$(installed local-app)" = 2.0

# check --json: a dependency dpkg was forced to drop.
dpkg --root="$SB" --force-script-chrootless --force-depends -r libdep >/dev/null 2>&1
aptus_run check --json
check "check --json exits 100 on a broken system" test "$RC" = 100
check "it names the broken relation: $OUT" test "$(python3 -c 'import json,sys; b=json.load(sys.stdin)["broken"][0]; r=b["relations"][0]; print(b["package"], r["kind"], r["alternatives"][0]["name"], r["alternatives"][0]["state"])' <<<"$OUT")" = "local-app Depends libdep not-installed"
finish
