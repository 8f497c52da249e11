#!/usr/bin/env python3
"""Build a small synthetic multi-arch sandbox root (amd64 native, i386 foreign).

usage: make_multiarch.py DIR

Writes DIR/apt.conf (APT::Architectures amd64, i386), a sources.list with
two suites of one [trusted=yes] repository, and the lists dir as `update`
would have left it: per suite a Release and a Packages file for binary-amd64
and binary-i386 (Architecture: all packages in both, as the archive has
them), a Translation-en for part of the descriptions, then a dpkg status
with i386 packages installed beside their amd64 twins and an extended_states.
No update ever runs on it, so nothing is signed and nothing is fetched; the
host name is a placeholder that is never contacted.

The packages exercise what multi-arch changes in the read commands:
Multi-Arch same/foreign/allowed/no, Architecture: all, `name:any` and
`name:i386`/`name:amd64` dependencies, Conflicts/Breaks/Replaces on `:any`,
Provides from both architectures (with and without versions), a package
only the foreign architecture has, one installed only for the foreign
architecture, a local package (only in the status), upgradable pairs.
"""
import hashlib
import os
import sys

root = os.path.abspath(sys.argv[1])
HOST = "archive.example"
URI = f"http://{HOST}/multi"
LISTS = os.path.join(root, "var/lib/apt/lists")
PREFIX = f"{HOST}_multi_dists"

for d in ("etc/apt/apt.conf.d", "etc/apt/sources.list.d", "etc/apt/preferences.d", "etc/apt/trusted.gpg.d",
          "var/lib/apt/lists/partial", "var/lib/dpkg/info", "var/lib/dpkg/updates",
          "var/cache/apt/archives/partial", "var/log/apt"):
    os.makedirs(os.path.join(root, d), exist_ok=True)
for f in ("var/lib/dpkg/lock", "var/lib/dpkg/lock-frontend", "var/lib/dpkg/available"):
    open(os.path.join(root, f), "a").close()

with open(os.path.join(root, "etc/apt/sources.list"), "w") as f:
    f.write(f"deb [trusted=yes] {URI} stable main\n")
    f.write(f"deb [trusted=yes] {URI} unstable main\n")

with open(os.path.join(root, "apt.conf"), "w") as f:
    f.write(f'Dir "{root}/";\n'
            f'Dir::State::status "{root}/var/lib/dpkg/status";\n'
            'Dir::Bin::dpkg "/usr/bin/dpkg";\n'
            f'DPkg::Options {{ "--root={root}"; }};\n'
            'APT::Architecture "amd64";\n'
            'APT::Architectures { "amd64"; "i386"; };\n'
            'Acquire::Languages { "en"; };\n')

# One package: (name, version, arch, fields). `arch` "any" means one stanza
# per architecture of the file; "all" goes into every architecture's file.
# Fields are written in the archive's order after Package/Version.
ANY = "any"


def pkg(name, version, arch=ANY, **fields):
    return (name, version, arch, fields)


def D(short, long_text=None):
    return (short, long_text)


