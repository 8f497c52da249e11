#!/usr/bin/env python3
"""dpkg on a pty of its own, through a real pseudo-terminal.

Called by dpkg_terminal.sh with the aptus binary, its scratch directory and
the sandbox root (APT_CONFIG already points at the sandbox). aptus runs
`internal-dpkg-test` with a pty of ours as its controlling terminal (we keep
the slave too, to read its modes), and we check: the postinst sees a
terminal on stdin and stdout and a working /dev/tty, its words reach our
screen and term.log; `stty size` in the postinst is rows-1 with the progress
bar, rows without, and follows a resize; dpkg's conffile question shows up
and takes the keys we type (Y installs the new file, N keeps ours); our
terminal is raw while dpkg runs and gets its modes back; with stdout a pipe
or Dpkg::Use-Pty=false dpkg sees no terminal, nor when no pty can be had
(an empty /dev/pts in a mount namespace, as root). Every run has a deadline.
"""
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from pty_checks import check, failures  # noqa: E402

APTUS, TMP, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
DEADLINE = 60.0
PROMPT = b"(Y/I/N/O/D/Z) [default=N] ?"




def set_size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def read_file(name):
    try:
        with open(os.path.join(TMP, name)) as f:
            return f.read().strip()
    except OSError:
        return "<missing>"


def ops_file(text):
    path = os.path.join(TMP, "ops")
    with open(path, "w") as f:
        f.write(text)
    return path


def deb(name, version):
    return os.path.join(TMP, "%s_%s_all.deb" % (name, version))


class Terminal:
    """A pty whose slave is aptus's controlling terminal (stdin, stdout, stderr)."""

    def __init__(self, rows=24, cols=80):
        self.master, self.slave = os.openpty()
        set_size(self.master, rows, cols)
        self.out = b""

    def close(self):
        os.close(self.master)
        os.close(self.slave)

    def modes(self):
        return termios.tcgetattr(self.slave)

    def start(self, args, stdout_pipe=False, prefix=()):
        def take_terminal():
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        env = dict(os.environ, LC_ALL="C")
        env.pop("NO_COLOR", None)
        return subprocess.Popen([*prefix, APTUS, *args], stdin=self.slave,
                                stdout=subprocess.PIPE if stdout_pipe else self.slave, stderr=self.slave,
                                start_new_session=True, preexec_fn=take_terminal, env=env)

    def pump(self, proc, timeout=0.2):
        """Reads what aptus wrote to the screen so far."""
        end = time.time() + timeout
        while True:
            fds = [self.master] + ([proc.stdout] if proc.stdout else [])
            r = select.select(fds, [], [], max(0.0, end - time.time()))[0]
            if not r:
                return
            for f in r:
                if f == self.master:
                    self.out += os.read(self.master, 65536)
                else:
                    data = os.read(proc.stdout.fileno(), 65536)
                    if data:
                        self.out += data
                    else:
                        proc.stdout.close()
                        proc.stdout = None

    def run(self, args, stdout_pipe=False, on_output=None, prefix=()):
        """Runs aptus (after `prefix`) to its end; returns (exit status, bytes written)."""
        self.out = b""
        proc = self.start(args, stdout_pipe, prefix)
        end = time.time() + DEADLINE
        while proc.poll() is None and time.time() < end:
            self.pump(proc)
            if on_output:
                on_output(proc, self)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
            failures.append("deadline passed: aptus %s" % " ".join(args))
            print("FAIL: deadline passed: %r" % self.out[-2000:])
        self.pump(proc, 0.3)
        if proc.stdout:
            self.out += proc.stdout.read()
            proc.stdout.close()
        return proc.returncode, self.out


def install_tt(term, extra=(), stdout_pipe=False, prefix=()):
    for name in ("tty-result", "stty-size"):
        try:
            os.unlink(os.path.join(TMP, name))
        except OSError:
            pass
    ops = ops_file("purge tt:all\nunpack %s\nconfigure tt:all\n" % deb("tt", 1))
    return term.run([*extra, "internal-dpkg-test", ops], stdout_pipe=stdout_pipe, prefix=prefix)


