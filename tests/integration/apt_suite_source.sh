#!/bin/bash
# `source` (apt-get source) on a loopback repository with real source
# packages (dpkg-source builds them), and what APT's suite found around it:
# - --print-uris lists the .dsc and the tarball with their sizes and
#   strongest hashes; the highest version is taken, -t and /release narrow
#   it, =version names one;
# - the files are fetched into the current directory, checked against the
#   Sources hashes, and unpacked by dpkg-source; a file already there is
#   not fetched again; --dsc-only fetches the .dsc alone and does not unpack;
#   -b builds the binary packages with dpkg-buildpackage;
# - a file the mirror changed is refused (hash mismatch) and not unpacked;
# - a source (or .deb, apt-get download) from a repository that cannot be
#   authenticated is refused without --allow-unauthenticated;
# - entries of one repository that disagree on trusted= are refused;
# - a source whose Sources stanza has MD5 (Files) only, from a signed
#   repository: apt's "Skipping download of file ..." for each file,
#   nothing fetched nor unpacked, exit 0 (--allow-unauthenticated takes it).
source "$(dirname "$0")/lib/update_repo.sh"
command -v dpkg-source >/dev/null || { echo "SKIP: dpkg-source (dpkg-dev) not installed"; exit 0; }
update_setup

make_suite stable --packages hello=1.0 --sources hello=1.0 >/dev/null
make_suite unstable --packages hello=2.0 --sources hello=2.0 >/dev/null
{
    echo "Types: deb deb-src"; echo "URIs: $URL"; echo "Suites: stable unstable"; echo "Components: main"
    echo "Signed-By: $KEYRING"
} >"$SB/etc/apt/sources.list.d/test.sources"
run_update
check "update with Sources (rc $RC): $ERR" test "$RC" = 0

W=$T/work && mkdir -p "$W" && cd "$W" || exit 1
src() { "$APTUS" source "$@" >"$T/out" 2>"$T/err"; RC=$?; OUT=$(cat "$T/out"); ERR=$(cat "$T/err"); }

src --print-uris hello
check "print-uris: the highest version's .dsc first (rc $RC): $OUT" \
    bash -c "grep \"^'\" <<<\"\$0\" | head -1 | grep -qE \"^'$URL/pool/unstable/main/hello_2.0.dsc' hello_2.0.dsc [0-9]+ SHA512:[0-9a-f]{128}\$\"" "$OUT"
check "and its tarball" bash -c 'grep -q " hello_2.0.tar.xz " <<<"$0"' "$OUT"
check "nothing fetched" test ! -e hello_2.0.dsc
src --print-uris -t stable hello
check "-t stable: 1.0: $OUT" bash -c 'grep "^'"'"'" <<<"$0" | head -1 | grep -q " hello_1.0.dsc "' "$OUT"
check "apt's lines before the URIs: $OUT" test "$(grep -v "^'" <<<"$OUT" | sed 's/[0-9][0-9]* B/N B/')" = "Reading package lists...
Selected version '1.0' (stable) for hello
Need to get N B of source archives."
src --print-uris hello/stable
check "hello/stable: 1.0" bash -c 'grep "^'"'"'" <<<"$0" | head -1 | grep -q " hello_1.0.dsc "' "$OUT"
check "with apt's note" contains "$OUT" "Selected version '1.0' (stable) for hello"
src --print-uris hello=1.0
check "hello=1.0: 1.0" bash -c 'grep "^'"'"'" <<<"$0" | head -1 | grep -q " hello_1.0.dsc "' "$OUT"
check "a version given: no note" not_contains "$OUT" "Selected version"
src --print-uris hello hello
check "a source named twice is listed once" test "$(grep -c "^'" <<<"$OUT")" = 2
src -s hello
check "-s: apt's Fetch line" test "$(tail -1 <<<"$OUT")" = "Fetch source hello"
check "and nothing fetched" test ! -e hello_2.0.dsc
# A binary package gives its source (its Source field) before a source
# package of the same name, as apt picks it; --only-source takes the name.
cat >"$T/tool.json" <<'JSON'
[{"name": "hello", "version": "2.0", "fields": {}},
 {"name": "tool", "version": "1.0", "fields": {"Source": "toolsrc (1.0)"}}]
