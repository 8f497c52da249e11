#!/bin/bash
# aptus indextargets must print exactly what apt-get indextargets --no-release-info
# prints for the same sources: same targets, same order, same lists-dir file
# names, same fields. Each case runs in its own sandbox: APT_CONFIG names a
# file that points Dir at the sandbox and fixes the architectures and
# languages, so the host's /etc/apt never matters.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v apt-get >/dev/null; then
    echo "SKIP: apt-get not installed"
    exit 0
fi
T=$(mktemp -d /tmp/aptus-sources-vs-apt.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
failures=0
n=0

new_sandbox() {
    S=$T/sb$((++n))
    mkdir -p "$S/etc/apt/sources.list.d" "$S/etc/apt/apt.conf.d" "$S/etc/apt/preferences.d" \
        "$S/var/lib/dpkg" "$S/var/lib/apt/lists" "$S/var/cache/apt"
    touch "$S/var/lib/dpkg/status"
    cat >"$S/apt.conf" <<CONF
Dir "$S/";
APT::Architecture "amd64";
APT::Architectures { "amd64"; "i386"; };
Acquire::Languages { "en"; "de"; };
CONF
    export APT_CONFIG=$S/apt.conf
}

# compare NAME: both programs on the current sandbox; stdout must be equal,
# warnings equal as sets (apt prints each one twice), exit codes equal.
compare() {
    local name=$1
    apt-get indextargets --no-release-info >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    "$APTUS" indextargets --no-release-info >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    local ok=1
    if [ $apt_rc -ne $aptus_rc ]; then
        echo "FAIL $name: exit code apt-get=$apt_rc aptus=$aptus_rc"; cat "$T/apt.err" "$T/aptus.err"; ok=0
    fi
    if ! diff -u "$T/apt.out" "$T/aptus.out" >"$T/diff"; then
        echo "FAIL $name: targets differ (- apt-get, + aptus)"; cat "$T/diff"; ok=0
    fi
    if [ $apt_rc -eq 0 ] && ! diff -u <(sort -u "$T/apt.err") <(sort -u "$T/aptus.err") >"$T/diff"; then
        echo "FAIL $name: warnings differ"; cat "$T/diff"; ok=0
    fi
    # apt's own words name the line and the file ("Malformed entry 2 in list
    # file F (Suite)", "Malformed line 2 in source list F (type)"); others "F:2: ".
    if [ $apt_rc -ne 0 ] && ! grep -Eq '^E: (.*:[0-9]+: |Malformed (entry|line) [0-9]+ in (list file|sources file|source list) /)' "$T/aptus.err"; then
        echo "FAIL $name: aptus error does not name file:line"; cat "$T/aptus.err"; ok=0
    fi
    if [ $ok = 1 ]; then echo "ok   $name"; else failures=$((failures + 1)); fi
}

list() { printf '%s\n' "$@" >"$S/etc/apt/sources.list"; }
part() { local f=$1; shift; printf '%s\n' "$@" >"$S/etc/apt/sources.list.d/$f"; }

new_sandbox
compare "no sources at all"

new_sandbox
list "# a comment" "" \
    "deb http://user:pw@mirror.example/debian bookworm main contrib # trailing comment" \
    "deb-src http://mirror.example/debian bookworm main" \
    "   # deb http://disabled.example/debian sid main" \
    "deb http://mirror.example/debian-security bookworm-security main#glued comment"
compare "one-line basics, deb and deb-src share a repository"

new_sandbox
list "deb [arch=amd64] http://a.example/d s c" \
    "deb [ arch=i386 lang=de ] http://b.example/d s c" \
    "deb [arch=amd64,i386,armel lang=fr,none] http://c.example/d s c" \
    "deb [arch+=armel arch-=i386 lang+=fr lang-=de] http://d.example/d s c" \
    "deb [arch-=all] http://e.example/d s c" \
    "deb [arch=all] http://f.example/d s c" \
    "deb [arch+=armel arch+=mips arch-=amd64 arch+=amd64] http://g.example/d s c" \
    "deb [target=Packages] http://h.example/d s c" \
    "deb [target-=Packages] http://i.example/d s c" \
    "deb [lang=none] http://j.example/d s c" \
    "deb [pdiffs=no by-hash=force] http://k.example/d s c" \
    "deb [by-hash=no pdiffs=yes] http://l.example/d s c" \
    "deb [trusted=yes signed-by=/usr/share/keyrings/x.gpg,/k2.gpg check-valid-until=no valid-until-min=1 valid-until-max=2 date-max-future=3 allow-insecure=yes allow-weak=yes allow-downgrade-to-insecure=yes] http://m.example/d s c" \
    "deb [arch=a#b] http://n.example/d s c"
compare "one-line options: =, +=, -=, spaces, every documented key"

new_sandbox
list "deb [trusted=yes] file:/srv/repo ./" \
    "deb http://a.example/flat sub/dir/" \
    "deb-src file:///srv/src ./" \
    "deb [arch=amd64 lang=de] copy:/srv/flat2 ./"
compare "flat repositories"

new_sandbox
list "deb https://u:p@h.example:8080/deb%20x/~me/ sid main" \
    "deb cdrom:[Debian 12]/ bookworm main" \
    "deb http://[::1]:80/x s c" \
    "deb http://a.example/x// s c" \
    "deb http://a.example s x/y" \
    "deb mirror+file:/srv/mirrors.txt s c" \
    "deb tor+http://abc.onion/debian s c" \
    "deb \"http://q.example/with space\" s c" \
    "deb http://a.example/p_q=r!s@t\$u^v&w*x{y}z|<>~ s c_d"
compare "URI mangling of unusual URIs"

new_sandbox
list "deb http://a.example/d s c" "deb [arch=amd64] http://a.example/d s c d" \
    "deb-src http://a.example/d s c" "deb-src http://a.example/d s c" \
    "deb http://u:p@a.example/d/ s c"
part dup.sources "Types: deb" "URIs: http://a.example/d" "Suites: s" "Components: c"
compare "duplicates merged with apt's warning"

new_sandbox
list "deb http://z.example/d s c"
part a.list "deb http://a.example/d s c"
part b.sources "# comment" "Types: deb deb-src" "URIs: http://b1.example/d http://b2.example/d/" \
    "Suites: s1 s2/updates" "Components: main non-free" "Architectures: amd64,armel" \
    "Architectures-Add: mips" "Architectures-Remove: amd64" "Languages: de" "Languages-Add: fr" \
    "Targets-Remove: Translations" "" \
    "# a comment paragraph" "" \
    "Types: deb" "URIs: http://c.example/d" "Suites: s" "Components: c" "Enabled: no" "" \
    "Types: deb" "URIs: http://d.example/d" "Suites: s" "Components: c" "Enabled: yes" \
    "Signed-By:" " -----BEGIN PGP PUBLIC KEY BLOCK-----" " ." " mQINBGPnotarealkey" " -----END PGP PUBLIC KEY BLOCK-----" \
    "By-Hash: force" "PDiffs: no" "Trusted: yes" "Check-Valid-Until: no" "" \
    "Types: deb" "URIs: file:/srv/flat" "Suites: ./" "Languages: none" "Architectures:"
part c.list "deb http://c.example/d s c"
part ignored.foo "deb http://ignored.example/d s c"
part ignored.list.save "deb http://ignored.example/d s c"
part noext "deb http://ignored.example/d s c"
compare "sources.list.d: order, deb822 expansion, Enabled, -Add/-Remove, ignored names"

new_sandbox
list "deb http://a.example/d s c"
cat >>"$S/apt.conf" <<'CONF'
Acquire::IndexTargets::deb::Contents-deb {
    MetaKey "$(COMPONENT)/Contents-$(ARCHITECTURE)";
    ShortDescription "Contents-$(ARCHITECTURE)";
    Description "$(RELEASE)/$(COMPONENT) $(ARCHITECTURE) Contents (deb)";
    flatMetaKey "Contents-$(ARCHITECTURE)";
    flatDescription "$(RELEASE) Contents (deb)";
    PDiffs "true";
    KeepCompressed "true";
};
Acquire::IndexTargets::deb::DEP-11 {
    MetaKey "$(COMPONENT)/dep11/Components-$(NATIVE_ARCHITECTURE).yml";
    ShortDescription "Components-$(NATIVE_ARCHITECTURE)";
    Description "$(RELEASE)/$(COMPONENT) $(NATIVE_ARCHITECTURE) DEP-11 Metadata";
    DefaultEnabled "false";
};
CONF
compare "extra targets from Acquire::IndexTargets (DefaultEnabled false skipped)"
list "deb [target+=DEP-11] http://a.example/d s c" "deb [arch=amd64] file:/srv/flat ./"
compare "target+= enables a target that is off by default"

for bad in "debx http://a b c" "deb" "deb http://a" "deb http://a b" "deb http://a ./ main" \
    "deb [arch] http://a b c" "deb [arch=] http://a b c" "deb [arch=amd64 http://a b c" \
    "deb /srv/repo b c" "deb mirror/debian b c"; do
    new_sandbox
    list "deb http://ok.example/d s c" "$bad"
    compare "bad one-line: $bad"
done
for bad in "Types: deb" "URIs: http://a|Suites: b|Components: c" "Types: deb|Suites: b|Components: c" \
    "Types: deb|URIs: http://a|Components: c" "Types: deb|URIs: http://a|Suites: b" \
    "Types: deb|URIs: http://a|Suites: b/|Components: c" "Types: debx|URIs: http://a|Suites: b|Components: c" \
    "Types: deb|URIs: a/b|Suites: b|Components: c"; do
    new_sandbox
    IFS='|' read -r -a lines <<<"$bad"
    part bad.sources "Types: deb" "URIs: http://ok.example/d" "Suites: s" "Components: c" "" "${lines[@]}"
    compare "bad deb822: $bad"
done

# aptus sources --json must be valid JSON with the documented schema version.
new_sandbox
list "deb [arch=amd64 signed-by=/k.gpg] http://a.example/d s c"
part b.sources "Types: deb" "URIs: http://b.example/d" "Suites: s" "Components: c" "Enabled: no"
if "$APTUS" sources --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema_version"] == 1 and d["version"] == 1, d
a, b = d["sources"]
assert a["type"] == "deb" and a["uri"] == "http://a.example/d" and a["suite"] == "s", a
assert a["components"] == ["c"] and a["architectures"] == ["amd64", "all"], a
assert a["signed_by"] == ["/k.gpg"] and a["enabled"] is True and a["format"] == "one-line", a
assert a["line"] == 1 and a["file"].endswith("/etc/apt/sources.list"), a
assert b["enabled"] is False and b["format"] == "deb822" and b["stanza"] == 1, b
'; then echo "ok   sources --json"; else echo "FAIL sources --json"; failures=$((failures + 1)); fi

if [ $failures -ne 0 ]; then
    echo "$failures case(s) failed"
    exit 1
fi
echo "all cases agree with apt-get indextargets"
