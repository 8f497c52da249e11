#!/bin/bash
# apt's search patterns (apt-patterns(7)) in aptus beside real apt 2.6 on the
# real server sandbox (bookworm installed, bookworm and trixie listed):
#  - `aptus list PATTERN` prints exactly what `apt list PATTERN` prints
#    (stdout, exit status, and apt's E: lines with the underlined input for
#    a bad pattern; apt's "no stable CLI" warning is not compared);
#  - `aptus -s remove|purge|install PATTERN` selects what `apt-get -s` does:
#    the same notes ("Package 'x' is not installed, so not removed"; sorted,
#    as aptus does not reproduce the order of apt's hash table), the same
#    E: lines, the same exit status, and for removals the same Remv lines.
set -u
. "$(dirname "$0")/lib/sandbox.sh"
vs_apt_setup patterns-vs-apt
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

list() {
    local pattern=$1; shift
    apt list "$pattern" "$@" -o Dir::Cache="$T/apt-cache" >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    "$APTUS" list "$pattern" "$@" -o Dir::Cache="$T/aptus-cache" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    grep -v -e '^WARNING: apt does not have a stable CLI' -e '^$' "$T/apt.err" >"$T/apt.err2"
    if [ $apt_rc -ne $aptus_rc ]; then
        fail "list '$pattern': exit code apt=$apt_rc aptus=$aptus_rc"; head -5 "$T/aptus.err"; return
    fi
    if ! diff -u "$T/apt.out" "$T/aptus.out" >"$T/diff"; then
        fail "list '$pattern': output differs (- apt, + aptus)"; head -20 "$T/diff"; return
    fi
    if ! diff -u "$T/apt.err2" "$T/aptus.err" >"$T/diff"; then
        fail "list '$pattern': messages differ (- apt, + aptus)"; head -20 "$T/diff"; return
    fi
    echo "ok   list '$pattern' $* ($(($(wc -l <"$T/apt.out") - 1)) packages, exit $aptus_rc)"
}

# Logic, precedence, short and long forms.
list '?installed'
list '~i !~M'
list '~i !~M (~slibs|~sperl|~spython)'    # the example of apt-patterns(7)
list '~nbash ~i | ~nzsh'                  # and binds tighter than or
list '?or(?exact-name(bash), ?exact-name(dash),)'  # trailing comma
list '?and()'
list '?not(~i)' --installed
list '!~U ~i'
# Package state.
list '?upgradable'
list '~M'
list '~E'
list '~o'
list '~c'
list '~b'
list '~v'
# Version patterns: any version of the package matches.
list '?section(^shells$)'
list '~prequired'
list '~pOPTIONAL'                         # the name is exact, case and all
list '~ebash'
list '?source-version(^5\.2)'
list '~V^3\.0'
list '~Aoldstable'
list '?archive(^now$)'                    # the dpkg status is the archive "now"
list '~ODebian ~n^libc6$'
list '?codename(trixie) ~nhello'
list '~ramd64 ~n^zsh'
list '~rall'                              # the package's architecture, never "all"
list '~rany-amd64 ~n^bash$'
list '?name(^bash) ?exact-name(bash)'
list '~n"^dash$"'
list '?x-name-fnmatch(ZSH*)'
# Narrowing: one version must match everything.
list '?any-version(?archive(now))'
list '?all-versions(~i)'
list '?narrow(?version(^2\.6),?archive(stable))'
list '?and(?version(^2\.6),?archive(stable)) ~n^apt$'
list '?any-version(~i ~Astable)'
# Relations.
list '?depends(?exact-name(libc6)) ~nbash'
list '~RDepends:~nbash'
list '?reverse-recommends(?exact-name(bash))'
list '?predepends(~nlibc6) ~n^bash$'       # apt 2.6's spelling (aptus also takes ?pre-depends)
# -a lists every version of what the pattern selects.
list '~i ~n^base-files$' --all-versions
# Errors: apt's messages, with the span of the input, and exit 100.
for bad in '?foo' '?name(' '?name' '?installed(x)' '~' '~z' '?and(?installed' '?name(a,b)' '?not(foo)' \
           '?name(?installed)' '?installed foo' '~n bash' '?name("ab' '~i||~M' '(~nbash' '()' '!' '?(' \
           '?name([)' 'fo?' 'bas[h]' 'a_b'; do
    list "$bad"
done