JSON
make_suite unstable --spec "$T/tool.json" --sources hello=2.0,toolsrc=1.0,tool=9.0 >/dev/null
run_update
src --print-uris tool
check "a binary's name: its source, with apt's note (rc $RC): $OUT" \
    contains "$OUT" "Picking 'toolsrc' as source package instead of 'tool'"
check "the binary's source version" contains "$OUT" " toolsrc_1.0.dsc "
src --print-uris --only-source tool
check "--only-source: the source package of that name" contains "$OUT" " tool_9.0.dsc "
src --print-uris tool=1.0
check "tool=1.0: the source of the binary version 1.0" contains "$OUT" " toolsrc_1.0.dsc "
src --print-uris src:tool
check "src:NAME: the source package of that name" contains "$OUT" " tool_9.0.dsc "
src --print-uris tool:amd64
check "NAME:arch: that binary package's source" contains "$OUT" " toolsrc_1.0.dsc "
src --print-uris tool:armel
check "an architecture nothing has: apt's errors (rc $RC): $ERR" test "$ERR" = "E: Can not find a package for architecture 'armel'
E: Unable to find a source package for tool:armel"
src --print-uris tool:amd64=7
check "a version that binary package lacks: apt's errors: $ERR" test "$ERR" = "E: Can not find a package 'tool:amd64' with version '7'
E: Unable to find a source package for tool:amd64=7"
src --print-uris hello=9
check "a version nothing has: apt-get source names the package alone: $ERR" test "$ERR" = "E: Can not find version '9' of package 'hello'
E: Unable to find a source package for hello"
# A bare name: the candidate gives the source package's name only, its
# highest version is fetched (apt's rule: a pin keeping the binary back
# does not hold the source back).
printf 'Package: *\nPin: release a=unstable\nPin-Priority: -10\n' >"$SB/etc/apt/preferences"
src --print-uris hello
check "a bare name: the highest source version, whatever the binary's pin" contains "$OUT" " hello_2.0.dsc "
rm -f "$SB/etc/apt/preferences"
src --print-uris nosuch
check "an unknown name: apt's error (rc $RC): $ERR" \
    bash -c '[ "$1" = 100 ] && grep -qx "E: Unable to find a source package for nosuch" <<<"$0"' "$ERR" "$RC"

src hello
check "source hello: fetched and unpacked (rc $RC): $OUT $ERR" test "$RC" = 0
check "apt's Get line for the .dsc" bash -c 'grep -qE "^Get:1 .* stable|unstable" <<<"$0" && grep -q "hello 2.0 (dsc) \[" <<<"$0"' "$OUT"
check "the tree is unpacked" test -f hello-2.0/README
check "it is 2.0's" grep -q "hello 2.0," hello-2.0/README
src hello
check "again: nothing fetched, nothing unpacked: $OUT" \
    bash -c 'grep -q "Skipping already downloaded file .hello_2.0.dsc." <<<"$0" && grep -q "Skipping unpack of already unpacked source in hello-2.0" <<<"$0"' "$OUT"
rm -rf hello*
src -b hello
check "--compile: the binary package is built beside it (rc $RC): $ERR" \
    bash -c '[ "$0" = 0 ] && dpkg-deb -f hello_2.0_amd64.deb Version | grep -qx 2.0' "$RC"
rm -rf hello*
src --dsc-only hello=1.0
check "--dsc-only: the .dsc alone, not unpacked (rc $RC)" \
    bash -c '[ "$0" = 0 ] && [ -s hello_1.0.dsc ] && [ ! -e hello_1.0.tar.xz ] && [ ! -d hello-1.0 ]' "$RC"
