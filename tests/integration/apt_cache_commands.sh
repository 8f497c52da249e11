#!/bin/bash
# apt-cache's older commands, aptus started as apt-cache (argv[0]): madison,
# showpkg, unmet, pkgnames with their exact text (as APT 3.0 prints it,
# checked against real apt-cache on the same repository); stats (and its
# error with an argument), dump, dumpavail, xvcg, dotty and gencaches
# succeed with output of the right shape. A small file: repository with a
# deb-src entry, updated by aptus; nothing outside $T is touched.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
export LC_ALL=C
T=$(mktemp -d /tmp/aptus-apt-cache-commands.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0
check() {
    local message=$1
    shift
    if ! "$@"; then
        echo "FAIL: $message"
        echo "--- output:"; echo "$OUT"
        failures=$((failures + 1))
    fi
}
same() { [ "$1" = "$2" ] || { diff <(echo "$2") <(echo "$1") | head -30; return 1; }; }

A=$T/aptarchive
R=$T/root
mkdir -p "$A/dists/unstable/main/binary-amd64" "$A/dists/unstable/main/source" \
    "$R/etc/apt/apt.conf.d" "$R/etc/apt/preferences.d" "$R/etc/apt/sources.list.d" \
    "$R/var/lib/dpkg" "$R/var/lib/apt/lists/partial" "$T/cache" "$T/bin"
pkg() { # NAME ARCH VERSION [FIELD...]
    printf 'Package: %s\nArchitecture: %s\nVersion: %s\nMaintainer: T <t@example.org>\nInstalled-Size: 1\n' "$1" "$2" "$3"
    printf 'Filename: pool/%s_%s_%s.deb\nSize: 100\nSHA256: %064d\nDescription: %s package\n' "$1" "$3" "$2" 0 "$1"
    shift 3
    for f in "$@"; do printf '%s\n' "$f"; done
    echo
}
{
    pkg foo all 1 "Depends: bar" "Conflicts: foobar" "Recommends: cool (>= 2) | cooler (<< 5)"
    pkg foo all 2 "Depends: bar (>= 2)"
    pkg bar all 1 "Depends: bar" "Breaks: foo (<< 1)" "Replaces: foo (<< 1)"
    pkg fancy all 1 "Suggests: nothere" "Enhances: alsonothere"
    pkg prov amd64 1 "Provides: virtual (= 3), other" "Depends: virtual (>= 2), missing | virtual (>= 4)"
} >"$A/dists/unstable/main/binary-amd64/Packages"
printf 'Package: foo\nBinary: foo, fancy\nVersion: 1\nMaintainer: T <t@example.org>\nArchitecture: all\nFormat: 3.0 (native)\nDirectory: pool\nFiles:\n %032d 10 foo_1.dsc\n\n' 0 \
    >"$A/dists/unstable/main/source/Sources"
(
    cd "$A/dists/unstable" || exit 1
    printf 'Origin: test\nLabel: test\nSuite: unstable\nCodename: sid\nDate: %s\nArchitectures: amd64\nComponents: main\nSHA256:\n' "$(date -Ru)"
    for f in main/binary-amd64/Packages main/source/Sources; do
        echo " $(sha256sum "$f" | cut -d' ' -f1) $(stat -c %s "$f") $f"
    done
) >"$T/Release" && mv "$T/Release" "$A/dists/unstable/Release"
printf 'deb [trusted=yes] file:%s unstable main\ndeb-src [trusted=yes] file:%s unstable main\n' "$A" "$A" >"$R/etc/apt/sources.list"
printf 'Package: awesome\nStatus: install ok installed\nArchitecture: all\nVersion: 1\nMaintainer: T <t@example.org>\nDescription: installed only\n\n' \
    >"$R/var/lib/dpkg/status"
cat >"$R/apt.conf" <<CONF
Dir "$R/";
Dir::State::status "$R/var/lib/dpkg/status";
Dir::Cache "$T/cache";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages { "none"; };
quiet "0";
CONF
export APT_CONFIG=$R/apt.conf
ln -s "$APTUS" "$T/bin/apt-cache"
AC=$T/bin/apt-cache
"$APTUS" update >"$T/update.out" 2>&1 || { echo "FAIL: aptus update"; cat "$T/update.out"; exit 1; }
LISTS=$R/var/lib/apt/lists
PACKAGES=$LISTS/$(echo "$A" | tr / _)_dists_unstable_main_binary-amd64_Packages

run() { OUT=$("$AC" "$@" 2>&1); RC=$?; }

# madison: every version per package list, then the source records that
# name the package (as Package or in Binary); nothing for a name only the
# status has; apt's notice for a name nothing has.
run madison foo
check "madison foo (rc $RC)" same "$OUT" "       foo |          2 | file:$A unstable/main amd64 Packages
       foo |          1 | file:$A unstable/main amd64 Packages
       foo |          1 | file:$A unstable/main Sources"
run madison bar fancy awesome prov
check "madison bar fancy awesome prov (rc $RC)" same "$OUT" "       bar |          1 | file:$A unstable/main amd64 Packages
     fancy |          1 | file:$A unstable/main amd64 Packages
       foo |          1 | file:$A unstable/main Sources
      prov |          1 | file:$A unstable/main amd64 Packages"
run madison nosuchthing
check "madison of an unknown name: apt's notice, exit 0 (rc $RC)" \
    bash -c '[ "$1" = 0 ] && [ "$2" = "N: Unable to locate package nosuchthing" ]' _ "$RC" "$OUT"

# --json: the same records as data (aptus's own option).
OUT=$("$APTUS" madison foo nosuchthing --json 2>&1); RC=$?
check "madison --json (rc $RC)" same "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["schema_version"], [(r["package"], r["version"], r["kind"]) for r in d["records"]], d["not_found"])' <<<"$OUT")" \
    "1 [('foo', '2', 'binary'), ('foo', '1', 'binary'), ('foo', '1', 'source')] ['nosuchthing']"
OUT=$("$APTUS" check --json 2>&1); RC=$?
check "check --json on a sound system: nothing broken, exit 0 (rc $RC)" \
    same "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["broken"])' <<<"$OUT")" "[]"

# pkgnames: apt's hash order; names with versions only, unless --all-names.
run pkgnames
check "pkgnames (rc $RC)" same "$OUT" "bar
foo
prov
awesome
fancy"
run pkgnames f
check "pkgnames f" same "$OUT" "foo
fancy"
run pkgnames --all-names
check "pkgnames --all-names" same "$OUT" "alsonothere
bar
foo
prov
awesome
missing
other
nothere
virtual
cool
cooler
foobar
fancy"

# unmet: or-groups nothing satisfies, apt's operators ("<" for "<<");
# Conflicts, Breaks and Replaces never; -i: Depends and Pre-Depends only.
run unmet
check "unmet (rc $RC)" same "$OUT" "Package foo version 2 has an unmet dep:
 Depends: bar (>= 2)
Package foo version 1 has an unmet dep:
 Recommends: cool (>= 2) | cooler (< 5)
Package prov version 1 has an unmet dep:
 Depends: missing | virtual (>= 4)
Package fancy version 1 has an unmet dep:
 Suggests: nothere
 Enhances: alsonothere"
run unmet -i
check "unmet -i" same "$OUT" "Package foo version 2 has an unmet dep:
 Depends: bar (>= 2)
Package prov version 1 has an unmet dep:
 Depends: missing | virtual (>= 4)"
run unmet foo
check "unmet foo: the candidate only" same "$OUT" "Package foo version 2 has an unmet dep:
 Depends: bar (>= 2)"
run unmet awesome
check "unmet awesome: nothing (rc $RC)" bash -c '[ "$1" = 0 ] && [ -z "$2" ]' _ "$RC" "$OUT"

# showpkg: a real package, a virtual one, a name nothing has.
run showpkg foo
check "showpkg foo (rc $RC)" same "$OUT" "Package: foo
Versions: 
2 ($PACKAGES)
 Description Language: 
                 File: $PACKAGES
                  MD5: c0ad214da5ec631ef6bbd45dbf97dc68

1 ($PACKAGES)
 Description Language: 
                 File: $PACKAGES
                  MD5: c0ad214da5ec631ef6bbd45dbf97dc68


Reverse Depends: 
  bar,foo 1
  bar,foo 1
Dependencies: 
2 - bar (2 2) 
1 - bar (0 (null)) foobar (0 (null)) cool (18 2) cooler (3 5) 
Provides: 
2 - 
1 - 
Reverse Provides: "
run showpkg prov virtual nosuchthing
check "showpkg prov virtual nosuchthing" same "$OUT" "Package: prov
Versions: 
1 ($PACKAGES)
 Description Language: 
                 File: $PACKAGES
                  MD5: 1782ffbbee4851a25f6a08db76d432be


Reverse Depends: 
Dependencies: 
1 - virtual (2 2) missing (16 (null)) virtual (2 4) 
Provides: 
1 - other (= ) virtual (= 3) 
Reverse Provides: 
Package: virtual
Versions: 

Reverse Depends: 
  prov,virtual 4
  prov,virtual 2
Dependencies: 
Provides: 
Reverse Provides: 
prov 1 (= 3)
N: Unable to locate package nosuchthing"

# stats: success with output; with an argument apt's error and 100.
run stats
check "stats succeeds (rc $RC)" bash -c '[ "$1" = 0 ] && grep -q "^Total package names: [0-9]" <<<"$2" && grep -q "^Total distinct versions: 6 " <<<"$2"' _ "$RC" "$OUT"
run stats foo
check "stats foo: apt's error (rc $RC)" bash -c '[ "$1" = 100 ] && [ "$2" = "E: apt-cache stats does not take any arguments" ]' _ "$RC" "$OUT"

# dump, dumpavail, xvcg, dotty, gencaches.
run dump
check "dump (rc $RC)" bash -c '[ "$1" = 0 ] && [ "$(head -1 <<<"$2")" = "Using Versioning System: Standard .deb" ] && grep -qx "Package: foo" <<<"$2" && grep -qx " Version: 2" <<<"$2"' _ "$RC" "$OUT"
run dumpavail
check "dumpavail: the candidates as a Packages file (rc $RC)" bash -c '[ "$1" = 0 ] &&
    [ "$(grep -c "^Package: " <<<"$2")" = 4 ] && grep -qx "Version: 2" <<<"$2" && ! grep -qx "Version: 1" <<<"$(sed -n "/^Package: foo$/,/^$/p" <<<"$2")" &&
    ! grep -q "^Package: awesome" <<<"$2"' _ "$RC" "$OUT"
run xvcg foo
check "xvcg foo (rc $RC)" same "$OUT" 'graph: { title: "packages"
xmax: 700 ymax: 700 x: 30 y: 30
layout_downfactor: 8
edge: { sourcename: "foo" targetname: "bar" class: 2 }
edge: { sourcename: "bar" targetname: "bar" class: 2 }
edge: { sourcename: "bar" targetname: "foo" class: 2 label: "breaks" color: lightgreen }
node: { title: "bar" label: "bar" shape: box }
node: { title: "foo" label: "foo" shape: box }
}'
run dotty foo
check "dotty foo (rc $RC)" same "$OUT" 'digraph packages {
concentrate=true;
size="30,40";
"foo" -> "bar";
"bar" -> "bar";
"bar" -> "foo"[color=springgreen];
"bar" [shape=box];
"foo" [shape=box];
}'
rm -rf "$T/cache"/*
run gencaches
check "gencaches: no output (rc $RC)" bash -c '[ "$1" = 0 ] && [ -z "$2" ]' _ "$RC" "$OUT"
check "gencaches built the cache" bash -c 'ls "$1"/*.bin >/dev/null 2>&1' _ "$T/cache"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo PASS
