#!/bin/bash
# What APT's own integration suite found when it ran against aptus through
# the apt-get/apt-cache/apt links, each checked here on a loopback
# repository and real dpkg (the suite itself is too slow for CI):
# - dpkg is told name:all for an Architecture: all package (apt's native
#   architecture may not be dpkg's);
# - apt-get's upgrade lists what it keeps back and has no "additional" block;
# - APT::Get::HideAutoRemove=small gives only the count, SUDO_USER the sudo;
# - "Reading state information..." only when extended_states exists;
# - apt-get's "Need to get X/Y" counts what is already in archives/, and
#   "After this operation" is said even for 0 B;
# - apt-cache search prints "name - summary" in the order of the index;
# - apt show --full has APT-Release; apt list --verbose the summaries;
# - apt-cache depends with APT::Cache::ShowOnlyFirstOr;
# - apt-get indextargets --format and its filters;
# - apt's options every command accepts (--solver internal, --comment, ...);
# - "Recommended packages:" leaves out what is installed, whatever its version;
# - apt-get -s's " [pkg:arch ]" after a step that leaves pkg broken;
# - apt-get plans a named essential removal, with apt's warning;
# - apt -qq keeps the plan; --solver 3.1; update makes lists/auxfiles;
# - apt show's two passes over a bad pattern;
# - "no longer required" names what the plan itself installs for nothing;
# - apt list's APT::Cmd::format;
# - policy's "release c=" for a flat repository; -t now; regular expressions
#   as words; pin priorities out of a short's range; a pin without a
#   priority in apt's words (aptus's own name adds the file and line);
# - update's advice on the sources: Signed-By, credentials in a URI, the
#   one-line format (--audit);
# - a flat repository's Get: line names no architecture; quiet::NoStatistic
#   leaves out the "Fetched" line;
# - a conflicts loop between upgrades removes old versions for a while;
# - plan JSON's "essential" for an Essential package's upgrade.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
BIN=$T/bin
mkdir -p "$BIN"
for name in apt-get apt-cache apt; do ln -s "$APTUS" "$BIN/$name"; done

run() {
    "$@" >"$T/out" 2>&1 </dev/null
    RC=$?
    OUT=$(cat "$T/out") ERR=""
}

# A dpkg that writes down how it was called, then is the real one.
cat >"$T/dpkg" <<EOF
#!/bin/sh
echo "\$*" >>"$T/dpkg.calls"
exec /usr/bin/dpkg "\$@"
EOF
chmod 755 "$T/dpkg"
echo "Dir::Bin::dpkg \"$T/dpkg\";" >>"$SB/apt.conf"

spec "keep|1.0" "simple|1.0" "indep|1.0|Architecture=all" "either|1.0|Depends=simple ~ indep" >"$T/spec1.json"
install_suite stable "$T/spec1.json"

rm -f "$SB/var/lib/apt/extended_states"
run "$BIN/apt-get" install -s keep
check "no extended_states: no 'Reading state information...': $OUT" not_contains "$OUT" "Reading state information"
run "$BIN/apt-get" upgrade -y
check "an upgrade with nothing to do makes no extended_states (rc $RC)" test ! -e "$SB/var/lib/apt/extended_states"

run "$BIN/apt-get" install -y keep simple indep --comment "from the findings test"
check "apt-get install keep simple indep (rc $RC)" test "$RC" = 0
check "indep is installed" test "$(installed indep)" = "1.0"
check "dpkg configured indep as indep:all: $(grep -e --configure "$T/dpkg.calls")" \
    grep -q -e '--configure.* indep:all' "$T/dpkg.calls"
check "history has the --comment" grep -q '^Comment: from the findings test$' "$SB/var/log/apt/history.log"
run "$BIN/apt-get" install -s keep
check "extended_states now: 'Reading state information...': $OUT" contains "$OUT" "Reading state information..."

