#!/bin/bash
# More of what APT's own integration suite found, on a hand-written sandbox
# (lists as update leaves them, a dpkg status; nothing is fetched, every
# install is simulated), each with apt 3.0's expected text:
# - a virtual name goes to its one provider, also as name=ver (the provided
#   version) and name/release, and a plain name to the providers the policy
#   prefers most; several are listed with the provided version;
# - a glob's notes all come before the marks; apt (the program) reads '?'
#   as no glob;
# - apt's programs refuse a request that leaves an already broken system
#   broken (unless -f), with apt's report; aptus under its own name explains;
# - a hold means hold: no other architecture's package stands in for it;
# - apt-cache show prefers a stanza's Description-en, keeps a lone
#   Description-md5, and search skips records without a description;
# - clean and autoclean never make a removed Dir::Cache again;
# - an upgrade removes nothing even with APT::Get::AutomaticRemove;
# - target= names index targets by key, not Identifier; a flat suite's
#   $(ARCH) is the native architecture;
# - an option named as a target's Identifier ("Contents=no") switches all
#   of them; --print-uris lists per host, the last host first;
# - modernize derives Signed-By per file (rocks.list's trusted.gpg.d key is
#   not given to the same release in sources.list);
# - --trivial-only refuses a plan that upgrades a package nobody named;
# - nothing an authenticated repository lists only with an MD5sum is
#   downloaded ("Insufficient information ...");
# - autoremove keeps a held package and what it needs, and says why under
#   Debug::pkgAutoRemove;
# - a request that names the broken package itself is not refused;
# - of several providers of one source, autoremove keeps those of its newest
#   source version; -V gives the hint's versions; autopurge exists;
# - a version only the dpkg status has, configuration files left, goes to
#   no solver (the EDSP dump has only the archive's version);
# - update as root says once when a file: repository is read unsandboxed
#   because the sandbox user cannot read it; the directories it makes are
#   0755 whatever the umask;
# - "Provides: bar:i386" provides bar for i386 alone (an amd64 package's
#   "bar" is not met, and apt's report says "not installable"); a version
#   that provides its own name at another version is taken for name=that
#   (apt's "Selected version"); after an external solver failed, apt's
#   report is of the named packages alone, their dependencies unfollowed.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
T=$(mktemp -d /tmp/aptus-suite-requests.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
failures=0
check() {
    local label=$1; shift
    if "$@"; then echo "ok   $label"; else echo "FAIL $label"; failures=$((failures + 1)); fi
}
# The whole text, lines in order (grep -F would take each line alone).
contains() { [[ "$1" == *"$2"* ]]; }

R=$T/root
LISTS=$R/var/lib/apt/lists
mkdir -p "$R/etc/apt/apt.conf.d" "$R/etc/apt/preferences.d" "$R/etc/apt/sources.list.d" "$LISTS/partial" \
    "$R/var/lib/dpkg" "$R/var/cache/apt/archives/partial" "$R/var/log/apt"
cat >"$R/apt.conf" <<CONF
Dir "$R/";
Dir::State::status "$R/var/lib/dpkg/status";
APT::Architecture "amd64";
APT::Architectures { "amd64"; "i386"; };
Acquire::Languages { "en"; };
Apt::Cmd::Disable-Script-Warning "true";
quiet "0";
CONF
export APT_CONFIG=$R/apt.conf
BIN=$T/bin
mkdir -p "$BIN"
for name in apt-get apt-cache apt; do ln -s "$APTUS" "$BIN/$name"; done

URI=http://archive.example/x
: >"$R/etc/apt/sources.list"
# suite SUITE [NotAutomatic]: a Release and the binary-amd64 and binary-i386
# Packages of the stanzas on stdin (amd64 ones in amd64, i386 in i386).
suite() {
    local s=$1 na=${2:-}
    echo "deb [trusted=yes] $URI $s main" >>"$R/etc/apt/sources.list"
    {
        echo "Origin: Example"
        echo "Suite: $s"
        echo "Codename: $s"
        [ -n "$na" ] && echo "NotAutomatic: yes" && echo "ButAutomaticUpgrades: no"
        echo "Architectures: amd64 i386"
        echo "Components: main"
    } >"$LISTS/archive.example_x_dists_${s}_Release"
    local all
    all=$(cat)
    for arch in amd64 i386; do
        awk -v RS= -v ORS='\n\n' -v a="$arch" '$0 ~ "\nArchitecture: " a "\n"' <<<"$all" \
            >"$LISTS/archive.example_x_dists_${s}_main_binary-${arch}_Packages"
    done
}
deb() {  # deb NAME VERSION ARCH [FIELD...]
    local n=$1 v=$2 a=$3; shift 3
    printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: T <t@example.org>\nFilename: pool/%s_%s_%s.deb\nSize: 100\nSHA256: %064d\n' \
        "$n" "$v" "$a" "$n" "$v" "$a" 0
    for f in "$@"; do printf '%s\n' "$f"; done
    printf 'Description: %s package\n\n' "$n"
}
{
    deb dh 1 amd64 'Provides: dh-compat (= 12)'
    deb git 2 amd64 'Multi-Arch: foreign'
    deb git 2 i386 'Multi-Arch: foreign'
    deb gitcvs 2 amd64 'Depends: git (= 2)'
} | suite stable
{
    deb rcpkg 2 amd64
    deb needy 1 amd64 'Depends: dep (>= 2)'
    deb dep 2 amd64
    printf 'Package: md5pkg\nVersion: 1\nArchitecture: amd64\nFilename: pool/md5pkg_1_amd64.deb\nSize: 100\nMD5sum: %032d\nDescription: md5 package\n\n' 0
    deb dh 2 amd64 'Provides: dh-compat (= 13)'
    deb auto1 1 amd64
    deb auto2 1 amd64
    deb foo 1 amd64 'Provides: bar:i386'
    deb baz 1 amd64 'Depends: bar'
    deb baz 1 i386 'Depends: bar'
    deb selfprov 2 amd64 'Provides: selfprov (= 1)'
    deb needsselfprov123 1 amd64 'Depends: selfprov (= 1), selfprov (= 2), selfprov (= 3)'
} | suite unstable
{ deb dh-ng 4 amd64 'Provides: dh-compat (= 13)'; } | suite experimental NotAutomatic
# Descriptions: one carrying Description-en too, one with only its md5, one
# with only Description-en.
cat >>"$LISTS/archive.example_x_dists_unstable_main_binary-amd64_Packages" <<'EOF'
Package: both-desc
Version: 1
Architecture: amd64
Description: plain summary
 The untranslated text.
Description-en: english summary
 The English text.
Description-md5: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb

Package: md5-only
Version: 1
Architecture: amd64
Description-md5: dddddddddddddddddddddddddddddddd

Package: en-only
Version: 1
Architecture: amd64
Description-en: only english summary
 Text.

EOF
status() {  # status STANZA...: installed packages
    : >"$R/var/lib/dpkg/status"
    for s in "$@"; do
        IFS='|' read -r n v a extra <<<"$s"
        printf 'Package: %s\nStatus: install %s installed\nArchitecture: %s\nVersion: %s\nMaintainer: T <t@example.org>\nDescription: %s\n' \
            "$n" "${HOLD:-ok}" "$a" "$v" "$n" >>"$R/var/lib/dpkg/status"
        [ -n "$extra" ] && printf '%s\n' "${extra//;/$'\n'}" >>"$R/var/lib/dpkg/status"
        echo >>"$R/var/lib/dpkg/status"
    done
}
status "auto1|1|amd64" "auto2|1|amd64"
run() {
    "$@" >"$T/out" 2>&1 </dev/null
    RC=$?
    OUT=$(cat "$T/out")
}

# Arch-qualified and self provides.
OUT=$("$BIN/apt-get" install -s baz:i386 2>&1)
check "bar:i386 provided by foo meets baz:i386's bar: $OUT" contains "$OUT" "Inst foo (1 unstable [amd64])"
OUT=$("$BIN/apt-get" install -s baz 2>&1)
check "but not baz:amd64's, which apt calls not installable: $OUT" contains "$OUT" " baz : Depends: bar but it is not installable"
OUT=$("$BIN/apt" install -s selfprov=1 2>&1)
check "selfprov=1 is the 2 that provides selfprov (= 1): $OUT" contains "$OUT" "Selected version '2' (unstable [amd64]) for 'selfprov'"
check "and it is installed" contains "$OUT" "Inst selfprov (2 unstable [amd64])"
# An external solver that gives up: apt's report of the named package alone.
mkdir -p "$T/solvers"
printf '#!/bin/sh
cat >/dev/null
printf "Error: ERR_UNSOLVABLE\nMessage: no\n\n"
' >"$T/solvers/nope"
chmod +x "$T/solvers/nope"
echo "Dir::Bin::Solvers { \"$T/solvers\"; };" >"$R/etc/apt/apt.conf.d/50solvers"
OUT=$("$BIN/apt-get" install -s needsselfprov123 --solver nope 2>&1)
check "external solver failed: every unmet Depends of the named package: $OUT" contains "$OUT" " needsselfprov123 : Depends: selfprov (= 1)
                    Depends: selfprov (= 2)
                    Depends: selfprov (= 3)
E: External solver failed with: no"
rm -f "$R/etc/apt/apt.conf.d/50solvers"

# Virtual names.
run "$BIN/apt-get" install -s dh-compat
check "a plain virtual name goes to the provider at the best priority (rc $RC): $OUT" \
    contains "$OUT" "Note, selecting 'dh' instead of 'dh-compat'
The following NEW packages will be installed:
  dh
0 upgraded, 1 newly installed, 0 to remove and 0 not upgraded.
Inst dh (2 unstable [amd64])"
run "$BIN/apt-get" install -s dh-compat=12
check "name=ver picks by the provided version (rc $RC): $OUT" contains "$OUT" "Note, selecting 'dh' instead of 'dh-compat'
Selected version '1' (stable [amd64]) for 'dh'"
run "$BIN/apt-get" install -s dh-compat=13
check "two providers of that version: listed, apt's error (rc $RC): $OUT" contains "$OUT" \
    "Package dh-compat is a virtual package provided by:
  dh-ng 4 (= 13)
  dh 2 (= 13)
You should explicitly select one to install.

E: Version '13' for 'dh-compat' was not found"
run "$BIN/apt-get" install -s dh-compat/experimental
check "name/release: the provider in that release (rc $RC): $OUT" contains "$OUT" \
    "Selected version '4' (experimental [amd64]) for 'dh-ng'"

# Globs.
run "$BIN/apt" install -s 'auto*'
check "a glob's notes come first (rc $RC): $OUT" contains "$OUT" "Note, selecting 'auto1' for glob 'auto*'
Note, selecting 'auto2' for glob 'auto*'
auto1 is already the newest version (1)."
run "$BIN/apt" install -s 'auto?'
check "apt reads '?' as no glob (rc $RC): $OUT" contains "$OUT" "E: Unable to locate package auto?"
run "$BIN/apt-get" install -s 'auto?'
check "apt-get still does (rc $RC): $OUT" contains "$OUT" "Note, selecting 'auto1' for glob 'auto?'"

# A system broken before the request.
status "auto1|1|amd64" "broken|1|amd64|Depends: does-not-exist"
run "$BIN/apt-get" install -s auto2
check "apt-get refuses what leaves it broken (rc $RC): $OUT" contains "$OUT" \
    "You might want to run 'apt --fix-broken install' to correct these.
The following packages have unmet dependencies:
 broken : Depends: does-not-exist but it is not installable
E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution)."
check "with exit status 100" test "$RC" = 100
run "$BIN/apt-get" upgrade -s
check "upgrade refuses it too (rc $RC): $OUT" contains "$OUT" "E: Unmet dependencies."
run "$BIN/apt-get" remove -s broken
check "a request that mends it goes on (rc $RC): $OUT" contains "$OUT" "Remv broken [1]"
run "$APTUS" install -s auto2
check "aptus under its own name explains instead (rc $RC): $OUT" contains "$OUT" "does-not-exist"
check "without apt's block" bash -c '! grep -q "You might want to run" <<<"$0"' "$OUT"