rm -rf hello*

# The mirror serves another tarball than the Sources file names.
cp "$REPO/pool/unstable/main/hello_2.0.tar.xz" "$T/good.tar.xz"
printf 'not the tarball' >"$REPO/pool/unstable/main/hello_2.0.tar.xz"
src hello
check "a changed tarball is refused (rc $RC): $ERR" \
    bash -c '[ "$1" = 100 ] && grep -q "hello_2.0.tar.xz  Hash Sum mismatch\|unexpected size" <<<"$0"' "$ERR" "$RC"
check "and nothing is unpacked" test ! -e hello-2.0
cp "$T/good.tar.xz" "$REPO/pool/unstable/main/hello_2.0.tar.xz"
rm -rf hello*

# Unauthenticated: the same repository under trusted=no ... as an unsigned one.
{
    echo "Types: deb deb-src"; echo "URIs: $URL"; echo "Suites: stable"; echo "Components: main"
    echo "Trusted: no"
} >"$SB/etc/apt/sources.list.d/test.sources"
make_suite stable --packages hello=1.0 --sources hello=1.0 --unsigned >/dev/null
rm -f "$LISTS"/*_*
run_update --allow-insecure-repositories
check "the unsigned repository is taken (rc $RC)" test "$RC" = 0
src --dsc-only hello
check "source from it is refused (rc $RC): $OUT $ERR" \
    bash -c '[ "$2" = 100 ] && grep -q "WARNING: The following packages cannot be authenticated!" <<<"$0" && grep -qx "E: Some packages could not be authenticated" <<<"$1"' "$OUT" "$ERR" "$RC"
check "and nothing fetched" test ! -e hello_1.0.dsc
src --dsc-only --allow-unauthenticated hello
check "with --allow-unauthenticated it is fetched (rc $RC)" test -s hello_1.0.dsc
"$APTUS" download hello >"$T/out" 2>&1
RC=$?
check "download from it is refused too (rc $RC): $(cat "$T/out")" \
    bash -c '[ "$0" = 100 ] && grep -q "cannot be authenticated" "$1"' "$RC" "$T/out"

# MD5 only in the Sources stanza of a signed repository.
rm -f hello_1.0.dsc
set_sources stable
sed -i 's/^Types: deb$/Types: deb deb-src/' "$SB/etc/apt/sources.list.d/test.sources"
rm -f "$SB/etc/apt/sources.list.d/test.list"
make_suite stable --packages hello=1.0 --sources hello=1.0 --sources-md5-only >/dev/null
rm -f "$LISTS"/*_*
run_update
check "update, Sources with MD5 only (rc $RC): $ERR" test "$RC" = 0
src hello
check "source with MD5 only: exit 0 (rc $RC): $ERR" test "$RC" = 0
check "apt's skip line for the .dsc: $OUT" \
    contains "$OUT" "Skipping download of file 'hello_1.0.dsc' as requested hashsum is not available for authentication"
check "nothing fetched, nothing unpacked" bash -c '! ls hello_1.0* hello-1.0 >/dev/null 2>&1'
src --allow-unauthenticated hello
check "--allow-unauthenticated takes it (rc $RC)" test -s hello_1.0.dsc

# Two entries of one repository that disagree on trusted=.
printf 'deb %s stable main\ndeb [trusted=yes] %s stable non-free\n' "$URL" "$URL" \
    >"$SB/etc/apt/sources.list.d/test.list"
rm -f "$SB/etc/apt/sources.list.d/test.sources"
"$APTUS" update --print-uris >"$T/out" 2>&1
RC=$?
check "conflicting trusted= refused (rc $RC): $(cat "$T/out")" \
    bash -c '[ "$0" = 100 ] && grep -qx "E: Conflicting values set for option Trusted regarding source $1/ stable" "$2"' \
    "$RC" "$URL" "$T/out"
cd /
finish
