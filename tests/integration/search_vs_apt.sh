#!/bin/bash
# aptus search must find the same packages as apt search on the real server
# sandbox, stdout not a terminal, C locale: the package lines ("name/suites
# version arch [status]") are compared; descriptions are compared in
# C.UTF-8 only, since in the C locale apt turns non-ASCII bytes into '?'.
# The progress lines (Sorting..., Full Text Search...) must be the same too.
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup search-vs-apt

package_lines() { grep -v '^  ' "$1" | grep -v '^$' | sed 's/[[:space:]]*$//'; }

compare() {
    local name=$1; shift
    apt search "$@" -o Dir::Cache="$T/apt-cache" >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    "$APTUS" search "$@" -o Dir::Cache="$T/aptus-cache" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    if [ $apt_rc -ne $aptus_rc ]; then
        echo "FAIL $name: exit code apt=$apt_rc aptus=$aptus_rc"; cat "$T/aptus.err"; failures=$((failures + 1)); return
    fi
    if ! diff -u <(package_lines "$T/apt.out") <(package_lines "$T/aptus.out") >"$T/diff"; then
        echo "FAIL $name: packages differ (- apt, + aptus)"; head -40 "$T/diff"; failures=$((failures + 1)); return
    fi
    echo "ok   $name ($(package_lines "$T/apt.out" | wc -l) packages)"
}

compare "search python" python
compare "search '^lib.*ssl'" '^lib.*ssl'
compare "search python3 yaml (two terms)" python3 yaml
compare "search --names-only python3" --names-only python3
compare "search --names-only 'ssl$'" --names-only 'ssl$'
compare "search --full '^libssl'" --full '^libssl'
compare "search 'web server' (space inside a term)" 'web server'
compare "search 'GNU.*(shell|editor)'" 'GNU.*(shell|editor)'
compare "search NoSuchThingAnywhere" NoSuchThingAnywhere

# Whole output, descriptions included, where apt does not transliterate.
if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
    for q in "python yaml" "--full ^libssl" "--full python3 yaml"; do
        LC_ALL=C.UTF-8 apt search $q -o Dir::Cache="$T/apt-cache" >"$T/apt.out" 2>/dev/null
        LC_ALL=C.UTF-8 "$APTUS" search $q -o Dir::Cache="$T/aptus-cache" >"$T/aptus.out" 2>&1
        if diff -u "$T/apt.out" "$T/aptus.out" >"$T/diff"; then echo "ok   whole output, C.UTF-8: search $q"
        else echo "FAIL whole output, C.UTF-8: search $q"; head -30 "$T/diff"; failures=$((failures + 1)); fi
    done
fi

# No search term: apt's error, exit 100.
"$APTUS" search -o Dir::Cache="$T/aptus-cache" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 100 ] && grep -q 'You must give at least one search pattern' "$T/err"; then echo "ok   no term"
else echo "FAIL no term: rc=$rc"; cat "$T/err"; failures=$((failures + 1)); fi

# Colour on a terminal: the name in apt's highlight.
esc=$'\033'
if command -v script >/dev/null; then
    script -qec "env -u NO_COLOR -u APT_NO_COLOR PAGER=cat '$APTUS' search --names-only '^bash$' -o Dir::Cache='$T/aptus-cache'" /dev/null </dev/null >"$T/tty.out"
    if grep -q "${esc}\[32mbash${esc}\[0m/stable " "$T/tty.out"; then echo "ok   colour on a terminal"
    else echo "FAIL colour on a terminal"; cat -A "$T/tty.out"; failures=$((failures + 1)); fi
fi

# --json: the same names as the text.
"$APTUS" search --json python3 yaml -o Dir::Cache="$T/aptus-cache" >"$T/json.out"
"$APTUS" search python3 yaml -o Dir::Cache="$T/aptus-cache" | package_lines /dev/stdin | sed '1,2d' | cut -d/ -f1 >"$T/names.txt"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema_version"]==1; print("\n".join(p["name"] for p in d["packages"]))' "$T/json.out" >"$T/json.txt" \
    && diff -u "$T/names.txt" "$T/json.txt" >/dev/null; then echo "ok   --json"
else echo "FAIL --json"; diff "$T/names.txt" "$T/json.txt" | head; failures=$((failures + 1)); fi

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
