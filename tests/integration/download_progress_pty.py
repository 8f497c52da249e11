#!/usr/bin/env python3
"""The download progress through a real pseudo-terminal (download_progress.sh).

usage: download_progress_pty.py ARCHIVES PACKAGE...

Runs `aptus install -y -d PACKAGE...` (APT_CONFIG from the environment) on a
fresh pty of a given width, and on a pipe, and checks what it drew.
"""
import glob
import os
import re
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from pty_checks import check, failures  # noqa: E402

import fcntl  # noqa: E402
import struct  # noqa: E402
import termios  # noqa: E402

APTUS = os.environ["APTUS"]
ARCHIVES = sys.argv[1]
PACKAGES = sys.argv[2:]
DEADLINE = 60.0
SIZE = r"\d[\d.,]* [kMG]?B"


def clean():
    for f in glob.glob(os.path.join(ARCHIVES, "*.deb")):
        os.unlink(f)


def on_pty(cols, extra=(), term="xterm"):
    clean()
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, cols, 0, 0))
    env = dict(os.environ, TERM=term, LC_ALL="C", COLUMNS=str(cols))
    proc = subprocess.Popen([APTUS, "install", "-y", "-d", *extra, *PACKAGES], stdin=slave, stdout=slave,
                            stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = b""
    end = time.time() + DEADLINE
    while time.time() < end:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        elif proc.poll() is not None:
            break
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    os.close(master)
    return proc.returncode, out.decode("utf-8", "replace")


def frames(out):
    """What each redraw put on the screen: the text between carriage returns,
    escape sequences taken out."""
    out = out.replace("\r\n", "\n")  # the terminal's own end of line (onlcr)
    return [re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", f) for f in out.split("\r")]


# A wide terminal: a line per transfer, then the totals.
rc, out = on_pty(120)
check(rc == 0, f"wide: exit 0 (rc {rc})", out.encode())
line_re = re.compile(rf"^(p[a-z]) +{SIZE} / {SIZE} +\[[=> ]+\] +\d+%$")
best = 0
totals = False
for f in frames(out):
    lines = f.split("\n")
    names = {m.group(1) for m in map(line_re.match, lines) if m}
    best = max(best, len(names))
    if any(re.match(rf"^\d+% \[\d+/{len(PACKAGES)} files\]  {SIZE} / {SIZE}  {SIZE}/s  \S.* left$", l) for l in lines):
        totals = True
check(best >= 2, f"wide: a frame with a line for each of several transfers (name, bytes / size, bar) (at most {best})",
      out.encode())
check(totals, "wide: a totals line with percent, bytes, files, rate and time left", out.encode())
check(re.search(r"\x1b\[\d+A\x1b\[J", out) is not None, "wide: redrawn in place (cursor up, erase below)", out.encode())
check(all(len(l) < 120 for f in frames(out) for l in f.split("\n")), "wide: no line as wide as the terminal",
      out.encode())
check(all(f"Get:{i}" in out for i in range(1, len(PACKAGES) + 1)), "wide: apt's Get: lines stay", out.encode())

# A narrow terminal: apt's one status line, redrawn with \r alone.
rc, out = on_pty(80)
check(rc == 0, f"narrow: exit 0 (rc {rc})", out.encode())
status = [f for f in frames(out) if re.match(rf"^\d+% \[p[a-z] {SIZE}/{SIZE} \d+%\]", f)]
check(status, "narrow: a status line with a name and bytes done/size", out.encode())
check(any(re.search(rf"{SIZE}/s \S+$", f) for f in status), "narrow: the rate and time left at its end", out.encode())
check(all("\n" not in f for f in status), "narrow: one line", out.encode())
print("narrow, one redraw: " + repr(status[len(status) // 2] if status else ""))
check(re.search(r"\x1b\[\d*[AJ]", out) is None, "narrow: no cursor movement", out.encode())
check(all(len(l) < 80 for f in frames(out) for l in f.split("\n")), "narrow: no line as wide as the terminal",
      out.encode())

# A terminal that cannot move its cursor gets the one line too, however wide.
rc, out = on_pty(120, term="dumb")
check(rc == 0 and re.search(r"\x1b\[\d*[AJ]", out) is None and
      any(re.match(rf"^\d+% \[p[a-z] {SIZE}/{SIZE}", f) for f in frames(out)),
      "TERM=dumb: the one status line, no cursor movement", out.encode())

# -q: no progress at all.
rc, out = on_pty(120, extra=("-q",))
check(rc == 0 and "\r" not in out.replace("\r\n", "\n") and not re.search(r"\d+% ", out),
      "-q: no progress drawn", out.encode())

# Into a pipe: plain lines only.
clean()
p = subprocess.run([APTUS, "install", "-y", "-d", *PACKAGES], capture_output=True, timeout=DEADLINE,
                   env=dict(os.environ, TERM="xterm", LC_ALL="C"))
out = p.stdout.decode("utf-8", "replace")
check(p.returncode == 0, f"pipe: exit 0 (rc {p.returncode})", p.stdout + p.stderr)
check("\r" not in out and "\x1b" not in out, "pipe: no \\r, no escape sequence", p.stdout)
check(all(f"Get:{i} " in out for i in range(1, len(PACKAGES) + 1)), "pipe: the Get: lines", p.stdout)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("PASS")
