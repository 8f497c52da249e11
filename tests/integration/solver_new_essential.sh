#!/bin/bash
# full-upgrade installs what the candidate release makes Essential (APT
# 2.9.29 on; apt 2.6's solver on this machine does not, so the answer is not
# compared with it). The real bookworm -> trixie scenario has no new
# Essential package, so the check adds one: the trixie stanza of a package
# that is not installed gets "Essential: yes". On full-upgrade aptus must
# then install it (and nothing it did not install before is removed); on
# upgrade (no removals, so not a dist-upgrade) it must not.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
data=${APTUS_DATA_DIR:-}
if [ -z "$data" ] || [ ! -d "$data/scenarios" ]; then echo "SKIP: no scenarios"; exit 0; fi
T=$(mktemp -d /tmp/aptus-solver-new-essential.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
mkdir -p "$T/etc/apt.conf.d"
printf 'Dir::Etc "%s/etc/";\nDir::Etc::main "none";\nDir::Etc::parts "apt.conf.d";\n' "$T" >"$T/apt.conf"
export APT_CONFIG=$T/apt.conf

failures=0
for scenario in server-full-upgrade-trixie server-upgrade-trixie; do
    xz -dc "$data/scenarios/$scenario/problem.edsp.xz" >"$T/plain.edsp"
    python3 - "$T/plain.edsp" "$T/essential.edsp" hello <<'PY' || { echo "FAIL $scenario: could not mark hello Essential"; failures=$((failures + 1)); continue; }
import sys
src, dst, name = sys.argv[1:]
stanzas = open(src).read().split('\n\n')
installed = any(f'Package: {name}\n' in s and '\nInstalled: yes' in s for s in stanzas)
hit = 0
for i, s in enumerate(stanzas):
    if s.startswith(f'Package: {name}\n') and '\nAPT-Candidate: yes' in s and not installed:
        stanzas[i] = s + '\nEssential: yes'
        hit += 1
open(dst, 'w').write('\n\n'.join(stanzas))
sys.exit(0 if hit == 1 else 1)
PY
    "$APTUS" internal-solver "$T/plain.edsp" >"$T/plain.out" 2>"$T/plain.err" || { echo "FAIL $scenario: solver failed"; cat "$T/plain.err"; failures=$((failures + 1)); continue; }
    "$APTUS" internal-solver "$T/essential.edsp" >"$T/essential.out" 2>"$T/essential.err" || { echo "FAIL $scenario: solver failed"; cat "$T/essential.err"; failures=$((failures + 1)); continue; }
    python3 - "$scenario" "$T/essential.edsp" "$T/plain.out" "$T/essential.out" <<'PY' || failures=$((failures + 1))
import re, sys
scenario, edsp, plain_out, ess_out = sys.argv[1:]
names = {}
for st in open(edsp).read().split('\n\n')[1:]:
    f = dict(re.findall(r'^([A-Za-z-]+): ?(.*)$', st, re.M))
    if 'APT-ID' in f:
        names[f['APT-ID']] = f['Package']
def answer(path):
    text = open(path).read()
    if re.search(r'^Error:', text, re.M):
        print(f'FAIL {scenario}: {path} is an Error answer'); sys.exit(1)
    out = {'Install': set(), 'Remove': set()}
    for kind, ident in re.findall(r'^(Install|Remove): (\S+)', text, re.M):
        out[kind].add(names[ident])
    return out
plain, ess = answer(plain_out), answer(ess_out)
full = 'full-upgrade' in scenario
print(f'{scenario}: hello installed without the mark: {"hello" in plain["Install"]}, with it: {"hello" in ess["Install"]}; '
      f'installs {len(plain["Install"])} -> {len(ess["Install"])}, removals {len(plain["Remove"])} -> {len(ess["Remove"])}')
ok = 'hello' not in plain['Install'] and ('hello' in ess['Install']) == full and ess['Remove'] <= plain['Remove']
ok = ok and plain['Install'] <= ess['Install']
if not ok:
    print(f'FAIL {scenario}: only with the mark: {sorted(ess["Install"] - plain["Install"])}, '
          f'only without: {sorted(plain["Install"] - ess["Install"])}')
    sys.exit(1)
PY
done
[ $failures -eq 0 ] && echo "PASS" || { echo "FAIL: $failures check(s)"; exit 1; }
