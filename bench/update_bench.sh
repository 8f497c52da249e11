#!/usr/bin/env bash
# `aptus update` vs `apt-get update` on the real bookworm+trixie indices served on
# loopback by ../shared/tools/serve-mirror (real InRelease files, by-hash paths,
# If-Modified-Since), each in its own make-sandbox root, with hyperfine:
#   cold: empty lists dir and cache before every run (download, verify,
#         decompress, store, and the cache build that both commands end with)
#   warm: nothing changed since the last run (InRelease answered 304)
#   bench/update_bench.sh [BUILD_DIR] [COLD_RUNS] [WARM_RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
cold_runs=${2:-5}
warm_runs=${3:-20}
tools=$here/../shared/tools
T=$(mktemp -d /tmp/aptus-update-bench.XXXXXX)
"$tools/serve-mirror" --root "$T/mirror" >"$T/url" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 100); do [ -s "$T/url" ] && break; sleep 0.1; done
url=$(head -1 "$T/url")
for who in apt aptus; do
    "$tools/make-sandbox" "$T/$who" --status server >/dev/null
    sed -i "s|http://archive.example/debian|$url|" "$T/$who/etc/apt/sources.list.d/debian.sources"
    mkdir -p "$T/$who-cache"
done
apt_cmd="env APT_CONFIG=$T/apt/apt.conf apt-get -q update -o Dir::Cache=$T/apt-cache"
aptus_cmd="env APT_CONFIG=$T/aptus/apt.conf $build/aptus -q update -o Dir::Cache=$T/aptus-cache"
clear() { echo "bash -c 'rm -rf $T/$1/var/lib/apt/lists/*_* $T/$1-cache/*'"; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -r "$cold_runs" --export-markdown "$T/cold.md" \
    --prepare "$(clear apt)" -n "apt-get update (cold)" "$apt_cmd" \
    --prepare "$(clear aptus)" -n "aptus update (cold)" "$aptus_cmd" >/dev/null
# The warm runs start from the state the cold runs left.
hyperfine -N -w 2 -r "$warm_runs" --export-markdown "$T/warm.md" \
    -n "apt-get update (warm)" "$apt_cmd" \
    -n "aptus update (warm)" "$aptus_cmd" >/dev/null
cat "$T/cold.md" "$T/warm.md"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
