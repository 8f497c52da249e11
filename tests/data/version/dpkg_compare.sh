#!/bin/sh
# Reads "A OP B" lines on stdin (OP one of lt, eq, gt: what aptus claims) and
# prints one line per pair: "ok", or "no" when dpkg --compare-versions
# disagrees. dpkg has no batch mode, so this costs one dpkg process per pair.
set -u
while read -r a op b; do
    if dpkg --compare-versions "$a" "$op" "$b" 2>/dev/null; then echo ok; else echo no; fi
done
