#!/bin/bash
# `aptus -s install hello` beside `apt-get -s install hello` on the real
# server sandbox (bookworm installed, bookworm + trixie lists), each with its
# own warm cache: the whole command, from reading the configuration to the
# printed plan (for aptus: the cache opened, candidates, the system as a
# solver universe, the request, the solve, the plan).
#   bench/install_hello_bench.sh BUILD_DIR [RUNS]
set -eu
build=${1:?usage: install_hello_bench.sh BUILD_DIR [RUNS]}
runs=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../../shared/data
T=$(mktemp -d /tmp/aptus-install-hello-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$data/../tools/make-sandbox" "$T/root" --status server >/dev/null
export APT_CONFIG=$T/root/apt.conf LC_ALL=C
mkdir -p "$T/apt-cache" "$T/aptus-cache"
aptus=$(realpath "$build/aptus")
hyperfine -N -w 2 -r "$runs" --output=null \
    "apt-get -s -o Dir::Cache=$T/apt-cache install hello" \
    "$aptus -s -o Dir::Cache=$T/aptus-cache install hello"
uptime
