#!/bin/bash
# A decompression bomb from a man in the middle (plain http, no key needed):
# Packages.xz is served as xz streams of zeros, cut to the compressed size the
# signed Release announces, so only a bound on the decompressed bytes stops
# it. With the uncompressed size in the Release (Debian's Releases list it),
# the transfer must stop the moment the output passes that size; without it,
# at the configured multiple of the compressed size. Either way: an Err
# line naming the bound, exit 100, the old lists untouched, partial/ holding only what was set aside (.FAILED),
# and all in seconds; as root, partial/ is a tmpfs with room for the bound
# plus half a MiB, so a run that wrote more would fail on a full disk
# instead (and say so).
source "$(dirname "$0")/lib/update_repo.sh"
update_setup

# A Packages of about 2 MB that xz cannot shrink much (random padding), so
# the bomb has room: its ~1 MB of xz could decompress to gigabytes.
make_suite stable >/dev/null
set_sources stable
run_update
check "the first update exits 0" test "$RC" = 0
pad_packages() {
    python3 - "$REPO/dists/stable" "$GNUPGHOME" "$KEY" "$1" <<'PY'
import base64, hashlib, lzma, os, random, subprocess, sys
dist, gnupghome, key, list_plain = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "yes"
bindir = os.path.join(dist, "main", "binary-amd64")
text = open(os.path.join(bindir, "Packages")).read().rstrip("\n") + "\n"
rnd = random.Random(7)
pad = base64.b64encode(rnd.randbytes(1500000)).decode()
text += "X-Padding: " + pad + "\n"
forms = {"Packages": text.encode()}
forms["Packages.xz"] = lzma.compress(forms["Packages"])
head = [l for l in open(os.path.join(dist, "Release")).read().splitlines()
        if not l.startswith(" ") and l not in ("MD5Sum:", "SHA256:", "SHA512:")]
lines = list(head)
for field, algo in (("MD5Sum", "md5"), ("SHA256", "sha256"), ("SHA512", "sha512")):
    lines.append(field + ":")
    for name, data in forms.items():
        with open(os.path.join(bindir, name), "wb") as f:
            f.write(data)
        if name == "Packages" and not list_plain:
            continue
        lines.append(f" {hashlib.new(algo, data).hexdigest()} {len(data):>8} main/binary-amd64/{name}")
rel = os.path.join(dist, "Release")
with open(rel, "w") as f:
    f.write("\n".join(lines) + "\n")
gpg = ["gpg", "--homedir", gnupghome, "--batch", "--yes", "--quiet", "--local-user", key]
subprocess.run(gpg + ["--armor", "--detach-sign", "-o", rel + ".gpg", rel], check=True)
subprocess.run(gpg + ["--clearsign", "-o", os.path.join(dist, "InRelease"), rel], check=True)
print(len(forms["Packages"]), len(forms["Packages.xz"]))
PY
}
# make_bomb SIZE: xz streams of 96 MiB of zeros each, end to end, cut to SIZE bytes.
make_bomb() {
    python3 - "$T/bomb.xz" "$1" <<'PY'
import lzma, sys
out, size = sys.argv[1], int(sys.argv[2])
one = lzma.compress(bytes(96 << 20), preset=1)
data = one * (size // len(one) + 1)
open(out, "wb").write(data[:size])
PY
}
bomb_round() {
    local what=$1 bound=$2
    shift 2
    before=$(lists_digest)
    # partial/ gets room for the bound and half a MiB more: a run that wrote
    # more would end in "No space left on device", not in the bound's error.
    local mounted=0
    if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=$((bound + 524288)),mode=0700 tmpfs "$LISTS/partial"; then
        mounted=1
    fi
    start=$(date +%s%N)
    run_update "$@"
    elapsed=$((($(date +%s%N) - start) / 1000000))
    local partial_left
    partial_left=$(ls -A "$LISTS/partial" | grep -v '\.FAILED$')
    [ $mounted = 1 ] && umount "$LISTS/partial"
    echo "$OUT" >"$T/last-out"
    check "$what: update exits 100 (rc $RC)" test "$RC" = 100
    check "$what: the Err line says the data is larger than expected: $OUT" \
        contains "$OUT" "Decompressed data larger than expected"
    check "$what: the old lists are untouched" test "$(lists_digest)" = "$before"
    check "$what: partial/ holds only what was set aside (.FAILED)" test -z "$partial_left"
    [ $mounted = 1 ] || echo "NOTE: not root, the disk use is not bounded by a tmpfs here"
    check "$what: it ends in seconds (${elapsed} ms)" test "$elapsed" -lt 20000
    echo "$what: bound $bound bytes, ${elapsed} ms"
}

# 1. The Release lists the uncompressed Packages (as Debian's do).
read -r plain xz < <(pad_packages yes)
make_bomb "$xz"
# The plain Packages is missing, or the update would fall back to it (as
# apt does) and succeed.
misbehave '{"/dists/stable/main/binary-amd64/Packages.xz": {"file": "'"$T/bomb.xz"'"},
            "/dists/stable/main/binary-amd64/Packages": {"status": 404}}'
touch -d "@$(($(date +%s) + 10))" "$REPO/dists/stable/InRelease"
bomb_round "uncompressed size announced" "$plain"

# 2. The Release lists only Packages.xz (many third-party repositories):
#    the bound is Aptus::Acquire::Max-Decompression-Ratio times its size.
read -r plain xz < <(pad_packages no)
make_bomb "$xz"
touch -d "@$(($(date +%s) + 20))" "$REPO/dists/stable/InRelease"
bomb_round "no uncompressed size, ratio 4" $((xz * 4)) \
    -o Aptus::Acquire::Max-Decompression-Ratio=4 -o Aptus::Acquire::Max-Decompressed-Floor=0
default_bound=$((xz * 50))
[ $default_bound -ge $((64 << 20)) ] || default_bound=$((64 << 20))
bomb_round "no uncompressed size, default bound (50 times, at least 64 MiB)" $default_bound

# 3. The same repository, served honestly, still updates: the bounds do not
#    refuse a real index.
misbehave '{}'
touch -d "@$(($(date +%s) + 30))" "$REPO/dists/stable/InRelease"
run_update
check "served honestly, the padded Packages updates (rc $RC): $ERR" test "$RC" = 0
read -r plain xz < <(pad_packages yes)
touch -d "@$(($(date +%s) + 40))" "$REPO/dists/stable/InRelease"
run_update
check "and with the uncompressed size listed (rc $RC): $ERR" test "$RC" = 0
check "the stored Packages is the padded one" grep -q '^X-Padding: ' "$LISTS"/*_Packages
finish