# A hold means hold.
HOLD=ok status "auto1|1|amd64"
printf 'Package: git\nStatus: hold ok installed\nArchitecture: amd64\nVersion: 1\nMulti-Arch: foreign\nDescription: git\n\nPackage: gitcvs\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1\nDepends: git (= 1)\nDescription: gitcvs\n\n' \
    >>"$R/var/lib/dpkg/status"
run "$BIN/apt-get" dist-upgrade -s
check "no git:i386 in place of the held git (rc $RC): $OUT" bash -c '! grep -q "git:i386" <<<"$0"' "$OUT"
check "both kept back: $OUT" contains "$OUT" "The following packages have been kept back:
  git gitcvs"

# Descriptions.
run "$BIN/apt-cache" show both-desc
check "show prefers the stanza's Description-en: $OUT" contains "$OUT" "Description-en: english summary
 The English text.
Description-md5: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
run "$BIN/apt-cache" show md5-only
check "a lone Description-md5 stays alone: $OUT" bash -c '[ "$(grep -c "^Description" <<<"$0")" = 1 ]' "$OUT"
run "$BIN/apt-cache" search only
check "search finds Description-en and skips what has none: $OUT" test "$OUT" = "en-only - only english summary"

# An upgrade removes nothing, not even what autoremove would take.
status "auto1|1|amd64"
printf 'Package: auto1\nArchitecture: amd64\nAuto-Installed: 1\n\n' >"$R/var/lib/apt/extended_states"
run "$BIN/apt-get" upgrade -s -o APT::Get::AutomaticRemove=true
check "apt-get upgrade only hints at autoremove (rc $RC): $OUT" contains "$OUT" "The following package was automatically installed and is no longer required:
  auto1"
