#!/usr/bin/env python3
"""APT 3.0's plan display and "Continue? [Y/n]" end to end.

Runs `aptus internal-plan-test FILE` (a plan read from a text file, rendered
as apt 3.0 shows it, then the question) on a real pseudo-terminal that is its
controlling terminal, types answers the way a user does, and reads the screen;
and without a terminal, with stdin from /dev/null or a pipe. Every run has a
deadline, so a hang fails the test instead of blocking the suite.
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

tmp = tempfile.mkdtemp(prefix="aptus-plan-")
failures = []

PLAN = """\
autoremovable autopkg
install foo new=1
install-deps libfoo1 new=1
install-deps libbar2 new=1
install-deps foo-data new=1
suggested foo-doc
remove conflicted old=1
not-upgraded-count 4
archives 168
space 129000
available 82500000000
"""

# The reference's captured example (a), up to the question.
SHOWN = """\
The following package was automatically installed and is no longer required:
  autopkg
Use 'apt autoremove' to remove it.

Installing:
  foo

Installing dependencies:
  foo-data  libbar2  libfoo1

Suggested packages:
  foo-doc

REMOVING:
  conflicted

Summary:
  Upgrading: 0, Installing: 4, Removing: 1, Not Upgrading: 4
  Download size: 0 B / 168 B
  Space needed: 129 kB / 82.5 GB available

"""

GREEN, RED, RESET = "\x1b[32m", "\x1b[31m", "\x1b[0m"


def plan_file(text=PLAN):
    fd, path = tempfile.mkstemp(dir=tmp, suffix=".plan")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def sandbox_env(extra=None):
    """An APT_CONFIG that keeps the host's /etc/apt out of the test."""
    root = tempfile.mkdtemp(dir=tmp)
    os.makedirs(f"{root}/etc/apt/apt.conf.d")
    with open(f"{root}/apt.conf", "w") as f:
        f.write(f'Dir "{root}/";\n')
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR", "APT_NO_COLOR")}
    env.update({"LC_ALL": "C", "TERM": "dumb", "APT_CONFIG": f"{root}/apt.conf"})
    env.update(extra or {})
    return {k: v for k, v in env.items() if v is not None}