# ?garbage: mark everything automatic but openssh-server in a private
# extended_states, so that autoremove would take a good part of the system.
awk '/^Package: /{print $2}' "$S/var/lib/dpkg/status" | sort -u | while read -r p; do
    [ "$p" = openssh-server ] && continue
    printf 'Package: %s\nArchitecture: amd64\nAuto-Installed: 1\n\n' "$p"
done >"$T/extended_states"
# (Plain '~g' is not compared: aptus's autoremove set, which ?garbage reuses,
# has tzdata in it here and apt's has not; that is the autoremove rules'
# difference, not the pattern's.)
rm -rf "$T/apt-cache" "$T/aptus-cache"; mkdir -p "$T/apt-cache" "$T/aptus-cache"
list '~g ~nlib' -o Dir::State::extended_states="$T/extended_states"
[ "$(wc -l <"$T/aptus.out")" -gt 10 ] || fail "~g selects almost nothing with all but openssh-server automatic"
list '~i !~g ~n^open' -o Dir::State::extended_states="$T/extended_states"

# ?broken on a broken system: the sandbox's dpkg status without three
# libraries many installed packages need.
python3 - "$S/var/lib/dpkg/status" "$T/broken-status" <<'PY'
import sys
blocks = open(sys.argv[1]).read().split("\n\n")
gone = ("libtinfo6", "perl-base", "libssl3")
kept = [b.strip("\n") for b in blocks if b.strip() and not any(b.startswith("Package: " + n + "\n") for n in gone)]
# And two installed packages whose Breaks and Conflicts hit installed ones.
kept.append("Package: aptus-test-breaks\nStatus: install ok installed\nPriority: optional\nSection: misc\n"
            "Architecture: amd64\nVersion: 1.0\nBreaks: bash (<< 99)\nDescription: test\n test")
kept.append("Package: aptus-test-conflicts\nStatus: install ok installed\nPriority: optional\nSection: misc\n"
            "Architecture: all\nVersion: 1.0\nConflicts: dash, aptus-test-conflicts\nDescription: test\n test")
open(sys.argv[2], "w").write("\n\n".join(kept) + "\n")
PY
rm -rf "$T/apt-cache" "$T/aptus-cache"; mkdir -p "$T/apt-cache" "$T/aptus-cache"
list '~b' -o Dir::State::status="$T/broken-status"
[ "$(wc -l <"$T/aptus.out")" -gt 10 ] || fail "~b finds almost nothing broken without libtinfo6, perl-base and libssl3"
list '~i !~b ~n^lib' -o Dir::State::status="$T/broken-status"
list '~b ~naptus-test' -o Dir::State::status="$T/broken-status"
grep -q '^aptus-test-conflicts/' "$T/aptus.out" || fail "~b: a Conflicts on an installed package is not broken"
rm -rf "$T/apt-cache" "$T/aptus-cache"; mkdir -p "$T/apt-cache" "$T/aptus-cache"

# The read commands that take package words: depends/rdepends/policy as
# apt-cache, show as apt show (patterns that select one package: with
# several, apt's order is its hash table's).
read_cmd() {
    local tool=$1; shift
    $tool "$@" -o Dir::Cache="$T/apt-cache" >"$T/apt.out" 2>/dev/null; local apt_rc=$?
    "$APTUS" "$@" -o Dir::Cache="$T/aptus-cache" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    if [ $apt_rc -ne $aptus_rc ]; then fail "$*: exit code $tool=$apt_rc aptus=$aptus_rc"; head -3 "$T/aptus.err"; return; fi
    if ! diff -u "$T/apt.out" "$T/aptus.out" >"$T/diff"; then fail "$*: output differs from $tool's"; head -20 "$T/diff"; return; fi
    echo "ok   $* (as $tool: $(wc -l <"$T/apt.out") lines, exit $aptus_rc)"
}
read_cmd apt-cache depends '~n^bash$'
read_cmd apt-cache rdepends '?exact-name(dash)'
read_cmd apt-cache depends '~nzzz-no-such'      # "No packages found", exit 100
read_cmd apt show '~n^dash$'
read_cmd apt-cache policy '?exact-name(bash)'
read_cmd apt-cache policy '~nzzz-no-such'       # nothing, exit 0, as apt-cache
read_cmd apt show -a '?exact-name(bash)'