check "and removes nothing: $OUT" contains "$OUT" "0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded."
rm "$R/var/lib/apt/extended_states"

# Index targets: target= by key; $(ARCH) in a flat suite.
cat >"$R/etc/apt/apt.conf.d/contents.conf" <<'CONF'
Acquire::IndexTargets::deb::Contents { MetaKey "$(COMPONENT)/Contents-$(ARCHITECTURE)"; ShortDescription "Contents"; Description "$(RELEASE) Contents"; };
Acquire::IndexTargets::deb::Contents2 { MetaKey "Contents-$(ARCHITECTURE)"; ShortDescription "Contents2"; Description "$(RELEASE) Contents2"; Fallback-Of "Contents"; Identifier "Contents"; };
CONF
cp "$R/etc/apt/sources.list" "$T/sources.list.saved"
echo "deb [target=Contents] $URI stable main" >"$R/etc/apt/sources.list"
run "$BIN/apt-get" indextargets --no-release-info --format '$(CREATED_BY)'
check "target=Contents is that target only: $OUT" test "$(sort -u <<<"$OUT")" = "Contents"
echo "deb [target-=Contents] $URI stable main" >"$R/etc/apt/sources.list"
run "$BIN/apt-get" indextargets --no-release-info --format '$(CREATED_BY)'
check "target-=Contents keeps Contents2: $OUT" test "$(sort -u <<<"$OUT" | tr '\n' ' ')" = "Contents2 Packages Translations "
echo "deb [Contents=no] $URI stable main" >"$R/etc/apt/sources.list"
run "$BIN/apt-get" indextargets --no-release-info --format '$(CREATED_BY)'
check "Contents=no switches off both of that Identifier: $OUT" test "$(sort -u <<<"$OUT" | tr '\n' ' ')" = "Packages Translations "
rm "$R/etc/apt/apt.conf.d/contents.conf"
printf 'Types: deb\nURIs: http://one.example/d http://two.example/d\nSuites: s\nComponents: main\n' \
    >"$R/etc/apt/sources.list.d/multi.sources"
