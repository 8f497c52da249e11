#!/bin/bash
# `history rollback N` and `history redo N` with real dpkg on a system run
# with --root (so every history line starts "aptus --root DIR"): install A,
# install B, upgrade A, remove C; rollback to the first entry gives the
# packages and automatic marks right after it; -s and --json change nothing
# (the JSON names the changes); a version the archive no longer has is a
# clear error and nothing is done; redo of an install after its undo
# installs it again; the list's command column shows "install hello ccc",
# not the --root path (history info keeps the whole line).
source "$(dirname "$0")/lib/install_repo.sh"
install_setup
export COLUMNS=120

# aptus --root $R, without the sandbox's APT_CONFIG: sets OUT, ERR, RC.
in_root() {
    local saved=$APT_CONFIG
    unset APT_CONFIG
    aptus_run --root "$R" "$@"
    export APT_CONFIG=$saved
}
# The suite from a package list, and the root's lists updated.
suite() {
    spec "$@" >"$T/spec.json"
    install_suite stable "$T/spec.json"
    [ -z "${R:-}" ] || in_root update -q
}
BASE=("libhello|1.0" "hello|1.0|Depends=libhello" "libccc|1.0" "ccc|1.0|Depends=libccc" "bbb|1.0")
entries() { in_root history --json; python3 -c 'import json,sys; print(len(json.load(sys.stdin)["entries"]))' <<<"$OUT"; }

suite "${BASE[@]}"
R=$T/root
root_system "$R"
in_root update -q
check "update of the root ($ERR)" test "$RC" = 0

# 1: install A (hello, with an automatic dependency) and C (ccc, the same).
in_root install -y hello ccc
check "entry 1: install hello ccc ($ERR)" test "$RC" = 0
after1=$(installed_set "$R")
check "entry 1 installed four packages" test "$(wc -l <<<"$after1")" = 4
# 2: install B.
in_root install -y bbb
check "entry 2: install bbb ($ERR)" test "$RC" = 0
# 3: upgrade A.
suite "${BASE[@]}" "hello|2.0|Depends=libhello"
in_root install -y hello
check "entry 3: upgrade hello ($ERR)" test "$RC" = 0
# 4: remove C, its dependency with it.
in_root remove -y --autoremove ccc
check "entry 4: remove ccc ($ERR)" test "$RC" = 0
after4=$(installed_set "$R")
check "after entry 4: bbb, hello 2.0, libhello" test "$after4" = "$(printf 'bbb 1.0\nhello 2.0\nlibhello 1.0')"

# The list: what each run did, not where.
in_root history
check "history lists 4 entries" test "$(wc -l <<<"$OUT")" = 5
check "entry 1's command column is 'install hello ccc'" grep -qE '^ 1  install hello ccc +[0-9-]+ [0-9:]+  Install +4$' <<<"$OUT"
check "entry 3's is 'install hello'" grep -qE '^ 3  install hello +[0-9-]+ [0-9:]+  Upgrade +1$' <<<"$OUT"
check "entry 4's is 'remove --autoremove ccc'" grep -qE '^ 4  remove --autoremove ccc +' <<<"$OUT"
check "no --root in the list" not_contains "$OUT" "--root"
in_root history info 1
check "info keeps the whole command line" grep -qE "^Commandline +: .*aptus --root $R install -y hello ccc$" <<<"$OUT"
COLUMNS=60 in_root history
check "a narrow list cuts the column with … ($OUT)" grep -qE '^ 4  remove --autoremove… ' <<<"$OUT"

# rollback -s: the plan of the net change; nothing is done.
in_root history rollback 1 -s
check "rollback 1 -s exits 0 ($ERR)" test "$RC" = 0
check "rollback -s says what it does" contains "$OUT" "Rolling back to history entry 1 (aptus --root $R install -y hello ccc), undoing entries 2 to 4: install"
check "rollback -s removes what came after (bbb)" contains "$OUT" "Remv bbb [1.0]"
check "rollback -s downgrades the upgrade" contains "$OUT" "Inst hello [2.0] (1.0"
check "rollback -s installs the removed again" contains "$OUT" "Inst ccc (1.0"
check "... and its dependency" contains "$OUT" "Inst libccc (1.0"
check "rollback -s changes nothing" test "$(installed_set "$R")" = "$after4"

