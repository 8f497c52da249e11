#!/bin/bash
# aptus build-dep / apt-get build-dep: the build relations of a source
# package met with real dpkg in a sandbox root, from a signed loopback
# archive with a Sources index (dpkg-source builds the package), side by side
# with real apt on a twin: by name, from its .dsc file and from its unpacked
# tree; -Arch/-Indep relations and --arch-only/--indep-only;
# Build-Conflicts remove; APT::Build-Essential; the marks apt gives (manual,
# or automatic with APT::Get::Build-Dep-Automatic).
source "$(dirname "$0")/lib/install_repo.sh"
command -v dpkg-source >/dev/null || { echo "SKIP: dpkg-source (dpkg-dev) not installed"; exit 0; }
install_setup

spec "build-essential|1.0" "libfoo-dev|1.0|Depends=libfoo" "libfoo|1.0" "doc-tool|1.0" "arch-tool|1.0" \
    "old-tool|1.0" >"$T/spec.json"
make_suite stable --spec "$T/spec.json" --sources widget=1.0 \
    --source-field "widget:Build-Depends=libfoo-dev (>= 1), nothing-on-amd64 [!amd64]" \
    --source-field "widget:Build-Depends-Arch=arch-tool" \
    --source-field "widget:Build-Depends-Indep=doc-tool" \
    --source-field "widget:Build-Conflicts=old-tool" >/dev/null || { echo "FAIL: make_repo.py"; exit 1; }
{
    echo "Types: deb deb-src"; echo "URIs: $URL"; echo "Suites: stable"; echo "Components: main"
    echo "Signed-By: $KEYRING"
} >"$SB/etc/apt/sources.list.d/test.sources"
"$APTUS" update -q >/dev/null 2>"$T/update-err" || { echo "FAIL: update"; cat "$T/update-err"; exit 1; }
aptus_run install -y old-tool
"$APTUS" mark auto old-tool >/dev/null
twin "$T/twin"
APTAPT() { APT_CONFIG=$T/twin/apt.conf "$@"; }

aptus_run build-dep -s widget
check "build-dep -s exits 0" test "$RC" = 0
for p in libfoo-dev libfoo doc-tool arch-tool build-essential; do
    check "$p comes" contains "$OUT" "Inst $p (1.0"
done
check "the Build-Conflicts removes old-tool" contains "$OUT" "Remv old-tool [1.0]"
check "[!amd64] does not apply on amd64" not_contains "$OUT" "nothing-on-amd64"
check "the placeholder is not in the plan" not_contains "$OUT" "builddeps:"
aptus_run build-dep -s widget/stable
check "build-dep NAME/release: apt's note on the version the release picked" \
    contains "$OUT" "Selected version '1.0' (stable) for widget"
aptus_run build-dep -s widget=9.9
check "an unknown version: apt's two errors (rc $RC)" test "$ERR" = "E: Can not find version '9.9' of package 'widget'
E: Unable to find a source package for widget=9.9"
# A .dsc with comment lines, even a paragraph of them first (apt reads it).
printf '# a comment\n# its own paragraph\n\n#first\nFormat: 3.0 (native)\nSource: commented\nVersion: 1\n#Version: 2\nBuild-Depends: doc-tool,\n# more later\n  libfoo-dev\n' >"$T/commented.dsc"
aptus_run build-dep -s "$T/commented.dsc"
check "a .dsc with comments is read (rc $RC): $ERR" test "$RC" = 0
check "its relations past a comment line" contains "$OUT" "Inst libfoo-dev (1.0"
aptus_run build-dep -s widget -a armel
check "a host architecture not configured: apt's warning" \
    contains "$ERR" "W: No architecture information available for armel. See apt.conf(5) APT::Architectures for setup"
