#!/bin/bash
# What a user sees while .debs download (see download_progress_pty.py):
# through a real pseudo-terminal, a wide one shows a line per transfer under
# way (name, bytes done / size, a bar) and a totals line (percent, files,
# rate, time left), redrawn in place; a narrow one apt's single status line
# with the names and bytes; -q no progress; into a pipe, plain lines only
# (no \r, no escape sequence). The server sends the .debs slowly so the
# transfers overlap and progress is drawn.
source "$(dirname "$0")/lib/install_repo.sh"
[ -e /dev/ptmx ] || { echo "SKIP: no /dev/ptmx"; exit 0; }
install_setup
python3 - "$T/spec.json" <<'PY'
import json, random, sys
rnd = random.Random(25)
spec = [{"name": n, "version": "1.0", "files": {f"usr/share/{n}/data": "%x" % rnd.getrandbits(4 * 200000)}}
        for n in ("pa", "pb", "pc")]
json.dump(spec, open(sys.argv[1], "w"))
PY
install_suite stable "$T/spec.json"
STANZAS=$(ls "$LISTS"/*_Packages | head -1)
slow=$(awk '$1 == "Filename:" {printf "%s\"/%s\": {\"rate\": 70000}", sep, $2; sep = ", "}' "$STANZAS")
misbehave "{$slow}"
export APTUS T
timeout -k 10 300 python3 "$(dirname "$0")/download_progress_pty.py" "$T/cache/archives" pa pb pc
