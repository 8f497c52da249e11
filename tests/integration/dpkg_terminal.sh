#!/bin/bash
# dpkg on a pty of its own (as apt runs it): builds .debs with dpkg-deb, a
# sandbox root with an empty dpkg database (never the host's), and runs
# dpkg_terminal_pty.py, which drives `aptus internal-dpkg-test` through a
# real pseudo-terminal: maintainer scripts see a terminal (and /dev/tty)
# of the right size, the conffile question takes the keys typed, no pty
# when stdout is a pipe, the terminal's modes are given back.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
for tool in dpkg dpkg-deb python3 stty; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 0; }
done
[ -e /dev/ptmx ] || { echo "SKIP: no /dev/ptmx"; exit 0; }
tmp=$(mktemp -d /tmp/aptus-dpkg-terminal-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib/dpkg_root.sh"
# No --force-conf* options: the conffile question must be asked.
dpkg_root "$tmp"

# mk NAME VERSION CONF-TEXT POSTINST-BODY
mk() {
    local d=$tmp/build/$1-$2
    mkdir -p "$d/DEBIAN" "$d/etc"
    printf '%s\n' "$3" > "$d/etc/$1.conf"
    echo "/etc/$1.conf" > "$d/DEBIAN/conffiles"
    printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: Test <test@example.org>\nDescription: test %s\n' \
        "$1" "$2" "$1" > "$d/DEBIAN/control"
    printf '#!/bin/sh\n%s\n' "$4" > "$d/DEBIAN/postinst"
    chmod 755 "$d/DEBIAN/postinst"
    dpkg-deb --root-owner-group -Zgzip -b "$d" "$tmp/${1}_$2_all.deb" >/dev/null || { echo "FAIL: dpkg-deb $1"; exit 1; }
}
# What the postinst sees: a terminal on stdin and stdout, a controlling
# terminal, and the terminal's size.
mk tt 1 'tt=1' "if [ -t 0 ] && [ -t 1 ]; then r=TTY-OK; else r=TTY-MISSING; fi
if (: </dev/tty) 2>/dev/null; then c=CTTY-OK; else c=CTTY-MISSING; fi
echo \"postinst says \$r \$c\"
echo \"\$r \$c\" > $tmp/tty-result
stty size > $tmp/stty-size 2>/dev/null || echo none > $tmp/stty-size"
# A postinst that waits for the test (a resize in between).
mk ww 1 'ww=1' "touch $tmp/ww-started
i=0; while [ ! -e $tmp/ww-go ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i+1)); done
stty size > $tmp/ww-size 2>/dev/null || echo none > $tmp/ww-size"
mk cf 1 'version=1' 'exit 0'
mk cf 2 'version=2' 'exit 0'

APT_CONFIG=$tmp/apt.conf exec timeout -k 10 500 python3 "$(dirname "$0")/dpkg_terminal_pty.py" "$APTUS" "$tmp" "$root"