: >"$R/etc/apt/sources.list"
run "$BIN/apt-get" update --print-uris
check "--print-uris: the second host's queue first: $OUT" test "$(cut -d/ -f3 <<<"$OUT" | uniq | tr '\n' ' ')" = "two.example one.example "
rm "$R/etc/apt/sources.list.d/multi.sources"
echo "deb $URI unstable/binary-\$(ARCH)/" >"$R/etc/apt/sources.list"
run "$BIN/apt-get" indextargets --no-release-info --format '$(URI)'
check "\$(ARCH) in a flat suite: $OUT" contains "$OUT" "$URI/unstable/binary-amd64/Packages"
# With release info only the stored targets, and the entry's Signed-By
# among the Release's fields (an inline key as a deb822 value).
: >"$R/etc/apt/sources.list"
printf 'Types: deb\nURIs: %s\nSuites: stable\nComponents: main\nSigned-By:\n    -----BEGIN PGP PUBLIC KEY BLOCK-----\n    .\n    mQENBExs\n    -----END PGP PUBLIC KEY BLOCK-----\n' \
    "$URI" >"$R/etc/apt/sources.list.d/inline.sources"
run "$BIN/apt-get" indextargets --format '$(CREATED_BY) $(ARCHITECTURE)'
check "with release info, only the stored targets (no Translation-en): $OUT" test "$OUT" = "Packages amd64
Packages i386"
run "$BIN/apt-get" indextargets --format '$(SIGNED_BY)' 'Architecture: amd64'
check "\$(SIGNED_BY) of an inline key: $OUT" test "$OUT" = "-----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 mQENBExs
 -----END PGP PUBLIC KEY BLOCK-----"
run "$BIN/apt-get" indextargets 'Architecture: amd64'
check "the record has Codename, Signed-By, Suite, Trusted after KeepCompressed: $OUT" \
    contains "$OUT" "KeepCompressed: no
Codename: stable
Origin: Example
Signed-By: -----BEGIN PGP PUBLIC KEY BLOCK-----"
printf '\nTypes: deb\nURIs: %s\nSuites: stable\nComponents: contrib\nSigned-By: 34A8E9D18DB320F367E8EAA05A90D141DBAC8DAE\n' \
    "$URI" >>"$R/etc/apt/sources.list.d/inline.sources"
run "$BIN/apt-get" update --print-uris
check "two Signed-By values for one repository are refused (rc $RC)" test "$RC" = 100
check "with apt's words: $OUT" contains "$OUT" "E: Conflicting values set for option Signed-By regarding source $URI/ stable: -----BEGIN PGP PUBLIC KEY BLOCK-----"
check "and the list is not read" contains "$OUT" "E: The list of sources could not be read."
rm "$R/etc/apt/sources.list.d/inline.sources"
cp "$T/sources.list.saved" "$R/etc/apt/sources.list"

