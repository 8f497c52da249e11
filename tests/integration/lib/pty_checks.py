"""What the pseudo-terminal tests share: the list of failed checks, and a
check that prints "ok:" or "FAIL:" (with the end of the terminal's output)."""

failures = []


def check(cond, what, out=b""):
    if cond:
        print("ok: " + what)
    else:
        failures.append(what)
        print("FAIL: " + what)
        if out:
            print(repr(out[-3000:]))
