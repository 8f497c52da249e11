#!/bin/bash
# One JSON envelope for every command: a command asked for --json that
# fails prints one JSON document on stdout (schema_version, command, and an
# "error" object with kind and message), the "E:" line on stderr, and exits
# 100 as it would without --json.
source "$(dirname "$0")/lib/update_repo.sh"
updated_repo "hello=1.0"

# The document on stdout, checked by python: exactly one JSON value whose
# fields are those given as key=value (error.kind=other).
json_is() {
    python3 - "$@" <<'PY'
import json, sys
doc = json.loads(open(sys.argv[1]).read())  # one document, nothing after it
for want in sys.argv[2:]:
    key, value = want.split("=", 1)
    got = doc
    for part in key.split("."):
        got = got[part]
    if str(got) != value:
        sys.exit(f"{key} is {got!r}, not {value!r}")
PY
}
run_json() {
    "$APTUS" "$@" >"$T/out" 2>"$T/err"
    RC=$?
    ERR=$(cat "$T/err")
}

run_json show --json no-such-package
check "show --json of nothing: exit 100 (rc $RC)" test "$RC" = 100
check "one document with the error: $(cat "$T/out")" json_is "$T/out" schema_version=1 command=show \
    error.kind=other "error.message=No packages found"
check "and the E: line on stderr: $ERR" contains "$ERR" "E: No packages found"

run_json history info 7 --json
check "history info of no entry: exit 100 (rc $RC)" test "$RC" = 100
check "history's error as JSON: $(cat "$T/out")" json_is "$T/out" command=history error.kind=other

echo "deb [broken" >"$SB/etc/apt/sources.list.d/broken.list"
run_json policy --json hello
check "policy with a broken sources line: exit 100 (rc $RC)" test "$RC" = 100
check "policy's error as JSON names the file: $(cat "$T/out")" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "broken.list" in d["error"]["message"], d' "$T/out"
rm "$SB/etc/apt/sources.list.d/broken.list"

run_json install -s --json no-such-package
check "install of nothing: exit 100 (rc $RC)" test "$RC" = 100
check "install's own failure JSON, one document: $(cat "$T/out")" json_is "$T/out" solved=False error.kind=request

# Without --json nothing is printed on stdout for the error.
run_json show no-such-package
check "without --json: stdout empty" test ! -s "$T/out"
finish
