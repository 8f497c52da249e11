#!/bin/bash
# The meaning of the sources must not change: real apt's
# `apt-get indextargets --no-release-info` gives the same targets before and
# after `aptus modernize-sources -y` (only the Sourcesentry line, which names
# the file, may differ). Runs on a copy of this machine's /etc/apt and lists
# (never the host's files), to which we add a Debian installer's
# sources.list, the host's disabled .list re-enabled, and a file with every
# option form, disabled lines, a flat repository and duplicates. Not in it:
# allow-insecure, allow-weak, allow-downgrade-to-insecure, which apt reads
# only from one-line entries; modernize keeps them and warns, checked last.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v apt-get >/dev/null; then
    echo "SKIP: apt-get not installed"
    exit 0
fi
T=$(mktemp -d /tmp/aptus-modernize-vs-apt.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

S=$T/root
D=$S/etc/apt/sources.list.d
mkdir -p "$S/etc/apt" "$S/var/lib/apt/lists/partial" "$S/var/lib/dpkg" "$S/var/cache/apt/archives/partial" \
    "$S/usr/share/keyrings"
[ -d /etc/apt ] && cp -a /etc/apt/. "$S/etc/apt/"
mkdir -p "$D" "$S/etc/apt/apt.conf.d"
: >"$S/var/lib/dpkg/status"
# Release files apt already downloaded here, for Origin and Signed-By.
for f in /var/lib/apt/lists/*Release; do [ -f "$f" ] && cp "$f" "$S/var/lib/apt/lists/"; done
for k in /usr/share/keyrings/*-archive-keyring.gpg; do [ -f "$k" ] && cp "$k" "$S/usr/share/keyrings/"; done

printf 'Dir "%s/";\n' "$S" >"$T/apt.conf"
export APT_CONFIG=$T/apt.conf
# Read after the copied apt.conf.d, so the host's settings cannot move them.
cat >"$S/etc/apt/apt.conf.d/zz-aptus-test" <<'EOF'
APT::Architecture "amd64";
APT::Architectures { "amd64"; "i386"; };
Acquire::Languages { "en"; "de"; };
EOF

# This machine's own one-line files, enabled.
for f in "$D"/*.list.*; do
    [ -f "$f" ] || continue
    case $f in *.list.bak) continue ;; esac
    cp "$f" "${f%.list.*}.list"
done
cat >"$S/etc/apt/sources.list" <<'EOF'
#deb cdrom:[Debian GNU/Linux 12.0.0 _Bookworm_ - Official amd64 NETINST with firmware 20230610-10:23]/ bookworm main non-free-firmware

deb http://mirror.example/debian/ bookworm main non-free-firmware
deb-src http://mirror.example/debian/ bookworm main non-free-firmware

deb http://security.example/debian-security bookworm-security main non-free-firmware
deb-src http://security.example/debian-security bookworm-security main non-free-firmware

# bookworm-updates, to get updates before a point release is made;
# see https://www.debian.org/doc/manuals/debian-reference/ch02.en.html#_updates_and_backports
deb http://mirror.example/debian/ bookworm-updates main non-free-firmware
deb-src http://mirror.example/debian/ bookworm-updates main non-free-firmware
EOF
cat >"$D/extra.list" <<'EOF'
# every option form
deb [arch=amd64,i386 lang=de target=Packages] http://a.example/debian s main
deb [arch+=armhf arch-=i386 lang+=fr lang-=de] http://b.example/debian s main contrib
deb [arch=i386 check-valid-until=no valid-until-min=1 valid-until-max=2 date-max-future=3 check-date=no by-hash=force pdiffs=no trusted=yes signed-by=/nonexistent/k.gpg] http://c.example/debian s main
deb-src [arch=amd64] http://a.example/debian s main
#deb http://disabled.example/ s main
## deb-src [arch=i386] http://disabled.example/ s main
deb http://f.example/repo ./
deb-src http://f.example/repo ./
deb [arch=amd64] http://f.example/other sub/
deb http://dup.example/debian s main
deb http://dup.example/debian/ s main contrib
deb http://dup.example/debian s main
deb-src http://dup.example/debian s contrib
deb [lang=de] http://dup.example/debian t non-free # a tail comment
EOF
printf 'deb http://second.example/debian s main\n' >"$D/second.list"

# Records sorted, the Sourcesentry line dropped.
normalize() {
    python3 -c '
import sys
records = sys.stdin.read().strip("\n").split("\n\n")
out = ["\n".join(l for l in r.split("\n") if not l.startswith("Sourcesentry:")) for r in records if r]
print("\n\n".join(sorted(out)))'
}

apt-get indextargets --no-release-info >"$T/apt.before" 2>"$T/apt.before.err"
rc=$?
if [ $rc -ne 0 ]; then fail "apt-get indextargets before: exit $rc"; cat "$T/apt.before.err"; exit 1; fi
"$APTUS" indextargets --no-release-info >"$T/aptus.before" 2>/dev/null
aptus_rc=$?

"$APTUS" modernize-sources -y >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ]; then fail "modernize-sources -y: exit $rc"; cat "$T/err"; exit 1; fi
if ls "$D"/*.list "$S/etc/apt/sources.list" >/dev/null 2>&1; then fail "a .list file is left"; fi

apt-get indextargets --no-release-info >"$T/apt.after" 2>"$T/apt.after.err"
rc=$?
if [ $rc -ne 0 ] || grep -q '^E:' "$T/apt.after.err" ||
    [ "$(grep -c '^W:' "$T/apt.after.err")" -gt "$(grep -c '^W:' "$T/apt.before.err")" ]; then
    fail "apt-get reads the converted sources without complaint (exit $rc)"; cat "$T/apt.after.err"
else
    ok "apt-get reads the converted sources: no error, no warning it did not give before"
fi
count=$(grep -c '^MetaKey:' "$T/apt.before")
if [ "$count" -lt 50 ]; then fail "too few targets before ($count)"; fi
if diff -u <(normalize <"$T/apt.before") <(normalize <"$T/apt.after") >"$T/diff"; then
    ok "apt-get indextargets: the same $count targets before and after"
else
    fail "apt-get indextargets differ (- before, + after)"; head -100 "$T/diff"
fi

if [ $aptus_rc -eq 0 ]; then
    "$APTUS" indextargets --no-release-info >"$T/aptus.after" 2>/dev/null
    if diff -u <(normalize <"$T/aptus.before") <(normalize <"$T/aptus.after") >"$T/diff"; then
        ok "aptus indextargets: the same before and after"
    else
        fail "aptus indextargets differ (- before, + after)"; head -60 "$T/diff"
    fi
fi

# Nothing of the host's was touched: the copy is what changed.
if [ -e "$S/etc/apt/sources.list.bak" ] && [ -e "$D/extra.list.bak" ] && [ -e "$D/extra.sources" ]; then
    ok "files converted in the sandbox"
else
    fail "files converted in the sandbox"; ls -la "$D"
fi
out=$("$APTUS" modernize-sources 2>&1 </dev/null)
[ "$out" = "All sources are modern." ] && ok "second run: All sources are modern." || fail "second run: $out"

# The options apt cannot read from .sources: kept, and the user is told.
printf 'deb [allow-insecure=yes] http://insecure.example/ s main\n' >"$D/insecure.list"
"$APTUS" modernize-sources -y >/dev/null 2>"$T/err"
if grep -q '^W: apt reads Allow-Insecure only from one-line entries, not from .sources files: aptus keeps and honours it for http://insecure.example/ s, apt will ignore it$' "$T/err" &&
    grep -q '^Allow-Insecure: yes$' "$D/insecure.sources"; then
    ok "allow-insecure kept as a field, with a warning that apt ignores it there"
else
    fail "allow-insecure warning"; cat "$T/err"
fi

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