spec "keep|2.0|Depends=newdep" "newdep|1.0" "simple|2.0" "indep|1.0|Architecture=all" \
    "either|1.0|Depends=simple ~ indep" "prov|1.0|Provides=vname" \
    "wants|1.0|Suggests=nosuch1 ~ nosuch2|Recommends=nosuch3" "pullsup|1.0|Depends=simple (>= 2.0)" \
    "pa|1.0|Provides=vv" "pb|1.0|Provides=vv" "pc|1.0|Provides=vv2" \
    "wantsnewer|1.0|Recommends=simple (>= 3.0)" >"$T/spec2.json"
install_suite stable "$T/spec2.json"
run "$BIN/apt-get" upgrade -s --solver internal
check "apt-get upgrade -s keeps keep back and says so: $OUT" contains "$OUT" "The following packages have been kept back:
  keep
The following packages will be upgraded:
  simple
1 upgraded, 0 newly installed, 0 to remove and 1 not upgraded."
run "$BIN/apt-get" upgrade -s --with-new-pkgs
check "upgrade --with-new-pkgs: no 'additional packages' block: $OUT" not_contains "$OUT" "additional packages"
check "upgrade --with-new-pkgs: newdep is new: $OUT" contains "$OUT" "The following NEW packages will be installed:
  newdep"

run "$BIN/apt-get" install -s wants
check "apt-get's Suggested/Recommended blocks: $OUT" contains "$OUT" "Suggested packages:
  nosuch1 | nosuch2
Recommended packages:
  nosuch3
The following NEW packages will be installed:
  wants"
run "$BIN/apt-get" install -s wantsnewer
check "a Recommends of a package that is installed, too old, is not listed: $OUT" not_contains "$OUT" "Recommended packages"
run "$BIN/apt-get" install -s pullsup
check "an upgrade pulled in is an 'additional' package: $OUT" contains "$OUT" "The following additional packages will be installed:
  simple
The following NEW packages will be installed:
  pullsup
The following packages will be upgraded:
  simple"

run "$BIN/apt-get" install -qq -s pullsup
check "-qq: no plan, only -s's lines: $OUT" test "$(grep -cv '^\(Inst\|Conf\) ' "$T/out")" = 0

run "$BIN/apt-get" install -s vv
check "a virtual package's providers in apt's order (the last read first): $OUT" contains "$OUT" "Package vv is a virtual package provided by:
  pb 1.0
  pa 1.0
You should explicitly select one to install."

mkdir -p "$SB/etc/apt/preferences.d"
printf 'Package: pc\nPin: version *\nPin-Priority: -1\n' >"$SB/etc/apt/preferences.d/pc"
run "$BIN/apt-get" install -s vv2
check "providers that are not candidates are listed so: $OUT" contains "$OUT" "Package vv2 is a virtual package provided by:
  pc 1.0 [Not candidate version]"
rm "$SB/etc/apt/preferences.d/pc"

run "$BIN/apt-get" upgrade --trivial-only
check "--trivial-only upgrade fails (rc $RC)" test "$RC" = 100
check "it tells what it would fetch and the space: $OUT" contains "$OUT" "Need to get "
check "'After this operation' even when it is 0 B: $OUT" contains "$OUT" "After this operation, 0 B of additional disk space will be used."
run "$BIN/apt-get" upgrade -d -y
check "apt-get upgrade -d (rc $RC)" test "$RC" = 0
run "$BIN/apt-get" upgrade --trivial-only
check "the archive is there: 'Need to get 0 B/...': $OUT" grep -q '^Need to get 0 B/[0-9.]* [kM]*B of archives\.$' "$T/out"

"$BIN/apt-mark" auto simple >/dev/null 2>&1 || "$APTUS" mark auto simple >/dev/null
run "$BIN/apt-get" install -s --only-upgrade simple newdep
check "--only-upgrade: no mark changes: $OUT" not_contains "$OUT" "set to manually installed"
check "--only-upgrade: what is not installed is skipped: $OUT" contains "$OUT" "Skipping newdep, it is not installed and only upgrades are requested."
"$APTUS" mark install newdep >/dev/null 2>&1
run "$BIN/apt-get" dselect-upgrade -s
check "dselect-upgrade installs what dpkg's selections ask for: $OUT" grep -q '^Inst newdep ' "$T/out"
"$APTUS" mark remove newdep >/dev/null 2>&1
"$APTUS" mark hold newdep >/dev/null 2>&1
run "$BIN/apt-get" install -s newdep
check "a name held before it was installed is a held change when named: $OUT" contains "$OUT" "The following held packages will be changed:
  newdep"