# modernize: Signed-By derived per file.
M=$T/mod
mkdir -p "$M/etc/apt/sources.list.d" "$M/etc/apt/trusted.gpg.d" "$M/var/lib/apt/lists" "$M/var/lib/dpkg"
: >"$M/var/lib/dpkg/status"
echo 'deb http://example.org/debian stable rocks' >"$M/etc/apt/sources.list.d/rocks.list"
echo 'deb http://example.org/debian stable bananas' >"$M/etc/apt/sources.list"
echo >"$M/etc/apt/trusted.gpg.d/rocks.gpg"
printf 'Dir "%s/";\nDir::State::status "%s/var/lib/dpkg/status";\n' "$M" "$M" >"$M/apt.conf"
APT_CONFIG=$M/apt.conf "$BIN/apt" modernize-sources -y >/dev/null 2>&1
check "rocks.list's key goes to rocks.sources: $(cat "$M/etc/apt/sources.list.d/rocks.sources")" \
    grep -qx "Signed-By: $M/etc/apt/trusted.gpg.d/rocks.gpg" "$M/etc/apt/sources.list.d/rocks.sources"
check "and not to sources.list's line of the same release (its Signed-By is left empty, as apt leaves it)" \
    bash -c 'grep -qx "Signed-By: " "$0" && ! grep -q "Signed-By: ." "$0"' "$M/etc/apt/sources.list.d/moved-from-main.sources"

# The status-only version of a package with configuration files left.
status "auto1|1|amd64"
printf 'Package: rcpkg\nStatus: deinstall ok config-files\nArchitecture: amd64\nVersion: 1\nConffiles:\n /etc/rcpkg.conf 0123456789abcdef0123456789abcdef\nDescription: rc\n\n' \
    >>"$R/var/lib/dpkg/status"
APT_EDSP_DUMP_FILENAME=$T/dump.edsp "$BIN/apt-get" purge rcpkg -s --solver dump >/dev/null 2>&1
check "the EDSP dump has only the archive's rcpkg: $(grep -A2 '^Package: rcpkg' "$T/dump.edsp" | tr '\n' ' ')" \
    test "$(grep -c '^Package: rcpkg$' "$T/dump.edsp")" = 1
run "$BIN/apt-get" purge -s rcpkg
check "and purge still purges its configuration (rc $RC): $OUT" contains "$OUT" "Purg rcpkg"

# --trivial-only and an upgrade nobody named; an MD5sum is not enough.
status "dep|1|amd64"
run "$BIN/apt-get" install --trivial-only needy
check "--trivial-only refuses an unnamed upgrade (rc $RC): $OUT" contains "$OUT" \
    "E: Trivial Only specified but this is not a trivial operation."
(cd "$T" && "$BIN/apt-get" download md5pkg >"$T/out" 2>&1 </dev/null)
RC=$? OUT=$(cat "$T/out")
check "an MD5sum alone vouches for nothing (rc $RC): $OUT" contains "$OUT" \
    "E: Insufficient information available to perform this download securely"
check "and nothing was fetched" test ! -e "$T/md5pkg_1_amd64.deb"
status "auto1|1|amd64" "auto2|1|amd64"

# autoremove and a held automatic package.
status "auto1|1|amd64" "holdee|1|amd64"
printf 'Package: holder\nStatus: hold ok installed\nArchitecture: amd64\nVersion: 1\nDepends: holdee\nDescription: holder\n\n' \
    >>"$R/var/lib/dpkg/status"
printf 'Package: holder\nArchitecture: amd64\nAuto-Installed: 1\n\nPackage: holdee\nArchitecture: amd64\nAuto-Installed: 1\n\n' \
    >"$R/var/lib/apt/extended_states"
run "$BIN/apt-get" autoremove -s
check "autoremove keeps a held package and what it needs (rc $RC): $OUT" contains "$OUT" \
    "0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded."
run "$BIN/apt-get" autoremove -s -o Debug::pkgAutoRemove=1
check "Debug::pkgAutoRemove names each kept package and why: $OUT" bash -c \
    'grep -qFx "Marking: holder:amd64 1 (Hold)" <<<"$0" && grep -qFx "Marking: holdee:amd64 1 (Dependency)" <<<"$0" &&
     grep -qFx "Marking: auto1:amd64 1 (Manual-Installed)" <<<"$0"' "$OUT"
rm "$R/var/lib/apt/extended_states"
# Providers from one source: only the newest source version's are kept.
status "auto1|1|amd64" "bar|1|amd64|Depends: foo-provider" \
    "foo-a-1|1|amd64|Provides: foo-provider;Source: foo-src (1)" \
    "foo-a-2|1|amd64|Provides: foo-provider;Source: foo-src (2)" \
    "foo-single|1|amd64|Provides: foo-provider"
printf 'Package: foo-a-1\nArchitecture: amd64\nAuto-Installed: 1\n\nPackage: foo-a-2\nArchitecture: amd64\nAuto-Installed: 1\n\nPackage: foo-single\nArchitecture: amd64\nAuto-Installed: 1\n\n' \
    >"$R/var/lib/apt/extended_states"
