#!/usr/bin/env python3
"""The automatic pager, end to end through a real pseudo-terminal.

Runs `aptus internal-pager-test N` (progress on stderr, then the pager, then N
numbered lines on stdout: the read commands' output path) with its stdin,
stdout and stderr on a fresh pty that is also its controlling terminal, and
reads what a user would see on the screen. Every run has a deadline, so a hang
fails the test instead of blocking the suite.
"""
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

APTUS = os.path.abspath(os.environ["APTUS"])
DEADLINE = 20.0
PROGRESS = ["Reading package lists... Done", "Sorting... Done"]
# APT 3.0's words and colours for a warning on a terminal (a pipe gets "W: ").
WARNING = ("\x1b[1;33mWarning: \x1b[0m\x1b[1m"
           "Could not execute pager - PagerSetup (2: No such file or directory)\x1b[0m")

tmp = tempfile.mkdtemp(prefix="aptus-pager-")
failures = []


def lines(n, first=1):
    return [f"line {i}" for i in range(first, n + 1)]


def sandbox(conf=""):
    """An APT_CONFIG that keeps the host's /etc/apt out of the test."""
    root = tempfile.mkdtemp(dir=tmp)
    os.makedirs(f"{root}/etc/apt/apt.conf.d")
    path = f"{root}/apt.conf"
    with open(path, "w") as f:
        f.write(f'Dir "{root}/";\n{conf}')
    return path