# rollback --json: install's plan JSON, naming the changes with their marks.
in_root history rollback 1 --json
check "rollback --json exits 0 ($ERR)" test "$RC" = 0
check "rollback --json parses" python3 -m json.tool <<<"$OUT"
check "rollback --json names the changes" python3 - "$OUT" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["solved"] and d["command"] == "install", d
got = {(c["action"], c["package"], c["new_version"], c["automatic"]) for c in d["changes"]}
want = {("remove", "bbb", None, False), ("downgrade", "hello", "1.0", False),
        ("install", "ccc", "1.0", False), ("install", "libccc", "1.0", True)}
assert got == want, got
PY
check "rollback --json: the note on stderr" contains "$ERR" "Rolling back to history entry 1"
check "rollback --json changes nothing" test "$(installed_set "$R")" = "$after4"

# A version the archive no longer has: the error names it; nothing is done.
suite "libhello|1.0" "libccc|1.0" "ccc|1.0|Depends=libccc" "bbb|1.0" "hello|2.0|Depends=libhello"
in_root history rollback 1 -y --allow-downgrades
check "rollback to a version gone exits 100" test "$RC" = 100
check "... naming the package and the version ($ERR)" contains "$ERR" "E: Version 1.0 of hello is not available any more"
check "... and changes nothing" test "$(installed_set "$R")" = "$after4"
check "... nor the history" test "$(entries)" = 4

# rollback for real: the packages and marks right after entry 1.
suite "${BASE[@]}" "hello|2.0|Depends=libhello"
in_root history rollback 1 -y --allow-downgrades
check "rollback 1 exits 0 ($ERR)" test "$RC" = 0
check "the packages are as after entry 1 ($(installed_set "$R" | tr '\n' ' '))" test "$(installed_set "$R")" = "$after1"
in_root mark showauto
check "the automatic marks are as after entry 1 ($OUT)" test "$OUT" = "$(printf 'libccc\nlibhello')"
check "the rollback is entry 5" test "$(entries)" = 5
in_root history rollback 5 -s
check "rollback to the last entry has nothing to do" contains "$OUT" "Nothing to roll back"

# redo: entry 2 (install bbb), undone by the rollback, done again.
in_root history redo 2 -s
check "redo 2 -s exits 0 ($ERR)" test "$RC" = 0
check "redo -s says what it does" contains "$OUT" "Redoing history entry 2 (aptus --root $R install -y bbb): install bbb=1.0"
check "redo -s plans the install" contains "$OUT" "Inst bbb (1.0"
check "redo -s changes nothing" test "$(installed_set "$R")" = "$after1"
in_root history redo 2 --json
check "redo --json parses and names bbb" python3 - "$OUT" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert [(c["action"], c["package"], c["new_version"]) for c in d["changes"]] == [("install", "bbb", "1.0")], d
PY
in_root history redo 4 -s
check "redo of a removal plans it again" contains "$OUT" "Remv ccc [1.0]"
in_root history redo 2 -y
check "redo 2 exits 0 ($ERR)" test "$RC" = 0
check "redo 2 installed bbb" contains "$(installed_set "$R")" "bbb 1.0"
in_root history undo 2 -y
check "undo 2 exits 0 ($ERR)" test "$RC" = 0
check "undo 2 removed bbb" not_contains "$(installed_set "$R")" "bbb"
in_root history redo 2 -y
check "redo 2 after its undo exits 0 ($ERR)" test "$RC" = 0
check "redo 2 installed bbb again" contains "$(installed_set "$R")" "bbb 1.0"
in_root mark showmanual
check "bbb is manual again ($OUT)" contains "$OUT" "bbb"

in_root history
check "the list shows rollback, undo and redo by their words" \
    grep -qE '^ 5  history rollback 1 --allow-downgrades +.*$' <<<"$OUT"
check "... undo" grep -qE '^ 7  history undo 2 +' <<<"$OUT"
check "... redo" grep -qE '^ 8  history redo 2 +' <<<"$OUT"

# Errors.
in_root history redo 9
check "redo of a missing entry fails" test "$RC" = 100
in_root history rollback x
check "rollback of a bad ID fails" contains "$ERR" "'x' is no history entry"

finish