# What each suite holds; the archs limit a package to some files.
STABLE = [
    pkg("libmaf1", "1.0-1", ANY, multi_arch="same", section="libs", priority="optional",
        depends="libc6 (>= 2.36)", description=D("multi-arch test library", "A Multi-Arch: same library.\nBoth architectures can be installed.")),
    pkg("libc6", "2.36-9", ANY, multi_arch="same", section="libs", priority="required",
        depends="libgcc-s1", breaks="libmaf1 (<< 0.5)", description=D("GNU C Library: Shared libraries")),
    pkg("libgcc-s1", "12.2.0-14", ANY, multi_arch="same", section="libs", priority="required",
        depends="gcc-12-base (= 12.2.0-14), libc6 (>= 2.35)", provides="libgcc1 (= 1:12.2.0-14)",
        description=D("GCC support library")),
    pkg("gcc-12-base", "12.2.0-14", ANY, multi_arch="same", section="libs", priority="required",
        description=D("GCC, the GNU Compiler Collection (base package)")),
    pkg("maf-tools", "1.0-1", ANY, multi_arch="foreign", section="utils", priority="optional",
        depends="libmaf1 (= 1.0-1), libc6 (>= 2.34), maf-data", recommends="maf-doc",
        description=D("multi-arch test tools", "Tools that any architecture may use (Multi-Arch: foreign).")),
    pkg("maf-data", "1.0-1", "all", multi_arch="foreign", section="misc", priority="optional",
        description=D("architecture independent data for maf", "Arch all, Multi-Arch: foreign.")),
    pkg("maf-doc", "1.0-1", "all", section="doc", priority="optional",
        suggests="maf-tools", description=D("documentation for maf")),
    pkg("interp", "5.36.0-7", ANY, multi_arch="allowed", section="interpreters", priority="standard",
        depends="libc6 (>= 2.35), interp-base (= 5.36.0-7)", provides="interp-api-5.36",
        description=D("a test interpreter", "Multi-Arch: allowed, so plugins can ask for interp:any.")),
    pkg("interp-base", "5.36.0-7", ANY, multi_arch="foreign", essential="yes", section="interpreters",
        priority="required", depends="libc6 (>= 2.36)", description=D("minimal test interpreter")),
    pkg("interp-plugin", "0.3-2", ANY, multi_arch="same", section="interpreters", priority="optional",
        depends="interp:any, interp-api-5.36, libc6 (>= 2.34)", description=D("plugin for the test interpreter")),
    pkg("interp-script", "1.2-1", "all", section="utils", priority="optional",
        depends="interp:any (>= 5.30)", description=D("script in the test interpreter")),
    pkg("wine32-only", "8.0-1", ["i386"], section="otherosfs", priority="optional",
        depends="libmaf1 (>= 1.0), libc6 (>= 2.36)", recommends="maf-tools:i386",
        description=D("only built for the foreign architecture", "There is no amd64 build of this package.")),
    pkg("amd64-only", "2.0-1", ["amd64"], section="utils", priority="optional",
        depends="libmaf1:amd64, libc6:amd64", description=D("only built for the native architecture")),
    pkg("cross-helper", "0.9-1", ["amd64"], section="devel", priority="optional",
        depends="libmaf1:i386 (>= 1.0), wine32-only:i386", suggests="amd64-only:any",
        description=D("depends on foreign-architecture packages")),
    pkg("plain-tool", "3.1-1", ANY, section="utils", priority="optional",
        depends="libc6 (>= 2.34), mail-agent", conflicts="old-tool:any, plain-tool-ng", breaks="maf-tools:any (<< 0.9)",
        replaces="old-tool:any", description=D("Multi-Arch: no tool", "No Multi-Arch field at all.")),
    pkg("old-tool", "1.0-3", ANY, section="oldlibs", priority="optional", description=D("transitional tool")),
    pkg("mta-a", "4.96-15", ANY, section="mail", priority="optional", provides="mail-agent, mail-agent-abi (= 2)",
        conflicts="mail-agent", replaces="mail-agent", description=D("first mail agent")),
    pkg("mta-b", "3.7.10-1", ["i386"], section="mail", priority="extra", provides="mail-agent",
        conflicts="mail-agent", description=D("second mail agent, i386 only")),
    pkg("mail-user", "2.1-1", "all", section="mail", priority="optional", depends="mta-a | mail-agent",
        description=D("needs some mail agent")),
    pkg("foreign-prov", "1.0-1", ["i386"], multi_arch="foreign", section="misc", priority="optional",
        provides="virt-foreign", description=D("foreign-architecture provider, Multi-Arch: foreign")),
    pkg("virt-user", "1.0-1", ANY, section="misc", priority="optional", depends="virt-foreign, virt-none:any",
        description=D("depends on names only provided")),
    pkg("same-dev", "1.0-1", ANY, multi_arch="same", section="libdevel", priority="optional",
        depends="libmaf1 (= ${binary:Version}), interp:any | interp-script", description=D("development files for maf")),
    pkg("libonly-i386", "0.1-1", ["i386"], multi_arch="same", section="libs", priority="optional",
        depends="libc6 (>= 2.36)", description=D("an i386 library without amd64 twin")),
]