run "$BIN/apt" autopurge -s
check "autopurge takes the older source's provider only, purged (rc $RC): $OUT" contains "$OUT" "Purg foo-a-1 [1]"
check "and keeps the others: $OUT" bash -c '! grep -q "Purg foo-a-2\|Purg foo-single" <<<"$0"' "$OUT"
run "$BIN/apt-get" install -s -V
check "-V gives the hint's versions: $OUT" contains "$OUT" "no longer required:
   foo-a-1 (1)"
rm "$R/var/lib/apt/extended_states"
# Naming the broken package lets apt mend it.
status "auto1|1|amd64" "dep|1|amd64" "needy|1|amd64|Depends: dep (>= 2)"
run "$BIN/apt-get" install -s needy
check "naming the broken package is no refusal (rc $RC): $OUT" contains "$OUT" "Inst dep [1] (2 unstable [amd64])"
status "auto1|1|amd64" "auto2|1|amd64"

# A file: repository the sandbox user cannot read.
if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then
    mkdir -p "$T/repo/dists/s/main/binary-amd64"
    deb local 1 amd64 >"$T/repo/dists/s/main/binary-amd64/Packages"
    printf 'Suite: s\nCodename: s\nComponents: main\nArchitectures: amd64\nSHA256:\n %s %s main/binary-amd64/Packages\n' \
        "$(sha256sum <"$T/repo/dists/s/main/binary-amd64/Packages" | cut -d' ' -f1)" \
        "$(stat -c %s "$T/repo/dists/s/main/binary-amd64/Packages")" >"$T/repo/dists/s/Release"
    chmod 700 "$T/repo"
    cp "$R/etc/apt/sources.list" "$T/sources.list.saved"
    echo "deb [trusted=yes] file:$T/repo s main" >"$R/etc/apt/sources.list"
    rm -rf "$R/var/lib/apt"
    (umask 027 && "$BIN/apt-get" update -o APT::Sandbox::User=_apt >"$T/out" 2>&1 </dev/null)
    RC=$? OUT=$(cat "$T/out")
    check "under umask 027 update makes var/lib/apt and its lists 0755" \
        test "$(stat -c %a "$R/var/lib/apt") $(stat -c %a "$R/var/lib/apt/lists")" = "755 755"
    check "update as root names the file _apt could not read (rc $RC): $OUT" contains "$OUT" \
        "N: Download is performed unsandboxed as root as file '$T/repo/dists/s/Release' couldn't be accessed by user '_apt'. - pkgAcquire::Run (13: Permission denied)"
    check "once: $OUT" test "$(grep -c unsandboxed <<<"$OUT")" = 1
    cp "$T/sources.list.saved" "$R/etc/apt/sources.list"
fi

# clean and autoclean leave a removed Dir::Cache removed.
rm -rf "$R/var/cache/apt"
run "$BIN/apt-get" autoclean
check "autoclean without Dir::Cache, no notice (rc $RC): $OUT" bash -c '[ "$1" = 0 ] && ! grep -q "^N:" <<<"$0"' "$OUT" "$RC"
run "$BIN/apt-get" clean
check "clean (rc $RC): $OUT" test "$RC" = 0
check "var/cache/apt is still gone" test ! -e "$R/var/cache/apt"

# depends --recurse lists the names without versions in the order apt
# created their records: "afoo:i386" of Architecture: all packages, named
# only by an explicit ":i386", comes after the plain names met before it.
mkdir -p "$T/allonly/etc/apt" "$T/allonly/var/lib/apt/lists" "$T/allonly/var/lib/dpkg"
: >"$T/allonly/var/lib/dpkg/status"
sed "s#$R/#$T/allonly/#g" "$R/apt.conf" >"$T/allonly/apt.conf"
echo "deb [trusted=yes] http://all.example/d unstable main" >"$T/allonly/etc/apt/sources.list"
printf 'Suite: unstable\nCodename: unstable\nArchitectures: amd64 i386\nComponents: main\n' \
    >"$T/allonly/var/lib/apt/lists/all.example_d_dists_unstable_Release"
for arch in amd64 i386; do
    printf '%s\n' 'Package: afoo' 'Version: 1' 'Architecture: all' 'Depends: abar' 'Conflicts: afoobar' \
        'Recommends: acool (>= 2) | acooler (<< 5)' 'Description: x' '' \
        'Package: abar' 'Version: 1' 'Architecture: all' 'Breaks: afoo (<< 1)' 'Description: x' '' \
        'Package: aspecific' 'Version: 1' 'Architecture: all' 'Replaces: afoo:i386 (<< 1)' 'Description: x' '' \
        >"$T/allonly/var/lib/apt/lists/all.example_d_dists_unstable_main_binary-${arch}_Packages"
