#!/bin/bash
# aptus config dump/shell must print exactly what apt-config prints for the
# same configuration. Every case runs in a throw-away sandbox: APT_CONFIG
# names a file that points Dir at the sandbox, so the host's /etc/apt is never
# read (and nothing is written outside the temp dir).
set -u
APTUS=${APTUS:?set APTUS to the aptus binary}
if ! command -v apt-config >/dev/null; then
    echo "SKIP: apt-config not installed"
    exit 0
fi
T=$(mktemp -d /tmp/aptus-config-vs-apt.XXXXXX)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
failures=0

# The lines that name the program itself differ by design.
normalize() { grep -vE '^(Binary|CommandLine::AsString)[ =]' || true; }

new_sandbox() {
    S=$T/sb$((++n))
    mkdir -p "$S/etc/apt/apt.conf.d" "$S/var/lib/dpkg"
    printf 'Dir "%s/";\n' "$S" > "$S/apt-config.conf"
    export APT_CONFIG=$S/apt-config.conf
}

# compare NAME APT_ARGS... -- APTUS_ARGS...
compare() {
    local name=$1; shift
    local apt_args=() aptus_args=()
    while [ "$1" != "--" ]; do apt_args+=("$1"); shift; done
    shift
    aptus_args=("$@")
    (cd "$S" && apt-config "${apt_args[@]}" >"$T/apt.out" 2>"$T/apt.err"); local apt_rc=$?
    (cd "$S" && "$APTUS" "${aptus_args[@]}" >"$T/aptus.out" 2>"$T/aptus.err"); local aptus_rc=$?
    local ok=1
    if [ $apt_rc -ne $aptus_rc ]; then
        echo "FAIL $name: exit code apt-config=$apt_rc aptus=$aptus_rc"; cat "$T/aptus.err"; ok=0
    fi
    if ! diff -u <(normalize <"$T/apt.out") <(normalize <"$T/aptus.out") >"$T/diff"; then
        echo "FAIL $name: stdout differs (- apt-config, + aptus)"; cat "$T/diff"; ok=0
    fi
    # Notices must match too (errors are worded differently, with file:line).
    if [ $apt_rc -eq 0 ] && ! diff -u "$T/apt.err" "$T/aptus.err" >"$T/diff"; then
        echo "FAIL $name: stderr differs"; cat "$T/diff"; ok=0
    fi
    if [ $ok = 1 ]; then echo "ok   $name"; else failures=$((failures + 1)); fi
}

# dump and shell, same arguments for both programs.
both() {
    local name=$1; shift
    compare "$name dump" "$@" dump -- "$@" config dump
}

n=0
new_sandbox
both "empty sandbox"
compare "shell defaults" shell A APT::Architecture B Dir::Etc/d C Dir::Etc::main/f D Dir::State::status/f \
    E Dir::Cache::archives/d F Dir::Log/d G APT::Install-Recommends/b H APT::Install-Recommends/i I missing \
    -- config shell A APT::Architecture B Dir::Etc/d C Dir::Etc::main/f D Dir::State::status/f \
    E Dir::Cache::archives/d F Dir::Log/d G APT::Install-Recommends/b H APT::Install-Recommends/i I missing

new_sandbox
cat > "$S/etc/apt/apt.conf" <<'CONF'
// line comment
# hash comment line
  # indented hash comment
/* block
   comment */ Top "1";
A::B "x";
A { C "y"; D { E "z"; F "f" }; };
a::b "case: first spelling stays";
List:: "1"; List:: "2";
Block { "a"; "b"; Inner:: "c"; };
Unquoted value;
Joined "a b" "c";
Mixed x"y z"w;
Percent "%41 stays";
PercentUnquoted %41%42;
"Quoted::Tag" "q";
Tag::"part" "p";
Brackets [a b];
Slashes "a//b" "/*c*/";
Hash "#not a comment";
Value::With "v" { Child "c"; };
Multi::Line
   "second line";
Trailing "t"; // comment after
Empty "";
Tabs	"a	b";
;;
Nothing { };
CONF
both "grammar"
compare "shell grammar" shell T Top L List M Mixed P PercentUnquoted Q Quoted::Tag E Empty X a::B \
    -- config shell T Top L List M Mixed P PercentUnquoted Q Quoted::Tag E Empty X a::B
compare "no-empty" dump --no-empty -- config dump --no-empty
compare "empty" --empty dump -- --empty config dump
compare "format" dump --format '%f=%v|%F=%V|%t|%T%N%% %x%n' -- config dump --format '%f=%v|%F=%V|%t|%T%N%% %x%n'

new_sandbox
mkdir -p "$S/inc.d"
printf 'Inc::File "1";\nClearMe::Keep "gone";\n' > "$S/inc.conf"
printf 'Inc::Dir:: "b";\n' > "$S/inc.d/b.conf"
printf 'Inc::Dir:: "a";\n' > "$S/inc.d/a"
printf 'Inc::Dir:: "ignored";\n' > "$S/inc.d/c.disabled"
cat > "$S/etc/apt/apt.conf" <<CONF
ClearMe::Old "1";
#include "$S/inc.conf";
#include "$S/inc.d/";
#clear ClearMe;
ClearMe::New "2";
#clear APT::Install-Suggests;
CONF
both "include and clear"

new_sandbox
P=$S/etc/apt/apt.conf.d
for f in 10first 20second.conf foo.disabled 'foo~' 'bad name!' x.bak y.dpkg-old z.save 5_under-dash 'a:b' \
    'ends.' 'noext.list' 'UPPER.CONF' 'q.ucf-dist' '-dash' 'Zcap'; do
    printf 'Parts:: "%s";\n' "$f" > "$P/$f"