UNSTABLE = [
    pkg("libmaf1", "1.1-1", ANY, multi_arch="same", section="libs", priority="optional",
        depends="libc6 (>= 2.37)", description=D("multi-arch test library", "A Multi-Arch: same library.\nBoth architectures can be installed.")),
    pkg("maf-tools", "1.1-1", ANY, multi_arch="foreign", section="utils", priority="optional",
        depends="libmaf1 (= 1.1-1), libc6 (>= 2.34), maf-data (>= 1.1)", recommends="maf-doc",
        description=D("multi-arch test tools", "Tools that any architecture may use (Multi-Arch: foreign).")),
    pkg("maf-data", "1.1-1", "all", multi_arch="foreign", section="misc", priority="optional",
        description=D("architecture independent data for maf", "Arch all, Multi-Arch: foreign.")),
    pkg("interp", "5.38.2-1", ANY, multi_arch="allowed", section="interpreters", priority="standard",
        depends="libc6 (>= 2.37), interp-base (= 5.38.2-1)", provides="interp-api-5.38",
        description=D("a test interpreter", "Multi-Arch: allowed, so plugins can ask for interp:any.")),
    pkg("interp-base", "5.38.2-1", ANY, multi_arch="foreign", essential="yes", section="interpreters",
        priority="required", depends="libc6 (>= 2.37)", description=D("minimal test interpreter")),
    pkg("wine32-only", "9.0-1", ["i386"], section="otherosfs", priority="optional",
        depends="libmaf1 (>= 1.1), libc6 (>= 2.37)", recommends="maf-tools:i386",
        description=D("only built for the foreign architecture", "There is no amd64 build of this package.")),
    pkg("libc6", "2.37-12", ANY, multi_arch="same", section="libs", priority="required",
        depends="libgcc-s1", breaks="libmaf1 (<< 0.5)", description=D("GNU C Library: Shared libraries")),
    pkg("new-in-unstable", "0.1-1", ANY, multi_arch="allowed", section="misc", priority="optional",
        depends="interp:any, libmaf1", provides="virt-foreign (= 2)", description=D("only in unstable")),
]

# Fields whose long description goes to Translation-en instead of the
# Packages file (as Debian's archive does), to cover both paths.
TRANSLATED = {"maf-tools", "interp", "wine32-only"}

FIELD_ORDER = [("essential", "Essential"), ("multi_arch", "Multi-Arch"), ("provides", "Provides"),
               ("depends", "Depends"), ("recommends", "Recommends"), ("suggests", "Suggests"),
               ("breaks", "Breaks"), ("conflicts", "Conflicts"), ("replaces", "Replaces")]


def stanza(name, version, arch, fields, *, status=None, translated=False):
    lines = [f"Package: {name}"]
    if status:
        lines.append(f"Status: {status}")
        lines.append(f"Priority: {fields['priority']}")
        lines.append(f"Section: {fields['section']}")
        lines.append(f"Installed-Size: {40 + len(name) * 3}")
        lines.append("Maintainer: Multi Arch Tester <tester@example.org>")
        lines.append(f"Architecture: {arch}")
        lines.append(f"Version: {version}")
    else:
        lines.append(f"Version: {version}")
        lines.append(f"Installed-Size: {40 + len(name) * 3}")
        lines.append("Maintainer: Multi Arch Tester <tester@example.org>")
        lines.append(f"Architecture: {arch}")
    for key, field in FIELD_ORDER:
        if key in fields:
            lines.append(f"{field}: {fields[key].replace('${binary:Version}', version)}")
    short, long_text = fields["description"]
    body = f"{short}\n" + "".join(f" {l if l else '.'}\n" for l in (long_text or "").split("\n") if long_text)
    md5 = hashlib.md5(body.encode()).hexdigest()
    if translated and not status:
        lines.append(f"Description: {short}")
    else:
        lines.append(f"Description: {body.rstrip(chr(10))}")
    if not status:
        lines.append(f"Description-md5: {md5}")
        lines.append(f"Section: {fields['section']}")
        lines.append(f"Priority: {fields['priority']}")
        fn = f"pool/main/{name[0]}/{name}/{name}_{version.split(':')[-1]}_{arch}.deb"
        lines.append(f"Filename: {fn}")
        lines.append(f"Size: {1000 + len(name) * 37 + len(version)}")
        lines.append(f"SHA256: {hashlib.sha256((name + version + arch).encode()).hexdigest()}")
    return "\n".join(lines) + "\n", (md5, short, body)


def arches_of(a):
    if a == ANY:
        return ["amd64", "i386"]
    if a == "all":
        return ["all"]
    return a


