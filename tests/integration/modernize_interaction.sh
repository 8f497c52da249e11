#!/bin/bash
# aptus modernize-sources: the question and every way of answering it, in a
# sandbox root (-o Dir=...). Declining (--assume-no, -s, no terminal, "n" on
# a terminal) changes nothing and shows what would be written; accepting
# (-y, "y" on a terminal) writes the .sources files and the .bak files; a
# second run has nothing to do.
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
T=$(mktemp -d /tmp/aptus-modernize-interaction.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

new_sandbox() {
    S=$T/sb$((++n))
    mkdir -p "$S/etc/apt/sources.list.d" "$S/etc/apt/trusted.gpg.d" "$S/var/lib/apt/lists" "$S/usr/share/keyrings"
    printf 'Origin: Debian\nSuite: stable\n' >"$S/var/lib/apt/lists/deb.example.org_debian_dists_stable_Release"
    : >"$S/usr/share/keyrings/debian-archive-keyring.gpg"
    : >"$S/etc/apt/trusted.gpg.d/rocks.gpg"
    cat >"$S/etc/apt/sources.list" <<'EOF'
# a comment
deb [arch=amd64 signed-by=/usr/share/keyrings/foo.gpg] http://deb.example.org/debian stable main contrib
deb http://deb.example.org/debian stable main contrib
# deb http://deb.example.org/debian disabled main
deb http://security.example/debian-security stable-security main
deb [trusted=yes lang=de] http://example.org/debian trusted bananas
EOF
    echo 'deb http://rocks.example/ s main' >"$S/etc/apt/sources.list.d/rocks.list"
    printf 'Types: deb\nURIs: http://keep.example/\nSuites: s\nComponents: main\n' \
        >"$S/etc/apt/sources.list.d/keep.sources"
}

# Names, types, modes and contents of every file in the sandbox.
snapshot() {
    (cd "$S" && find . -printf '%p %y %m\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum)
}

run() { "$APTUS" -o "Dir=$S/" modernize-sources "$@"; }

expected_stdout() {
    local answer=$1
    cat <<EOF
The following files need modernizing:
  - $S/etc/apt/sources.list
  - $S/etc/apt/sources.list.d/rocks.list

Modernizing will replace .list files with the new .sources format,
add Signed-By values where they can be determined automatically,
and save the old files into .list.bak files.

Nothing is dropped: every option in [] brackets becomes its deb822
field (arch= becomes Architectures:, arch+= Architectures-Add:, ...),
disabled "# deb ..." lines become stanzas with "Enabled: no", and
comments stay above the entries they described. An explicit signed-by
is never replaced.

For a simulation, respond N in the following prompt.
Rewrite 2 sources? [Y/n] $answer
EOF
}

expected_simulation() {
    cat <<EOF
# Would write to: $S/etc/apt/sources.list.d/debian.sources
# Modernized from $S/etc/apt/sources.list
# a comment
Types: deb
URIs: http://deb.example.org/debian/
Suites: stable
Components: main contrib
Signed-By: /usr/share/keyrings/foo.gpg
Architectures: amd64

# Modernized from $S/etc/apt/sources.list
Types: deb
URIs: http://deb.example.org/debian/
Suites: stable
Components: main contrib
Signed-By: /usr/share/keyrings/foo.gpg

# Would write to: $S/etc/apt/sources.list.d/moved-from-main.sources
# Modernized from $S/etc/apt/sources.list
Enabled: no
Types: deb
URIs: http://deb.example.org/debian/
Suites: disabled
Components: main
Signed-By: 

# Modernized from $S/etc/apt/sources.list
Types: deb
URIs: http://security.example/debian-security/
Suites: stable-security
Components: main
Signed-By: 

# Modernized from $S/etc/apt/sources.list
Types: deb
URIs: http://example.org/debian/
Suites: trusted
Components: bananas
Signed-By: 
Trusted: yes
Languages: de

# Would write to: $S/etc/apt/sources.list.d/rocks.sources
Types: deb
URIs: http://rocks.example/
Suites: s
Components: main
Signed-By: $S/etc/apt/trusted.gpg.d/rocks.gpg
EOF
}

expected_stderr() {
    cat <<EOF
Modernizing $S/etc/apt/sources.list...
W: Could not determine Signed-By for URIs: http://security.example/debian-security/, Suites: stable-security

Modernizing $S/etc/apt/sources.list.d/rocks.list...

EOF
}

# declined NAME RC: stdout/stderr of a declined run in $T/out, $T/err
check_declined() {
    local name=$1 rc=$2 answer=${3:-N}
    if [ "$rc" -ne 0 ]; then fail "$name: exit $rc"; cat "$T/err"; return; fi
    if ! diff -u <(expected_stdout "$answer"; expected_simulation) "$T/out" >"$T/diff"; then
        fail "$name: stdout"; cat "$T/diff"; return
    fi
    if ! diff -u <(expected_stderr) "$T/err" >"$T/diff"; then fail "$name: stderr"; cat "$T/diff"; return; fi
    if [ "$(snapshot)" != "$before" ]; then fail "$name: files changed"; return; fi
    ok "$name"
}

n=0
new_sandbox
before=$(snapshot)

run --assume-no >"$T/out" 2>"$T/err"
check_declined "--assume-no shows the plan and writes nothing" $?

run </dev/null >"$T/out" 2>"$T/err"
check_declined "no terminal, no -y: declined" $?

echo y | run >"$T/out" 2>"$T/err"
check_declined "a piped 'y' is no terminal: declined" $?

run -s </dev/null >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(snapshot)" = "$before" ] && grep -q '^# Would write to: ' "$T/out"; then
    ok "-s simulates"
else
    fail "-s simulates (exit $rc)"
fi

# A real terminal: python's pty answers once the question shows.
pty_run() {
    python3 - "$1" "$APTUS" "Dir=$S/" <<'PY'
import os, pty, sys
answer, aptus, dir_opt = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
pid, fd = pty.fork()
if pid == 0:
    os.execv(aptus, [aptus, "-o", dir_opt, "modernize-sources"])
out, answered = b"", False
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    out += data
    if not answered and b"[Y/n] " in out:
        os.write(fd, answer + b"\n")
        answered = True
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(out.replace(b"\r\n", b"\n"))
sys.exit(os.waitstatus_to_exitcode(status))
PY
}

if command -v python3 >/dev/null; then
    pty_run n >"$T/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ "$(snapshot)" = "$before" ] && grep -q '^Rewrite 2 sources? \[Y/n\] n$' "$T/out" &&
        grep -q "^# Would write to: $S/etc/apt/sources.list.d/rocks.sources" "$T/out"; then
        ok "terminal, answer n: declined"
    else
        fail "terminal, answer n (exit $rc)"; cat "$T/out"
    fi

    pty_run y >"$T/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ -f "$S/etc/apt/sources.list.bak" ] && [ -f "$S/etc/apt/sources.list.d/rocks.sources" ] &&
        ! grep -q '^# Would write to' "$T/out"; then
        ok "terminal, answer y: written"
    else
        fail "terminal, answer y (exit $rc)"; cat "$T/out"
    fi
    new_sandbox
    before=$(snapshot)
else
    echo "SKIP terminal cases: python3 not installed"
fi

# -y writes, exactly.
run -y >"$T/out" 2>"$T/err"
rc=$?
d=$S/etc/apt/sources.list.d
if [ $rc -ne 0 ]; then
    fail "-y: exit $rc"; cat "$T/err"
elif ! diff -u <(expected_stdout Y) "$T/out" >"$T/diff"; then
    fail "-y: stdout"; cat "$T/diff"
else
    ok "-y: stdout"
fi
if diff -u <(cat <<EOF
Modernizing $S/etc/apt/sources.list...
- Writing $d/debian.sources
- Writing $d/moved-from-main.sources
- Saved the old file as $S/etc/apt/sources.list.bak
W: Could not determine Signed-By for URIs: http://security.example/debian-security/, Suites: stable-security

Modernizing $d/rocks.list...
- Writing $d/rocks.sources
- Saved the old file as $d/rocks.list.bak

EOF
) "$T/err" >"$T/diff"; then ok "-y: stderr"; else fail "-y: stderr"; cat "$T/diff"; fi

# What was written is exactly what the simulation showed.
mkdir -p "$T/expect"
( cd "$T/expect" && expected_simulation | awk '
    /^# Would write to: / { n = split($5, p, "/"); file = p[n]; next }
    { buf[file] = buf[file] $0 "\n" }
    END { for (f in buf) { s = buf[f]; sub(/\n\n$/, "\n", s); printf "%s", s > f } }' )
all_same=1
for f in debian.sources moved-from-main.sources rocks.sources; do
    if ! diff -u "$T/expect/$f" "$d/$f" >"$T/diff"; then all_same=0; echo "--- $f"; cat "$T/diff"; fi
done
[ $all_same = 1 ] && ok "-y: .sources contents" || fail "-y: .sources contents"

if grep -q '^# deb http://deb.example.org/debian disabled main$' "$S/etc/apt/sources.list.bak" &&
    [ "$(cat "$d/rocks.list.bak")" = "deb http://rocks.example/ s main" ] &&
    [ ! -e "$S/etc/apt/sources.list" ] && [ ! -e "$d/rocks.list" ] &&
    [ "$(cat "$d/keep.sources")" = "$(printf 'Types: deb\nURIs: http://keep.example/\nSuites: s\nComponents: main')" ] &&
    [ -z "$(find "$S" -name '.aptus-*')" ]; then
    ok "-y: old files saved as .bak, other .sources untouched, no temporaries left"
else
    fail "-y: .bak files / untouched files"; find "$S" | sort
fi

# A second run has nothing to do.
after=$(snapshot)
out=$(run -y 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "All sources are modern." ] && [ "$(snapshot)" = "$after" ]; then
    ok "second run: All sources are modern."
else
    fail "second run (exit $rc): $out"
fi

# Appending to an existing output target: one blank line between.
new_sandbox
printf 'Types: deb\nURIs: http://old.example/\nSuites: x\nComponents: main\n' >"$S/etc/apt/sources.list.d/debian.sources"
printf 'deb http://deb.example.org/debian stable main\n' >"$S/etc/apt/sources.list"
rm "$S/etc/apt/sources.list.d/rocks.list"
run -y >/dev/null 2>"$T/err"
if diff -u <(cat <<EOF
Types: deb
URIs: http://old.example/
Suites: x
Components: main

# Modernized from $S/etc/apt/sources.list
Types: deb
URIs: http://deb.example.org/debian/
Suites: stable
Components: main
Signed-By: $S/usr/share/keyrings/debian-archive-keyring.gpg
EOF
) "$S/etc/apt/sources.list.d/debian.sources" >"$T/diff"; then
    ok "appends to an existing .sources"
else
    fail "appends to an existing .sources"; cat "$T/diff" "$T/err"
fi

# Nothing at all to modernize.
new_sandbox
rm "$S/etc/apt/sources.list" "$S/etc/apt/sources.list.d/rocks.list"
before=$(snapshot)
out=$(run </dev/null 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "All sources are modern." ] && [ "$(snapshot)" = "$before" ]; then
    ok "no .list files: All sources are modern."
else
    fail "no .list files (exit $rc): $out"
fi

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