term_log = os.path.join(ROOT, "var/log/apt/term.log")

# 1, 2, 5: on a terminal with the progress bar.
term = Terminal(24, 80)
before = term.modes()
rc, out = install_tt(term)
after = term.modes()
check(rc == 0, "install on a terminal succeeds", out)
check(read_file("tty-result") == "TTY-OK CTTY-OK", "postinst sees a terminal and /dev/tty: %s" % read_file("tty-result"))
check(b"postinst says TTY-OK CTTY-OK" in out, "the postinst's line reaches our terminal", out)
with open(term_log, "rb") as f:
    log = f.read()
check(b"postinst says TTY-OK CTTY-OK" in log, "the postinst's line reaches term.log", log)
check(b"\x1b[0;23r" in out, "the progress bar is drawn", out)
check(read_file("stty-size") == "23 80", "stty size with the bar: rows-1 (%s)" % read_file("stty-size"))
check(after == before, "terminal modes restored after the run")
check(after[3] & termios.ICANON and after[3] & termios.ECHO, "ICANON and ECHO on after the run")

# 2: without the bar, the whole terminal.
rc, out = install_tt(term, ["-o", "Dpkg::Progress-Fancy=0"])
check(rc == 0 and read_file("stty-size") == "24 80", "stty size without the bar: rows (%s)" % read_file("stty-size"), out)
check(b"\x1b[" not in out, "no escape sequences without the bar", out)
term.close()

# A resize while the postinst runs reaches dpkg's terminal.
term = Terminal(24, 80)
for name in ("ww-started", "ww-go", "ww-size"):
    try:
        os.unlink(os.path.join(TMP, name))
    except OSError:
        pass
resized = []


def resize(proc, t):
    if not resized and os.path.exists(os.path.join(TMP, "ww-started")):
        set_size(t.master, 30, 100)
        os.kill(proc.pid, signal.SIGWINCH)
        resized.append(True)
        time.sleep(0.3)
        open(os.path.join(TMP, "ww-go"), "w").close()


ops = ops_file("purge ww:all\nunpack %s\nconfigure ww:all\n" % deb("ww", 1))
rc, out = term.run(["internal-dpkg-test", ops], on_output=resize)
check(rc == 0 and resized and read_file("ww-size") == "29 100",
      "SIGWINCH: dpkg's terminal follows the resize, less the bar's row (%s)" % read_file("ww-size"), out)

# ^C typed while a postinst runs: with our terminal raw but ISIG kept it
# reaches aptus, which lets the call finish, stops before the next unpack
# and gives the terminal its modes back.
for name in ("ww-started", "ww-go", "ww-size"):
    try:
        os.unlink(os.path.join(TMP, name))
    except OSError:
        pass
before = term.modes()
typed = []


def interrupt(proc, t):
    if not typed and os.path.exists(os.path.join(TMP, "ww-started")):
        os.write(t.master, b"\x03")
        typed.append(True)
        time.sleep(0.3)
        open(os.path.join(TMP, "ww-go"), "w").close()


ops = ops_file("purge ww:all\npurge tt:all\nunpack %s\nconfigure ww:all\nunpack %s\nconfigure tt:all\n"
               % (deb("ww", 1), deb("tt", 1)))
rc, out = term.run(["internal-dpkg-test", ops], on_output=interrupt)
check(rc == 100 and b"Operation was interrupted before it could finish" in out,
      "^C during a postinst: that call finishes, the run stops before the next unpack", out)
check(read_file("ww-size") != "<missing>", "^C during a postinst: the script ran to its end")
check(term.modes() == before, "^C during a postinst: terminal modes restored")
term.close()

