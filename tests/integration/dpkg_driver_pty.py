#!/usr/bin/env python3
"""The dpkg progress bar through a real pseudo-terminal.

Called by dpkg_driver.sh with the aptus binary and its scratch directory
(APT_CONFIG already points at the sandbox): runs `aptus internal-dpkg-test`
on a pty of known size and checks apt's escape sequences — the scrolling
region set to all rows but the last, "Progress: [NN%]" in apt's colours on
the last row, the region given back and the bar wiped at the end, a redraw
for the new size after SIGWINCH — and that -q and Dpkg::Progress-Fancy=0
draw nothing. Every run has a deadline.
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from pty_checks import check, failures  # noqa: E402

APTUS, TMP = sys.argv[1], sys.argv[2]
DEADLINE = 60.0


def set_size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def run(ops, args=(), rows=24, cols=80, on_output=None, locale="C"):
    """Runs aptus on a pty; returns (exit status, bytes written to the terminal)."""
    path = os.path.join(TMP, "pty-ops")
    with open(path, "w") as f:
        f.write(ops)
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, LC_ALL=locale)
        env.pop("NO_COLOR", None)
        os.execve(APTUS, [APTUS, *args, "internal-dpkg-test", path], env)
    set_size(fd, rows, cols)
    out = b""
    end = time.time() + DEADLINE
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
            if on_output:
                on_output(pid, fd, out)
    else:
        os.kill(pid, signal.SIGKILL)
        failures.append("deadline passed")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out




ee = os.path.join(TMP, "ee_1_all.deb")
cycle = "purge ee:all\nunpack %s\nconfigure ee:all\n" % ee

rc, out = run(cycle)
check(rc == 0, "install through a terminal succeeds", out)
check(b"\x1b[0;23r" in out, "scrolling region: all rows but the last", out)
m = re.findall(rb"\x1b7\x1b\[24;0f\x1b\[42m\x1b\[30mProgress: \[ *(\d+)%\]\x1b\[49m\x1b\[39m (\[[#.]+\]) \x1b8", out)
check(len(m) >= 2, "Progress lines on the last row in apt's colours", out)
if m:
    check(all(len(bar) == 80 - 4 - len("Progress: [ 42%]") for _, bar in m), "the bar fills the width", out)
    pct = [int(p) for p, _ in m]
    check(pct == sorted(pct) and pct[-1] < 100, "percentages grow and stay below 100: %s" % pct, out)
check(out.rfind(b"\x1b[0;24r") > out.rfind(b"Progress: ["), "the whole screen scrolls again at the end", out)
check(out.endswith(b"\x1b[J"), "the bar is wiped at the end", out)
check(b"Setting up ee (1) ..." in out, "dpkg's output shown above the bar", out)

rc, out = run(cycle, locale="C.UTF-8")
check(rc == 0 and "\u2588".encode() in out and b"[#" not in out, "UTF-8: apt 3.0's block bar", out)

rc, out = run(cycle, ["-q"])
check(rc == 0 and b"Progress:" not in out and b"\x1b[" not in out, "-q: no bar", out)
rc, out = run(cycle, ["-o", "Dpkg::Progress-Fancy=0"])
check(rc == 0 and b"Progress:" not in out and b"\x1b[" not in out, "Dpkg::Progress-Fancy=0: no bar", out)

# A resize while a slow postinst runs: the region and the bar follow it.
dd = os.path.join(TMP, "dd_1_all.deb")
resized = []


def resize(pid, fd, out):
    if not resized and b"Setting up dd" in out:
        set_size(fd, 30, 100)
        os.kill(pid, signal.SIGWINCH)
        resized.append(len(out))


rc, out = run("purge dd:all\nunpack %s\nconfigure dd:all\n" % dd, on_output=resize)
check(rc == 0 and resized, "slow install with a resize", out)
if resized:
    after = out[resized[0]:]
    check(b"\x1b[0;29r" in after, "scrolling region follows the new size", after)
    check(re.search(rb"\x1b\[30;0f.*Progress: ", after) is not None, "bar redrawn on the new last row", after)
    check(after.find(b"\x1b[0;30r") > after.find(b"\x1b[0;29r"), "the whole new screen scrolls at the end", after)

if failures:
    print("%d pty checks failed" % len(failures))
    sys.exit(1)
