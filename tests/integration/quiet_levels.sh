#!/bin/bash
# -q and -qq under aptus's own name, as apt-get: -q keeps the plan (and,
# as apt's quiet level 1, the progress lines without their updates); -qq
# drops both, leaving -s's Inst/Conf lines.
source "$(dirname "$0")/lib/update_repo.sh"
updated_repo "hello=1.0"

OUT=$("$APTUS" install -s hello 2>&1)
check "no -q: progress and the plan: $OUT" bash -c 'grep -q "^Reading package lists" <<<"$0" && grep -q "^Installing:" <<<"$0"' "$OUT"
OUT=$("$APTUS" install -s -q hello 2>&1)
check "-q: the plan stays" contains "$OUT" "Installing:"
OUT=$("$APTUS" install -s -qq hello 2>&1)
check "-qq: no plan: $OUT" not_contains "$OUT" "Installing:"
check "-qq: no progress" not_contains "$OUT" "Reading package lists"
check "-qq: only -s's lines" test "$(grep -cv '^\(Inst\|Conf\) ' <<<"$OUT")" = 0
check "-qq: Inst hello is there" contains "$OUT" "Inst hello (1.0"
finish