"$APTUS" mark unhold newdep >/dev/null 2>&1
run "$BIN/apt" list simple keep -o quiet=0
check "apt list: the hint only when one package is listed: $OUT" not_contains "$OUT" "additional version"

run "$BIN/apt-get" install -s --reinstall simple
check "--reinstall: no mark changes: $OUT" not_contains "$OUT" "set to manually installed"
run "$BIN/apt-get" install -s -o APT::Get::HideAutoRemove=small newdep
check "HideAutoRemove=small: the count only: $OUT" contains "$OUT" "1 package was automatically installed and is no longer required.
Use 'apt autoremove' to remove it."
run "$BIN/apt-get" install -s -o APT::Get::HideAutoRemove=true newdep
check "HideAutoRemove=true: nothing: $OUT" not_contains "$OUT" "no longer required"
if [ "$(id -u)" = 0 ]; then
    SUDO_USER=nobody "$BIN/apt-get" install -s newdep >"$T/out" 2>&1
    check "under sudo: 'sudo apt autoremove'" grep -q "^Use 'sudo apt autoremove' to remove it.$" "$T/out"
fi

# apt-cache search: apt-cache's own lines, in the order of the Packages file.
run "$BIN/apt-cache" search "test package"
want=$(awk '/^Package: /{print $2 " - test package " $2}' "$SB"/var/lib/apt/lists/*_Packages)
check "apt-cache search: index order, 'name - summary': $OUT" test "$OUT" = "$want"

rm -rf "$T/cache/archives/partial" "$SB/var/lib/apt/lists/partial"
run "$BIN/apt-get" clean
check "apt-get clean (rc $RC): $OUT" test "$RC" = 0
check "clean makes the partial dirs, as apt's lock does" test -d "$T/cache/archives/partial" -a -d "$SB/var/lib/apt/lists/partial"
if [ "$(id -u)" = 0 ]; then
    chown nobody "$SB/var/lib/apt/lists/partial"
    run "$BIN/apt-get" clean
    check "clean works on a partial dir of another owner (apt's _apt) (rc $RC): $OUT" test "$RC" = 0
    chown root "$SB/var/lib/apt/lists/partial"
fi

run "$BIN/apt-get" install -s '?name(^keep$)-'
check "a pattern with apt's remove modifier: $OUT" grep -q '^Remv keep ' "$T/out"

run "$BIN/apt-cache" search vname
check "apt-cache search finds a package by a name it provides: $OUT" test "$OUT" = "prov - test package prov"

run "$BIN/apt" show --full simple=2.0
check "apt show --full has APT-Release: $OUT" grep -q '^APT-Release: .*a=stable,.*c=main,b=amd64$' "$T/out"
run "$BIN/apt" list --verbose simple
check "apt list --verbose: the summary under the line: $OUT" contains "$OUT" "simple/stable 2.0 amd64 [upgradable from: 1.0]
  test package simple
"

run "$BIN/apt" list simple -o quiet=0
check "apt list: the hint at the versions -a would show: $OUT" contains "$OUT" "N: There is 1 additional version. Please use the '-a' switch to see it"

if command -v script >/dev/null; then
    # On a terminal with quiet::NoUpdate (APT's test setup): each step once,
    # on a line of its own, never erased.
    script -qec "env PAGER=cat $BIN/apt list -o quiet::NoUpdate=1 simple" /dev/null </dev/null | tr -d '\r' >"$T/out"
    check "quiet::NoUpdate on a terminal: '$(head -1 "$T/out")'" test "$(head -1 "$T/out")" = "Listing..."
fi

run "$BIN/apt-cache" depends either -o APT::Cache::ShowOnlyFirstOr=1
check "depends, ShowOnlyFirstOr: $OUT" test "$OUT" = "either
  Depends: simple"
run "$BIN/apt-cache" depends either
check "depends: the or-group: $OUT" test "$OUT" = "either
 |Depends: simple
  Depends: indep"

run "$BIN/apt-get" indextargets --format '$(CREATED_BY) $(SUITE) $(TRUSTED)' 'Identifier: Packages' 'architecture: amd64'
check "indextargets --format with a filter and release info: $OUT" test "$OUT" = "Packages stable yes"
run "$BIN/apt-get" indextargets --no-release-info --format '$(METAKEY)' 'Created-By: Packages'
check "indextargets --no-release-info --format: $OUT" test "$OUT" = "main/binary-amd64/Packages
main/binary-all/Packages"

# A repository without any Release file: apt's words, and no Release.gpg line.
mkdir -p "$T/norelease/dists/x"
echo "deb file:$T/norelease x main" >"$SB/etc/apt/sources.list.d/norelease.list"
run "$BIN/apt-get" update
check "no Release: apt's file-not-found text: $OUT" contains "$OUT" "Release (2: No such file or directory)"
check "no Release: no Release.gpg line: $OUT" not_contains "$OUT" "Release.gpg"
check "no Release: apt's error: $OUT" contains "$OUT" "E: The repository 'file:$T/norelease x Release' does not have a Release file."
rm "$SB/etc/apt/sources.list.d/norelease.list"

# A flat local repository whose Release names no Suite: apt-get -s names
# the host, "localhost" for a local one.
mkdir -p "$T/flat"
printf 'Package: flatpkg\nVersion: 1.0\nArchitecture: amd64\nFilename: ./flatpkg_1.0_amd64.deb\nSize: 10\nDescription: flat\n\n' >"$T/flat/Packages"
{ echo "Date: $(date -uR)"; echo "SHA256:"; echo " $(sha256sum <"$T/flat/Packages" | cut -d' ' -f1) $(stat -c %s "$T/flat/Packages") Packages"; } >"$T/flat/Release"
echo "deb [trusted=yes] file:$T/flat ./" >"$SB/etc/apt/sources.list.d/flat.list"
run "$BIN/apt-get" update
run "$BIN/apt-get" install -s flatpkg
check "flat repository without Suite: 'localhost': $OUT" contains "$OUT" "Inst flatpkg (1.0 localhost [amd64])"
run "$BIN/apt-cache" policy
check "policy: a flat repository's empty component is still said (release c=): $OUT" has_text "$OUT" \
"file:$T/flat ./ Packages
     release c=
"
rm "$SB/etc/apt/sources.list.d/flat.list"
# The same served over http: apt's Get: line for a flat repository has no
# architecture; quiet::NoStatistic drops the "Fetched" line.
mkdir -p "$REPO/flat"
printf '0123456789' >"$REPO/flat/flatpkg_1.0_amd64.deb"
printf 'Package: flatpkg\nVersion: 1.0\nArchitecture: amd64\nFilename: ./flatpkg_1.0_amd64.deb\nSize: 10\nSHA256: %s\nDescription: flat\n\n' \
    "$(sha256sum <"$REPO/flat/flatpkg_1.0_amd64.deb" | cut -d' ' -f1)" >"$REPO/flat/Packages"
{ echo "Date: $(date -uR)"; echo "SHA256:"; echo " $(sha256sum <"$REPO/flat/Packages" | cut -d' ' -f1) $(stat -c %s "$REPO/flat/Packages") Packages"; } >"$REPO/flat/Release"
echo "deb [trusted=yes] $URL/flat ./" >"$SB/etc/apt/sources.list.d/flat.list"
run "$BIN/apt-get" update
run "$BIN/apt-get" install -d -y flatpkg -o quiet::NoStatistic=true
check "flat over http: the Get: line has no architecture (rc $RC): $OUT" \
    bash -c 'grep -qE "^Get:1 .* flatpkg 1\.0 \[10 B\]$" <<<"$0"' "$OUT"
check "quiet::NoStatistic: no Fetched line" not_contains "$OUT" "Fetched "
run "$BIN/apt-get" clean
run "$BIN/apt-get" install -d -y flatpkg
check "without it the Fetched line is there: $OUT" contains "$OUT" "Fetched 10 B"
rm "$SB/etc/apt/sources.list.d/flat.list"
# apt-cache policy of a word that names nothing: a regular expression.
run "$BIN/apt-cache" policy '^simp.*'
check "policy '^simp.*' shows simple: $OUT" contains "$OUT" "simple:"
check "and does not call it unknown" not_contains "$OUT" "Unable to locate"
# Pin priorities are shorts: out of range is an error; -32768 counts as -32767.
printf 'Package: simple\nPin: release a=stable\nPin-Priority: 32768\n' >"$SB/etc/apt/preferences"
run "$BIN/apt-cache" policy simple
check "Pin-Priority 32768 is refused (rc $RC): $OUT" contains "$OUT" \
    "E: $SB/etc/apt/preferences: Value 32768 is outside the range of valid pin priorities (-32768 to 32767)"
printf 'Package: simple\nPin: release a=stable\nPin-Priority: 2147483648\n' >"$SB/etc/apt/preferences"
run "$BIN/apt-cache" policy simple
check "Pin-Priority 2147483648: not even an integer first: $OUT" has_text "$OUT" \
"E: Cannot convert 2147483648 to integer: out of range
E: $SB/etc/apt/preferences: Value 2147483648 is outside"
# A pin without a priority: apt's words under apt's names, the place under aptus's.
printf 'Package: simple\nPin: release a=stable\n' >"$SB/etc/apt/preferences"
run "$BIN/apt-get" install -s simple
check "no Pin-Priority: apt's words under apt-get (rc $RC): $OUT" has_text "$OUT" \
    "E: No priority (or zero) specified for pin"
run "$APTUS" install -s simple
check "and the file and line under aptus: $OUT" has_text "$OUT" \
    "E: $SB/etc/apt/preferences:1: No priority (or zero) specified for pin"
printf 'Package: *\nPin: release a=stable\nPin-Priority: -32768\n' >"$SB/etc/apt/preferences"
run "$BIN/apt-cache" policy
check "a general pin at -32768 is -32767: $OUT" contains "$OUT" "-32767 $URL stable/main amd64 Packages"
rm "$SB/etc/apt/preferences"
# -t now: the dpkg status is the target release ("a=now"), at 990.
run "$BIN/apt-cache" policy -t now
check "-t now is a release (rc $RC)" test "$RC" = 0
check "-t now: the status file at 990: $OUT" has_text "$OUT" " 990 $SB/var/lib/dpkg/status
     release a=now"

# A malformed sources line: apt's words, its second line, nothing before.
echo "deb [trusted=yes arch+=armel http://example.invalid stable main" >"$SB/etc/apt/sources.list.d/bad.list"
run "$BIN/apt-get" update
check "bad sources line (update): apt's two errors: $OUT" test "$OUT" = "E: Malformed entry 1 in list file $SB/etc/apt/sources.list.d/bad.list ([option] not assignment)
E: The list of sources could not be read."
run "$BIN/apt" install -s simple
check "bad sources line (install): no progress line first: $OUT" test "$OUT" = "E: Malformed entry 1 in list file $SB/etc/apt/sources.list.d/bad.list ([option] not assignment)
E: The list of sources could not be read."
rm "$SB/etc/apt/sources.list.d/bad.list"

# apt-get -s after each step: what the step leaves broken and no step has
# touched yet ("Remv ntpa [1.0] [timesync:amd64 ]"); an essential package
# named for removal is planned with apt's warning under apt's names.
spec "timesync|1.0|Depends=ntpa ~ ntpb" "ntpa|1.0" "ntpb|1.0|Conflicts=ntpa" \
    "ess|1.0|Essential=yes|Depends=esslib" "esslib|1.0" >"$T/spec3.json"
install_suite stable "$T/spec3.json"
run "$BIN/apt-get" install -y timesync ess
check "installed timesync, ntpa and ess (rc $RC)" test "$(installed timesync)$(installed ess)" = "1.01.0"
run "$BIN/apt-get" install -s ntpb
check "apt-get -s: the broken package after the removal: $OUT" contains "$OUT" "Remv ntpa [1.0] [timesync:amd64 ]
Inst ntpb (1.0 stable [amd64])
Conf ntpb (1.0 stable [amd64])"
run "$BIN/apt-get" purge -s ess esslib
check "apt-get purge of an essential package is planned (rc $RC)" test "$RC" = 0
check "with the warning, and what it depends on 'due to' it: $OUT" contains "$OUT" "WARNING: The following essential packages will be removed.
This should NOT be done unless you know exactly what you are doing!
  ess esslib (due to ess)"
run "$BIN/apt-get" purge -y ess
check "-y does not remove an essential package (rc $RC): $OUT" contains "$OUT" "E: Essential packages were removed and -y was used without --allow-remove-essential."
aptus_run remove -s ess
check "aptus under its own name refuses it (rc $RC): $ERR" contains "$ERR" "is Essential and installed"

# apt -qq still shows the plan (apt-get -qq does not); --solver 3.1 is
# apt 3.0's too.
run "$BIN/apt" install -s -qq ntpb
check "apt -qq: the plan is there: $OUT" contains "$OUT" "Installing:"
run "$BIN/apt-get" install -s ntpb --solver 3.1
check "--solver 3.1 is aptus's own (rc $RC): $OUT" test "$RC" = 0
# update makes lists/auxfiles as apt does.
check "update made lists/auxfiles" test -d "$SB/var/lib/apt/lists/auxfiles"
# A pattern apt cannot parse: apt show says so at both its passes, then that
# nothing was found.
run "$BIN/apt" show '?not-a-pattern' -o quiet=0
check "apt show with a bad pattern (rc $RC): $OUT" test "$RC" = 100
check "its errors, twice, and 'No packages found': $OUT" test "$(grep -c "^E: input:0-14: error: Unrecognized pattern '?not-a-pattern'" "$T/out")$(grep -c '^N: Unable to locate package ?not-a-pattern' "$T/out")$(tail -1 "$T/out")" = "22E: No packages found"
# apt list's machine-readable lines (APT::Cmd::use-format).
run "$BIN/apt" list -qq timesync ntpa -o APT::Cmd::use-format=true -o 'APT::Cmd::format=${Package} - ${installed:Version} - ${candidate:Version}'
check "apt list with APT::Cmd::format: $OUT" test "$OUT" = "ntpa - 1.0 - 1.0
timesync - 1.0 - 1.0"
# An auto package nothing needs, upgraded, pulls in a new one: apt's hint
# names both as no longer required.
spec "timesync|1.0|Depends=ntpa ~ ntpb" "ntpa|1.0" "ntpb|1.0|Conflicts=ntpa" \
    "ess|1.0|Essential=yes|Depends=esslib" "esslib|1.0" "lonely|1.0" >"$T/spec4.json"
install_suite stable "$T/spec4.json"
run "$BIN/apt-get" install -y lonely
"$APTUS" mark auto lonely >/dev/null
spec "timesync|1.0|Depends=ntpa ~ ntpb" "ntpa|1.0" "ntpb|1.0|Conflicts=ntpa" \
    "ess|1.0|Essential=yes|Depends=esslib" "esslib|1.0" "lonely|2.0|Depends=newdep2" "newdep2|1.0" \
    >"$T/spec5.json"
install_suite stable "$T/spec5.json"
run "$BIN/apt-get" dist-upgrade -s
check "the hint names what this plan installs for an auto package: $OUT" contains "$OUT" "The following packages were automatically installed and are no longer required:
  lonely newdep2 simple"

# A conflicts loop (each new version conflicts with the others' old ones):
# no order of unpacks works, so old versions are removed for a while, as
# apt does, and real dpkg takes the whole upgrade.
spec "jre|1" "jre-lib|1" "jre-headless|1" >"$T/spec6.json"
install_suite stable "$T/spec6.json"
run "$BIN/apt-get" install -y jre jre-lib jre-headless
check "the loop's old versions are installed (rc $RC)" test "$(installed jre-lib)" = "1"
spec "jre|2|Conflicts=jre-lib (<< 2), jre-headless (<< 2)" "jre-lib|2|Conflicts=jre (<< 2), jre-headless (<< 2)" \
    "jre-headless|2|Conflicts=jre (<< 2), jre-lib (<< 2)" >"$T/spec7.json"
install_suite stable "$T/spec7.json"
run "$BIN/apt-get" dist-upgrade -s
check "-s removes two old versions before the first unpack, nothing left broken: $OUT" \
    test "$(grep -E '^(Remv|Inst|Conf)' "$T/out" | cut -c1-4 | tr '\n' ' ')" = "Remv Remv Inst Inst Inst Conf Conf Conf "
check "and no step is marked broken" not_contains "$OUT" " on "
run "$BIN/apt-get" dist-upgrade -y
check "real dpkg takes it (rc $RC): $OUT" test "$RC" = 0
check "every one of them at 2" test "$(installed jre) $(installed jre-lib) $(installed jre-headless)" = "2 2 2"

# Plan JSON: "essential" says the package is Essential, an upgrade too.
spec "basefiles|1|Essential=yes" "plain|1" >"$T/spec8.json"
install_suite stable "$T/spec8.json"
run "$BIN/apt-get" install -y basefiles plain
spec "basefiles|2|Essential=yes" "plain|2" >"$T/spec9.json"
install_suite stable "$T/spec9.json"
run "$APTUS" upgrade --json
check "plan JSON: an Essential package's upgrade is essential, another's not: $OUT" test \
    "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted((c["package"], c["action"], c["essential"]) for c in d["changes"]))' <<<"$OUT")" = \
    "[('basefiles', 'upgrade', True), ('plain', 'upgrade', False)]"

run "$BIN/apt-get" install -s simple --solver 3.0 --print-uris --mark-auto -o Debug::NoLocking=1
check "apt's options are understood by install: $OUT" not_contains "$OUT" "is not understood"
run "$BIN/apt-get" update --allow-releaseinfo-change-suite --no-download
check "and by update: $OUT" not_contains "$OUT" "is not understood"

# update's advice about the sources themselves (no download: example.org is
# never asked for anything).
advice() {
    "$@" -o quiet=0 >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    OUT=$(cat "$T/err")
}
printf 'Types: deb\nURIs: http://example.org/debian\nSuites: bookworm\nComponents: main\n' \
    >"$SB/etc/apt/sources.list.d/advice.sources"
advice "$BIN/apt" update --no-download
check "a .sources entry without Signed-By gets a notice (rc $RC): $OUT" test "$OUT" = \
    "N: Missing Signed-By in the sources.list(5) entry for 'http://example.org/debian'"
advice "$BIN/apt" update --no-download -o APT::Get::Update::SourceListWarnings::SignedBy=false
check "SourceListWarnings::SignedBy=false silences it: $OUT" test -z "$OUT"
rm "$SB/etc/apt/sources.list.d/advice.sources"
echo 'deb http://user:secret@example.org/debian/ bookworm main' >"$SB/etc/apt/sources.list.d/advice.list"
echo 'deb-src http://example.org/debian bookworm main' >>"$SB/etc/apt/sources.list.d/advice.list"
advice "$BIN/apt" update --no-download
check "credentials in a URI get a notice naming the site without them: $OUT" test "$OUT" = \
    "N: Usage of apt_auth.conf(5) should be preferred over embedding login information directly in the sources.list(5) entry for 'http://example.org/debian'"
advice "$BIN/apt" update --no-download --audit
check "--audit adds the one-line format's advice, once for deb and deb-src: $OUT" test "$OUT" = \
"N: Usage of apt_auth.conf(5) should be preferred over embedding login information directly in the sources.list(5) entry for 'http://example.org/debian'
A: The sources.list(5) entry for 'http://example.org/debian' should be upgraded to deb822 .sources
A: Missing Signed-By in the sources.list(5) entry for 'http://example.org/debian'
A: Consider migrating all sources.list(5) entries to the deb822 .sources format
A: The deb822 .sources format supports both embedded as well as external OpenPGP keys
A: See apt-secure(8) for best practices in configuring repository signing.
A: Some sources can be modernized. Run 'apt modernize-sources' to do so."
advice "$APTUS" update --no-download --audit
check "under its own name it names aptus's command: $OUT" contains "$OUT" "Run 'aptus modernize-sources' to do so."
rm "$SB/etc/apt/sources.list.d/advice.list"
finish