# apt prints its warnings and errors together, in the order they came.
printf 'Format: 3.0 (native)\nSource: needy\nVersion: 1\nBuild-Depends: nothing-has-this\n' >"$T/needy.dsc"
aptus_run build-dep -s "$T/needy.dsc" -a armel
check "the warning comes before the error: $ERR" test "$(head -1 <<<"$ERR" | cut -c1-3)" = "W: "
aptus_run build-dep -s widget --arch-only
check "--arch-only: no Build-Depends-Indep" not_contains "$OUT" "Inst doc-tool"
check "--arch-only: Build-Depends-Arch" contains "$OUT" "Inst arch-tool"
aptus_run build-dep -s widget --indep-only
check "--indep-only: no Build-Depends-Arch" not_contains "$OUT" "Inst arch-tool"
aptus_run build-dep -s widget -o APT::Build-Essential=,
check "APT::Build-Essential=, : no build-essential" not_contains "$OUT" "Inst build-essential"
aptus_run build-dep -s no-such-source
check "an unknown source package fails (rc $RC)" test "$RC" = 100
check "with apt's error" contains "$ERR" "E: Unable to find a source package for no-such-source"

# The .dsc and the unpacked tree: apt's note first, the same relations.
W=$T/work && mkdir -p "$W" && cp "$REPO"/pool/stable/main/widget_1.0.* "$W"/ && cd "$W" || exit 1
dpkg-source --no-check -x widget_1.0.dsc >/dev/null 2>&1
aptus_run build-dep -s ./widget_1.0.dsc
check "the .dsc: apt's note on the first line" test "$(head -1 <<<"$OUT")" = \
    "Note, using file './widget_1.0.dsc' to get the build dependencies"
check "the .dsc: its relations" contains "$OUT" "Inst doc-tool (1.0"
aptus_run build-dep -s ./widget-1.0
check "the tree: apt's note" test "$(head -1 <<<"$OUT")" = \
    "Note, using directory './widget-1.0' to get the build dependencies"
check "the tree: its relations" contains "$OUT" "Inst arch-tool (1.0"
aptus_run build-dep -s widget_1.0.dsc
check "a .dsc without a '/' names a source package, as apt has it (rc $RC)" test "$RC" = 100
cd "$T" || exit 1

# For real, beside apt: the same packages, the same marks.
aptus_run build-dep -y widget
check "build-dep -y exits 0" test "$RC" = 0
check "libfoo-dev installed" test "$(installed libfoo-dev)" = 1.0
APTAPT apt-get build-dep -y widget >"$T/apt-out" 2>&1
check "apt installs the same set" test "$(installed_set "$SB")" = "$(installed_set "$T/twin")"
check "the marks are apt's: $(apt-mark showauto 2>/dev/null | tr '\n' ' ')" \
    test "$(apt-mark showauto 2>/dev/null)" = "$(APTAPT apt-mark showauto 2>/dev/null)"
aptus_run autoremove -s
check "the build dependencies are not autoremovable" not_contains "$OUT" "Remv libfoo-dev"
aptus_run remove -y libfoo-dev libfoo doc-tool arch-tool build-essential
aptus_run build-dep -y widget -o APT::Get::Build-Dep-Automatic=true
aptus_run autoremove -s
check "Build-Dep-Automatic: they are autoremovable" contains "$OUT" "Remv libfoo-dev"

# NAME/release: what the candidates cannot meet comes from the release, with
# apt's notes naming the source ('src:NAME'); -t alone gives no such notes.
make_suite experimental --packages "libfoo-dev=2.0" --sources gadget=1.0 \
    --source-field "gadget:Build-Depends=libfoo-dev (>= 2)" >/dev/null
{
    echo "Types: deb deb-src"; echo "URIs: $URL"; echo "Suites: stable experimental"; echo "Components: main"
    echo "Signed-By: $KEYRING"
} >"$SB/etc/apt/sources.list.d/test.sources"
printf 'Package: *\nPin: release a=experimental\nPin-Priority: 1\n' >"$SB/etc/apt/preferences.d/experimental"
"$APTUS" update -q >/dev/null 2>&1
aptus_run build-dep -s gadget
check "without the release the Build-Depends cannot be met (rc $RC)" test "$RC" = 100
aptus_run build-dep -s gadget/experimental
check "gadget/experimental exits 0 ($ERR)" test "$RC" = 0
check "apt's note on the walk: $OUT" contains "$OUT" "Selected version '2.0' (aptus-test:experimental [amd64]) for 'libfoo-dev' because of 'src:gadget'"
check "libfoo-dev 2.0 comes" contains "$OUT" "Inst libfoo-dev [1.0] (2.0"
finish