def run(args, env=None, stdout_pipe=False, on_screen=None, on_exit=None):
    """Returns (screen lines, piped stdout lines, returncode, hook results).

    on_screen(text, proc, master) is called as output arrives and may act on
    the process or type on the terminal (once it returns True it is not
    called again); on_exit() is called
    the moment aptus itself has been reaped, before the pager has necessarily
    let go of the terminal.
    """
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    full_env = {k: v for k, v in os.environ.items() if k not in ("APT_PAGER", "PAGER", "LESS", "MORE", "LV")}
    full_env.update({"LC_ALL": "C", "TERM": "dumb", "APT_CONFIG": sandbox()})
    full_env.update(env or {})
    full_env = {k: v for k, v in full_env.items() if v is not None}
    proc = subprocess.Popen(
        [APTUS] + args, stdin=slave, stdout=subprocess.PIPE if stdout_pipe else slave, stderr=slave,
        env=full_env, cwd=tmp, start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    screen, piped = b"", b""
    readers = [master] + ([proc.stdout.fileno()] if stdout_pipe else [])
    exit_result, screen_done = None, on_screen is None
    end = time.monotonic() + DEADLINE
    while readers or proc.poll() is None:
        if time.monotonic() > end:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            os.close(master)
            raise TimeoutError(f"hung; screen so far: {screen!r}")
        if exit_result is None and proc.poll() is not None and on_exit:
            exit_result = on_exit()
        ready, _, _ = select.select(readers, [], [], 0.05)
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: nobody holds the terminal any more
                data = b""
            if not data:
                readers.remove(fd)
            elif fd == master:
                screen += data
            else:
                piped += data
        if not screen_done:
            screen_done = on_screen(screen.decode(errors="replace").replace("\r", ""), proc, master)
    os.close(master)
    if exit_result is None and on_exit:
        exit_result = on_exit()
    text = screen.decode(errors="replace").replace("\r", "")
    return text.splitlines(), piped.decode().splitlines(), proc.returncode, exit_result


def check(name, cond, detail=""):
    if cond:
        print(f"ok   {name}")
    else:
        print(f"FAIL {name}\n{detail}")
        failures.append(name)


def case(fn):
    try:
        fn()
    except Exception as e:  # a hang or a crash of the harness is a failure too
        check(fn.__name__, False, repr(e))
    return fn


NOTICE = "\x1b[1mNotice: \x1b[0ma notice after the content"


@case
def notice_after_the_content_with_every_pager():
    # As apt 3.0: the notice comes after the content, through the pager,
    # also when $PAGER has arguments or is a pipeline.
    for pager in ("cat", "cat -u", "cat | cat", "/bin/cat"):
        screen, _, rc, _ = run(["internal-pager-test", "5", "notice"], {"PAGER": pager})
        check(f"PAGER='{pager}': the notice after the content",
              screen == PROGRESS + lines(5) + [NOTICE] and rc == 0, screen)


@case
def cat_means_no_pager_and_shows_everything():
    screen, _, rc, _ = run(["internal-pager-test", "30"], {"PAGER": "cat"})
    check("PAGER=cat shows progress, then all content", screen == PROGRESS + lines(30) and rc == 0, screen)


@case
def a_real_pager_gets_the_content_and_progress_stays_above():
    screen, _, rc, _ = run(["internal-pager-test", "30"], {"PAGER": "sed s/^/paged:/"})
    check("content paged, progress not", screen == PROGRESS + ["paged:" + l for l in lines(30)] and rc == 0,
          screen)


@case
def head_3_shows_the_first_3_lines():
    for n in (10, 100000):  # within the pipe buffer, and far beyond it (aptus hits a closed pipe)
        screen, _, rc, _ = run(["internal-pager-test", str(n), "stderr"], {"PAGER": "head -3"})
        check(f"PAGER='head -3' shows exactly 3 lines of {n}, silently",
              screen == PROGRESS + ["stderr while paging", "line 1", "line 2"] and rc in (0, -signal.SIGPIPE),
              f"rc={rc} screen={screen[:10]}")


@case
def head_1_quitting_early_is_silent():
    screen, _, rc, _ = run(["internal-pager-test", "200000"], {"PAGER": "head -1"})
    check("a pager quitting early: no hang, no error", screen == PROGRESS + ["line 1"] and rc in (0, -signal.SIGPIPE),
          f"rc={rc} screen={screen[:10]}")


@case
def shell_pipeline_as_pager():
    screen, _, rc, _ = run(["internal-pager-test", "10"], {"PAGER": "cat | head -2"})
    check("PAGER='cat | head -2' runs through /bin/sh", screen == PROGRESS + lines(2), screen)


@case
def more_does_not_block():
    def on_screen(text, proc, master):
        # util-linux more stops at "(END)" for a key even when the text fits
        # (MORE=FRX means nothing to it): press q once, as the user would.
        if "(END)" in text or "--More--" in text:
            os.write(master, b"q")
            return True
        return False

    screen, _, rc, _ = run(["internal-pager-test", "5"], {"PAGER": "more"}, on_screen=on_screen)
    content = [l for l in screen if l.startswith("line ")]
    check("PAGER=more: all content shown, aptus exits 0", content == lines(5) and rc == 0, f"rc={rc} {screen}")


@case
def invalid_pager_warns_and_shows_everything():
    screen, _, rc, _ = run(["internal-pager-test", "20"], {"PAGER": "not-a-valid-pager"})
    check("invalid pager: warning above the full content, exit 0",
          screen == PROGRESS + [WARNING] + lines(20) and rc == 0, f"rc={rc} {screen}")


@case
def dd_pager_swallows_the_content_but_not_the_progress():
    screen, _, rc, _ = run(["internal-pager-test", "50", "stderr"], {"PAGER": "dd status=none of=/dev/null"})
    check("dd pager: only progress on the terminal (stderr while paging is paged)", screen == PROGRESS and rc == 0,
          f"rc={rc} {screen}")


@case
def a_pipe_gets_no_pager():
    screen, piped, rc, _ = run(["internal-pager-test", "50", "stderr"], {"PAGER": "dd status=none of=/dev/null"},
                               stdout_pipe=True)
    check("stdout to a pipe: content arrives directly", piped == lines(50) and rc == 0, f"rc={rc} {piped[:3]}")
    check("stdout to a pipe: stderr stays on the terminal", screen == PROGRESS + ["stderr while paging"], screen)


@case
def apt_pager_beats_pager():
    screen, _, _, _ = run(["internal-pager-test", "3"],
                          {"APT_PAGER": "sed s/^/apt:/", "PAGER": "dd status=none of=/dev/null"})
    check("APT_PAGER beats PAGER", screen == PROGRESS + ["apt:line 1", "apt:line 2", "apt:line 3"], screen)
    for value in ("", "cat"):
        screen, _, _, _ = run(["internal-pager-test", "3"], {"APT_PAGER": value, "PAGER": "dd status=none of=/dev/null"})
        check(f"APT_PAGER={value!r} means no pager, whatever PAGER says", screen == PROGRESS + lines(3), screen)


@case
def default_pager_is_pager_from_path():
    bindir = tempfile.mkdtemp(dir=tmp)
    with open(f"{bindir}/pager", "w") as f:
        f.write("#!/bin/sh\nexec sed 's/^/default:/'\n")
    os.chmod(f"{bindir}/pager", 0o755)
    screen, _, _, _ = run(["internal-pager-test", "2"], {"PATH": f"{bindir}:{os.environ['PATH']}"})
    check("no APT_PAGER/PAGER: `pager` from PATH", screen == PROGRESS + ["default:line 1", "default:line 2"], screen)


@case
def less_more_lv_as_apt_sets_them():
    show = 'echo "LESS=$LESS MORE=$MORE LV=$LV"; cat >/dev/null'
    screen, _, _, _ = run(["internal-pager-test", "3"], {"PAGER": show})
    check("pager environment: LESS=FRSXMK MORE=FRX LV=-c", screen == PROGRESS + ["LESS=FRSXMK MORE=FRX LV=-c"], screen)
    screen, _, _, _ = run(["internal-pager-test", "3"], {"PAGER": show, "LESS": "XYZ", "MORE": ""})
    check("pager environment: the user's LESS (and empty MORE) kept", screen == PROGRESS + ["LESS=XYZ MORE= LV=-c"],
          screen)


@case
def pager_config_turns_it_off():
    dd = {"PAGER": "dd status=none of=/dev/null"}
    screen, _, _, _ = run(["-o", "Pager=false", "internal-pager-test", "3"], dd)
    check("-o Pager=false", screen == PROGRESS + lines(3), screen)
    for conf in ('Binary::apt::Pager "false";', 'Binary::aptus::Pager "false";', 'Pager "false";'):
        screen, _, _, _ = run(["internal-pager-test", "3"], dict(dd, APT_CONFIG=sandbox(conf)))
        check(f"apt.conf {conf}", screen == PROGRESS + lines(3), screen)
    screen, _, _, _ = run(["-o", "Pager=true", "internal-pager-test", "3"],
                          dict(dd, APT_CONFIG=sandbox('Binary::apt::Pager "false";')))
    check("-o Pager=true beats Binary::apt::Pager", screen == PROGRESS, screen)


@case
def fatal_signals_wait_for_the_pager_then_kill():
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        done = f"{tmp}/pager-done-{sig.name}"
        state = {}

        def on_screen(text, proc, master):
            if "line 5" not in text:
                return False
            fds = {n: os.readlink(f"/proc/{proc.pid}/fd/{n}") for n in (0, 1, 2)}
            state["fds"] = fds
            proc.send_signal(sig)
            return True

        screen, _, rc, done_at_exit = run(
            ["internal-pager-test", "5", "hold"], {"PAGER": f"cat; sleep 0.5; echo pager done; touch {done}"},
            on_screen=on_screen, on_exit=lambda: os.path.exists(done))
        fds = state.get("fds", {})
        check(f"{sig.name}: while paging stdin is /dev/null, stdout and stderr feed the pager",
              fds.get(0) == "/dev/null" and fds.get(1, "").startswith("pipe:") and fds.get(2) == fds.get(1), fds)
        check(f"{sig.name}: aptus dies of {sig.name} only after the pager exited",
              rc == -sig and done_at_exit and screen == PROGRESS + lines(5) + ["pager done"],
              f"rc={rc} pager done at exit={done_at_exit} {screen}")


@case
def hidden_from_help():
    out = subprocess.run([APTUS, "--help"], capture_output=True, text=True).stdout
    check("internal-pager-test is not in --help", "internal-pager-test" not in out and "config dump" in out, out)


shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print(f"{len(failures)} failed: {', '.join(failures)}")
    sys.exit(1)
print("all pager checks passed")
