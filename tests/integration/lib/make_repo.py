#!/usr/bin/env python3
"""Build (or rebuild) one suite of a small signed Debian repository for the update tests.

usage: make_repo.py ROOT SUITE [options]
  --packages NAME=VERSION,...   binary packages in main/binary-amd64/Packages
  --codename NAME               (default: SUITE)
  --release-notes URL           add a Release-Notes field
  --changelogs TEMPLATE         add a Changelogs field (apt changelog's URI, with @CHANGEPATH@)
  --snapshots TEMPLATE          add a Snapshots field (APT 3.0's -S, with @SNAPSHOTID@)
  --release-suite NAME          the Suite field says NAME (default: SUITE)
  --date-offset SECONDS         Date is now + this (negative: in the past)
  --valid-until SECONDS         add Valid-Until = now + this (negative: expired)
  --by-hash                     Acquire-By-Hash: yes, with by-hash copies of every index
  --compress LIST               compressed forms listed in the Release (default xz,gz)
  --gnupghome DIR --key ID      sign: InRelease (clearsigned) and Release.gpg (detached)
  --no-inrelease                leave out InRelease (Release + Release.gpg only)
  --unsigned                    neither InRelease nor Release.gpg
  --sources NAME=VERSION,...    native source packages (dpkg-source -b) in main/source/Sources
  --source-field NAME:FIELD=VALUE  a field of NAME's source stanza (Build-Depends, ...); repeatable
  --sources-md5-only            the Sources stanzas keep only Files (MD5), no Checksums-Sha* fields
  --spec FILE                   packages from a JSON file instead of --packages:
                                [{"name", "version", "fields": {"Depends": ...},
                                  "scripts": {"postinst": "#!/bin/sh ..."},
                                  "files": {"usr/share/x": "text"},
                                  "conffiles": {"etc/x.conf": "text"}}, ...]
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
import json
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
ap.add_argument("--release-notes")
ap.add_argument("--changelogs")
ap.add_argument("--snapshots")
ap.add_argument("--release-suite")
ap.add_argument("--date-offset", type=int, default=0)
ap.add_argument("--valid-until", type=int)
ap.add_argument("--by-hash", action="store_true")
ap.add_argument("--compress", default="xz,gz")
ap.add_argument("--gnupghome")
ap.add_argument("--key")
ap.add_argument("--no-inrelease", action="store_true")
ap.add_argument("--unsigned", action="store_true")
ap.add_argument("--spec")
ap.add_argument("--sources", default="")
ap.add_argument("--source-field", action="append", default=[])
ap.add_argument("--sources-md5-only", action="store_true")
a = ap.parse_args()

dist = os.path.join(a.root, "dists", a.suite)
bindir = os.path.join(dist, "main", "binary-amd64")
os.makedirs(bindir, exist_ok=True)
for name in ("InRelease", "Release", "Release.gpg"):
    try:
        os.unlink(os.path.join(dist, name))
    except FileNotFoundError:
        pass

def build_deb(pool, name, version, spec=None):
    """A .deb of NAME VERSION in POOL, built once; with a spec, rebuilt when the spec changed."""
    spec = spec or {}
    deb = os.path.join(pool, f"{name}_{version.replace(':', '%3a')}_amd64.deb")
    stamp = json.dumps(spec, sort_keys=True)
    stamp_file = os.path.join(a.root, ".specs", os.path.basename(deb) + ".json")
    if os.path.exists(deb) and (not spec or (os.path.exists(stamp_file) and open(stamp_file).read() == stamp)):
        return deb
    with tempfile.TemporaryDirectory(dir=a.root) as tree:
        os.makedirs(os.path.join(tree, "DEBIAN"))
        files = {f"usr/share/doc/{name}/README": f"{name} {version}, a package of the aptus tests\n"}
        files.update(spec.get("files", {}))
        files.update(spec.get("conffiles", {}))
        for path, text in files.items():
            full = os.path.join(tree, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        fields = {"Package": name, "Version": version, "Architecture": "amd64",
                  "Maintainer": "Test <test@example.org>", "Installed-Size": "10",
                  "Section": "misc", "Priority": "optional"}
        fields.update(spec.get("fields", {}))
        with open(os.path.join(tree, "DEBIAN", "control"), "w") as f:
            for key, value in fields.items():
                f.write(f"{key}: {value}\n")
            f.write(f"Description: test package {name}\n A tiny package built by make_repo.py.\n")
        if spec.get("conffiles"):
            with open(os.path.join(tree, "DEBIAN", "conffiles"), "w") as f:
                f.write("".join(f"/{path}\n" for path in spec["conffiles"]))
        for script, text in spec.get("scripts", {}).items():
            path = os.path.join(tree, "DEBIAN", script)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        if os.path.exists(deb):
            os.unlink(deb)
        subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", tree, deb],
                       check=True, stdout=subprocess.DEVNULL)
    os.makedirs(os.path.dirname(stamp_file), exist_ok=True)
    with open(stamp_file, "w") as f:
        f.write(stamp)
    return deb


# One pool per suite, holding exactly the suite's packages, so that
# apt-ftparchive's scan of it is the suite's Packages file.
pool_rel = os.path.join("pool", a.suite, "main")
pool = os.path.join(a.root, pool_rel)
os.makedirs(pool, exist_ok=True)
wanted = set()
if a.spec:
    for spec in json.load(open(a.spec)):
        wanted.add(os.path.basename(build_deb(pool, spec["name"], spec["version"], spec)))
else:
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

def build_source(pool, name, version):
    """NAME_VERSION.dsc and .tar.xz in POOL, a native package dpkg-source builds (once)."""
    dsc = os.path.join(pool, f"{name}_{version}.dsc")
    if os.path.exists(dsc):
        return
    with tempfile.TemporaryDirectory(dir=a.root) as work:
        tree = os.path.join(work, f"{name}-{version}")
        os.makedirs(os.path.join(tree, "debian", "source"))
        with open(os.path.join(tree, "debian", "source", "format"), "w") as f:
            f.write("3.0 (native)\n")
        extra = ""
        for item in a.source_field:
            owner, field = item.split(":", 1)
            key, value = field.split("=", 1)
            if owner == name:
                extra += f"{key}: {value}\n"
        with open(os.path.join(tree, "debian", "control"), "w") as f:
            f.write(f"Source: {name}\nMaintainer: Test <test@example.org>\nSection: misc\nPriority: optional\n{extra}\n"
                    f"Package: {name}\nArchitecture: any\nDescription: test package {name}\n built by make_repo.py\n")
        with open(os.path.join(tree, "debian", "changelog"), "w") as f:
            f.write(f"{name} ({version}) unstable; urgency=low\n\n  * Test.\n\n"
                    f" -- Test <test@example.org>  Thu, 01 Jan 2026 00:00:00 +0000\n")
        with open(os.path.join(tree, "README"), "w") as f:
            f.write(f"{name} {version}, the source of a package of the aptus tests\n")
        # Enough for dpkg-buildpackage -b without debhelper: the README in a .deb.
        rules = os.path.join(tree, "debian", "rules")
        with open(rules, "w") as f:
            f.write("#!/usr/bin/make -f\n"
                    "build build-arch build-indep:\n\t@true\n"
                    "binary binary-arch binary-indep:\n"
                    f"\trm -rf debian/tmp\n\tmkdir -p debian/tmp/DEBIAN debian/tmp/usr/share/doc/{name}\n"
                    f"\tcp README debian/tmp/usr/share/doc/{name}/\n"
                    f"\tdpkg-gencontrol -p{name}\n\tdpkg-deb --build debian/tmp ..\n"
                    "clean:\n\trm -rf debian/tmp debian/files\n")
        os.chmod(rules, 0o755)
        subprocess.run(["dpkg-source", "-b", os.path.basename(tree)], cwd=work, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for produced in os.listdir(work):
            if produced.endswith((".dsc", ".tar.xz", ".tar.gz")):
                os.replace(os.path.join(work, produced), os.path.join(pool, produced))


if a.sources:
    for item in a.sources.split(","):
        name, version = item.split("=")
        build_source(pool, name, version)
    sources = subprocess.run(["apt-ftparchive", "sources", pool_rel], cwd=a.root, check=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    if a.sources_md5_only:
        kept, skipping = [], False
        for line in sources.decode().split("\n"):
            if line.startswith("Checksums-Sha"):
                skipping = True
                continue
            if skipping and line.startswith(" "):
                continue
            skipping = False
            kept.append(line)
        sources = "\n".join(kept).encode()
    srcdir = os.path.join(dist, "main", "source")
    os.makedirs(srcdir, exist_ok=True)
    with open(os.path.join(srcdir, "Sources"), "wb") as f:
        f.write(sources)
    with open(os.path.join(srcdir, "Sources.xz"), "wb") as f:
        f.write(lzma.compress(sources))

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
    f"Suite: {a.release_suite or a.suite}",
    f"Codename: {a.codename or a.suite}",
    f"Date: {email.utils.formatdate(now + a.date_offset, usegmt=True)}",
]
if a.release_notes:
    lines.append(f"Release-Notes: {a.release_notes}")
if a.changelogs:
    lines.append(f"Changelogs: {a.changelogs}")
if a.snapshots:
    lines.append(f"Snapshots: {a.snapshots}")
if a.valid_until is not None:
    lines.append(f"Valid-Until: {email.utils.formatdate(now + a.valid_until, usegmt=True)}")
lines += ["Architectures: amd64", "Components: main", "No-Support-for-Architecture-all: Packages"]
if a.by_hash:
    lines.append("Acquire-By-Hash: yes")
source_forms = {}
if a.sources:
    for name in ("Sources", "Sources.xz"):
        source_forms[name] = open(os.path.join(dist, "main", "source", name), "rb").read()
for field, algo in algos.items():
    lines.append(f"{field}:")
    for name, data in forms.items():
        lines.append(f" {hashlib.new(algo, data).hexdigest()} {len(data):>8} main/binary-amd64/{name}")
    for name, data in source_forms.items():
        lines.append(f" {hashlib.new(algo, data).hexdigest()} {len(data):>8} main/source/{name}")
release = "\n".join(lines) + "\n"
with open(os.path.join(dist, "Release"), "w") as f:
    f.write(release)

if not a.unsigned:
    gpg = ["gpg", "--homedir", a.gnupghome, "--batch", "--yes", "--quiet", "--trust-model", "always", "--local-user", a.key]
    rel = os.path.join(dist, "Release")
    subprocess.run(gpg + ["--armor", "--detach-sign", "-o", os.path.join(dist, "Release.gpg"), rel], check=True)
    if not a.no_inrelease:
        subprocess.run(gpg + ["--clearsign", "-o", os.path.join(dist, "InRelease"), rel], check=True)
