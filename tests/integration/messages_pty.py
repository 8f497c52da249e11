#!/usr/bin/env python3
"""Error, warning and notice lines as the user sees them.

On a terminal, aptus (and apt, whose layout is 3.0's) prints APT 3.0's words
"Error:", "Warning:", "Notice:" in bold colours; NO_COLOR keeps the words
without colour; into a pipe, and under apt-get's name anywhere, the lines
start "E:", "W:", "N:" as scripts expect. Advice names the program that runs.
"""
import fcntl
import os
import pty
import select
import subprocess
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from pty_checks import check as check_cond, failures  # noqa: E402

APTUS = os.path.abspath(os.environ["APTUS"])
tmp = tempfile.mkdtemp(prefix="aptus-messages-")
os.makedirs(f"{tmp}/etc/apt/apt.conf.d")
os.makedirs(f"{tmp}/bin")
with open(f"{tmp}/apt.conf", "w") as f:
    f.write(f'Dir "{tmp}/";\n')
for name in ("apt-get", "apt"):
    os.symlink(APTUS, f"{tmp}/bin/{name}")



def check(what, cond, detail=b""):
    check_cond(cond, what, detail)


ERROR = "Unable to locate package nonexistent-pkg"


def run(program, args, env=None, terminal=True):
    """stderr as the user sees it (a pty, or a pipe), and the exit code."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "APT_NO_COLOR")}
    full_env.update({"LC_ALL": "C", "TERM": "xterm", "APT_CONFIG": f"{tmp}/apt.conf"})
    full_env.update(env or {})
    if not terminal:
        p = subprocess.run([program] + args, env=full_env, capture_output=True, timeout=60)
        return p.stderr.decode(), p.returncode
    master, slave = pty.openpty()
    proc = subprocess.Popen([program] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave,
                            env=full_env, cwd=tmp)
    os.close(slave)
    out, end = b"", time.monotonic() + 60
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                break
            out += data
        elif proc.poll() is not None:
            break
    proc.wait(timeout=10)
    os.close(master)
    return out.decode(errors="replace").replace("\r", ""), proc.returncode


err, rc = run(APTUS, ["install", "-s", "nonexistent-pkg"])
check("aptus on a terminal: APT 3.0's coloured 'Error:' (rc 100)",
      rc == 100 and f"\x1b[1;31mError: \x1b[0m\x1b[1m{ERROR}\x1b[0m\n" in err, err.encode())
err, rc = run(APTUS, ["install", "-s", "nonexistent-pkg"], {"NO_COLOR": "1"})
check("NO_COLOR: the words without colour", f"Error: {ERROR}\n" in err and "\x1b" not in err, err.encode())
err, rc = run(APTUS, ["install", "-s", "nonexistent-pkg", "-o", "APT::Color=0"])
check("APT::Color=0: the words without colour", f"Error: {ERROR}\n" in err and "\x1b" not in err, err.encode())
err, rc = run(APTUS, ["install", "-s", "nonexistent-pkg"], terminal=False)
check("aptus into a pipe: 'E:'", rc == 100 and f"E: {ERROR}\n" in err and "\x1b" not in err, err.encode())
err, rc = run(f"{tmp}/bin/apt-get", ["install", "-s", "nonexistent-pkg"])
check("apt-get on a terminal: 'E:' as apt-get prints it", f"E: {ERROR}\n" in err and "Error:" not in err, err.encode())
err, rc = run(f"{tmp}/bin/apt", ["install", "-s", "nonexistent-pkg"])
check("apt on a terminal: 3.0's 'Error:'", f"Error: \x1b[0m\x1b[1m{ERROR}" in err, err.encode())
err, rc = run(f"{tmp}/bin/apt", ["install", "-s", "nonexistent-pkg", "-o", "APT::Output-Version=0"])
check("apt asked for the old layout: 'E:'", f"E: {ERROR}\n" in err, err.encode())

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
