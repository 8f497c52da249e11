#!/bin/bash
# aptus started through links named apt-get, apt-cache, apt-mark, apt-config
# and apt (argv[0]) stands in for those programs: apt-mark and apt-config
# take their own command words, each gets its Binary::<name> scope, history
# records the command line under the name it was started as, and a fresh
# root's Dir::State::lists and Dir::Cache are made as apt makes them (the
# APT test suite's first `apt-get update` needs that). Compared with real apt
# where it is installed.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
BIN=$T/bin
mkdir -p "$BIN"
for name in apt-get apt-cache apt-mark apt-config apt; do ln -s "$APTUS" "$BIN/$name"; done

spec "hello|1.0" "world|1.0" "dep|1.0" "needy|1.0|Depends=dep" >"$T/spec.json"
install_suite stable "$T/spec.json"

# apt-config: dump and shell are aptus's config commands.
OUT=$("$BIN/apt-config" dump 2>&1)
check "apt-config dump prints the configuration" contains "$OUT" 'APT::Architecture "amd64";'
check "apt-config dump says Binary \"apt-config\"" contains "$OUT" 'Binary "apt-config";'
check "apt-config dump is aptus config dump but for Binary and the command line" \
    test "$(grep -v -e '^Binary ' -e '^CommandLine::AsString ' <<<"$OUT")" = \
    "$("$APTUS" config dump 2>&1 | grep -v -e '^Binary ' -e '^CommandLine::AsString ')"
OUT=$("$BIN/apt-config" shell ARCH APT::Architecture 2>&1)
check "apt-config shell: $OUT" test "$OUT" = "ARCH='amd64'"
OUT=$("$BIN/apt-config" dump --no-empty --format "%v%n" APT::Architecture APT::Architectures 2>&1)
check "apt-config dump KEY... --no-empty --format (the APT suite finds its architectures so): $OUT" test "$OUT" = "$(printf 'amd64\namd64')"
# The Binary scope: Binary::apt-config::X applies to apt-config only.
echo 'Binary::apt-config::Aptus::Test::Scoped "yes";' >"$SB/etc/apt/apt.conf.d/50scoped"
OUT=$(APT_CONFIG=$SB/apt.conf "$BIN/apt-config" shell V Aptus::Test::Scoped 2>&1)
check "Binary::apt-config applies under apt-config: $OUT" test "$OUT" = "V='yes'"
OUT=$("$APTUS" config shell V Aptus::Test::Scoped 2>&1)
check "and not under aptus: $OUT" test -z "$OUT"
rm "$SB/etc/apt/apt.conf.d/50scoped"

# apt-get and apt-mark: install, then the marks.
"$BIN/apt-get" install -y hello >"$T/out" 2>"$T/err" </dev/null
RC=$?
OUT=$(cat "$T/out") ERR=$(cat "$T/err")
check "apt-get install hello exits 0 (rc $RC)" test "$RC" = 0
check "hello is installed" test "$(installed hello)" = "1.0"
check "history records the command line as apt-get's" \
    grep -q '^Commandline: apt-get install -y hello$' "$SB/var/log/apt/history.log"
OUT=$("$BIN/apt-mark" showmanual 2>&1)
check "apt-mark showmanual: $OUT" test "$OUT" = "hello"
"$BIN/apt-mark" auto hello >"$T/out" 2>&1
OUT=$(cat "$T/out")
check "apt-mark auto hello: $OUT" test "$OUT" = "hello set to automatically installed."
OUT=$("$BIN/apt-mark" showauto 2>&1)
check "apt-mark showauto: $OUT" test "$OUT" = "hello"
OUT=$("$BIN/apt-cache" showauto 2>&1)
check "apt-cache showauto is apt-mark showauto: $OUT" test "$OUT" = "hello"
"$BIN/apt-get" unmarkauto hello >/dev/null 2>&1
OUT=$("$BIN/apt-mark" showmanual 2>&1)
check "apt-get unmarkauto hello: $OUT" test "$OUT" = "hello"
"$BIN/apt-mark" markauto hello >/dev/null 2>&1
OUT=$("$BIN/apt-mark" showauto 2>&1)
check "apt-mark markauto (apt's old name of auto): $OUT" test "$OUT" = "hello"
"$BIN/apt-mark" unmarkauto hello >/dev/null 2>&1
OUT=$("$BIN/apt-cache" policy world 2>&1)
check "apt-cache policy world" contains "$OUT" "Candidate: 1.0"
OUT=$("$BIN/apt" info world 2>&1)
check "apt info is apt show" contains "$OUT" "Package: world"

