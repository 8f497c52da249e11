#!/bin/bash
# aptus mark beside real apt-mark on two twins of the real server sandbox
# (bookworm + trixie lists, a real server's dpkg status and extended_states):
# each command runs on its own twin, and stdout, stderr, exit status, the
# extended_states bytes and the dpkg selections must come out the same.
# The lists and sources are shared read-only; each twin has its own dpkg
# database, extended_states and caches, so nothing here disturbs other tests.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v apt-mark >/dev/null || ! command -v dpkg >/dev/null; then echo "SKIP: apt-mark or dpkg not installed"; exit 0; fi
T=$(mktemp -d /tmp/aptus-mark-vs-apt.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
unset SUDO_UID PKEXEC_UID
. "$(dirname "$0")/lib/sandbox.sh"
shared_sandbox server
S=$ROOT
failures=0

make_twin() {  # make_twin DIR
    local d=$1
    mkdir -p "$d/var/lib/apt" "$d/var/log/apt" "$d/cache/archives/partial"
    cp -a "$S/var/lib/dpkg" "$d/var/lib/"
    cp "$S/var/lib/apt/extended_states" "$d/var/lib/apt/extended_states"
    cat >"$d/apt.conf" <<CONF
Dir "$d/";
Dir::Etc "$S/etc/apt/";
Dir::State::lists "$S/var/lib/apt/lists/";
Dir::State::status "$d/var/lib/dpkg/status";
Dir::Cache "$d/cache/";
Dir::Bin::dpkg "/usr/bin/dpkg";
DPkg::Options { "--root=$d"; };
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages { "en"; };
CONF
}
A=$T/apt B=$T/aptus
make_twin "$A"
make_twin "$B"

selections() { dpkg --root="$1" --get-selections '*' 2>/dev/null; }

# compare NAME ARGS...: the same apt-mark command on both twins.
compare() {
    local name=$1; shift
    APT_CONFIG=$A/apt.conf apt-mark "$@" >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    APT_CONFIG=$B/apt.conf "$APTUS" mark "$@" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    local bad=""
    [ $apt_rc -eq $aptus_rc ] || bad="$bad exit(apt=$apt_rc aptus=$aptus_rc)"
    cmp -s "$T/apt.out" "$T/aptus.out" || bad="$bad stdout"
    cmp -s "$T/apt.err" "$T/aptus.err" || bad="$bad stderr"
    cmp -s "$A/var/lib/apt/extended_states" "$B/var/lib/apt/extended_states" || bad="$bad extended_states"
    [ "$(selections "$A")" = "$(selections "$B")" ] || bad="$bad selections"
    cmp -s "$A/var/lib/dpkg/available" "$B/var/lib/dpkg/available" || bad="$bad available"
    if [ -n "$bad" ]; then
        echo "FAIL $name:$bad"
        diff -u "$T/apt.out" "$T/aptus.out" | head -20
        diff -u "$T/apt.err" "$T/aptus.err" | head -10
        diff -u "$A/var/lib/apt/extended_states" "$B/var/lib/apt/extended_states" | head -20
        diff <(selections "$A") <(selections "$B") | head -10
        failures=$((failures + 1))
        # Start the next case from the same state again.
        cp "$A/var/lib/apt/extended_states" "$B/var/lib/apt/extended_states"
        cp "$A/var/lib/dpkg/status" "$B/var/lib/dpkg/status"
        cp "$A/var/lib/dpkg/available" "$B/var/lib/dpkg/available"
        return
    fi
    echo "ok   $name ($(wc -l <"$T/apt.out") lines, exit $apt_rc)"
}

compare "showauto" showauto
compare "showmanual" showmanual
compare "showhold (none)" showhold
compare "auto: two new stanzas, in apt's order" auto nginx bash
compare "auto: already automatic" auto bash
compare "auto: the same package twice" manual bash bash
compare "manual: one unknown word among good ones" manual libssh2-1 nosuchpkg bash
compare "auto: unknown package" auto nosuchpkg
compare "auto: glob matching nothing" auto 'nosuch*'
compare "auto: regex matching nothing" auto '^nosuch'
compare "auto: word with = and ." auto bash=5.2
compare "auto: word with /" auto bash/bookworm
compare "auto: no words" auto
compare "auto: not installed" auto zstd
compare "auto: virtual package" auto mail-transport-agent
compare "auto: regex, apt's cache order" auto '^bas'
compare "auto: glob" auto 'libss*'
compare "manual: glob" manual 'base-f?les'
compare "auto: name:arch" auto bash:amd64
compare "auto: foreign arch not known" auto bash:i386
compare "auto: name:all" auto adduser:all
compare "manual -s: nothing written" -s manual adduser libssh2-1
compare "showauto" showauto
compare "showmanual" showmanual
compare "showauto with words" showauto bash libssh2-1 bash nosuch
compare "showmanual with a glob" showmanual 'lib*'
compare "hold" hold bash nginx
compare "hold: already held and new" hold nginx bash zstd
compare "showhold" showhold
compare "hold: arch all, not installed with a candidate" hold adduser hello
compare "hold: virtual package" hold mail-transport-agent
compare "unhold: twice" unhold bash bash
compare "unhold: mixed" unhold adduser hello nginx zstd coreutils
compare "showhold" showhold
compare "hold -s: nothing changed" -s hold bash
compare "unhold: nothing held" unhold bash
compare "invalid operation" frob bash
# apt search patterns (a word starting with ? or ~), as apt-mark 2.6 reads them.
compare "auto: pattern, virtual names and one installed, apt's order" auto '~nless$'
compare "manual: pattern with ?installed" manual '~i ~nlibssh'
compare "auto: pattern selecting nothing" auto '~nnosuchpkg'
compare "auto: pattern that does not parse" auto '?foo'
compare "showmanual: pattern" showmanual '~i'
compare "showauto: pattern and name" showauto '?automatic' bash
compare "showauto: pattern that does not parse" showauto '?foo'
compare "hold: pattern" hold '?name(^nginx$)'
compare "unhold: pattern" unhold '?exact-name(nginx)'
compare "extended_states from -f" -f "$T/none-such" showauto
# dpkg selections: install, remove (deinstall), purge and their show commands.
compare "install: no words" install
compare "install: installed, and not installed with a candidate" install bash hello adduser
compare "showinstall" showinstall
compare "showinstalls with words" showinstalls bash hello nosuchpkg 'libss*'
compare "remove" remove hello nginx
compare "showremove" showremove
compare "showremoves with words" showremoves nginx bash
compare "deinstall" deinstall libssh2-1
compare "showdeinstall" showdeinstall
compare "purge" purge nginx zstd
compare "showpurge" showpurge
compare "showpurges with words" showpurges zstd bash
compare "purge: virtual package" purge mail-transport-agent
compare "install: back again" install nginx hello libssh2-1 zstd
compare "showinstall after" showinstall
compare "install: already selected" install bash
compare "remove -s: nothing changed" -s remove bash
compare "remove: pattern" remove '?exact-name(hello)'
# minimize-manual: arguments refused; -s lists, a "no" answer writes nothing.
compare "minimize-manual: arguments" minimize-manual bash
compare "minimize-manual -s" -s minimize-manual
compare "minimize-manual, answered no" minimize-manual

# The other way round: apt reads what aptus wrote, and aptus what apt wrote.
APT_CONFIG=$B/apt.conf apt-mark showauto >"$T/apt.out" 2>&1
APT_CONFIG=$B/apt.conf "$APTUS" mark showauto >"$T/aptus.out" 2>&1
if cmp -s "$T/apt.out" "$T/aptus.out"; then echo "ok   apt-mark reads aptus's extended_states"
else echo "FAIL apt-mark reads aptus's extended_states differently"; diff "$T/apt.out" "$T/aptus.out" | head; failures=$((failures + 1)); fi

# A removed package's mark goes at the next write, as with apt.
for d in "$A" "$B"; do dpkg --root="$d" --force-depends --force-remove-essential -r --force-all libssh2-1 >/dev/null 2>&1 || true; done
compare "after dpkg removed an automatic package" auto bash

if [ $failures -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all ok"
