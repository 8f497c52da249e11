#!/usr/bin/env python3
"""Seed the fuzz corpora (used by scripts/fuzz).

Each target's corpus directory gets the files of tests/fuzz/regressions/<target>
and pieces of the real Debian data in ../shared/data: big files are cut at
stanza boundaries into pieces of a few kB, since libFuzzer works best on small
inputs. Multi-file targets get their parts joined by NUL bytes (see the
target's header comment)."""
import argparse
import hashlib
import lzma
import os
import re
import shutil
import subprocess
import tempfile

PIECE = 4096
PIECES = 60


def stanzas(text):
    return [s for s in re.split(r'\n\n+', text) if s.strip()]


def pieces(text, size=PIECE, count=PIECES):
    """Runs of whole stanzas of at most about `size` bytes, spread over the file."""
    st = stanzas(text)
    out, cur = [], ''
    step = max(1, len(st) // (count * 4))
    for s in st[::step]:
        if cur and len(cur) + len(s) > size:
            out.append(cur)
            cur = ''
            if len(out) >= count:
                break
        cur += s + '\n\n'
    if cur and len(out) < count:
        out.append(cur)
    return out


def read(path):
    if not path or not os.path.exists(path):
        return ''
    if path.endswith('.xz'):
        with lzma.open(path, 'rt', encoding='utf-8', errors='replace') as f:
            return f.read()
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def fields(text, name):
    return re.findall(r'^' + name + r': ?(.*)$', text, re.M)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default='')
    ap.add_argument('--regressions', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--make-cache-seed', required=True)
    ap.add_argument('targets', nargs='+')
    a = ap.parse_args()
    deb = os.path.join(a.data, 'debian') if a.data else ''
    # Only the first few MB of the big files: enough variety, quick to read.
    packages = read(os.path.join(deb, 'bookworm-main-amd64-Packages.xz'))[:8 << 20]
    sources = read(os.path.join(deb, 'bookworm-main-Sources.xz'))[:4 << 20]
    status = read(os.path.join(deb, 'status-minbase'))
    status_server = read(os.path.join(deb, 'status-server'))
    ext = read(os.path.join(deb, 'extended_states-server'))
    inreleases = [read(os.path.join(deb, n)) for n in ('bookworm-InRelease', 'trixie-InRelease')]
    edsp = read(os.path.join(a.data, 'scenarios', 'minbase-gnome', 'problem.edsp.xz'))[:2 << 20] if a.data else ''

    seeds = {t: [] for t in a.targets}

    def add(t, data):
        if t in seeds:
            seeds[t].append(data.encode() if isinstance(data, str) else data)

    for p in pieces(packages) + pieces(sources, count=20) + pieces(status, count=20):
        add('tagfile', p)
    vers = fields(packages, 'Version')[::97]
    for i in range(0, len(vers) - 2, 3):
        add('version', '\0'.join(vers[i:i + 3]))
    names = ['Depends', 'Pre-Depends', 'Recommends', 'Suggests', 'Enhances', 'Breaks', 'Conflicts', 'Replaces',
             'Provides', 'Built-Using', 'Static-Built-Using', 'Build-Depends', 'Build-Depends-Indep',
             'Build-Depends-Arch', 'Build-Conflicts', 'Build-Conflicts-Indep', 'Build-Conflicts-Arch']
    for i, n in enumerate(names):
        for v in fields(packages + sources, n)[::211][:20]:
            add('relation', bytes([i]) + v.encode())
    for ir in inreleases:
        if not ir:
            continue
        add('release', ir[:PIECE] + ir[-1500:])   # header and signature, the hash lists cut
        add('release', ir[ir.find('-----BEGIN PGP SIGNATURE'):])
        body = ir[ir.find('\n\n') + 2:ir.find('-----BEGIN PGP SIGNATURE')]
        add('release', body[:PIECE])
    for sp, pp in zip(pieces(status_server, 3000, 20), pieces(packages, 3000, 20)):
        e = '\n\n'.join(stanzas(ext)[:20])
        add('status', sp + '\0' + e + '\0' + pp)
    if edsp:
        st = stanzas(edsp)
        req = st[0]
        for i in range(1, min(len(st), 4000), 200):
            add('edsp', req + '\n\n' + '\n\n'.join(st[i:i + 15]) + '\n')
    if 'cache' in seeds and status:
        with tempfile.TemporaryDirectory() as tmp:
            for i, (sp, pp) in enumerate(zip(pieces(status, 2000, 6), pieces(packages, 2000, 6))):
                s, p, out = (os.path.join(tmp, n) for n in ('status', 'Packages', 'cache%d' % i))
                open(s, 'w').write(sp)
                open(p, 'w').write(pp)
                subprocess.run([a.make_cache_seed, out, s, p], check=True)
                add('cache', open(out, 'rb').read())

    for t in a.targets:
        d = os.path.join(a.out, t)
        os.makedirs(d, exist_ok=True)
        # modernize reads one-line files too: it shares sources_one_line's inputs.
        for r in [t] + (['sources_one_line'] if t == 'modernize' else []):
            reg = os.path.join(a.regressions, r)
            if os.path.isdir(reg):
                for n in os.listdir(reg):
                    shutil.copy(os.path.join(reg, n), os.path.join(d, 'regression-' + r + '-' + n))
        for s in seeds[t]:
            with open(os.path.join(d, 'seed-' + hashlib.sha1(s).hexdigest()), 'wb') as f:
                f.write(s)
        print('corpus %-18s %5d files' % (t, len(os.listdir(d))))


if __name__ == '__main__':
    main()