done
APT_CONFIG=$T/allonly/apt.conf run "$BIN/apt-cache" depends afoo --recurse --implicit
check "depends --recurse: <afoo:i386> after the names met before it: $OUT" contains "$OUT" "<afoobar>
<acool>
<acooler>
<afoo:i386>"

# A request apt-get cannot meet: apt's block and the report of what its
# marking leaves broken, each target described against that state.
G=$T/gitsb
mkdir -p "$G/etc/apt" "$G/var/lib/apt/lists" "$G/var/lib/dpkg"
sed "s#$R/#$G/#g" "$R/apt.conf" >"$G/apt.conf"
echo "deb [trusted=yes] http://git.example/d unstable main" >"$G/etc/apt/sources.list"
printf 'Suite: unstable\nCodename: unstable\nArchitectures: amd64 i386\nComponents: main\n' \
    >"$G/var/lib/apt/lists/git.example_d_dists_unstable_Release"
for arch in amd64 i386; do
    {
        deb git 1:2.26.2-1 "$arch" 'Multi-Arch: foreign'
        deb git-cvs 1:2.26.2-1 "$arch" 'Depends: git (>> 1:2.26.2), git (<< 1:2.26.2-.)'
        deb git-ng 1:2.26.2-1 "$arch" 'Depends: git (>> 1:2.26.2), git (<< 1:2.26.2-.)'
        deb broken 1 "$arch" 'Depends: cool2 | stuff2'
        deb libfoo 1 "$arch"
        deb efoo 1 "$arch" 'Essential: yes' 'Depends: libfoo'
    } >"$G/var/lib/apt/lists/git.example_d_dists_unstable_main_binary-${arch}_Packages"
done
git_status() {  # git_status GIT-WANT GITCVS-WANT
    printf 'Package: git\nStatus: %s ok installed\nVersion: 1:2.25.1-1\nArchitecture: amd64\nMulti-Arch: foreign\nDescription: x\n\n' "$1"
    printf 'Package: git-cvs\nStatus: %s ok installed\nVersion: 1:2.25.1-1\nArchitecture: amd64\nDepends: git (>> 1:2.25.1), git (<< 1:2.25.1-.)\nDescription: x\n\n' "$2"
    printf 'Package: libfoo\nStatus: install ok installed\nVersion: 1\nArchitecture: amd64\nDescription: x\n\n'
    printf 'Package: efoo\nStatus: install ok installed\nEssential: yes\nVersion: 1\nArchitecture: amd64\nDepends: libfoo\nDescription: x\n\n'
}
BLOCK="Some packages could not be installed. This may mean that you have
requested an impossible situation or if you are using the unstable
distribution that some required packages have not yet been created
or been moved out of Incoming.
The following information may help to resolve the situation:

The following packages have unmet dependencies:"
git_status install hold >"$G/var/lib/dpkg/status"
APT_CONFIG=$G/apt.conf run "$BIN/apt-get" install git-ng -s
check "git-cvs held: no git:i386 beside git:amd64, refused (rc $RC)" test "$RC" = 100
check "apt's block names the held package's broken dependency: $OUT" contains "$OUT" "$BLOCK
 git-cvs : Depends: git (< 1:2.25.1-.)
E: Error, pkgProblemResolver::Resolve generated breaks, this may be caused by held packages."
git_status hold install >"$G/var/lib/dpkg/status"
APT_CONFIG=$G/apt.conf run "$BIN/apt-get" install git-ng -s
check "git held: the requested package, a target provided (Multi-Arch: foreign) described no further: $OUT" \
    contains "$OUT" "$BLOCK
 git-ng : Depends: git (> 1:2.26.2)
E: Unable to correct problems, you have held broken packages."
APT_CONFIG=$G/apt.conf run "$BIN/apt-get" install git-ng -s --solver 3.0
check "with --solver 3.0 the block, then solver3's two conflicting decisions: $OUT" \
    contains "$OUT" " git-ng : Depends: git (> 1:2.26.2)
E: Unable to satisfy dependencies. Reached two conflicting decisions:
   1. git-ng:amd64=1:2.26.2-1 is selected for install
   2. git-ng:amd64 Depends git (> 1:2.26.2)
      but none of the choices are installable:"
APT_CONFIG=$G/apt.conf run "$APTUS" install git-ng -s
check "aptus under its own name explains without apt's block: $OUT" \
    bash -c '! grep -q "Some packages could not be installed" <<<"$0"' "$OUT"
APT_CONFIG=$G/apt.conf run "$BIN/apt-get" install broken -s
check "an or-group of names nothing has: $OUT" contains "$OUT" " broken : Depends: cool2 but it is not installable or
                   stuff2 but it is not installable"
APT_CONFIG=$G/apt.conf run "$BIN/apt-get" purge libfoo -s
check "removing what an essential package needs: $OUT" contains "$OUT" " efoo : Depends: libfoo but it is not going to be installed
E: Error, pkgProblemResolver::Resolve generated breaks"

