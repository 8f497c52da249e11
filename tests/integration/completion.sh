#!/bin/bash
# bash completion (`aptus completion bash`): commands, each command's
# options, mark's and history's own words, files where a .deb or a config
# file is meant, and package names from the cache file as it is; a missing
# cache gives no names and is not built by a TAB.
source "$(dirname "$0")/lib/update_repo.sh"
updated_repo "hello=1.0,hellox=2.0,other=1.0"
"$APTUS" completion bash >"$T/aptus.bash"
check "the script is bash" bash -n "$T/aptus.bash"

# What bash offers for the command line "$@" with the cursor at its end.
complete_line() {
    local words=("$@")
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _aptus; printf "%s\n" "${COMPREPLY[@]}" | sort' \
        _ "$T/aptus.bash" "${words[@]}"
}
words() { complete_line "$@" | tr '\n' ' ' | sed 's/ $//'; }

check "registered for aptus" test "$(bash -c "source $T/aptus.bash; complete -p aptus")" = "complete -F _aptus aptus"
check "commands: 'ins' -> install ($(words "$APTUS" ins))" test "$(words "$APTUS" ins)" = "install"
check "commands: 'full' -> full-upgrade" test "$(words "$APTUS" full)" = "full-upgrade"
check "hidden commands are not offered" test -z "$(words "$APTUS" internal)"
check "install's own options ($(words "$APTUS" install --no-install-r))" \
    test "$(words "$APTUS" install --no-install-r)" = "--no-install-recommends"
check "options every command takes" contains "$(words "$APTUS" policy --)" "--option"
check "mark's own words ($(words "$APTUS" mark sh))" \
    test "$(words "$APTUS" mark sh)" = "showauto showdeinstall showhold showinstall showmanual showpurge showremove"
check "history's own words ($(words "$APTUS" history r))" test "$(words "$APTUS" history r)" = "redo rollback"
check "package names from the cache ($(words "$APTUS" install hel))" test "$(words "$APTUS" install hel)" = "hello hellox"
check "after options and other names" test "$(words "$APTUS" -y install -t stable hello ot)" = "other"
check "a value is not completed as a name" test -z "$(words "$APTUS" install -t h)"
touch "$T/local_1.0_all.deb"
check "a path completes as a file" test "$(cd "$T" && words "$APTUS" install ./local_1)" = "./local_1.0_all.deb"
check "-c completes a file" contains "$(cd "$T" && words "$APTUS" -c aptus.ba)" "aptus.bash"

# The same through a real terminal: an interactive bash in a pty, the
# script sourced, TAB typed as a user types it.
if command -v python3 >/dev/null; then
    mkdir -p "$T/bin" && ln -sf "$APTUS" "$T/bin/aptus"
    TYPED=$(BINDIR="$T/bin" SCRIPT="$T/aptus.bash" timeout 60 python3 - <<'PY'
import os, pty, select, subprocess, time
master, slave = pty.openpty()
env = dict(os.environ, PS1="$ ", TERM="dumb", INPUTRC="/dev/null", HOME=os.environ.get("TMPDIR", "/tmp"))
bash = subprocess.Popen(["bash", "--norc", "--noprofile", "-i"], stdin=slave, stdout=slave, stderr=slave, env=env,
                        start_new_session=True)
os.close(slave)
def typed(text, wait=1.5):
    os.write(master, text.encode())
    out, end = b"", time.monotonic() + wait
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            try:
                out += os.read(master, 65536)
            except OSError:  # the shell is gone
                return out.decode(errors="replace") + "<shell ended>"
    return out.decode(errors="replace")
typed(f"source {os.environ['SCRIPT']}; PATH={os.environ['BINDIR']}:$PATH\n")
print("REGISTERED" if "complete -F _aptus aptus" in typed("complete -p aptus\n") else "NOT REGISTERED")
print("COMMAND:" + typed("aptus ins\t").split("aptus ins")[-1].strip())
typed("\x15")
print("NAMES:" + typed("aptus install hel\t").split("aptus install hel")[-1].replace("\a", ""))
typed("\x15")
print("UNIQUE:" + typed("aptus install oth\t").split("aptus install oth")[-1])
typed("\x15")
print("COMPGEN:" + " ".join(typed("compgen -W 'install remove' -- in\n").split()))
typed("exit\n", 0.5)
bash.kill()
PY
)
    check "in a pty: complete -p names _aptus ($TYPED)" contains "$TYPED" "REGISTERED"
    check "in a pty: 'aptus ins<TAB>' types install" contains "$TYPED" "COMMAND:tall"
    check "in a pty: 'aptus install hel<TAB>' types what hello and hellox share ($(grep "^NAMES:" <<<"$TYPED"))" \
        bash -c 'grep -q "^NAMES:lo" <<<"$0"' "$TYPED"
    check "in a pty: 'aptus install oth<TAB>' types other and a space ($(grep "^UNIQUE:" <<<"$TYPED"))" \
        bash -c 'grep -q "^UNIQUE:er " <<<"$0"' "$TYPED"
    check "in a pty: compgen works in that shell" bash -c 'grep "^COMPGEN:" <<<"$0" | grep -q install' "$TYPED"
fi

# No cache file: no names, and none built.
cache=$("$APTUS" config dump Dir::Cache::aptus 2>/dev/null | sed -n 's/^Dir::Cache::aptus "\(.*\)";$/\1/p')
[ -n "$cache" ] || cache=$(find "$T" -name aptus.bin | head -1)
check "the cache file is known ($cache)" test -f "$cache"
rm -f "$cache"
check "without a cache, no names" test -z "$(words "$APTUS" install hel)"
check "and no cache is built by a TAB" test ! -e "$cache"
finish