# The install-like commands: a word starting with ? or ~ selects every
# package the pattern matches, each as if named.
simulate() {
    local what=$1; shift
    apt-get -s "$@" -o Dir::Cache="$T/apt-cache" >"$T/apt.out" 2>"$T/apt.err"; local apt_rc=$?
    "$APTUS" -s "$@" -o Dir::Cache="$T/aptus-cache" >"$T/aptus.out" 2>"$T/aptus.err"; local aptus_rc=$?
    if [ $apt_rc -ne $aptus_rc ]; then
        fail "$*: exit code apt=$apt_rc aptus=$aptus_rc"; head -5 "$T/aptus.err"; return
    fi
    notes() { grep -E "^(Package |Note, |.* is already the newest|.* set to manually)" "$1" | sort; }
    if ! diff <(notes "$T/apt.out") <(notes "$T/aptus.out") >"$T/diff"; then
        fail "$*: notes differ (< apt, > aptus)"; head -20 "$T/diff"; return
    fi
    if ! diff <(grep '^E: ' "$T/apt.err") <(grep '^E: ' "$T/aptus.err") >"$T/diff"; then
        # apt goes on to read a bad pattern as a glob and a regex too; aptus stops at the first two lines.
        if [ "$what" = error ] && diff <(grep '^E: ' "$T/apt.err" | head -2) <(grep '^E: ' "$T/aptus.err") >/dev/null; then :
        else fail "$*: errors differ (< apt, > aptus)"; head -20 "$T/diff"; return; fi
    fi
    if [ "$what" = removal ] && ! diff <(grep -E '^(Remv|Purg) ' "$T/apt.out" | cut -d' ' -f1-2 | sort) \
                                      <(grep -E '^(Remv|Purg) ' "$T/aptus.out" | cut -d' ' -f1-2 | sort) >"$T/diff"; then
        fail "$*: removals differ (< apt, > aptus)"; head -20 "$T/diff"; return
    fi
    echo "ok   -s $* (exit $aptus_rc, $(notes "$T/aptus.out" | wc -l) notes, $(grep -cE '^(Inst|Remv|Purg) ' "$T/aptus.out") changes)"
}

simulate removal remove '~n^zsh'                          # none installed: a note for each
simulate removal remove '?and(~i,?name(^openssh-s))'
simulate removal purge '~i ~n^nginx'
simulate removal purge '~c'                               # nothing to purge: no error, as apt
simulate removal remove '~nxyz-no-such-package'           # selects nothing: no error, as apt
simulate removal remove '~v ~nhello'                      # a virtual package: "not installed"
simulate removal remove '~nfont !~i'                      # virtual names with providers: silent, as apt
simulate removal remove '~n^lib ~c | ~nperl !~i'          # a provider (perl) is never removed in a virtual's place
simulate removal remove awk                               # nor for a named virtual package (mawk stays)
simulate notes install '~i ~n^openssh-server$ !~U'        # installed, not upgradable: "already the newest"
simulate error install '~nhello'                          # hello-debhelper: no installation candidate
simulate error remove '?foo'
simulate error install '~n bash'

# ?garbage for remove, with the private extended_states above. apt-get 2.6
# selects nothing here (its depcache has not marked the garbage yet when it
# reads the pattern), although apt-patterns(7) gives `apt remove ?garbage` as
# `apt autoremove`; aptus does what the manual says: the same removals as
# its own autoremove.
"$APTUS" -s remove '~g' -o Dir::State::extended_states="$T/extended_states" -o Dir::Cache="$T/aptus-cache" >"$T/g.out" 2>&1
"$APTUS" -s autoremove -o Dir::State::extended_states="$T/extended_states" -o Dir::Cache="$T/aptus-cache" >"$T/auto.out" 2>&1
if [ "$(grep -c '^Remv ' "$T/auto.out")" -gt 10 ] &&
   diff <(grep '^Remv ' "$T/g.out" | sort) <(grep '^Remv ' "$T/auto.out" | sort) >"$T/diff"; then
    echo "ok   -s remove '~g' removes what autoremove removes ($(grep -c '^Remv ' "$T/g.out") packages)"
else fail "-s remove '~g' and autoremove differ (< remove ~g, > autoremove)"; head -20 "$T/diff"; fi
rm -rf "$T/apt-cache" "$T/aptus-cache"; mkdir -p "$T/apt-cache" "$T/aptus-cache"

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
