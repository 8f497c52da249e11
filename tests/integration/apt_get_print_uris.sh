#!/bin/bash
# apt 3.0's --print-uris and the smaller commands around it, through the
# apt/apt-get links on the signed loopback archive (lib/install_repo.sh; the
# sandbox's own dpkg database, never the host's):
#   update --print-uris     each repository's InRelease, then every index target
#                           in its first compression type, "'URI' name 0 ", and
#                           nothing fetched or changed
#   install --print-uris    the plan, then "'URI' name size SHA256:hash" per .deb,
#                           no dpkg run; -qq: the lines alone
#   download --print-uris   the same line per version (URI quoted as apt quotes it)
#   check                   exit 0 on a sound system; apt's report of broken
#                           packages and exit 100 on a broken one
#   update ARGS             apt's error; update --no-download: no fetch, the cache
#   distclean, dist-clean   clean, and the lists but for the Release files and lock
#   install --mark-auto     the named package is recorded as automatic
#   install --comment       history.log's Comment: line
# Where real apt-get is installed, update --print-uris and check are also
# compared with it on the same sandbox.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
[ -n "${T:-}" ] && [ -d "$T" ] && [ "${APT_CONFIG:-}" = "$SB/apt.conf" ] || { echo "FAIL: no sandbox"; exit 1; }
BIN=$T/bin
mkdir -p "$BIN"
for name in apt-get apt apt-mark; do ln -s "$APTUS" "$BIN/$name"; done
run() {
    "$@" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
}

make_suite stable --packages 'hello=1.0,dep=1.0,world=2:2.0,tilde=1.0~rc1+b1' >/dev/null ||
    { echo "FAIL: make_repo.py"; exit 1; }
set_sources stable
run "$APTUS" update -q
check "update exits 0 (rc $RC)" test "$RC" = 0
PREFIX=$(sed -e 's#^[a-z]*://##' -e 's#/#_#g' <<<"$URL")
PACKAGES=$LISTS/${PREFIX}_dists_stable_main_binary-amd64_Packages

# --- update --print-uris
digest=$(lists_digest)
: >"$T/requests"
run "$BIN/apt-get" update --print-uris
EXPECTED="'$URL/dists/stable/InRelease' ${PREFIX}_dists_stable_InRelease 0 
'$URL/dists/stable/main/binary-amd64/Packages.xz' ${PREFIX}_dists_stable_main_binary-amd64_Packages 0 
'$URL/dists/stable/main/binary-all/Packages.xz' ${PREFIX}_dists_stable_main_binary-all_Packages 0 "
check "update --print-uris exits 0 (rc $RC)" test "$RC" = 0
check "update --print-uris: apt's lines" test "$OUT" = "$EXPECTED"
check "update --print-uris: no messages" test -z "$ERR"
check "update --print-uris fetches nothing" test ! -s "$T/requests"
check "update --print-uris changes no list" test "$(lists_digest)" = "$digest"
run "$BIN/apt-get" update --print-uris -o Acquire::TryInRelease=0
check "without InRelease: the Release file first" \
    test "$(head -1 <<<"$OUT")" = "'$URL/dists/stable/Release' ${PREFIX}_dists_stable_Release 0 "
if [ -x /usr/bin/apt-get ]; then
    OUT=$(/usr/bin/apt-get update --print-uris 2>&1)
    check "real apt-get update --print-uris says the same" test "$OUT" = "$EXPECTED"
fi

# --- update ARGS, update --no-download
run "$BIN/apt" update foo
check "apt update foo exits 100 (rc $RC)" test "$RC" = 100
check "apt update foo: apt's error" test "$ERR" = "E: The update command takes no arguments"
: >"$T/requests"
run "$BIN/apt" update --no-download
check "apt update --no-download exits 0 (rc $RC)" test "$RC" = 0
check "apt update --no-download: the cache, no fetch" test "$OUT" = "Reading package lists...
Building dependency tree...
All packages are up to date."
check "apt update --no-download asks the server nothing" test ! -s "$T/requests"
run "$BIN/apt-get" update --no-download
check "apt-get update --no-download: only the lists are read ($OUT)" test "$OUT" = "Reading package lists..."