# The layout: apt-get's classic one (APT::Output-Version 0), apt's and
# aptus's APT 3.0 blocks (30).
OUT=$("$BIN/apt-get" install -s needy 2>&1)
check "apt-get -s: the classic layout: $OUT" contains "$OUT" "The following additional packages will be installed:
  dep
The following NEW packages will be installed:
  dep needy
0 upgraded, 2 newly installed, 0 to remove and 0 not upgraded.
Inst dep (1.0 stable [amd64])"
OUT=$("$BIN/apt" install -s needy 2>&1)
check "apt -s: APT 3.0's blocks: $OUT" contains "$OUT" "Installing dependencies:"
OUT=$("$APTUS" install -s needy 2>&1)
check "aptus -s: APT 3.0's blocks: $OUT" contains "$OUT" "Installing dependencies:"
OUT=$("$BIN/apt-get" -o APT::Output-Version=30 install -s needy 2>&1)
check "apt-get -o APT::Output-Version=30: APT 3.0's blocks" contains "$OUT" "Summary:"

# The prompt, as apt's: none when only what was named is installed; asked
# (and declined on an empty stdin) when more comes; --trivial-only refuses.
"$BIN/apt-get" install world >"$T/out" 2>"$T/err" </dev/null
RC=$? OUT=$(cat "$T/out") ERR=$(cat "$T/err")
check "install of only what was named asks nothing (rc $RC)" test "$RC" = 0
check "world is installed" test "$(installed world)" = "1.0"
check "no question: $OUT" bash -c '! grep -qi "continue?" <<<"$0"' "$OUT"
"$BIN/apt-get" install needy >"$T/out" 2>"$T/err" </dev/null
RC=$? OUT=$(cat "$T/out") ERR=$(cat "$T/err")
check "install that pulls in a dependency asks, declined on EOF (rc $RC)" test "$RC" = 1
# apt-get's classic layout asks in apt 2's words.
check "it asked: $OUT" contains "$OUT" "Do you want to continue? [Y/n]"
check "and nothing was installed" test -z "$(installed needy)"
"$BIN/apt-get" install --trivial-only needy >"$T/out" 2>"$T/err" </dev/null
RC=$? OUT=$(cat "$T/out") ERR=$(cat "$T/err")
check "--trivial-only refuses more than was named (rc $RC): $ERR" \
    bash -c '[ "$1" = 100 ] && grep -q "^E: Trivial Only specified but this is not a trivial operation.$" <<<"$0"' "$ERR" "$RC"

# A fresh root with only var/lib and var/cache: update makes the lists and
# cache directories (apt's CreateAPTDirectoryIfNeeded), as real apt-get does.
fresh() {
    local root=$1
    mkdir -p "$root/var/lib/dpkg" "$root/var/cache" "$root/etc/apt/sources.list.d"
    : >"$root/var/lib/dpkg/status"
    cp "$SB/etc/apt/sources.list.d/test.sources" "$root/etc/apt/sources.list.d/"
    cat >"$root/apt.conf" <<CONF
Dir "$root/";
Dir::State::status "$root/var/lib/dpkg/status";
APT::Architecture "amd64";
Acquire::Languages { "none"; };
CONF
}
fresh "$T/fresh"
APT_CONFIG=$T/fresh/apt.conf "$BIN/apt-get" update >"$T/out" 2>"$T/err"
RC=$?
OUT=$(cat "$T/out") ERR=$(cat "$T/err")
check "apt-get update in a fresh root exits 0 (rc $RC)" test "$RC" = 0
check "it made var/lib/apt/lists" test -d "$T/fresh/var/lib/apt/lists/partial"
check "it made var/cache/apt" test -d "$T/fresh/var/cache/apt"
OUT=$(APT_CONFIG=$T/fresh/apt.conf "$BIN/apt-cache" policy hello 2>&1)
check "and the lists are read: $OUT" contains "$OUT" "Candidate: 1.0"
if command -v apt-get >/dev/null && [ -x /usr/bin/apt-get ]; then
    fresh "$T/fresh-apt"
    APT_CONFIG=$T/fresh-apt/apt.conf /usr/bin/apt-get update >/dev/null 2>&1
    check "real apt-get update makes var/lib/apt/lists in a fresh root too" test -d "$T/fresh-apt/var/lib/apt/lists"