# Autoremove and a relation both a real package and its providers meet:
# apt's solvers keep every provider that meets it; 3.1 only the real one.
{
    printf 'Package: needs\nStatus: install ok installed\nVersion: 1\nArchitecture: all\nDescription: x\n\n'
    for i in 1 2 3 4; do
        printf 'Package: needs-provider%s\nStatus: install ok installed\nVersion: 1\nArchitecture: all\nProvides: needs (= %s)\nDescription: x\n\n' "$i" "$i"
    done
    printf 'Package: foo\nStatus: install ok installed\nVersion: 1\nArchitecture: all\nDepends: needs (= 1), needs (= 2), needs (= 3)\nDescription: x\n\n'
} >"$G/var/lib/dpkg/status"
mkdir -p "$G/var/lib/apt"
for n in needs needs-provider1 needs-provider2 needs-provider3 needs-provider4; do
    printf 'Package: %s\nArchitecture: amd64\nAuto-Installed: 1\n\n' "$n"
done >"$G/var/lib/apt/extended_states"
APT_CONFIG=$G/apt.conf run "$BIN/apt-get" autoremove -s
check "autoremove keeps the providers that meet foo's relations: $OUT" contains "$OUT" "The following packages will be REMOVED:
  needs-provider4
0 upgraded"
APT_CONFIG=$G/apt.conf run "$BIN/apt-get" autoremove -s --solver 3.1
check "--solver 3.1: the real package meets needs (= 1), needs-provider1 goes too: $OUT" contains "$OUT" "The following packages will be REMOVED:
  needs-provider1 needs-provider4
0 upgraded"

# Translations: every stored language is read into the cache (showpkg
# lists it), search looks through each configured language's description,
# all terms within one of them.
L=$T/tr
mkdir -p "$L/etc/apt/apt.conf.d" "$L/var/lib/apt/lists" "$L/var/lib/dpkg"
: >"$L/var/lib/dpkg/status"
sed "s#$R/#$L/#g" "$R/apt.conf" | grep -v Acquire::Languages >"$L/apt.conf"
echo "deb [trusted=yes] http://tr.example/d unstable main" >"$L/etc/apt/sources.list"
printf 'Suite: unstable\nCodename: unstable\nArchitectures: amd64\nComponents: main\n' \
    >"$L/var/lib/apt/lists/tr.example_d_dists_unstable_Release"
printf 'Package: tfoo\nVersion: 1\nArchitecture: amd64\nDescription: have you fooed today?\nDescription-md5: 0123456789abcdef0123456789abcdef\n\n' \
    >"$L/var/lib/apt/lists/tr.example_d_dists_unstable_main_binary-amd64_Packages"
printf 'Package: tfoo\nDescription-md5: 0123456789abcdef0123456789abcdef\nDescription-en: have you fooed today?\n Where there is foo, there is fire.\n\n' \
    >"$L/var/lib/apt/lists/tr.example_d_dists_unstable_main_i18n_Translation-en"
printf 'Package: tfoo\nDescription-md5: 0123456789abcdef0123456789abcdef\nDescription-zz: bar alter ego\n He who foos last foos best.\n\n' \
    >"$L/var/lib/apt/lists/tr.example_d_dists_unstable_main_i18n_Translation-zz"
langs() { printf 'Acquire::Languages {%s};\n' "$(printf ' "%s";' "$@")" >"$L/etc/apt/apt.conf.d/languages.conf"; }
langs en
APT_CONFIG=$L/apt.conf run "$BIN/apt-cache" showpkg tfoo
check "showpkg lists the Translation-zz on disk though only en is configured: $OUT" contains "$OUT" "Description Language: zz"
langs en zz
APT_CONFIG=$L/apt.conf run "$BIN/apt-cache" search alter ego
check "search finds words of the second language, shows the first's: $OUT" test "$OUT" = "tfoo - have you fooed today?"
APT_CONFIG=$L/apt.conf run "$BIN/apt-cache" search there best
check "all terms within one description, not across languages: '$OUT'" test -z "$OUT"
langs en
APT_CONFIG=$L/apt.conf run "$BIN/apt-cache" search alter ego
check "a language not configured is not searched: '$OUT'" test -z "$OUT"
# The first configured language's description is the one shown, though the
# Packages record has its own (English) short line.
langs zz en
APT_CONFIG=$L/apt.conf run "$BIN/apt-cache" search you today
check "zz configured first: its short description is shown: $OUT" test "$OUT" = "tfoo - bar alter ego"
APT_CONFIG=$L/apt.conf run "$BIN/apt-cache" show tfoo
check "and its long one: $OUT" contains "$OUT" "He who foos last foos best."


[ $failures = 0 ] && echo "PASS" || { echo "FAIL: $failures"; exit 1; }