# --- install --print-uris: no dpkg, no change
# NAME [FIELD NAME]: apt's line for NAME from the stored Packages file, with
# the hash of FIELD (SHA512: apt-get download's strongest; install's MD5Sum).
deb_line() {
    local field=${2:-SHA512} shown=${3:-SHA512}
    awk -v want="$1" -v field="$field:" '
        /^Package: / {p = $2} /^Version: / {v = $2} /^Architecture: / {a = $2}
        /^Filename: / {f = $2} /^Size: / {s = $2} $1 == field {h = $2}
        /^$/ { if (p == want) print p, v, a, f, s, h; p = "" }
        END { if (p == want) print p, v, a, f, s, h }' "$PACKAGES" |
        while read -r p v a f s h; do
            q=$(sed -e 's/%/%25/g' -e 's/+/%2b/g' -e 's/~/%7e/g' <<<"$f")
            n=$(sed -e 's/:/%3a/g' <<<"${p}_${v}_${a}.deb")
            printf "'%s/%s' %s %s %s:%s\n" "$URL" "$q" "$n" "$s" "$shown" "$h"
        done
}
status_before=$(cat "$SB/var/lib/dpkg/status")
run "$BIN/apt-get" install -qq --print-uris hello
check "install -qq --print-uris exits 0 (rc $RC)" test "$RC" = 0
check "install -qq --print-uris: the line last" test "$(tail -1 <<<"$OUT")" = "$(deb_line hello MD5sum MD5Sum)"
run "$BIN/apt-get" install -y --print-uris hello tilde
check "install --print-uris: the plan first" test "$(head -5 <<<"$OUT")" = "Reading package lists...
Building dependency tree...
The following NEW packages will be installed:
  hello tilde
0 upgraded, 2 newly installed, 0 to remove and 0 not upgraded."
check "install --print-uris: then a line per .deb, with its MD5Sum" test "$(tail -2 <<<"$OUT")" = "$(deb_line hello MD5sum MD5Sum)
$(deb_line tilde MD5sum MD5Sum)"
check "install --print-uris: '+' and '~' quoted as apt quotes them" contains "$OUT" "1.0%7erc1%2bb1"
if [ -x /usr/bin/apt-get ]; then
    OUT2=$(/usr/bin/apt-get install -y --print-uris hello tilde 2>&1)
    check "real apt-get install --print-uris says the same" diff <(echo "$OUT2") <(echo "$OUT")
fi
check "install --print-uris runs no dpkg" test "$(cat "$SB/var/lib/dpkg/status")" = "$status_before"
check "install --print-uris fetches nothing" test -z "$(ls "$T/cache/archives" 2>/dev/null | grep deb)"

# --- download --print-uris
mkdir -p "$T/dl"
(cd "$T/dl" && "$BIN/apt" download --print-uris world tilde >"$T/out" 2>"$T/err"); RC=$?
OUT=$(cat "$T/out")
check "download --print-uris exits 0 (rc $RC)" test "$RC" = 0
check "download --print-uris: a line per version" test "$(sort <<<"$OUT")" = "$(sort <<<"$(deb_line world)
$(deb_line tilde)")"
if [ -x /usr/bin/apt-get ]; then
    OUT2=$(cd "$T/dl" && /usr/bin/apt-get download --print-uris world tilde 2>&1)
    check "real apt-get download --print-uris says the same" diff <(echo "$OUT2") <(echo "$OUT")
fi
check "download --print-uris: epoch as %3a in the name" contains "$OUT" " world_2%3a2.0_amd64.deb "
check "download --print-uris fetches nothing" test -z "$(ls "$T/dl")"
(cd "$T/dl" && "$BIN/apt" download --print-uris nothere >"$T/out" 2>"$T/err"); RC=$?
check "download --print-uris of an unknown name exits 100 (rc $RC)" test "$RC" = 100