fi
# Without var/lib, nothing is made: apt's error about the lists dir.
mkdir -p "$T/bare"
fresh "$T/bare"
rm -rf "$T/bare/var/lib"
APT_CONFIG=$T/bare/apt.conf "$BIN/apt-get" update >"$T/out" 2>"$T/err"
RC=$?
check "with no var/lib update fails (rc $RC)" test "$RC" = 100
check "and makes nothing" test ! -e "$T/bare/var/lib"
# Help and version under each name: apt's "apt <version> (<arch>)" line
# first and a Usage: line; no arguments at all is the help and a failure.
for name in apt-get apt-cache apt-mark apt-config apt; do
    OUT=$("$BIN/$name" --help 2>&1); RC=$?
    check "$name --help exits 0 (rc $RC)" test "$RC" = 0
    check "$name --help starts with apt's version line: $(head -1 <<<"$OUT")" \
        bash -c 'head -1 <<<"$0" | grep -qE "^apt [0-9][^ ]* \(amd64\)$"' "$OUT"
    check "$name --help has a Usage: line" bash -c 'grep -q "^Usage: " <<<"$0"' "$OUT"
    OUT=$("$BIN/$name" --version 2>&1); RC=$?
    check "$name --version: $OUT (rc $RC)" bash -c '[ "$1" = 0 ] && grep -qE "^apt [0-9][^ ]* \(amd64\)$" <<<"$0"' "$OUT" "$RC"
    OUT=$("$BIN/$name" 2>&1); RC=$?
    check "$name without arguments fails (rc $RC)" test "$RC" != 0
    check "$name without arguments prints the help" bash -c 'grep -q "^Usage: " <<<"$0"' "$OUT"
done
OUT=$("$APTUS" --version 2>&1)
check "aptus under its own name says so: $OUT" bash -c 'grep -qE "^aptus [0-9]" <<<"$0"' "$OUT"
OUT=$("$APTUS" --help 2>&1)
check "aptus --help is still generated from the command table" contains "$OUT" "modernize-sources"

# moo: the day's message from SOURCE_DATE_EPOCH, alone at -qq and above;
# extra moos, -q and --color change nothing about success.
moo() { env -u COLUMNS "$@" >"$T/out" 2>"$T/err"; RC=$?; OUT=$(cat "$T/out") ERR=$(cat "$T/err"); }
for args in "moo" "moo -q=2" "moo moo" "moo moo --color" "moo moo moo moo -q=2"; do
    moo SOURCE_DATE_EPOCH=0 "$BIN/apt-get" $args
    check "apt-get $args exits 0 without messages (rc $RC): $ERR" bash -c '[ "$1" = 0 ] && [ -z "$0" ]' "$ERR" "$RC"
    check "apt-get $args says the everyday line" contains "$OUT" "Have you mooed today?"
done
while read -r day message; do
    moo SOURCE_DATE_EPOCH="$(date -u -d "$day" +%s)" "$BIN/apt" moo -qqq
    check "apt moo -qqq on $day prints only '$message': $OUT" test "$RC/$OUT" = "0/$message"
done <<'DAYS'
2000-12-25 Happy package management day!
1930-02-18 It's a Bird ... It's a Plane ... It's Super Cow!
1966-11-07 Whoever needs milk, bows to the animal.
1993-08-16 Three moos for Debian!
1998-04-01 Have you smashed some milk today?
1988-03-29 Have you mooed today?
DAYS
moo SOURCE_DATE_EPOCH=moo "$BIN/apt" moo
check "an invalid SOURCE_DATE_EPOCH is a warning (rc $RC): $ERR" \
    bash -c '[ "$1" = 0 ] && [ "$0" = "W: Environment variable SOURCE_DATE_EPOCH was ignored as it has an invalid value: \"moo\"" ]' "$ERR" "$RC"
for columns in 0 80a a80 ''; do
    moo COLUMNS="$columns" SOURCE_DATE_EPOCH=0 "$BIN/apt-get" moo
    check "COLUMNS='$columns' is a warning, not a failure (rc $RC): $ERR" \
        bash -c '[ "$1" = 0 ] && [ "$0" = "W: Environment variable COLUMNS was ignored as it has an invalid value: \"$2\"" ]' "$ERR" "$RC" "$columns"
done
moo COLUMNS=80 SOURCE_DATE_EPOCH=0 "$BIN/apt-get" moo
check "COLUMNS=80 is fine (rc $RC): $ERR" bash -c '[ "$1" = 0 ] && [ -z "$0" ]' "$ERR" "$RC"
finish
