#!/bin/bash
# Every unsatisfiable scenario of ../shared/data/scenarios ends the search in
# one step: each becomes a system (its installed stanzas a dpkg status and
# extended_states, every stanza a repository's Packages), its request is
# run as a command line (`aptus -s install|remove ...`), which fails with
# the facts and "A request that succeeds (checked): WORDS"; then `aptus -s
# WORDS` is run as the user would and must succeed, and --json carries the
# same words as "suggestion". A scenario is taken as unsatisfiable when
# aptus's EDSP solver answers it with an Error (solver_scenarios.sh checks
# that apt's solver agrees).
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
data=${APTUS_DATA_DIR:-}
if [ -z "$data" ] || [ ! -d "$data/scenarios" ]; then echo "SKIP: no scenarios"; exit 0; fi
T=$(mktemp -d /tmp/aptus-explanation-suggestions.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
failures=0
checked=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

for dir in "$data"/scenarios/*/; do
    name=$(basename "$dir")
    xz -dc "$dir/problem.edsp.xz" >"$T/problem.edsp"
    APT_CONFIG=/dev/null "$APTUS" internal-solver <"$T/problem.edsp" >"$T/answer" 2>/dev/null
    grep -q '^Error:' "$T/answer" || continue
    R=$T/$name
    mkdir -p "$R/etc/apt/apt.conf.d" "$R/etc/apt/preferences.d" "$R/etc/apt/sources.list.d" \
        "$R/var/lib/apt/lists/partial" "$R/var/lib/dpkg" "$R/var/cache/apt/archives/partial" "$R/var/log/apt"
    # The system and the repository, from the scenario; the request as words.
    python3 - "$T/problem.edsp" "$R" >"$T/request" <<'PY'
import re, sys
edsp, root = sys.argv[1:]
stanzas = open(edsp).read().split('\n\n')
request = dict(re.findall(r'^([A-Za-z-]+): ?(.*)$', stanzas[0], re.M))
arch = request['Architecture']
lists = root + '/var/lib/apt/lists/archive.example_debian_dists_bookworm_'
status, auto, packages = [], [], []
drop = re.compile(r'^(APT-[A-Za-z-]+|Installed|Source-Version):.*(\n .*)*\n?', re.M)
for st in stanzas[1:]:
    if not st.startswith('Package:'):
        continue
    f = dict(re.findall(r'^([A-Za-z-]+): ?(.*)$', st, re.M))
    body = drop.sub('', st).rstrip('\n')
    a = f['Architecture']
    packages.append(body + f"\nFilename: pool/{f['Package']}_{a}.deb\nSize: 100\nSHA256: {'0' * 64}\n"
                    f"Description: {f['Package']}\n")
    if f.get('Installed') == 'yes':
        status.append(f"{body}\nStatus: install ok installed\nMaintainer: M <m@example.org>\n"
                      f"Description: {f['Package']}\n")
        if f.get('APT-Automatic') == 'yes':
            auto.append(f"Package: {f['Package']}\nArchitecture: {a}\nAuto-Installed: 1\n")
open(root + '/var/lib/dpkg/status', 'w').write('\n'.join(status))
open(root + '/var/lib/apt/extended_states', 'w').write('\n'.join(auto))
open(lists + f'main_binary-{arch}_Packages', 'w').write('\n'.join(p for p in packages if f'\nArchitecture: {arch}\n' in p or '\nArchitecture: all\n' in p))
open(lists + 'Release', 'w').write(f"Origin: Debian\nLabel: Debian\nSuite: oldstable\nCodename: bookworm\n"
                                   f"Architectures: {arch}\nComponents: main\n")
strip = lambda words: [w.removesuffix(':' + arch) for w in words.split()]
if request.get('Install'):
    print(' '.join(['install'] + strip(request['Install']) + [w + '-' for w in strip(request.get('Remove', ''))]))
else:
    print(' '.join(['remove'] + strip(request['Remove'])))
PY
    echo "deb [trusted=yes] http://archive.example/debian bookworm main" >"$R/etc/apt/sources.list"
    cat >"$R/apt.conf" <<CONF
Dir "$R/";
Dir::State::status "$R/var/lib/dpkg/status";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages { "none"; };
CONF
    read -r -a words <"$T/request"
    APT_CONFIG=$R/apt.conf "$APTUS" -s "${words[@]}" >"$T/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then fail "$name: aptus -s ${words[*]} succeeded"; cat "$T/out"; continue; fi
    suggestion=$(sed -n 's/^.*A request that succeeds (checked): //p' "$T/out")
    if [ -z "$suggestion" ]; then fail "$name: no suggestion for '${words[*]}'"; cat "$T/out"; continue; fi
    echo "$name: '${words[*]}' -> '$suggestion'"
    APT_CONFIG=$R/apt.conf "$APTUS" -s "${words[@]}" --json >"$T/json" 2>/dev/null
    json_words=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1])).get("suggestion", [])))' "$T/json")
    [ "$json_words" = "$suggestion" ] || fail "$name: --json suggestion '$json_words', text '$suggestion'"
    read -r -a again <<<"$suggestion"
    if ! APT_CONFIG=$R/apt.conf "$APTUS" -s "${again[@]}" >"$T/again" 2>&1; then
        fail "$name: the suggested 'aptus -s $suggestion' failed"
        tail -20 "$T/again"
        continue
    fi
    checked=$((checked + 1))
done
[ $checked -gt 0 ] || fail "no unsatisfiable scenario found"
[ $failures -eq 0 ] && echo "PASS ($checked scenarios)" || { echo "FAIL: $failures"; exit 1; }
