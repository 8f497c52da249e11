#!/bin/bash
# APT 3.0's additions to the install commands and the help, with real dpkg
# in a sandbox root: `install --update` updates the lists first (a package
# published after the last update is found and installed), its failure
# stops the install; `help` is the help, exit 0, under aptus's name and apt's;
# `edit-sources` runs the user's editor on the sources, reads them again
# (a broken file: apt's question to edit again) and asks for an update
# when they changed.
source "$(dirname "$0")/lib/install_repo.sh"
install_setup

spec "first|1.0" >"$T/spec.json"
install_suite stable "$T/spec.json"
spec "first|1.0" "later|1.0" >"$T/spec2.json"
make_suite stable --spec "$T/spec2.json" >/dev/null || { echo "FAIL: make_repo.py"; exit 1; }
aptus_run install -s later
check "without --update, the new package is unknown (rc $RC)" test "$RC" = 100
aptus_run install -y --update later
check "install --update (rc $RC)" test "$RC" = 0
check "it updated first" contains "$OUT" "Get:"
check "later installed" test "$(installed later)" = 1.0
spec "first|1.0" "later|1.0" "latest|1.0" >"$T/spec3.json"
make_suite stable --spec "$T/spec3.json" >/dev/null || { echo "FAIL: make_repo.py"; exit 1; }
aptus_run install -s -U latest
check "-U is --update (rc $RC)" test "$RC" = 0
check "-U: the new package is found" contains "$OUT" "Inst latest (1.0"
mv "$REPO/dists" "$REPO/dists.away"
aptus_run install -y --update first
check "a failed update stops the install (rc $RC)" test "$RC" = 100
check "first not installed" test -z "$(installed first)"
mv "$REPO/dists.away" "$REPO/dists"

aptus_run help
check "aptus help exits 0" test "$RC" = 0
check "aptus help is the help" test "$OUT" = "$("$APTUS" --help)"
ln -s "$APTUS" "$T/apt"
"$T/apt" help >"$T/out" 2>&1
check "apt help exits 0" test "$?" = 0

# edit-sources with an $EDITOR of the test's own.
LIST=$SB/etc/apt/sources.list.d/extra.list
cat >"$T/editor" <<'ED'
#!/bin/sh
case "$(cat "$EDIT_ACTION")" in
  add) echo "# a comment" >>"$1" ;;
  break) echo "deb" >>"$1" ;;
  none) ;;
esac
ED
chmod +x "$T/editor"
export EDITOR=$T/editor VISUAL=$T/editor EDIT_ACTION=$T/action
echo add >"$T/action"
aptus_run edit-sources extra
check "edit-sources exits 0 (rc $RC)" test "$RC" = 0
check "it edited sources.list.d/extra.list" grep -q "# a comment" "$LIST"
check "a changed file: the advice names aptus" contains "$OUT" "Your '$LIST' file changed, please run 'aptus update'."
echo none >"$T/action"
aptus_run edit-sources extra
check "an unchanged file: no advice" not_contains "$OUT" "file changed"
echo break >"$T/action"
"$APTUS" edit-sources extra >"$T/out" 2>"$T/err" <<<"n"
RC=$?; OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
check "a broken file, not edited again: exit 100 (rc $RC)" test "$RC" = 100
check "the parse error is shown" contains "$ERR" "E: "
check "apt's question" contains "$OUT" "Failed to parse $LIST. Edit again?"
rm -f "$LIST"
finish
