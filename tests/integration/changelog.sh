#!/bin/bash
# aptus changelog / apt-get changelog against a loopback server: the URI
# from the Release file's Changelogs field (@CHANGEPATH@: component, pool
# prefix, source, version without epoch), apt's configuration overrides and
# "Changelogs: no"; --print-uris, -d (NAME.changelog in the current
# directory), the changelog shown; an installed package's own changelog
# under AlwaysOnline=false; apt's errors. The same URIs as real apt prints.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

spec "hello|1.0" "libfoo1|2:1.5-3|Source=libfoo (2:1.5-3)" >"$T/spec.json"
make_suite stable --spec "$T/spec.json" --changelogs "$URL/changelogs/@CHANGEPATH@/changelog" >/dev/null ||
    { echo "FAIL: make_repo.py"; exit 1; }
set_sources stable
"$APTUS" update -q >/dev/null 2>"$T/update-err" || { echo "FAIL: update"; cat "$T/update-err"; exit 1; }
mkdir -p "$REPO/changelogs/main/h/hello/hello_1.0" "$REPO/changelogs/main/libf/libfoo/libfoo_1.5-3"
printf 'hello (1.0) stable; urgency=low\n\n  * Hello.\n' >"$REPO/changelogs/main/h/hello/hello_1.0/changelog"
printf 'libfoo (2:1.5-3) stable; urgency=low\n\n  * Foo.\n' >"$REPO/changelogs/main/libf/libfoo/libfoo_1.5-3/changelog"

aptus_run changelog --print-uris hello libfoo1
check "--print-uris (rc $RC)" test "$RC" = 0
expected="'$URL/changelogs/main/h/hello/hello_1.0/changelog' hello.changelog
'$URL/changelogs/main/libf/libfoo/libfoo_1.5-3/changelog' libfoo.changelog"
check "the Release's template, the source's pool path without epoch" test "$OUT" = "$expected"
apt-get changelog --print-uris hello libfoo1 >"$T/apt-uris" 2>&1
check "real apt prints the same URIs" test "$(cat "$T/apt-uris")" = "$expected"
aptus_run changelog --print-uris hello -o Acquire::Changelogs::URI::Override::Label::aptus-test="http://elsewhere/@CHANGEPATH@.txt"
check "an Override beats the Release" test "$OUT" = "'http://elsewhere/main/h/hello/hello_1.0.txt' hello.changelog"

aptus_run changelog hello -qq
check "the changelog is shown (rc $RC)" test "$RC" = 0
check "its text" test "$OUT" = "$(cat "$REPO/changelogs/main/h/hello/hello_1.0/changelog")"
W=$T/work && mkdir -p "$W" && cd "$W" || exit 1
aptus_run changelog -d hello hello libfoo1
check "-d (rc $RC)" test "$RC" = 0
check "-d: hello.changelog" cmp -s hello.changelog "$REPO/changelogs/main/h/hello/hello_1.0/changelog"
check "-d: libfoo.changelog (the source's name, as apt)" cmp -s libfoo.changelog "$REPO/changelogs/main/libf/libfoo/libfoo_1.5-3/changelog"
check "-d: mode 644" test "$(stat -c %a hello.changelog)" = 644
cd "$T" || exit 1

rm "$REPO/changelogs/main/h/hello/hello_1.0/changelog"
aptus_run changelog hello -qq
check "a missing changelog fails (rc $RC)" test "$RC" = 100
check "with apt's error (the server's reason last)" contains "$ERR" \
    "E: Failed to fetch $URL/changelogs/main/h/hello/hello_1.0/changelog  Changelog unavailable for hello=1.0 (404  "
aptus_run changelog hello -o Acquire::Changelogs::URI::Override::Label::aptus-test=http://example.invalid/no-path
check "a template without @CHANGEPATH@: apt's error" test "$ERR" = \
    "E: Failed to fetch changelog:/hello.changelog  Changelog unavailable for hello=1.0"
aptus_run changelog
check "no package: apt's error" test "$ERR" = "E: No packages found"
aptus_run changelog no-such-package
check "an unknown package: apt's errors" test "$ERR" = "E: Unable to locate package no-such-package
E: No packages found"

# Installed, with its own changelog: read from the system when not always online.
aptus_run install -y hello
mkdir -p "$SB/usr/share/doc/hello" && printf 'hello (1.0) local copy\n' >"$SB/usr/share/doc/hello/changelog"
aptus_run changelog --print-uris hello -o Acquire::Changelogs::AlwaysOnline=false
check "AlwaysOnline=false: the installed copy" test "$OUT" = "'copy://$SB/usr/share/doc/hello/changelog' hello.changelog"
aptus_run changelog hello -qq -o Acquire::Changelogs::AlwaysOnline=false
check "and its text" test "$OUT" = "hello (1.0) local copy"
printf '# To read the complete changelog use `apt changelog hello`.\n' >>"$SB/usr/share/doc/hello/changelog"
aptus_run changelog --print-uris hello -o Acquire::Changelogs::AlwaysOnline=false
check "a copy cut short: online again" contains "$OUT" "'$URL/changelogs/"
finish
