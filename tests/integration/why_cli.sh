#!/bin/bash
# `aptus why` and `aptus why-not` on the real server sandbox, judged by
# others: apt-get's own autoremove decides which packages nothing keeps
# (why must say "unreached" for exactly those it samples, and give a chain
# for kept ones), dpkg-query's fields must hold every relation a chain
# names, and the t64 transition's Breaks is the fact that keeps
# libdb5.3t64 out. Every package is marked automatic except a few
# (a private extended_states), so the chains are long and real.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v apt-get >/dev/null; then echo "SKIP: apt-get not installed"; exit 0; fi
T=$(mktemp -d /tmp/aptus-why.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
. "$here/lib/sandbox.sh"
shared_sandbox server
export APT_CONFIG=$ROOT/apt.conf
mkdir -p "$T/cache" "$T/apt-cache"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Everything automatic but these: what they need stays, the rest goes.
keep="openssh-server git curl"
dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${db:Status-Status} ${Package}\n' | awk '$1=="installed"{print $2}' |
    while read -r p; do
        case " $keep " in *" $p "*) continue ;; esac
        printf 'Package: %s\nArchitecture: amd64\nAuto-Installed: 1\n\n' "$p"
    done >"$T/extended_states"
opts=(-o "Dir::State::extended_states=$T/extended_states")
aptus() { "$APTUS" -o "Dir::Cache=$T/cache" "${opts[@]}" "$@"; }
field() { dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f="\${$2}" "$1" 2>/dev/null; }

apt-get -s -o "Dir::Cache=$T/apt-cache" "${opts[@]}" autoremove >"$T/autoremove.out" 2>&1 || fail "apt-get -s autoremove failed"
awk '/^Remv /{print $2}' "$T/autoremove.out" | sort >"$T/removable"
dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${db:Status-Status} ${Package}\n' | awk '$1=="installed"{print $2}' | sort >"$T/installed"
comm -23 "$T/installed" "$T/removable" >"$T/kept"
echo "apt: $(wc -l <"$T/removable") of $(wc -l <"$T/installed") packages auto-removable"
[ -s "$T/removable" ] || fail "apt removes nothing: the test has nothing to compare"

# 1. What apt would autoremove: nothing keeps it (a sample, spread over the list).
for p in $(awk 'NR % 7 == 1' "$T/removable" | head -12); do
    out=$(aptus why "$p") || { fail "why $p exited $?"; continue; }
    case "$out" in *"nothing installed needs it"*) ;; *) fail "why $p: apt autoremoves it, aptus says: $out" ;; esac
done

# 2. What apt keeps: a chain from a root, each relation as dpkg records it.
check_chain() {
    python3 - "$1" "$2" "$ROOT/var/lib/dpkg" <<'PY'
import json, re, subprocess, sys
name, path, admindir = sys.argv[1:]
j = json.load(open(path))
def fail(msg):
    print(f"FAIL: why {name}: {msg}"); sys.exit(1)
if j["package"] != name + ":amd64": fail(f"package {j['package']}")
if j["verdict"] == "root":
    if j["root"]["reason"] not in ("manual", "essential", "protected"): fail(f"root reason {j['root']}")
    sys.exit(0)
if j["verdict"] != "chain": fail(f"verdict {j['verdict']}")
steps = j["steps"]
if not steps: fail("a chain without steps")
if steps[-1]["to"]["package"] != j["package"]: fail("the chain does not end at the package")
for a, b in zip(steps, steps[1:]):
    if a["to"] != b["from"]: fail(f"broken chain: {a['to']} then {b['from']}")
fields = {"Depends": "Depends", "Pre-Depends": "Pre-Depends", "Recommends": "Recommends", "Suggests": "Suggests"}
for s in steps:
    pkg = s["from"]["package"].split(":")[0]
    text = subprocess.run(["dpkg-query", "--admindir=" + admindir, "-W", "-f=${" + fields[s["kind"]] + "}", pkg],
                          capture_output=True, text=True).stdout
    groups = [re.sub(r"\s+", " ", g.strip()) for g in text.split(",")]
    if re.sub(r"\s+", " ", s["relation"]) not in groups:
        fail(f"{pkg} has no {s['kind']} '{s['relation']}' (dpkg: {text!r})")
    to = s["to"]["package"].split(":")[0]
    provides = subprocess.run(["dpkg-query", "--admindir=" + admindir, "-W", "-f=${Provides}", to],
                              capture_output=True, text=True).stdout
    names = [re.split(r"[ :(]", alt.strip())[0] for alt in s["relation"].split("|")]
    provided = [re.split(r"[ (]", p.strip())[0] for p in provides.split(",") if p.strip()]
    if to not in names and not set(names) & set(provided): fail(f"{to} meets none of '{s['relation']}'")
kinds = {s["kind"] for s in steps}
weakest = "Suggests" if "Suggests" in kinds else "Recommends" if "Recommends" in kinds else "Depends"
if j["strength"] != weakest: fail(f"strength {j['strength']}, weakest link {weakest}")
root = steps[0]["from"]["package"].split(":")[0]
if j["root"]["reason"] == "manual" and root not in "openssh-server git curl".split():
    fail(f"root {root} is not one of the manual packages")
open(path + ".len", "a").write(f"{len(steps)}\n")
print(f"why {name}: {len(steps)} steps from {root} ({j['root']['reason']}), strength {j['strength']}")
PY
}
checked=0
for p in $(grep -E '^(libssl3|libcurl4|git-man|perl-base|libpcre2-8-0|openssh-client|libgssapi-krb5-2|liberror-perl|ucf|patch|libkrb5support0|libkeyutils1|libk5crypto3)$' "$T/kept"); do
    aptus why --json "$p" >"$T/why.json" || { fail "why --json $p exited $?"; continue; }
    check_chain "$p" "$T/why.json" || failures=$((failures + 1))
    checked=$((checked + 1))