done
ln -s /nonexistent "$P/dangling"
ln -s 10first "$P/30link"
mkdir "$P/subdir.conf"
printf 'Parts:: "main";\n' > "$S/etc/apt/apt.conf"
printf 'Parts:: "apt_config";\n' >> "$APT_CONFIG"
both "parts directory"
printf 'Dir::Ignore-Files-Silently:: "\\.list$";\n' >> "$APT_CONFIG"
both "ignore-files-silently from APT_CONFIG"

new_sandbox
printf 'FromC "1"; Order "c";\n' > "$S/c.conf"
printf 'Order "main"; quiet "2";\n' > "$S/etc/apt/apt.conf"
compare "-o -c before" -o Order=o1 -c "$S/c.conf" -oA::B=1 --option C=1 -o L::=x -o L::=y dump -- \
    -o Order=o1 -c "$S/c.conf" -oA::B=1 --option C=1 -o L::=x -o L::=y config dump
compare "-o -c after" dump -c="$S/c.conf" -o Order=o2 --config-file "$S/c.conf" --option=D=4 -- \
    config dump -c="$S/c.conf" -o Order=o2 --config-file "$S/c.conf" --option=D=4
compare "-o between" -o Foo=1 dump -o 'Bar=a b' -o Empty= -o foo::x=2 -o FOO::X=3 -- \
    -o Foo=1 config dump -o 'Bar=a b' -o Empty= -o foo::x=2 -o FOO::X=3
compare "quiet levels" -q -qq -q=5 dump -- -q -qq -q=5 config dump
compare "quiet counts from files" -q dump -- -q config dump
compare "--quiet N" --quiet 3 dump -- --quiet 3 config dump
compare "Dir relocation" -o Dir=/sandbox -o Dir::State=/st -o Dir::Cache=ca shell A Dir::State::lists/d \
    B Dir::Cache::archives/d C Dir::Etc::main/f D Dir::Log/d E Dir::State::status/f F Dir::Bin::methods/d -- \
    -o Dir=/sandbox -o Dir::State=/st -o Dir::Cache=ca config shell A Dir::State::lists/d \
    B Dir::Cache::archives/d C Dir::Etc::main/f D Dir::Log/d E Dir::State::status/f F Dir::Bin::methods/d
compare "Dir relative forms" -o Dir=/s//x/./y/ -o Dir::Etc=./e -o Dir::State::lists=~/x -o Dir::Cache=../c \
    -o Dir::Etc::parts=/dev/null/x shell A Dir::Etc::main/f B Dir::State::lists/d C Dir::Cache::archives/d \
    D Dir::Etc::parts/d -- \
    -o Dir=/s//x/./y/ -o Dir::Etc=./e -o Dir::State::lists=~/x -o Dir::Cache=../c \
    -o Dir::Etc::parts=/dev/null/x config shell A Dir::Etc::main/f B Dir::State::lists/d C Dir::Cache::archives/d \
    D Dir::Etc::parts/d
compare "shell quoting and types" -o "X=it's \"q\" \$x \`y\` \\z" -o B1=yes -o B2=off -o B3=maybe -o I1=0x10 \
    -o "I2= 12 " -o E= shell X X 'Y Z' X A B1/b B B2/b C B3/b D I1/i F I2/i G E/d H E/f J E -- \
    -o "X=it's \"q\" \$x \`y\` \\z" -o B1=yes -o B2=off -o B3=maybe -o I1=0x10 \
    -o "I2= 12 " -o E= config shell X X 'Y Z' X A B1/b B B2/b C B3/b D I1/i F I2/i G E/d H E/f J E
compare "shell bad type" shell X Foo/q -- config shell X Foo/q
compare "shell odd args" shell X -- config shell X
compare "-o without =" -o Foo dump -- -o Foo config dump
compare "-o without argument" dump -o -- config dump -o
compare "unknown option" -x dump -- -x config dump

# apt rewrites APT::Architectures and Acquire::Languages into a normal list:
# a scalar (split at commas) beats list items, duplicates go, the native
# architecture is always there, "environment" expands, "none" only alone.
for v in '"i386,armhf"' '"i386, armhf"' '"amd64"' '""' '{ "i386"; }' '{ "i386"; "amd64"; }' \
    '{ "i386"; "i386"; }' '"armhf"; APT::Architectures:: "i386"'; do
    new_sandbox
    printf 'APT::Architectures %s;\n' "$v" > "$S/etc/apt/apt.conf"
    both "architectures $v"
done
for v in '"none"' '"de,fr"' '"de, fr"' '""' '{ "fr"; "environment"; "fr"; "en"; }' '{ "none"; "de"; }' \
    '{ "de"; "none"; }' '{ "none"; "none"; }' '"environment,de"' '""; Acquire::Languages:: "fr"' \
    '"none"; Acquire::Languages:: "fr"'; do
    new_sandbox
    printf 'Acquire::Languages %s;\n' "$v" > "$S/etc/apt/apt.conf"
    both "languages $v"
done

# Errors: apt and aptus must both refuse (exit 100); aptus names file:line.
for bad in 'A "x" y;' 'A "unterminated;' 'A "x"' '{ B "x"; };' 'A { #clear B; };' '#clear;' 'V x"y;' \
    'S "multi
line";'; do
    new_sandbox
    printf '%s\n' "$bad" > "$S/etc/apt/apt.conf"
    compare "error: $(echo "$bad" | head -1)" dump -- config dump
    grep -q "apt.conf:[0-9]" "$T/aptus.err" || { echo "FAIL: no file:line in: $(cat "$T/aptus.err")"; failures=$((failures + 1)); }
done

if [ $failures -ne 0 ]; then
    echo "$failures case(s) differ from apt-config"
    exit 1
fi
echo "all cases match apt-config"
