#!/usr/bin/env bash
# Installing 50 packages made with dpkg-deb (about 200 kB each, a chain of
# Depends under one metapackage) from the signed loopback archive of the
# install tests into a fresh sandbox root, real dpkg doing the work:
# `aptus install -y` vs `apt-get install -y`, each from the same state (a
# fresh copy of the sandbox, an empty archives dir) before every run, with
# hyperfine; then the download alone (-d), and peak memory (/usr/bin/time).
#   bench/install_bench.sh [BUILD_DIR] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
runs=${2:-5}
export APTUS=$build/aptus
set +u
source "$here/tests/integration/lib/install_repo.sh"
set -u
install_setup

python3 - >"$T/spec.json" <<'PY'
import json, random
random.seed(1)
pkgs = []
for i in range(50):
    deps = [f"bench{j:02d}" for j in range(i + 1, min(i + 4, 50))]
    fields = {"Depends": ", ".join(deps)} if deps else {}
    blob = "".join(random.choice("0123456789abcdef") for _ in range(200_000))
    pkgs.append({"name": f"bench{i:02d}", "version": "1.0", "fields": fields,
                 "files": {f"usr/share/bench{i:02d}/data": blob}})
pkgs.append({"name": "bench-all", "version": "1.0",
             "fields": {"Depends": ", ".join(f"bench{i:02d}" for i in range(50))}})
json.dump(pkgs, open("/dev/stdout", "w"))
PY
install_suite stable "$T/spec.json"
# Both start from this state; apt-get builds its own cache once first.
twin "$T/base-apt"
twin "$T/base-aptus"
APT_CONFIG=$T/base-apt/apt.conf apt-get -qq check
APT_CONFIG=$T/base-aptus/apt.conf "$APTUS" -qq policy >/dev/null

reset() { echo "bash -c 'rm -rf $T/$1 && cp -a $T/base-$1 $T/$1 && sed -i s#$T/base-$1#$T/$1#g $T/$1/apt.conf'"; }
apt_cmd() { echo "env APT_CONFIG=$T/apt/apt.conf apt-get -y -q $1 bench-all"; }
aptus_cmd() { echo "env APT_CONFIG=$T/aptus/apt.conf $APTUS -y -q $1 bench-all"; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -r "$runs" --export-markdown "$T/install.md" \
    --prepare "$(reset apt)" -n "apt-get install -y (51 packages)" "$(apt_cmd install)" \
    --prepare "$(reset aptus)" -n "aptus install -y (51 packages)" "$(aptus_cmd install)" >/dev/null
hyperfine -N -r "$runs" --export-markdown "$T/download.md" \
    --prepare "$(reset apt)" -n "apt-get install -d -y (download only)" "$(apt_cmd 'install -d')" \
    --prepare "$(reset aptus)" -n "aptus install -d -y (download only)" "$(aptus_cmd 'install -d')" >/dev/null
cat "$T/install.md" "$T/download.md"
for who in apt aptus; do
    eval "$(reset $who)"
    cmd=$([ $who = apt ] && apt_cmd install || aptus_cmd install)
    /usr/bin/time -f "$who: peak RSS %M kB, %e s" $cmd >/dev/null 2>"$T/time-$who" || true
    tail -1 "$T/time-$who"
    [ "$(installed_set "$T/$who" | wc -l)" = 51 ] || echo "WARNING: $who did not install all 51 packages"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
