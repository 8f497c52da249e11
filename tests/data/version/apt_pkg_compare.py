#!/usr/bin/python3
# Reads "A B" lines (two versions separated by one space) on stdin and prints,
# per line, the sign of python3-apt's apt_pkg.version_compare(A, B): -1, 0 or 1.
# One process for all pairs, so hundreds of thousands of checks take seconds.
import sys

import apt_pkg

apt_pkg.init_system()
out = []
for line in sys.stdin.buffer:
    a, b = line.rstrip(b"\n").decode("utf-8", "surrogateescape").split(" ")
    r = apt_pkg.version_compare(a, b)
    out.append("-1" if r < 0 else ("1" if r > 0 else "0"))
sys.stdout.write("\n".join(out) + ("\n" if out else ""))
