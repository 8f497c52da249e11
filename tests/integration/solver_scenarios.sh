#!/bin/bash
# aptus's EDSP solver beside apt's own (/usr/lib/apt/solvers/apt, apt-utils)
# on the six real scenarios of ../shared/data/scenarios: same success or
# failure; the upgrade and full-upgrade answers identical, stanza for
# stanza; the two big installs within 3% of apt's size, no removals. Both
# run on the same empty configuration (APT_CONFIG), so the host's
# /etc/apt (NeverAutoRemove lists, say) plays no part.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
APT_SOLVER=/usr/lib/apt/solvers/apt
data=${APTUS_DATA_DIR:-}
if [ -z "$data" ] || [ ! -d "$data/scenarios" ]; then echo "SKIP: no scenarios"; exit 0; fi
if [ ! -x "$APT_SOLVER" ]; then echo "SKIP: $APT_SOLVER missing (apt-utils)"; exit 0; fi
T=$(mktemp -d /tmp/aptus-solver-scenarios.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
mkdir -p "$T/etc/apt.conf.d" "$T/etc/preferences.d"
cat >"$T/apt.conf" <<CONF
Dir::Etc "$T/etc/";
Dir::Etc::main "none";
Dir::Etc::parts "apt.conf.d";
Dir::Log "$T/log";
CONF
export APT_CONFIG=$T/apt.conf

failures=0
for dir in "$data"/scenarios/*/; do
    name=$(basename "$dir")
    xz -dc "$dir/problem.edsp.xz" >"$T/problem.edsp"
    "$APT_SOLVER" <"$T/problem.edsp" >"$T/apt.out" 2>"$T/apt.err"
    "$APTUS" internal-solver <"$T/problem.edsp" >"$T/aptus.out" 2>"$T/aptus.err"
    rc=$?
    if [ $rc -ne 0 ]; then echo "FAIL $name: aptus internal-solver exited $rc"; cat "$T/aptus.err"; failures=$((failures + 1)); continue; fi
    python3 - "$name" "$T/problem.edsp" "$T/apt.out" "$T/aptus.out" <<'PY' || failures=$((failures + 1))
import re, sys
name, edsp, apt_out, aptus_out = sys.argv[1:]
ids = {}
for st in open(edsp).read().split('\n\n')[1:]:
    f = dict(re.findall(r'^([A-Za-z-]+): ?(.*)$', st, re.M))
    if 'APT-ID' in f:
        ids[f['APT-ID']] = f['Package'] + '=' + f['Version']
def answer(path):
    out = {'Install': set(), 'Remove': set(), 'Autoremove': set(), 'Error': None}
    for st in open(path).read().split('\n\n'):
        m = re.match(r'^(Install|Remove|Autoremove): (\S+)', st)
        if m:
            if m.group(2) not in ids:
                print(f'FAIL {name}: {path} names unknown APT-ID {m.group(2)}'); sys.exit(1)
            out[m.group(1)].add(ids[m.group(2)])
        m = re.match(r'^Error: (\S+)', st)
        if m: out['Error'] = m.group(1)
    return out
apt, aptus = answer(apt_out), answer(aptus_out)
sizes = lambda a: ' '.join(f'{k}={len(a[k])}' for k in ('Install', 'Remove', 'Autoremove')) + (f' Error={a["Error"]}' if a['Error'] else '')
print(f'{name}: apt {sizes(apt)}; aptus {sizes(aptus)}')
for k in ('Install', 'Remove', 'Autoremove'):
    if apt[k] != aptus[k]:
        print(f'  {k} only apt:   {sorted(apt[k] - aptus[k])[:12]}')
        print(f'  {k} only aptus: {sorted(aptus[k] - apt[k])[:12]}')
ok = (apt['Error'] is None) == (aptus['Error'] is None)
if 'upgrade' in name:
    ok = ok and all(apt[k] == aptus[k] for k in ('Install', 'Remove', 'Autoremove'))
elif apt['Error'] is None:
    ok = ok and apt['Remove'] == aptus['Remove'] and abs(len(apt['Install']) - len(aptus['Install'])) <= 0.03 * len(apt['Install'])
if not ok:
    print(f'FAIL {name}')
    sys.exit(1)
PY
done
[ $failures -eq 0 ] && echo "PASS" || { echo "FAIL: $failures scenario(s)"; exit 1; }