# 3: the conffile question, answered with the keys we type.
conf = os.path.join(ROOT, "etc/cf.conf")
edited = "version=1\nedited=by the user\n"


def answer(key):
    seen = {"raw": None}

    def on_output(proc, t):
        if PROMPT in t.out and seen["raw"] is None:
            m = termios.tcgetattr(t.slave)
            seen["raw"] = not (m[3] & termios.ICANON) and not (m[3] & termios.ECHO)
            os.write(t.master, key + b"\n")

    return on_output, seen


term = Terminal(24, 80)
rc, out = term.run(["internal-dpkg-test", ops_file("purge cf:all\nunpack %s\nconfigure cf:all\n" % deb("cf", 1))])
check(rc == 0, "cf 1 installed", out)
with open(conf, "w") as f:
    f.write(edited)
before = term.modes()
on_output, seen = answer(b"Y")
rc, out = term.run(["internal-dpkg-test", ops_file("unpack %s\nconfigure cf:all\n" % deb("cf", 2))], on_output=on_output)
check(PROMPT in out and b"cf.conf" in out, "dpkg's conffile question on our terminal", out)
check(seen["raw"] is True, "our terminal is raw while dpkg asks (no ICANON, no ECHO)")
with open(conf) as f:
    text = f.read()
check(rc == 0 and text == "version=2\n", "Y typed: the package's new conffile installed (%r)" % text, out)
check(term.modes() == before, "terminal modes restored after the question")

with open(conf, "w") as f:
    f.write(edited)
on_output, seen = answer(b"N")
rc, out = term.run(["internal-dpkg-test", ops_file("unpack %s\nconfigure cf:all\n" % deb("cf", 1))], on_output=on_output)
with open(conf) as f:
    text = f.read()
check(rc == 0 and PROMPT in out and text == edited, "N typed: our conffile kept (%r)" % text, out)
check(os.path.exists(conf + ".dpkg-dist"), "N typed: the package's file left as .dpkg-dist")

# 4: stdout a pipe (stdin still the terminal): no pty, as before.
rc, out = install_tt(term, stdout_pipe=True)
check(rc == 0 and read_file("tty-result").startswith("TTY-MISSING"),
      "stdout a pipe: the postinst sees no terminal (%s)" % read_file("tty-result"), out)
check(b"postinst says TTY-MISSING" in out, "stdout a pipe: dpkg's output still shown", out)
check(term.modes() == before, "stdout a pipe: terminal modes untouched")
# Dpkg::Use-Pty=false: no pty either.
rc, out = install_tt(term, ["-o", "Dpkg::Use-Pty=false"])
check(rc == 0 and read_file("tty-result").startswith("TTY-MISSING"),
      "Dpkg::Use-Pty=false: the postinst sees no terminal (%s)" % read_file("tty-result"), out)

# No pty to be had (an empty /dev/pts, in a mount namespace of its own, as
# in a container without devpts): dpkg runs on pipes, nothing said.
NO_PTS = ["unshare", "-m", "sh", "-c", 'mount -t tmpfs none /dev/pts && exec "$0" "$@"']
if os.geteuid() == 0 and subprocess.run([*NO_PTS, "true"], capture_output=True).returncode == 0:
    rc, out = install_tt(term, prefix=NO_PTS)
    check(rc == 0 and read_file("tty-result").startswith("TTY-MISSING") and b"postinst says TTY-MISSING" in out,
          "no /dev/pts: dpkg on pipes as without a terminal (%s)" % read_file("tty-result"), out)
    check(b"\x1b[0;23r" in out and b"E:" not in out and b"W:" not in out, "no /dev/pts: the bar, no message", out)
    check(term.modes() == before, "no /dev/pts: terminal modes untouched")
else:
    print("skip: no /dev/pts check (needs root and unshare -m)")
term.close()

if failures:
    print("%d dpkg terminal checks failed" % len(failures))
    sys.exit(1)
print("all passed")