done
[ $checked -ge 5 ] || fail "only $checked kept packages checked"
[ "$(sort -n "$T/why.json.len" | tail -1)" -ge 2 ] || fail "no chain of two steps or more was checked"

# The text form of one chain: numbered facts from the root.
aptus why git-man >"$T/why.txt" || fail "why git-man exited $?"
grep -q '^git-man:amd64=.* is installed because:$' "$T/why.txt" || { fail "why git-man text"; cat "$T/why.txt"; }
grep -q '^  1\. git:amd64=.* is installed manually$' "$T/why.txt" || { fail "why git-man: root line"; cat "$T/why.txt"; }

# 3. why-not: the t64 transition (trixie's libdb5.3t64 Breaks the installed
# bookworm libdb5.3), an installed package, a package nothing keeps out.
aptus why-not --json libdb5.3t64 >"$T/whynot.json" || fail "why-not libdb5.3t64 exited $?"
python3 - "$T/whynot.json" <<'PY' || failures=$((failures + 1))
import json, sys
j = json.load(open(sys.argv[1]))
s = j["steps"]
ok = j["verdict"] == "kept-out" and len(s) == 1 and s[0]["kind"] == "Breaks" and s[0]["from"]["package"] == "libdb5.3t64:amd64" \
     and s[0]["to"]["package"] == "libdb5.3:amd64" and s[0]["relation"].startswith("libdb5.3 (<< ")
if not ok: print("FAIL: why-not libdb5.3t64:", json.dumps(j)); sys.exit(1)
PY
aptus why-not libdb5.3t64 | grep -q 'Breaks libdb5.3 (<< .*), which the installed libdb5.3:amd64=.* is$' || fail "why-not libdb5.3t64 text"
aptus why-not bash | grep -q '^bash:amd64=.* is installed$' || fail "why-not bash"
aptus why-not hello | grep -q '^hello:amd64 is not installed, but nothing keeps it out: hello:amd64=' || fail "why-not hello"
aptus why hello | grep -q '^hello is not installed$' || fail "why hello"

# 4. Unknown packages and extra arguments are errors, as apt's.
out=$(aptus why no-such-package-here 2>&1); rc=$?
[ $rc -eq 100 ] && [ "$out" = "E: Unable to locate package no-such-package-here" ] || fail "why unknown: rc $rc, $out"
aptus why-not bash git >/dev/null 2>&1; [ $? -eq 100 ] || fail "why-not with two arguments did not fail"

[ $failures -eq 0 ] && echo "PASS" || { echo "FAIL: $failures check(s)"; exit 1; }
