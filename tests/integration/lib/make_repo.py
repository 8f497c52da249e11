#!/usr/bin/env python3
"""Build (or rebuild) one suite of a small signed Debian repository for the update tests.

usage: make_repo.py ROOT SUITE [options]
  --packages NAME=VERSION,...   binary packages in main/binary-amd64/Packages
  --codename NAME               (default: SUITE)
  --date-offset SECONDS         Date is now + this (negative: in the past)
  --valid-until SECONDS         add Valid-Until = now + this (negative: expired)
  --by-hash                     Acquire-By-Hash: yes, with by-hash copies of every index
  --compress LIST               compressed forms listed in the Release (default xz,gz)
  --gnupghome DIR --key ID      sign: InRelease (clearsigned) and Release.gpg (detached)
  --no-inrelease                leave out InRelease (Release + Release.gpg only)
  --unsigned                    neither InRelease nor Release.gpg
The packages are real: each NAME=VERSION is built with dpkg-deb from a
DEBIAN/control and one file (once; a later rebuild of the suite reuses the
.deb) into ROOT/pool/SUITE/main/, and Packages is what apt-ftparchive says
about the .debs of that pool, so every Filename, Size and hash in it is true.
"""
import argparse
import bz2
import email.utils
import gzip
import hashlib
import lzma
import os
import subprocess
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("root")
ap.add_argument("suite")
ap.add_argument("--packages", default="hello=1.0")
ap.add_argument("--codename")
ap.add_argument("--date-offset", type=int, default=0)
ap.add_argument("--valid-until", type=int)
ap.add_argument("--by-hash", action="store_true")
ap.add_argument("--compress", default="xz,gz")
ap.add_argument("--gnupghome")
ap.add_argument("--key")
ap.add_argument("--no-inrelease", action="store_true")
ap.add_argument("--unsigned", action="store_true")
a = ap.parse_args()

dist = os.path.join(a.root, "dists", a.suite)
bindir = os.path.join(dist, "main", "binary-amd64")
os.makedirs(bindir, exist_ok=True)
for name in ("InRelease", "Release", "Release.gpg"):
    try:
        os.unlink(os.path.join(dist, name))
    except FileNotFoundError:
        pass

def build_deb(pool, name, version):
    deb = os.path.join(pool, f"{name}_{version}_amd64.deb")
    if os.path.exists(deb):
        return deb
    with tempfile.TemporaryDirectory(dir=a.root) as tree:
        os.makedirs(os.path.join(tree, "DEBIAN"))
        doc = os.path.join(tree, "usr", "share", "doc", name)
        os.makedirs(doc)
        with open(os.path.join(doc, "README"), "w") as f:
            f.write(f"{name} {version}, a package of the aptus update tests\n")
        with open(os.path.join(tree, "DEBIAN", "control"), "w") as f:
            f.write(f"Package: {name}\nVersion: {version}\nArchitecture: amd64\n"
                    f"Maintainer: Test <test@example.org>\nInstalled-Size: 10\nSection: misc\n"
                    f"Priority: optional\nDescription: test package {name}\n"
                    f" A tiny package built by make_repo.py.\n")
        subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", tree, deb],
                       check=True, stdout=subprocess.DEVNULL)
    return deb


# One pool per suite, holding exactly the suite's packages, so that
# apt-ftparchive's scan of it is the suite's Packages file.
pool_rel = os.path.join("pool", a.suite, "main")
pool = os.path.join(a.root, pool_rel)
os.makedirs(pool, exist_ok=True)
wanted = set()
for item in a.packages.split(","):
    name, version = item.split("=")
    wanted.add(os.path.basename(build_deb(pool, name, version)))
for old in os.listdir(pool):
    if old not in wanted:
        os.unlink(os.path.join(pool, old))
plain = subprocess.run(["apt-ftparchive", "packages", pool_rel], cwd=a.root, check=True,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
if plain.count(b"\nPackage: ") + plain.startswith(b"Package: ") != len(wanted):
    raise SystemExit(f"apt-ftparchive listed other packages than {sorted(wanted)}:\n{plain.decode()}")
forms = {"Packages": plain}
for c in a.compress.split(","):
    if c == "xz":
        forms["Packages.xz"] = lzma.compress(plain)
    elif c == "gz":
        forms["Packages.gz"] = gzip.compress(plain, mtime=0)
    elif c == "bz2":
        forms["Packages.bz2"] = bz2.compress(plain)
    elif c:
        raise SystemExit(f"unknown compression {c}")

algos = {"MD5Sum": "md5", "SHA256": "sha256", "SHA512": "sha512"}
for name, data in forms.items():
    with open(os.path.join(bindir, name), "wb") as f:
        f.write(data)
    if a.by_hash:
        for field, algo in algos.items():
            d = os.path.join(bindir, "by-hash", field)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, hashlib.new(algo, data).hexdigest()), "wb") as f:
                f.write(data)

now = time.time()
lines = [
    "Origin: aptus-test",
    "Label: aptus-test",
    f"Suite: {a.suite}",
    f"Codename: {a.codename or a.suite}",
    f"Date: {email.utils.formatdate(now + a.date_offset, usegmt=True)}",
]
if a.valid_until is not None:
    lines.append(f"Valid-Until: {email.utils.formatdate(now + a.valid_until, usegmt=True)}")
lines += ["Architectures: amd64", "Components: main", "No-Support-for-Architecture-all: Packages"]
if a.by_hash:
    lines.append("Acquire-By-Hash: yes")
for field, algo in algos.items():
    lines.append(f"{field}:")
    for name, data in forms.items():
        lines.append(f" {hashlib.new(algo, data).hexdigest()} {len(data):>8} main/binary-amd64/{name}")
release = "\n".join(lines) + "\n"
with open(os.path.join(dist, "Release"), "w") as f:
    f.write(release)

if not a.unsigned:
    gpg = ["gpg", "--homedir", a.gnupghome, "--batch", "--yes", "--quiet", "--trust-model", "always", "--local-user", a.key]
    rel = os.path.join(dist, "Release")
    subprocess.run(gpg + ["--armor", "--detach-sign", "-o", os.path.join(dist, "Release.gpg"), rel], check=True)
    if not a.no_inrelease:
        subprocess.run(gpg + ["--clearsign", "-o", os.path.join(dist, "InRelease"), rel], check=True)