# --- check
run "$BIN/apt-get" check
check "check on a sound system exits 0 (rc $RC)" test "$RC" = 0
check "check on a sound system: the progress lines only" test "$OUT" = "Reading package lists...
Building dependency tree..."
cp "$SB/var/lib/dpkg/status" "$T/status.good"
cat >>"$SB/var/lib/dpkg/status" <<STATUS
Package: hello
Status: install ok installed
Priority: optional
Section: misc
Maintainer: Test <test@example.org>
Architecture: amd64
Version: 1.0
Description: hello

Package: brk
Status: install ok installed
Priority: optional
Section: misc
Maintainer: Test <test@example.org>
Architecture: amd64
Version: 1.0
Depends: nothere, dep (>= 2) | world
Breaks: hello (<< 2)
Recommends: nothere-either
Description: broken

STATUS
BROKEN="Reading package lists...
Building dependency tree...
You might want to run 'apt --fix-broken install' to correct these.
The following packages have unmet dependencies:
 brk : Depends: nothere but it is not installable
       Depends: dep (>= 2) but it is not installed or
                world but it is not installed
       Breaks: hello (< 2) but 1.0 is installed
       Recommends: nothere-either but it is not installable
E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution)."
"$BIN/apt-get" check >"$T/out" 2>&1; RC=$?
OUT=$(cat "$T/out")
check "check on a broken system exits 100 (rc $RC)" test "$RC" = 100
check "check on a broken system: apt's report" test "$OUT" = "$BROKEN"
if [ -x /usr/bin/apt-get ]; then
    /usr/bin/apt-get check -s >"$T/apt-out" 2>&1; apt_rc=$?
    check "real apt-get check says the same (rc $apt_rc)" diff <(echo "$BROKEN") "$T/apt-out"
fi
cp "$T/status.good" "$SB/var/lib/dpkg/status"

# --- install --mark-auto, --comment
run "$BIN/apt-get" install -s hello
plain=$OUT
run "$BIN/apt-get" install -s --mark-auto hello
check "install -s --mark-auto: the same plan" test "$OUT" = "$plain"
run "$BIN/apt-get" install -y --mark-auto hello
check "install --mark-auto exits 0 (rc $RC)" test "$RC" = 0
check "hello is installed" test "$(installed hello)" = "1.0"
run "$BIN/apt-mark" showauto
check "install --mark-auto: hello is automatic ($OUT)" test "$OUT" = "hello"
run "$BIN/apt-get" install -y dep --comment="A test comment"
check "install --comment exits 0 (rc $RC)" test "$RC" = 0
check "history.log: the comment after the command line" \
    test "$(sed -n '/^Commandline: apt-get install -y dep/,/^End-Date/p' "$SB/var/log/apt/history.log" |
            sed -n '2,3p')" = "Comment: A test comment
Install: dep:amd64 (1.0)"

# --- distclean (last: it takes the lists)
touch "$LISTS/partial/x_Packages" "$T/cache/archives/foo_1_all.deb" "$T/cache/archives/partial/bar_1_all.deb"
for dirt in Packages.gz Sources.xz Release2gpg Release_Packages Release; do touch "$LISTS/_foo_bar_$dirt"; done
listing() { (cd "$LISTS" && find . | sort); }
before=$(listing)
run "$BIN/apt-get" dist-clean -s
check "dist-clean -s exits 0 (rc $RC)" test "$RC" = 0
check "dist-clean -s removes nothing" test "$(listing)" = "$before"
check "dist-clean -s names the lists it would remove" contains "$OUT" "${PREFIX}_dists_stable_main_binary-amd64_Packages"
run "$BIN/apt" distclean
check "apt distclean exits 0 (rc $RC)" test "$RC" = 0
check "apt distclean prints nothing ($OUT$ERR)" test -z "$OUT$ERR"
check "distclean keeps the Release files, the lock, partial/ and auxfiles/" test "$(listing)" = "$(printf '%s\n' . ./_foo_bar_Release \
    "./${PREFIX}_dists_stable_InRelease" ./auxfiles ./lock ./partial | sort)"
check "distclean empties the archives" test -z "$(find "$T/cache/archives" -name '*.deb')"
finish