def write_suite(suite, codename, version, packages, not_automatic=False):
    translations = {}
    sizes = []
    for file_arch in ("amd64", "i386"):
        out = []
        for name, ver, arch, fields in packages:
            for a in arches_of(arch):
                if a not in (file_arch, "all"):
                    continue
                text, (md5, short, body) = stanza(name, ver, a, fields, translated=name in TRANSLATED)
                out.append(text)
                if name in TRANSLATED:
                    translations[md5] = (name, body)
        data = "\n".join(out)
        path = f"{PREFIX}_{suite}_main_binary-{file_arch}_Packages"
        with open(os.path.join(LISTS, path), "w") as f:
            f.write(data)
        sizes.append((f"main/binary-{file_arch}/Packages", data.encode()))
    tr = "\n".join(f"Package: {n}\nDescription-md5: {m}\nDescription-en: {b.rstrip(chr(10))}\n"
                   for m, (n, b) in sorted(translations.items(), key=lambda x: x[1][0]))
    with open(os.path.join(LISTS, f"{PREFIX}_{suite}_main_i18n_Translation-en"), "w") as f:
        f.write(tr)
    sizes.append(("main/i18n/Translation-en", tr.encode()))
    rel = [f"Origin: MultiTest", f"Label: MultiTest", f"Suite: {suite}", f"Codename: {codename}",
           f"Version: {version}" if version else None, "Date: Sat, 01 Jun 2024 10:00:00 UTC",
           "NotAutomatic: yes" if not_automatic else None, "Acquire-By-Hash: yes",
           "Architectures: amd64 i386 all", "Components: main", "Description: multi-arch test archive",
           "SHA256:"]
    rel = [r for r in rel if r is not None]
    for p, d in sizes:
        rel.append(f" {hashlib.sha256(d).hexdigest()} {len(d):>8} {p}")
    with open(os.path.join(LISTS, f"{PREFIX}_{suite}_Release"), "w") as f:
        f.write("\n".join(rel) + "\n")


write_suite("stable", "bookish", "12.5", STABLE)
write_suite("unstable", "sid", None, UNSTABLE)

# The installed system: (name, version, arch, status word); fields from the
# stable records, except the local package that no list has.
II = "install ok installed"
installed = [
    ("libc6", "2.36-9", "amd64", II), ("libc6", "2.36-9", "i386", II),
    ("libgcc-s1", "12.2.0-14", "amd64", II), ("libgcc-s1", "12.2.0-14", "i386", II),
    ("gcc-12-base", "12.2.0-14", "amd64", II), ("gcc-12-base", "12.2.0-14", "i386", II),
    ("libmaf1", "1.0-1", "amd64", II), ("libmaf1", "1.0-1", "i386", II),
    ("maf-tools", "1.0-1", "i386", II),  # a foreign tool in place of the native one
    ("maf-data", "1.0-1", "all", II),
    ("interp", "5.36.0-7", "amd64", II), ("interp-base", "5.36.0-7", "amd64", II),
    ("interp-plugin", "0.3-2", "i386", II),
    ("wine32-only", "8.0-1", "i386", II),
    ("libonly-i386", "0.1-1", "i386", II),
    ("mta-a", "4.96-15", "amd64", II),
    ("old-tool", "1.0-3", "i386", "deinstall ok config-files"),
]
by_name = {(n, v): f for n, v, a, f in STABLE}
out = []
for name, ver, arch, st in installed:
    out.append(stanza(name, ver, arch, by_name[(name, ver)], status=st)[0])
local = {"section": "misc", "priority": "optional", "multi_arch": "same",
         "depends": "libc6 (>= 2.36)", "description": D("installed locally, in no list", "Only dpkg knows it.")}
out.append(stanza("local-only", "0.0.1", "i386", local, status=II)[0])
with open(os.path.join(root, "var/lib/dpkg/status"), "w") as f:
    f.write("\n".join(out))

auto = [("libc6", "amd64"), ("libc6", "i386"), ("libgcc-s1", "amd64"), ("libgcc-s1", "i386"),
        ("gcc-12-base", "amd64"), ("gcc-12-base", "i386"), ("libmaf1", "i386"), ("maf-data", "amd64"),
        ("interp-base", "amd64"), ("libonly-i386", "i386")]
with open(os.path.join(root, "var/lib/apt/extended_states"), "w") as f:
    f.write("\n".join(f"Package: {n}\nArchitecture: {a}\nAuto-Installed: 1\n" for n, a in auto))
print(os.path.join(root, "apt.conf"))
