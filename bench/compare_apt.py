#!/usr/bin/env python3
"""aptus beside the installed apt on the same sandbox: the table of issue 24.

    bench/compare_apt.py [--aptus build/release/aptus] [--runs 11] [--data ../shared/data]

Builds a sandbox with ../shared/tools/make-sandbox (the bookworm and trixie
lists, a real server's dpkg status) plus bookworm's Sources, warms both programs' caches, then runs
every task interleaved (aptus, apt, aptus, apt, ...) RUNS times and prints a
Markdown table: the median wall time of each, aptus/apt, and the peak
resident memory of each (the largest of the runs, from wait4's ru_maxrss).
The EDSP rows feed each scenario of DATA/scenarios to `aptus
internal-solver` and to apt's own solver (/usr/lib/apt/solvers/apt); the
cold cache row removes both programs' caches before each run. Nothing
outside the sandbox is read or written (APT_CONFIG names its apt.conf).
"""
import argparse
import lzma
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_once(cmd, env, stdin_path=None):
    """Wall seconds and peak RSS (KiB) of one run, output discarded."""
    stdin = open(stdin_path, 'rb') if stdin_path else subprocess.DEVNULL
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if stdin_path:
        stdin.close()
    return wall, usage.ru_maxrss


def measure(pair, env, runs, before=None):
    """pair: (aptus argv, apt argv, stdin file or None). Interleaved runs."""
    aptus_cmd, apt_cmd, stdin_path = pair
    times = {'aptus': [], 'apt': []}
    peak = {'aptus': 0, 'apt': 0}
    for _ in range(runs):
        for who, cmd in (('aptus', aptus_cmd), ('apt', apt_cmd)):
            if before:
                before()
            wall, rss = run_once(cmd, env, stdin_path)
            times[who].append(wall)
            peak[who] = max(peak[who], rss)
    return statistics.median(times['aptus']), statistics.median(times['apt']), peak['aptus'], peak['apt']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--aptus', default=os.path.join(ROOT, 'build/release/aptus'))
    ap.add_argument('--runs', type=int, default=11)
    ap.add_argument('--data', default=os.path.join(ROOT, '..', 'shared', 'data'))
    ap.add_argument('--only', default='', help='comma-separated task names (default: all)')
    args = ap.parse_args()
    aptus = os.path.abspath(args.aptus)
    make_sandbox = os.path.join(os.path.dirname(os.path.abspath(args.data)), 'tools', 'make-sandbox')
    if not os.access(make_sandbox, os.X_OK):
        sys.exit(f'compare_apt: no {make_sandbox}')
    tmp = tempfile.mkdtemp(prefix='aptus-compare-')
    try:
        sb = os.path.join(tmp, 'sandbox')
        subprocess.run([make_sandbox, sb, '--status', 'server'], check=True, stdout=subprocess.DEVNULL)
        # bookworm's Sources too (make-sandbox adds no deb-src), for showsrc.
        with open(os.path.join(sb, 'etc/apt/sources.list.d/debian-src.sources'), 'w') as f:
            f.write('Types: deb-src\nURIs: http://archive.example/debian\nSuites: bookworm\nComponents: main\n'
                    f'Signed-By: {sb}/etc/apt/trusted.gpg.d/debian-archive-keyring.gpg\n')
        with lzma.open(os.path.join(args.data, 'debian', 'bookworm-main-Sources.xz')) as i, \
                open(os.path.join(sb, 'var/lib/apt/lists/archive.example_debian_dists_bookworm_main_source_Sources'),
                     'wb') as o:
            shutil.copyfileobj(i, o)
        env = dict(os.environ, APT_CONFIG=os.path.join(sb, 'apt.conf'), LC_ALL='C.UTF-8', PAGER='cat')
        cache_dir = os.path.join(sb, 'var/cache/apt')

        def drop_caches():
            for name in os.listdir(cache_dir):
                if name.endswith('.bin') or name.endswith('.verified'):
                    os.unlink(os.path.join(cache_dir, name))

        tasks = [
            ('warm `policy bash`', [aptus, 'policy', 'bash'], ['apt-cache', 'policy', 'bash'], None, None),
            ('warm `policy`', [aptus, 'policy'], ['apt-cache', 'policy'], None, None),
            ('warm `show bash`', [aptus, 'show', 'bash'], ['apt-cache', 'show', 'bash'], None, None),
            ('warm `showsrc bash`', [aptus, 'showsrc', 'bash'], ['apt-cache', 'showsrc', 'bash'], None, None),
            ('warm `rdepends libc6`', [aptus, 'rdepends', 'libc6'], ['apt-cache', 'rdepends', 'libc6'], None, None),
            ('`search python`', [aptus, 'search', 'python'], ['apt-cache', 'search', 'python'], None, None),
            ('`-s install hello`', [aptus, '-s', 'install', 'hello'], ['apt-get', '-s', 'install', 'hello'], None,
             None),
            ('`-s autoremove`', [aptus, '-s', 'autoremove'], ['apt-get', '-s', 'autoremove'], None, None),
            ('cold cache build', [aptus, 'policy', 'bash'], ['apt-cache', 'policy', 'bash'], None, drop_caches),
        ]
        scenarios = os.path.join(args.data, 'scenarios')
        if os.path.isdir(scenarios) and os.access('/usr/lib/apt/solvers/apt', os.X_OK):
            for name in sorted(os.listdir(scenarios)):
                src = os.path.join(scenarios, name, 'problem.edsp.xz')
                if not os.path.exists(src):
                    continue
                dst = os.path.join(tmp, name + '.edsp')
                with lzma.open(src) as i, open(dst, 'wb') as o:
                    shutil.copyfileobj(i, o)
                tasks.append((f'EDSP solve, {name}', [aptus, 'internal-solver'], ['/usr/lib/apt/solvers/apt'], dst,
                              None))
        only = [t for t in args.only.split(',') if t]
        # Warm both caches: aptus's first run builds its cache, the second
        # checks it in full once and leaves its verified note.
        for cmd in ([aptus, 'policy', 'bash'], ['apt-cache', 'policy', 'bash']) * 2:
            run_once(cmd, env)
        apt_version = subprocess.run(['apt-get', '--version'], capture_output=True, text=True).stdout.split('\n')[0]
        print(f'aptus {aptus} beside {apt_version}; {args.runs} interleaved runs each, medians; '
              f'load {os.getloadavg()[0]:.2f} at the start')
        print()
        print('| task | aptus | apt | aptus/apt | peak memory aptus / apt |')
        print('|---|---:|---:|---:|---:|')
        for title, a, b, stdin_path, before in tasks:
            if only and not any(o in title for o in only):
                continue
            ta, tb, ma, mb = measure((a, b, stdin_path), env, args.runs, before)
            print(f'| {title} | {ta * 1000:.1f} ms | {tb * 1000:.1f} ms | {ta / tb:.2f} | '
                  f'{ma / 1024:.0f} / {mb / 1024:.0f} MiB |', flush=True)
        print()
        print(f'load {os.getloadavg()[0]:.2f} at the end')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