def on_pty(args, answer=None, typeahead=b"", columns=80, env=None, plan=PLAN):
    """Runs on a terminal; types `answer` once the question shows.

    `typeahead` is in the terminal's input queue before aptus starts: keys
    pressed while it works, which must not answer the question.
    Returns (screen text with \\r\\n as \\n, returncode).
    """
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    if typeahead:
        os.write(master, typeahead)
    proc = subprocess.Popen(
        [APTUS, "internal-plan-test", plan_file(plan)] + args, stdin=slave, stdout=slave, stderr=slave,
        env=sandbox_env(env), cwd=tmp, start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    screen, answered = b"", answer is None
    end = time.monotonic() + DEADLINE
    while True:
        if time.monotonic() > end:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            os.close(master)
            raise TimeoutError(f"hung; screen so far: {screen!r}")
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the program is gone and the terminal with it
                data = b""
            if not data:
                break
            screen += data
        if not answered and (b"[Y/n] " in screen or b"[y/N] " in screen):
            os.write(master, answer)
            answered = True
        if proc.poll() is not None and not ready:
            break
    proc.wait()
    os.close(master)
    return screen.decode(errors="replace").replace("\r\n", "\n"), proc.returncode


def piped(args, stdin_data=None, env=None, plan=PLAN):
    """Runs with stdout and stderr on pipes and stdin from /dev/null or `stdin_data`."""
    r = subprocess.run([APTUS, "internal-plan-test", plan_file(plan)] + args,
                       input=stdin_data, stdin=None if stdin_data is not None else subprocess.DEVNULL,
                       capture_output=True, env=sandbox_env(env), cwd=tmp, timeout=DEADLINE)
    return r.stdout.decode(), r.stderr.decode(), r.returncode


def check(name, cond, detail=""):
    if cond:
        print(f"ok   {name}")
    else:
        print(f"FAIL {name}\n{detail!r}")
        failures.append(name)


def case(fn):
    try:
        fn()
    except Exception as e:  # a hang or a crash of the harness is a failure too
        check(fn.__name__, False, repr(e))
    return fn


def plain(text):
    """The screen without colours, to compare the layout alone."""
    return text.replace(GREEN, "").replace(RED, "").replace(RESET, "")


@case
def terminal_answer_n_aborts():
    screen, rc = on_pty([], b"n\n", env={"NO_COLOR": "1"})
    check("terminal, 'n': the plan as apt shows it, 'Abort.', exit 1",
          screen == SHOWN + "Continue? [Y/n] n\nAbort.\n" and rc == 1, (rc, screen))


@case
def terminal_enter_means_yes():
    screen, rc = on_pty([], b"\n", env={"NO_COLOR": "1"})
    check("terminal, Enter: the default is yes, exit 0", screen == SHOWN + "Continue? [Y/n] \n" and rc == 0,
          (rc, screen))


@case
def terminal_yes_words():
    for word in (b"y", b"Y", b"yes"):
        screen, rc = on_pty([], word + b"\n", env={"NO_COLOR": "1"})
        check(f"terminal, {word.decode()!r}: yes", rc == 0 and "Abort." not in screen, (rc, screen))


@case
def terminal_other_answer_is_no():
    screen, rc = on_pty([], b"maybe\n", env={"NO_COLOR": "1"})
    check("terminal, 'maybe': no", rc == 1 and screen.endswith("Continue? [Y/n] maybe\nAbort.\n"), (rc, screen))


@case
def terminal_end_of_input_is_no():
    screen, rc = on_pty([], b"\x04", env={"NO_COLOR": "1"})  # Ctrl-D
    check("terminal, Ctrl-D: 'Abort.' on the question's line, exit 1",
          rc == 1 and screen.endswith("Continue? [Y/n] Abort.\n"), (rc, screen))


@case
def keys_pressed_before_the_question_are_not_the_answer():
    screen, rc = on_pty([], b"y\n", typeahead=b"n\n", env={"NO_COLOR": "1"})
    check("typeahead 'n' is discarded, the 'y' typed at the question counts", rc == 0 and "Abort." not in screen,
          (rc, screen))


@case
def assume_yes_does_not_ask():
    for flag in ("-y", "--yes", "--assume-yes"):
        screen, rc = on_pty([flag], env={"NO_COLOR": "1"})
        check(f"{flag}: no question, exit 0", screen == SHOWN and rc == 0, (rc, screen))


@case
def assume_no_answers_n():
    screen, rc = on_pty(["--assume-no"], env={"NO_COLOR": "1"})
    check("--assume-no: 'Continue? [Y/n] N', 'Abort.', exit 1",
          screen == SHOWN + "Continue? [Y/n] N\nAbort.\n" and rc == 1, (rc, screen))


@case
def simulation_stops_after_the_counts():
    screen, rc = on_pty(["-s"], env={"NO_COLOR": "1"})
    want = SHOWN[:SHOWN.index("  Download size")]
    check("-s: no sizes, no blank line, no question", screen == want and rc == 0, (rc, screen))


@case
def colours_on_a_terminal():
    screen, rc = on_pty([], b"n\n")
    check("terminal: Installing and REMOVING in colour, the whole block wrapped",
          f"Installing:\n{GREEN}  foo\n{RESET}\n" in screen and f"REMOVING:\n{RED}  conflicted\n{RESET}\n" in screen
          and "Suggested packages:\n  foo-doc\n\n" in screen and plain(screen) == SHOWN + "Continue? [Y/n] n\nAbort.\n",
          screen)
    for env, why in (({"NO_COLOR": "1"}, "NO_COLOR"), ({"APT_NO_COLOR": "1"}, "APT_NO_COLOR")):
        screen, _ = on_pty([], b"n\n", env=env)
        check(f"terminal with {why}: no colour", "\x1b" not in screen, screen)
    screen, _ = on_pty(["--no-color"], b"n\n")
    check("--no-color: no colour", "\x1b" not in screen, screen)
    screen, _ = on_pty(["-o", "APT::Color::Action::Remove=blue"], b"n\n")
    check("APT::Color::Action::Remove=blue", "REMOVING:\n\x1b[34m  conflicted\n" in screen, screen)


@case
def verbose_versions():
    screen, rc = on_pty(["-V", "-s"], env={"NO_COLOR": "1"})
    check("-V: one per line with versions",
          "Installing dependencies:\n   foo-data (1)\n   libbar2 (1)\n   libfoo1 (1)\n\n" in screen
          and "REMOVING:\n   conflicted (1)\n\n" in screen, screen)


MANY = "".join(f"install-deps many-package-name-{i} new=1\n" for i in range(1, 31))


@case
def columns_follow_the_terminal_and_COLUMNS():
    # 80 columns: apt's width 79, lists 76: three columns (64 wide).
    screen, _ = on_pty(["-s"], env={"NO_COLOR": "1"}, plan=MANY)
    rows = [l for l in screen.splitlines() if l.startswith("  many")]
    check("80-column terminal: 3 columns, 10 rows",
          len(rows) == 10 and rows[0] == "  many-package-name-1   many-package-name-19  many-package-name-28", rows)
    # 60 columns: lists get 56, three columns (64) no longer fit.
    screen, _ = on_pty(["-s"], columns=60, env={"NO_COLOR": "1"}, plan=MANY)
    rows = [l for l in screen.splitlines() if l.startswith("  many")]
    check("60-column terminal: 2 columns, 15 rows",
          len(rows) == 15 and rows[0] == "  many-package-name-1   many-package-name-23", rows)
    # COLUMNS wins over the terminal's size.
    screen, _ = on_pty(["-s"], columns=60, env={"NO_COLOR": "1", "COLUMNS": "200"}, plan=MANY)
    rows = [l for l in screen.splitlines() if l.startswith("  many")]
    check("COLUMNS=200 on a 60-column terminal: 9 columns", len(rows) == 4, rows)
    screen, _ = on_pty(["-s", "--no-list-columns"], env={"NO_COLOR": "1"}, plan=MANY)
    check("--no-list-columns: names separated by one space",
          "Installing dependencies:\n  many-package-name-1 many-package-name-10 many-package-name-11\n" in screen, screen)


@case
def invalid_COLUMNS_is_reported():
    out, err, rc = piped(["-s"], env={"COLUMNS": "wide"}, plan=MANY)
    check("COLUMNS=wide: apt's warning, width 79",
          'W: Environment variable COLUMNS was ignored as it has an invalid value: "wide"' in err
          and "  many-package-name-1   many-package-name-19  many-package-name-28\n" in out, (out, err))


@case
def pending_warning_turns_the_default_to_no():
    plan = PLAN + "warning Something looks wrong.\n"
    screen, rc = on_pty([], b"\n", env={"NO_COLOR": "1"}, plan=plan)
    check("a pending warning: shown before 'Continue anyway? [y/N]', Enter declines",
          screen == SHOWN + "Warning: Something looks wrong.\nContinue anyway? [y/N] \nAbort.\n" and rc == 1, (rc, screen))
    screen, rc = on_pty([], b"y\n", env={"NO_COLOR": "1"}, plan=plan)
    check("a pending warning: 'y' goes on", rc == 0, (rc, screen))
    screen, rc = on_pty(["--assume-no"], env={"NO_COLOR": "1"}, plan=plan)
    check("a pending warning with --assume-no: never shown",
          screen == SHOWN + "Continue anyway? [y/N] N\nAbort.\n" and rc == 1, (rc, screen))
    out, err, rc = piped(["-y"], plan=plan)
    check("a pending warning with -y: at the end, no question",
          out == SHOWN and err == "W: Something looks wrong.\n" and rc == 0, (out, err, rc))


@case
def no_terminal_reads_stdin_like_apt():
    out, err, rc = piped([])
    check("stdin /dev/null: 'Continue? [Y/n] Abort.', exit 1, no colour",
          out == SHOWN + "Continue? [Y/n] Abort.\n" and rc == 1, (out, err, rc))
    out, err, rc = piped([], stdin_data=b"y\n")
    check("piped 'y': the answer is echoed, exit 0", out == SHOWN + "Continue? [Y/n] y\n" and rc == 0,
          (out, err, rc))
    out, err, rc = piped([], stdin_data=b"n\n")
    check("piped 'n': echoed, 'Abort.', exit 1", out == SHOWN + "Continue? [Y/n] n\nAbort.\n" and rc == 1,
          (out, err, rc))
    out, err, rc = piped(["-qq"])
    check("-qq implies -y", out == SHOWN and rc == 0, (out, err, rc))
    out, err, rc = piped(["--color"])
    check("--color on a pipe: still no colour", "\x1b" not in out, out)


ESSENTIAL = "remove ess old=1 essential\nremove libess old=1 essential due=ess\nspace -1000\n"


@case
def essential_removal_is_refused_after_the_plan():
    out, err, rc = piped([], plan=ESSENTIAL)
    warning = ("WARNING: The following essential packages will be removed.\n"
               "This should NOT be done unless you know exactly what you are doing!\n"
               "  ess  libess (due to ess)\n\n")
    check("essential removal: the warning, the summary, then apt's error, no question, exit 100",
          warning + "Summary:\n" in out and "Continue?" not in out and rc == 100
          and err == "E: Removing essential system-critical packages is not permitted. This might break the system.\n",
          (out, err, rc))
    out, err, rc = piped(["-y"], plan=ESSENTIAL)
    check("essential removal with -y: apt's -y error",
          rc == 100 and err == "E: Essential packages were removed and -y was used without --allow-remove-essential.\n",
          (out, err, rc))
    out, err, rc = piped(["-y", "--allow-remove-essential"], plan=ESSENTIAL)
    check("essential removal with -y --allow-remove-essential: goes on", rc == 0 and err == "", (out, err, rc))


@case
def downgrades_and_held_changes_need_allow_with_y():
    for line, flag, msg in (
            ("downgrade d old=2 new=1\n", "--allow-downgrades",
             "E: Packages were downgraded and -y was used without --allow-downgrades.\n"),
            ("upgrade h old=1 new=2\nheld h old=1 new=2\n", "--allow-change-held-packages",
             "E: Held packages were changed and -y was used without --allow-change-held-packages.\n")):
        out, err, rc = piped(["-y"], plan=line)
        check(f"-y without {flag}: apt's error", rc == 100 and err == msg, (out, err, rc))
        out, err, rc = piped(["-y", flag], plan=line)
        check(f"-y {flag}: goes on", rc == 0 and err == "", (out, err, rc))
        screen, rc = on_pty([], b"y\n", env={"NO_COLOR": "1"}, plan=line)
        check(f"{flag.split('-', 3)[-1]} on a terminal without -y: asked, 'y' goes on",
              "Continue? [Y/n] y" in screen and rc == 0, (rc, screen))


@case
def hidden_from_help():
    out = subprocess.run([APTUS, "--help"], capture_output=True, text=True, env=sandbox_env()).stdout
    check("internal-plan-test is not in --help", "internal-plan-test" not in out and "config dump" in out, out)


@case
def bad_plan_file_is_an_error():
    out, err, rc = piped([], plan="install\n")
    check("a bad line: E: with file:line, exit 100", rc == 100 and err.startswith("E: ") and ".plan:1:" in err,
          (out, err, rc))


shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print(f"{len(failures)} failed: {', '.join(failures)}")
    sys.exit(1)
print("all plan and prompt checks passed")
